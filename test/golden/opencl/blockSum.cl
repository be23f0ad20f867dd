// gpuc: kernel 'blockSum'
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

__kernel void gpuc_blockSum(__global float* gpuc_base_v_out, uint gpuc_off_v_out, int gpuc_len_v_out, __global float* gpuc_base_v_x, uint gpuc_off_v_x, int gpuc_len_v_x, int v_n, __global int* gpuc_state, int gpuc_len_gpuc_state) {
  __global float* v_out = gpuc_base_v_out + gpuc_off_v_out;
  __global float* v_x = gpuc_base_v_x + gpuc_off_v_x;
  __local float s_s_0[64] __attribute__((aligned(4)));
  int v_t = 0;
  int v_i = 0;
  float v_tmp = 0.0f;
  int v_stride = 0;
  int v_tmp_1 = 0;
  bool v_done = false;
  volatile int gpuc_anchor;
  v_t = ((int)get_local_id(0));
  v_i = as_int(as_uint(as_int(as_uint(((int)get_group_id(0))) * as_uint(((int)get_local_size(0))))) + as_uint(v_t));
  if ((v_i >= as_int(as_uint(v_n) + 64u))) {
    v_done = true;
  }
  if ((!v_done)) {
    if ((v_i < v_n)) {
      if ((as_uint(v_i) >= as_uint(gpuc_len_v_x))) {
        gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 3, 5, v_i, gpuc_len_v_x);
        v_done = true;
      }
      if ((!v_done)) {
        v_tmp = v_x[v_i];
      }
    } else {
      v_tmp = 0.0f;
    }
  }
  if ((!v_done)) {
    if ((as_uint(v_t) >= 64u)) {
      gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 1, 7, v_t, 64);
      v_done = true;
    }
  }
  if ((!v_done)) {
    s_s_0[v_t] = v_tmp;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gpuc_anchor = 0;
  v_stride = 32;
  for (;;) {
    if ((!(v_stride > 0))) {
      break;
    }
    if ((!v_done)) {
      if ((v_t < v_stride)) {
        v_tmp_1 = as_int(as_uint(v_t) + as_uint(v_stride));
        s_s_0[v_t] = (s_s_0[v_t] + s_s_0[v_tmp_1]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    v_stride = (v_stride >> 1);
  }
  if ((!v_done)) {
    if ((v_t == 0)) {
      if ((as_uint(((int)get_group_id(0))) >= as_uint(gpuc_len_v_out))) {
        gpuc_report_exception(gpuc_state, gpuc_len_gpuc_state, 2, 18, ((int)get_group_id(0)), gpuc_len_v_out);
        v_done = true;
      }
      if ((!v_done)) {
        v_out[((int)get_group_id(0))] = s_s_0[0];
      }
    }
  }
}
