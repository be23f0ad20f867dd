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
  {
    __global uchar* gpuc_e1 = &v_hist[v_tmp];
    volatile __global uint* gpuc_w1 = (volatile __global uint*)((ulong)gpuc_e1 & ~(ulong)3);
    uint gpuc_sh1 = ((uint)(ulong)gpuc_e1 & 3u) * 8u;
    int gpuc_x0_1 = 1;
    uint gpuc_o1 = *gpuc_w1;
    int gpuc_c1;
    for (;;) {
      gpuc_c1 = as_int((gpuc_o1 >> gpuc_sh1) & 0xffu);
      uint gpuc_s1 = atomic_cmpxchg(gpuc_w1, gpuc_o1, (gpuc_o1 & ~(0xffu << gpuc_sh1)) | (((as_uint(gpuc_c1) + as_uint(gpuc_x0_1)) & 0xffu) << gpuc_sh1));
      if (gpuc_s1 == gpuc_o1) break;
      gpuc_o1 = gpuc_s1;
    }
    v_tmp_1 = gpuc_c1;
  }
  v_tmp_2 = (v_i & 3);
  if ((as_uint(v_tmp_2) >= as_uint(gpuc_len_v_bits))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 6, v_tmp_2, gpuc_len_v_bits);
    return;
  }
  {
    __global short* gpuc_e2 = &v_bits[v_tmp_2];
    volatile __global uint* gpuc_w2 = (volatile __global uint*)((ulong)gpuc_e2 & ~(ulong)3);
    uint gpuc_sh2 = ((uint)(ulong)gpuc_e2 & 3u) * 8u;
    int gpuc_x0_2 = as_int(1u << (v_i & 7));
    uint gpuc_o2 = *gpuc_w2;
    int gpuc_c2;
    for (;;) {
      gpuc_c2 = (as_int(gpuc_o2 << (16u - gpuc_sh2)) >> 16);
      uint gpuc_s2 = atomic_cmpxchg(gpuc_w2, gpuc_o2, (gpuc_o2 & ~(0xffffu << gpuc_sh2)) | (((as_uint(gpuc_c2 | gpuc_x0_2)) & 0xffffu) << gpuc_sh2));
      if (gpuc_s2 == gpuc_o2) break;
      gpuc_o2 = gpuc_s2;
    }
    v_tmp_3 = gpuc_c2;
  }
  {
    __global short* gpuc_e3 = &v_bits[0];
    volatile __global uint* gpuc_w3 = (volatile __global uint*)((ulong)gpuc_e3 & ~(ulong)3);
    uint gpuc_sh3 = ((uint)(ulong)gpuc_e3 & 3u) * 8u;
    v_tmp_4 = (as_int(*gpuc_w3 << (16u - gpuc_sh3)) >> 16);
  }
  v_tmp_5 = as_int(16u + as_uint((v_v & 3)));
  if ((as_uint(v_tmp_5) >= as_uint(gpuc_len_v_hist))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 8, v_tmp_5, gpuc_len_v_hist);
    return;
  }
  {
    __global uchar* gpuc_e4 = &v_hist[v_tmp_5];
    volatile __global uint* gpuc_w4 = (volatile __global uint*)((ulong)gpuc_e4 & ~(ulong)3);
    uint gpuc_sh4 = ((uint)(ulong)gpuc_e4 & 3u) * 8u;
    int gpuc_x0_4 = (v_tmp_4 & 1);
    uint gpuc_o4 = *gpuc_w4;
    int gpuc_c4;
    for (;;) {
      gpuc_c4 = as_int((gpuc_o4 >> gpuc_sh4) & 0xffu);
      uint gpuc_s4 = atomic_cmpxchg(gpuc_w4, gpuc_o4, (gpuc_o4 & ~(0xffu << gpuc_sh4)) | (((as_uint(gpuc_c4) - as_uint(gpuc_x0_4)) & 0xffu) << gpuc_sh4));
      if (gpuc_s4 == gpuc_o4) break;
      gpuc_o4 = gpuc_s4;
    }
    v_tmp_6 = gpuc_c4;
  }
}
