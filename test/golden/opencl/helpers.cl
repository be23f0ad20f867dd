// gpuc: kernel 'helpers'
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

__kernel void gpuc_helpers(__global float* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, __global float* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_out = gpuc_base_v_out + gpuc_off_v_out;
  __global float* v_x = gpuc_base_v_x + gpuc_off_v_x;
  int v_i = 0;
  float v_tmp = 0.0f;
  int v_tmp_1 = 0;
  int v_tmp_2 = 0;
  float v_lerp_a = 0.0f;
  int v_lerp_b = 0;
  float v_lerp_t = 0.0f;
  float v_sign3_v = 0.0f;
  int v_sign3_v_1 = 0;
  v_i = ((int)get_local_id(0));
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_x))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 1, v_i, gpuc_len_v_x);
    return;
  }
  v_lerp_a = v_x[v_i];
  v_lerp_b = 1;
  v_lerp_t = 0.25f;
  v_tmp = (v_lerp_a + ((((float)v_lerp_b) - v_lerp_a) * v_lerp_t));
  v_sign3_v = v_x[v_i];
  for (;;) {
    if ((v_sign3_v > 0.0f)) {
      v_tmp_1 = 1;
      break;
    }
    if ((v_sign3_v < 0.0f)) {
      v_tmp_1 = (-1);
      break;
    }
    v_tmp_1 = 0;
    break;
  }
  v_sign3_v_1 = as_int(as_uint(v_i) - 2u);
  for (;;) {
    if ((v_sign3_v_1 > 0)) {
      v_tmp_2 = 1;
      break;
    }
    if ((v_sign3_v_1 < 0)) {
      v_tmp_2 = (-1);
      break;
    }
    v_tmp_2 = 0;
    break;
  }
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_out))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 16, v_i, gpuc_len_v_out);
    return;
  }
  v_out[v_i] = ((v_tmp * ((float)v_tmp_1)) + ((float)v_tmp_2));
}
