// gpuc: kernel 'folding'
#pragma OPENCL FP_CONTRACT OFF
void gpuc_report_exception(__global int* v_state_0, int gpuc_len_v_state_0, int v_code_1, int v_loc_2, int v_a_3, int v_b_4) {
  int v_tmp_5 = 0;
  v_tmp_5 = atomic_add(&v_state_0[5], 1);
  if ((v_tmp_5 == 0)) {
    v_state_0[0] = v_code_1;
    v_state_0[1] = v_loc_2;
    v_state_0[2] = v_a_3;
    v_state_0[3] = v_b_4;
    v_state_0[4] = ((((int)get_local_id(0)) | as_int(as_uint(((int)get_local_id(1))) << 10)) | as_int(as_uint(((int)get_local_id(2))) << 20));
    v_state_0[7] = ((int)get_group_id(0));
    v_state_0[8] = ((int)get_group_id(1));
    v_state_0[9] = ((int)get_group_id(2));
  }
}

__kernel void gpuc_folding(__global float* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_out = gpuc_base_v_out + gpuc_off_v_out;
  if ((as_uint(((int)get_local_id(0))) >= as_uint(gpuc_len_v_out))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 0, ((int)get_local_id(0)), gpuc_len_v_out);
    return;
  }
  v_out[((int)get_local_id(0))] = (sin((0.7853981852531433f * ((float)((int)get_local_id(0))))) + 17.0f);
}
