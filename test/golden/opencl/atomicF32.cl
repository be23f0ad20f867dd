// gpuc: kernel 'atomicF32'
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

__kernel void gpuc_atomicF32(__global float* gpuc_base_v_sums, uint gpuc_off_v_sums, int gpuc_len_v_sums, __global float* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_sums = gpuc_base_v_sums + gpuc_off_v_sums;
  __global float* v_x = gpuc_base_v_x + gpuc_off_v_x;
  int v_i = 0;
  int v_tmp = 0;
  float v_tmp_1 = 0.0f;
  int v_cas_i = 0;
  float v_cas_x0 = 0.0f;
  int v_cas_old = 0;
  int v_cas_prev = 0;
  float v_cas_cur = 0.0f;
  v_i = as_int(as_uint(as_int(as_uint(((int)get_group_id(0))) * as_uint(((int)get_local_size(0))))) + as_uint(((int)get_local_id(0))));
  if ((v_i < gpuc_len_v_x)) {
    if ((as_uint(v_i) >= as_uint(gpuc_len_v_x))) {
      gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 2, v_i, gpuc_len_v_x);
      return;
    }
    v_tmp = (v_i & 1);
    if ((as_uint(v_tmp) >= as_uint(gpuc_len_v_sums))) {
      gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 3, v_tmp, gpuc_len_v_sums);
      return;
    }
    v_cas_i = v_tmp;
    v_cas_x0 = v_x[v_i];
    v_cas_old = as_int(*(volatile __global uint*)&v_sums[v_cas_i]);
    for (;;) {
      v_cas_prev = v_cas_old;
      v_cas_cur = as_float(v_cas_prev);
      v_cas_old = as_int(atomic_cmpxchg((volatile __global uint*)&v_sums[v_cas_i], as_uint(v_cas_prev), as_uint(as_int((v_cas_cur + v_cas_x0)))));
      if ((v_cas_old == v_cas_prev)) break;
    }
    v_tmp_1 = v_cas_cur;
  }
}
