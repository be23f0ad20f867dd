// gpuc: kernel 'loops'
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

__kernel void gpuc_loops(__global float* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, int v_n, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_out = gpuc_base_v_out + gpuc_off_v_out;
  int v_i = 0;
  float v_acc = 0.0f;
  int v_j = 0;
  int v_k = 0;
  int v_d = 0;
  v_i = ((int)get_local_id(0));
  v_acc = 0.0f;
  v_j = 0;
  for (;;) {
    if ((!(v_j < v_n))) {
      break;
    }
    if (((v_j % 3) == 0)) {
      goto gpuc_next_1;
    }
    if ((v_j > 20)) {
      break;
    }
    v_acc = (v_acc + (((float)v_j) * 0.5f));
    gpuc_next_1: ;
    v_j = as_int(as_uint(v_j) + 1u);
  }
  v_k = 0;
  for (;;) {
    if ((!(as_int(as_uint(v_k) * as_uint(v_k)) < v_i))) {
      break;
    }
    v_k = as_int(as_uint(v_k) + 1u);
  }
  v_d = 0;
  for (;;) {
    v_d = as_int(as_uint(v_d) + 2u);
    if ((!(v_d < v_k))) break;
  }
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_out))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 18, v_i, gpuc_len_v_out);
    return;
  }
  v_out[v_i] = ((v_acc + ((float)v_k)) + ((float)v_d));
}
