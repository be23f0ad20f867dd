// gpuc: kernel 'saxpy'
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

__kernel void gpuc_saxpy(float v_a, __global float* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, __global float* gpuc_base_v_y, uint gpuc_off_v_y, int gpuc_len_v_y, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_x = gpuc_base_v_x + gpuc_off_v_x;
  __global float* v_y = gpuc_base_v_y + gpuc_off_v_y;
  int v_i = 0;
  v_i = as_int(as_uint(as_int(as_uint(((int)get_group_id(0))) * as_uint(((int)get_local_size(0))))) + as_uint(((int)get_local_id(0))));
  if ((v_i < gpuc_len_v_y)) {
    if ((as_uint(v_i) >= as_uint(gpuc_len_v_x))) {
      gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 2, v_i, gpuc_len_v_x);
      return;
    }
    if ((as_uint(v_i) >= as_uint(gpuc_len_v_y))) {
      gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 3, v_i, gpuc_len_v_y);
      return;
    }
    v_y[v_i] = ((v_a * v_x[v_i]) + v_y[v_i]);
  }
}
