// gpuc: kernel 'matmul'
struct Params {
  v_n: i32,
  v_c_len: i32,
  v_a_len: i32,
  v_b_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_c: array<f32>;
@group(0) @binding(3) var<storage, read> v_a: array<f32>;
@group(0) @binding(4) var<storage, read> v_b: array<f32>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  var v_n: i32 = params.v_n;
  var v_row: i32;
  var v_col: i32;
  var v_acc: f32;
  var v_k: i32;
  var v_tmp: i32;
  var v_tmp_: i32;
  var v_tmp__: i32;
  var v_gpuc_report_exception_code: i32;
  var v_gpuc_report_exception_loc: i32;
  var v_gpuc_report_exception_a: i32;
  var v_gpuc_report_exception_b: i32;
  var v_gpuc_report_exception_tmp: i32;
  var v_gpuc_report_exception_code_: i32;
  var v_gpuc_report_exception_loc_: i32;
  var v_gpuc_report_exception_a_: i32;
  var v_gpuc_report_exception_b_: i32;
  var v_gpuc_report_exception_tmp_: i32;
  var v_gpuc_report_exception_code__: i32;
  var v_gpuc_report_exception_loc__: i32;
  var v_gpuc_report_exception_a__: i32;
  var v_gpuc_report_exception_b__: i32;
  var v_gpuc_report_exception_tmp__: i32;
  v_row = ((i32(wid.y) * i32(wgy)) + i32(lid.y));
  v_col = ((i32(wid.x) * i32(wgx)) + i32(lid.x));
  if (((v_row >= v_n) || (v_col >= v_n))) {
    return;
  }
  v_acc = 0.0f;
  v_k = 0i;
  if ((((v_k >= 0i) && (((v_k + (v_row * v_n)) >= 0i) && (((v_k + (v_row * v_n)) < params.v_a_len) && (((v_n - 1i) - v_k) <= ((params.v_a_len - 1i) - (v_k + (v_row * v_n))))))) && (((v_n >= 1i) && (((v_k * v_n) + v_col) >= 0i)) && ((((v_k * v_n) + v_col) < params.v_b_len) && (((v_n - 1i) - v_k) <= select(((params.v_b_len - 1i) - ((v_k * v_n) + v_col)) / v_n, 0i, v_n == 0i)))))) {
    loop {
      if ((!(v_k < v_n))) {
        break;
      }
      v_tmp = ((v_row * v_n) + v_k);
      v_tmp_ = ((v_k * v_n) + v_col);
      v_acc = (v_acc + (v_a[v_tmp] * v_b[v_tmp_]));
      continuing {
        v_k = (v_k + 1i);
      }
    }
  } else {
    loop {
      if ((!(v_k < v_n))) {
        break;
      }
      v_tmp = ((v_row * v_n) + v_k);
      if ((u32(v_tmp) >= u32(params.v_a_len))) {
        v_gpuc_report_exception_code = 1i;
        v_gpuc_report_exception_loc = 8i;
        v_gpuc_report_exception_a = v_tmp;
        v_gpuc_report_exception_b = params.v_a_len;
        loop {
          let r = atomicCompareExchangeWeak(&state[0i], 0i, v_gpuc_report_exception_code);
          if (r.exchanged || r.old_value != 0i) { v_gpuc_report_exception_tmp = r.old_value; break; }
        }
        if ((v_gpuc_report_exception_tmp == 0i)) {
          atomicStore(&state[1i], v_gpuc_report_exception_loc);
          atomicStore(&state[2i], v_gpuc_report_exception_a);
          atomicStore(&state[3i], v_gpuc_report_exception_b);
          atomicStore(&state[4i], i32(lid.x));
          atomicStore(&state[5i], i32(lid.y));
          atomicStore(&state[6i], i32(lid.z));
          atomicStore(&state[7i], i32(wid.x));
          atomicStore(&state[8i], i32(wid.y));
          atomicStore(&state[9i], i32(wid.z));
        }
        return;
      }
      v_tmp_ = ((v_k * v_n) + v_col);
      if ((u32(v_tmp_) >= u32(params.v_b_len))) {
        v_gpuc_report_exception_code_ = 2i;
        v_gpuc_report_exception_loc_ = 9i;
        v_gpuc_report_exception_a_ = v_tmp_;
        v_gpuc_report_exception_b_ = params.v_b_len;
        loop {
          let r = atomicCompareExchangeWeak(&state[0i], 0i, v_gpuc_report_exception_code_);
          if (r.exchanged || r.old_value != 0i) { v_gpuc_report_exception_tmp_ = r.old_value; break; }
        }
        if ((v_gpuc_report_exception_tmp_ == 0i)) {
          atomicStore(&state[1i], v_gpuc_report_exception_loc_);
          atomicStore(&state[2i], v_gpuc_report_exception_a_);
          atomicStore(&state[3i], v_gpuc_report_exception_b_);
          atomicStore(&state[4i], i32(lid.x));
          atomicStore(&state[5i], i32(lid.y));
          atomicStore(&state[6i], i32(lid.z));
          atomicStore(&state[7i], i32(wid.x));
          atomicStore(&state[8i], i32(wid.y));
          atomicStore(&state[9i], i32(wid.z));
        }
        return;
      }
      v_acc = (v_acc + (v_a[v_tmp] * v_b[v_tmp_]));
      continuing {
        v_k = (v_k + 1i);
      }
    }
  }
  v_tmp__ = ((v_row * v_n) + v_col);
  if ((u32(v_tmp__) >= u32(params.v_c_len))) {
    v_gpuc_report_exception_code__ = 3i;
    v_gpuc_report_exception_loc__ = 34i;
    v_gpuc_report_exception_a__ = v_tmp__;
    v_gpuc_report_exception_b__ = params.v_c_len;
    loop {
      let r = atomicCompareExchangeWeak(&state[0i], 0i, v_gpuc_report_exception_code__);
      if (r.exchanged || r.old_value != 0i) { v_gpuc_report_exception_tmp__ = r.old_value; break; }
    }
    if ((v_gpuc_report_exception_tmp__ == 0i)) {
      atomicStore(&state[1i], v_gpuc_report_exception_loc__);
      atomicStore(&state[2i], v_gpuc_report_exception_a__);
      atomicStore(&state[3i], v_gpuc_report_exception_b__);
      atomicStore(&state[4i], i32(lid.x));
      atomicStore(&state[5i], i32(lid.y));
      atomicStore(&state[6i], i32(lid.z));
      atomicStore(&state[7i], i32(wid.x));
      atomicStore(&state[8i], i32(wid.y));
      atomicStore(&state[9i], i32(wid.z));
    }
    return;
  }
  v_c[v_tmp__] = v_acc;
}
