// gpuc: kernel 'integers'
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

__kernel void gpuc_integers(__global int* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, __global int* gpuc_base_v_a, uint gpuc_off_v_a, int gpuc_len_v_a, __global int* gpuc_base_v_b, uint gpuc_off_v_b, int gpuc_len_v_b, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global int* v_out = gpuc_base_v_out + gpuc_off_v_out;
  __global int* v_a = gpuc_base_v_a + gpuc_off_v_a;
  __global int* v_b = gpuc_base_v_b + gpuc_off_v_b;
  int v_i = 0;
  int v_q = 0;
  int v_r = 0;
  uint v_u = 0;
  int v_m = 0;
  int v_tmp = 0;
  int v_div_dividend = 0;
  int v_div_divisor = 0;
  int v_rem_dividend = 0;
  int v_rem_divisor = 0;
  v_i = ((int)get_local_id(0));
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_a))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 1, v_i, gpuc_len_v_a);
    return;
  }
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_b))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 2, v_i, gpuc_len_v_b);
    return;
  }
  v_div_dividend = v_a[v_i];
  v_div_divisor = v_b[v_i];
  v_q = ((v_div_divisor == 0) ? 0 : ((v_div_divisor == (-1)) ? as_int(0u - as_uint(v_div_dividend)) : (v_div_dividend / (((v_div_divisor == 0) || (v_div_divisor == (-1))) ? 1 : v_div_divisor))));
  v_rem_dividend = v_a[v_i];
  v_rem_divisor = v_b[v_i];
  v_r = ((v_rem_divisor == 0) ? 0 : ((v_rem_divisor == (-1)) ? 0 : (v_rem_dividend % (((v_rem_divisor == 0) || (v_rem_divisor == (-1))) ? 1 : v_rem_divisor))));
  v_u = (as_uint(v_a[v_i]) >> as_uint((v_b[v_i] & 7)));
  v_m = as_int(as_uint(v_a[v_i]) * as_uint((-1640531535)));
  v_tmp = v_a[v_i];
  if ((as_uint(v_i) >= as_uint(gpuc_len_v_out))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 10, v_i, gpuc_len_v_out);
    return;
  }
  v_out[v_i] = as_int(as_uint(as_int(as_uint(as_int(as_uint(as_int(as_uint(v_q) + as_uint(v_r))) + as_uint(((v_u > 4294967000u) ? 1 : 0)))) + as_uint((v_m ^ (v_m >> 15))))) + as_uint((((v_tmp < 0) ? true : (as_uint(v_tmp) < v_u)) ? 2 : 0)));
}
