// gpuc: kernel 'fences'
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

__kernel void gpuc_fences(__global float* gpuc_base_v_partial, uint gpuc_off_v_partial, int gpuc_len_v_partial, __global uint* gpuc_base_v_count, uint gpuc_off_v_count, int gpuc_len_v_count, __global float* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_partial = gpuc_base_v_partial + gpuc_off_v_partial;
  __global uint* v_count = gpuc_base_v_count + gpuc_off_v_count;
  __global float* v_x = gpuc_base_v_x + gpuc_off_v_x;
  int v_i = 0;
  uint v_tmp = 0;
  uint v_ticket = 0;
  uint v_tmp_1 = 0;
  uint v_cas_x0 = 0;
  int v_cas_old = 0;
  int v_cas_prev = 0;
  uint v_cas_cur = 0;
  uint v_cas_x0_1 = 0;
  int v_cas_old_1 = 0;
  int v_cas_prev_1 = 0;
  uint v_cas_cur_1 = 0;
  v_i = as_int(as_uint(as_int(as_uint(((int)get_group_id(0))) * as_uint(((int)get_local_size(0))))) + as_uint(((int)get_local_id(0))));
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_x))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 1, v_i, gpuc_len_v_x);
    return;
  }
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_partial))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 2, v_i, gpuc_len_v_partial);
    return;
  }
  v_partial[v_i] = (v_x[v_i] * 2.0f);
  mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if ((((int)get_local_id(0)) == 0)) {
    if ((0u >= as_uint(gpuc_len_v_count))) {
      gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 6, 0, gpuc_len_v_count);
      return;
    }
    v_cas_x0 = as_uint(((int)get_num_groups(0)));
    v_cas_old = as_int(*(volatile __global uint*)&v_count[0]);
    for (;;) {
      v_cas_prev = v_cas_old;
      v_cas_cur = as_uint(v_cas_prev);
      v_cas_old = as_int(atomic_cmpxchg((volatile __global uint*)&v_count[0], as_uint(v_cas_prev), as_uint(as_int(((v_cas_cur >= v_cas_x0) ? 0u : (v_cas_cur + 1u))))));
      if ((v_cas_old == v_cas_prev)) break;
    }
    v_tmp = v_cas_cur;
    v_ticket = v_tmp;
    if ((1u >= as_uint(gpuc_len_v_count))) {
      gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 8, 1, gpuc_len_v_count);
      return;
    }
    v_cas_x0_1 = v_ticket;
    v_cas_old_1 = as_int(*(volatile __global uint*)&v_count[1]);
    for (;;) {
      v_cas_prev_1 = v_cas_old_1;
      v_cas_cur_1 = as_uint(v_cas_prev_1);
      v_cas_old_1 = as_int(atomic_cmpxchg((volatile __global uint*)&v_count[1], as_uint(v_cas_prev_1), as_uint(as_int((((v_cas_cur_1 == 0u) || (v_cas_cur_1 > v_cas_x0_1)) ? v_cas_x0_1 : (v_cas_cur_1 - 1u))))));
      if ((v_cas_old_1 == v_cas_prev_1)) break;
    }
    v_tmp_1 = v_cas_cur_1;
  }
}
