// gpuc: kernel 'atomicsNarrow'
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable
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

__kernel void gpuc_atomicsNarrow(__global uchar* gpuc_base_v_hist, uint gpuc_off_v_hist, int gpuc_len_v_hist, __global short* gpuc_base_v_bits, uint gpuc_off_v_bits, int gpuc_len_v_bits, __global int* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global uchar* v_hist = gpuc_base_v_hist + gpuc_off_v_hist;
  __global short* v_bits = gpuc_base_v_bits + gpuc_off_v_bits;
  __global int* v_x = gpuc_base_v_x + gpuc_off_v_x;
  int v_i = 0;
  int v_v = 0;
  int v_tmp = 0;
  int v_tmp_1 = 0;
  int v_tmp_2 = 0;
  int v_tmp_3 = 0;
  int v_tmp_4 = 0;
  int v_tmp_5 = 0;
  int v_tmp_6 = 0;
  int v_cas_i = 0;
  int v_cas_old = 0;
  int v_cas_prev = 0;
  int v_cas_shift = 0;
  int v_cas_cur = 0;
  int v_cas_i_1 = 0;
  int v_cas_x0 = 0;
  int v_cas_old_1 = 0;
  int v_cas_prev_1 = 0;
  int v_cas_shift_1 = 0;
  int v_cas_cur_1 = 0;
  int v_cas_i_2 = 0;
  int v_cas_x0_1 = 0;
  int v_cas_old_2 = 0;
  int v_cas_prev_2 = 0;
  int v_cas_shift_2 = 0;
  int v_cas_cur_2 = 0;
  v_i = as_int(as_uint(as_int(as_uint(((int)get_group_id(0))) * as_uint(((int)get_local_size(0))))) + as_uint(((int)get_local_id(0))));
  if ((v_i >= gpuc_len_v_x)) {
    return;
  }
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_x))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 3, v_i, gpuc_len_v_x);
    return;
  }
  v_v = v_x[v_i];
  v_tmp = (v_v & 15);
  if ((as_uint(v_tmp) >= as_uint(gpuc_len_v_hist))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 5, v_tmp, gpuc_len_v_hist);
    return;
  }
  v_cas_i = v_tmp;
  v_cas_old = as_int(*(volatile __global uint*)((ulong)&v_hist[v_cas_i] & ~(ulong)3));
  v_cas_shift = ((int)(((uint)(ulong)&v_hist[v_cas_i] & 3u) * 8u));
  for (;;) {
    v_cas_prev = v_cas_old;
    v_cas_cur = ((v_cas_prev >> v_cas_shift) & 255);
    v_cas_old = as_int(atomic_cmpxchg((volatile __global uint*)((ulong)&v_hist[v_cas_i] & ~(ulong)3), as_uint(v_cas_prev), as_uint(((v_cas_prev & (~as_int(255u << v_cas_shift))) | as_int(as_uint((as_int(as_uint(v_cas_cur) + 1u) & 255)) << v_cas_shift)))));
    if ((v_cas_old == v_cas_prev)) break;
  }
  v_tmp_1 = v_cas_cur;
  v_tmp_2 = (v_i & 3);
  if ((as_uint(v_tmp_2) >= as_uint(gpuc_len_v_bits))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 6, v_tmp_2, gpuc_len_v_bits);
    return;
  }
  v_cas_i_1 = v_tmp_2;
  v_cas_x0 = as_int(1u << (v_i & 7));
  v_cas_old_1 = as_int(*(volatile __global uint*)((ulong)&v_bits[v_cas_i_1] & ~(ulong)3));
  v_cas_shift_1 = ((int)(((uint)(ulong)&v_bits[v_cas_i_1] & 3u) * 8u));
  for (;;) {
    v_cas_prev_1 = v_cas_old_1;
    v_cas_cur_1 = (as_int(as_uint(v_cas_prev_1) << as_int(16u - as_uint(v_cas_shift_1))) >> 16);
    v_cas_old_1 = as_int(atomic_cmpxchg((volatile __global uint*)((ulong)&v_bits[v_cas_i_1] & ~(ulong)3), as_uint(v_cas_prev_1), as_uint(((v_cas_prev_1 & (~as_int(65535u << v_cas_shift_1))) | as_int(as_uint(((v_cas_cur_1 | v_cas_x0) & 65535)) << v_cas_shift_1)))));
    if ((v_cas_old_1 == v_cas_prev_1)) break;
  }
  v_tmp_3 = v_cas_cur_1;
  v_tmp_4 = (int)*(volatile __global short*)&v_bits[0];
  v_tmp_5 = as_int(16u + as_uint((v_v & 3)));
  if ((as_uint(v_tmp_5) >= as_uint(gpuc_len_v_hist))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 8, v_tmp_5, gpuc_len_v_hist);
    return;
  }
  v_cas_i_2 = v_tmp_5;
  v_cas_x0_1 = (v_tmp_4 & 1);
  v_cas_old_2 = as_int(*(volatile __global uint*)((ulong)&v_hist[v_cas_i_2] & ~(ulong)3));
  v_cas_shift_2 = ((int)(((uint)(ulong)&v_hist[v_cas_i_2] & 3u) * 8u));
  for (;;) {
    v_cas_prev_2 = v_cas_old_2;
    v_cas_cur_2 = ((v_cas_prev_2 >> v_cas_shift_2) & 255);
    v_cas_old_2 = as_int(atomic_cmpxchg((volatile __global uint*)((ulong)&v_hist[v_cas_i_2] & ~(ulong)3), as_uint(v_cas_prev_2), as_uint(((v_cas_prev_2 & (~as_int(255u << v_cas_shift_2))) | as_int(as_uint((as_int(as_uint(v_cas_cur_2) - as_uint(v_cas_x0_1)) & 255)) << v_cas_shift_2)))));
    if ((v_cas_old_2 == v_cas_prev_2)) break;
  }
  v_tmp_6 = v_cas_cur_2;
}
