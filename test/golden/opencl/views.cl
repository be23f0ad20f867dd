// gpuc: kernel 'views'
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

__kernel void gpuc_views(__global float* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, __global float* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_out = gpuc_base_v_out + gpuc_off_v_out;
  __global float* v_x = gpuc_base_v_x + gpuc_off_v_x;
  int v_i = 0;
  int v_tmp = 0;
  int v_tmp_1 = 0;
  int v_tmp_2 = 0;
  int v_tmp_3 = 0;
  int v_tmp_4 = 0;
  float v_tmp_5 = 0.0f;
  int v_tmp_6 = 0;
  int v_tmp_7 = 0;
  int v_tmp_8 = 0;
  int v_tmp_9 = 0;
  int v_sumView_v_offset = 0;
  int v_sumView_v_length = 0;
  float v_sumView_s = 0.0f;
  int v_sumView_i = 0;
  v_i = ((int)get_local_id(0));
  v_tmp = gpuc_len_v_x;
  v_tmp_1 = ((v_i < 0) ? max(as_int(as_uint(v_tmp) + as_uint(v_i)), 0) : min(v_i, v_tmp));
  v_tmp_2 = as_int(as_uint(v_i) + 4u);
  v_tmp_3 = max(as_int(as_uint(((v_tmp_2 < 0) ? max(as_int(as_uint(v_tmp) + as_uint(v_tmp_2)), 0) : min(v_tmp_2, v_tmp))) - as_uint(v_tmp_1)), 0);
  v_tmp_4 = v_tmp_1;
  v_sumView_v_offset = v_tmp_4;
  v_sumView_v_length = v_tmp_3;
  v_sumView_s = 0.0f;
  v_sumView_i = 0;
  for (;;) {
    if ((!(v_sumView_i < v_sumView_v_length))) {
      break;
    }
    v_sumView_s = (v_sumView_s + v_x[as_int(as_uint(v_sumView_v_offset) + as_uint(v_sumView_i))]);
    v_sumView_i = as_int(as_uint(v_sumView_i) + 1u);
  }
  v_tmp_5 = v_sumView_s;
  v_tmp_6 = gpuc_len_v_x;
  v_tmp_7 = max(as_int(as_uint(v_tmp_6) + as_uint((-2))), 0);
  v_tmp_8 = max(as_int(as_uint(v_tmp_6) - as_uint(v_tmp_7)), 0);
  v_tmp_9 = v_tmp_7;
  if ((0u >= as_uint(v_tmp_8))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 10, 0, v_tmp_8);
    return;
  }
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_out))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 11, v_i, gpuc_len_v_out);
    return;
  }
  v_out[v_i] = ((v_tmp_5 + ((float)v_tmp_3)) + v_x[v_tmp_9]);
}
