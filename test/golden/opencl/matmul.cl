// gpuc: kernel 'matmul'
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

__kernel void gpuc_matmul(__global float* gpuc_base_v_c, uint gpuc_off_v_c, int gpuc_len_v_c, __global float* gpuc_base_v_a, uint gpuc_off_v_a, int gpuc_len_v_a, __global float* gpuc_base_v_b, uint gpuc_off_v_b, int gpuc_len_v_b, int v_n, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_c = gpuc_base_v_c + gpuc_off_v_c;
  __global float* v_a = gpuc_base_v_a + gpuc_off_v_a;
  __global float* v_b = gpuc_base_v_b + gpuc_off_v_b;
  int v_row = 0;
  int v_col = 0;
  float v_acc = 0.0f;
  int v_k = 0;
  int v_tmp = 0;
  int v_tmp_1 = 0;
  int v_tmp_2 = 0;
  int v_tmp_3 = 0;
  int v_tmp_4 = 0;
  int v_k_1 = 0;
  v_row = as_int(as_uint(as_int(as_uint(((int)get_group_id(1))) * as_uint(((int)get_local_size(1))))) + as_uint(((int)get_local_id(1))));
  v_col = as_int(as_uint(as_int(as_uint(((int)get_group_id(0))) * as_uint(((int)get_local_size(0))))) + as_uint(((int)get_local_id(0))));
  if (((v_row >= v_n) || (v_col >= v_n))) {
    return;
  }
  v_acc = 0.0f;
  v_k = 0;
  if ((!((((as_int(as_uint(v_row) * as_uint(v_n)) >= 0) && (as_int(as_uint(v_row) * as_uint(v_n)) < gpuc_len_v_a)) && (as_int(as_uint(v_n) - 1u) <= as_int(as_uint(as_int(as_uint(gpuc_len_v_a) - 1u)) - as_uint(as_int(as_uint(v_row) * as_uint(v_n)))))) && (((v_col >= 0) && (v_col < gpuc_len_v_b)) && (as_int(as_uint(v_n) - 1u) <= ((v_n == 0) ? 0 : ((v_n == (-1)) ? as_int(0u - as_uint(as_int(as_uint(as_int(as_uint(gpuc_len_v_b) - 1u)) - as_uint(v_col)))) : (as_int(as_uint(as_int(as_uint(gpuc_len_v_b) - 1u)) - as_uint(v_col)) / (((v_n == 0) || (v_n == (-1))) ? 1 : v_n))))))))) {
    v_k_1 = 0;
    for (;;) {
      if ((!(v_k_1 < v_n))) {
        break;
      }
      v_tmp_3 = as_int(as_uint(as_int(as_uint(v_row) * as_uint(v_n))) + as_uint(v_k_1));
      if ((as_uint(v_tmp_3) >= as_uint(gpuc_len_v_a))) {
        gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 8, v_tmp_3, gpuc_len_v_a);
        return;
      }
      v_tmp_4 = as_int(as_uint(as_int(as_uint(v_k_1) * as_uint(v_n))) + as_uint(v_col));
      if ((as_uint(v_tmp_4) >= as_uint(gpuc_len_v_b))) {
        gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 9, v_tmp_4, gpuc_len_v_b);
        return;
      }
      v_k_1 = as_int(as_uint(v_k_1) + 1u);
    }
  }
  for (;;) {
    if ((!(v_k < v_n))) {
      break;
    }
    v_tmp = as_int(as_uint(as_int(as_uint(v_row) * as_uint(v_n))) + as_uint(v_k));
    v_tmp_1 = as_int(as_uint(as_int(as_uint(v_k) * as_uint(v_n))) + as_uint(v_col));
    v_acc = (v_acc + (v_a[v_tmp] * v_b[v_tmp_1]));
    v_k = as_int(as_uint(v_k) + 1u);
  }
  v_tmp_2 = as_int(as_uint(as_int(as_uint(v_row) * as_uint(v_n))) + as_uint(v_col));
  if ((as_uint(v_tmp_2) >= as_uint(gpuc_len_v_c))) {
    gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 12, v_tmp_2, gpuc_len_v_c);
    return;
  }
  v_c[v_tmp_2] = v_acc;
}
