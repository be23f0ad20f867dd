// gpuc: kernel 'raises'
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
int gpuc_print_reserve(__global int* v_state_0, int gpuc_len_v_state_0, int v_format_1, int v_words_2) {
  int v_size_3 = 0;
  int v_tmp_4 = 0;
  int v_at_5 = 0;
  int v_tmp_6 = 0;
  v_size_3 = as_int(as_uint(v_words_2) + 7u);
  v_tmp_4 = atomic_add(&v_state_0[27], v_size_3);
  v_at_5 = as_int(32u + as_uint(v_tmp_4));
  if ((as_int(as_uint(v_at_5) + as_uint(v_size_3)) > gpuc_len_v_state_0)) {
    v_tmp_6 = atomic_add(&v_state_0[28], 1);
    return (-1);
  }
  v_state_0[v_at_5] = v_format_1;
  v_state_0[as_int(as_uint(v_at_5) + 1u)] = ((int)get_local_id(0));
  v_state_0[as_int(as_uint(v_at_5) + 2u)] = ((int)get_local_id(1));
  v_state_0[as_int(as_uint(v_at_5) + 3u)] = ((int)get_local_id(2));
  v_state_0[as_int(as_uint(v_at_5) + 4u)] = ((int)get_group_id(0));
  v_state_0[as_int(as_uint(v_at_5) + 5u)] = ((int)get_group_id(1));
  v_state_0[as_int(as_uint(v_at_5) + 6u)] = ((int)get_group_id(2));
  return as_int(as_uint(v_at_5) + 7u);
}

__kernel void gpuc_raises(__global float* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, __global float* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_out = gpuc_base_v_out + gpuc_off_v_out;
  __global float* v_x = gpuc_base_v_x + gpuc_off_v_x;
  int v_i = 0;
  int v_tmp = 0;
  v_i = ((int)get_local_id(0));
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_x))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 1, v_i, gpuc_len_v_x);
    return;
  }
  if ((v_x[v_i] < 0.0f)) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 3, 0, 0);
    return;
  }
  if ((v_x[v_i] > 100.0f)) {
    v_tmp = gpuc_print_reserve(gpuc_state, gpuc_len_gpuc_state, 0, 2);
    if ((v_tmp >= 0)) {
      gpuc_state[v_tmp] = as_int(v_x[v_i]);
      gpuc_state[as_int(as_uint(v_tmp) + 1u)] = v_i;
    }
  }
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_out))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 6, v_i, gpuc_len_v_out);
    return;
  }
  v_out[v_i] = sqrt(v_x[v_i]);
}
