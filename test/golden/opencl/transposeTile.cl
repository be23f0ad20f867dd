// gpuc: kernel 'transposeTile'
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

__kernel void gpuc_transposeTile(__global float* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, __global float* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, int v_n, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_out = gpuc_base_v_out + gpuc_off_v_out;
  __global float* v_x = gpuc_base_v_x + gpuc_off_v_x;
  __local float s_tile_0[272] __attribute__((aligned(4)));
  int v_bx = 0;
  int v_by = 0;
  int v_tx = 0;
  int v_ty = 0;
  int v_tmp = 0;
  int v_tmp_1 = 0;
  int v_tmp_2 = 0;
  int v_tmp_3 = 0;
  bool v_done = false;
  v_bx = as_int(as_uint(((int)get_group_id(0))) * 16u);
  v_by = as_int(as_uint(((int)get_group_id(1))) * 16u);
  v_tx = ((int)get_local_id(0));
  v_ty = ((int)get_local_id(1));
  if (((as_int(as_uint(v_bx) + as_uint(v_tx)) < v_n) && (as_int(as_uint(v_by) + as_uint(v_ty)) < v_n))) {
    v_tmp = v_ty;
    v_tmp_1 = as_int(as_uint(as_int(as_uint(as_int(as_uint(as_int(as_uint(v_by) + as_uint(v_ty))) * as_uint(v_n))) + as_uint(v_bx))) + as_uint(v_tx));
    if ((as_uint(v_tmp_1) >= as_uint(gpuc_len_v_x))) {
      gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 6, v_tmp_1, gpuc_len_v_x);
      v_done = true;
    }
    if ((!v_done)) {
      if ((as_uint(v_tmp) >= 16u)) {
        gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 7, v_tmp, v_tx);
        v_done = true;
      }
    }
    if ((!v_done)) {
      if ((as_uint(v_tx) >= 17u)) {
        gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 7, v_tmp, v_tx);
        v_done = true;
      }
    }
    if ((!v_done)) {
      s_tile_0[as_int(as_uint(as_int(as_uint(v_tmp) * 17u)) + as_uint(v_tx))] = v_x[v_tmp_1];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if ((!v_done)) {
    if (((as_int(as_uint(v_by) + as_uint(v_tx)) < v_n) && (as_int(as_uint(v_bx) + as_uint(v_ty)) < v_n))) {
      v_tmp_2 = v_tx;
      if ((as_uint(v_tmp_2) >= 16u)) {
        gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 11, v_tmp_2, v_ty);
        v_done = true;
      }
      if ((!v_done)) {
        if ((as_uint(v_ty) >= 17u)) {
          gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 11, v_tmp_2, v_ty);
          v_done = true;
        }
      }
      v_tmp_3 = as_int(as_uint(as_int(as_uint(as_int(as_uint(as_int(as_uint(v_bx) + as_uint(v_ty))) * as_uint(v_n))) + as_uint(v_by))) + as_uint(v_tx));
      if ((!v_done)) {
        if ((as_uint(v_tmp_3) >= as_uint(gpuc_len_v_out))) {
          gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 12, v_tmp_3, gpuc_len_v_out);
          v_done = true;
        }
      }
      if ((!v_done)) {
        v_out[v_tmp_3] = s_tile_0[as_int(as_uint(as_int(as_uint(v_tmp_2) * 17u)) + as_uint(v_ty))];
      }
    }
  }
}
