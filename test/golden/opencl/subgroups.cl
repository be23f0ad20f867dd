// gpuc: kernel 'subgroups'
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

__kernel void gpuc_subgroups(__global int* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, __global int* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global int* v_out = gpuc_base_v_out + gpuc_off_v_out;
  __global int* v_x = gpuc_base_v_x + gpuc_off_v_x;
  int v_i = 0;
  int v_v = 0;
  int v_tmp = 0;
  int v_sum = 0;
  int v_tmp_1 = 0;
  int v_other = 0;
  uint v_tmp_2 = 0;
  uint v_ballot = 0;
  v_i = as_int(as_uint(as_int(as_uint(((int)get_group_id(0))) * as_uint(((int)get_local_size(0))))) + as_uint(((int)get_local_id(0))));
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_x))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 1, v_i, gpuc_len_v_x);
    return;
  }
  v_v = v_x[v_i];
  v_tmp = v_v;
  v_sum = v_tmp;
  v_tmp_1 = v_v;
  v_other = v_tmp_1;
  v_tmp_2 = ((v_v > 0) ? 1u : 0u);
  v_ballot = v_tmp_2;
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_out))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 9, v_i, gpuc_len_v_out);
    return;
  }
  v_out[v_i] = as_int(as_uint(as_int(as_uint(as_int(as_uint(v_sum) + as_uint(v_other))) + as_uint((as_int(v_ballot) & 255)))) + 0u);
}
