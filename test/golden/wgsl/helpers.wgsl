// gpuc: kernel 'helpers'
struct Params {
  v_out_len: i32,
  v_x_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_out: array<f32>;
@group(0) @binding(3) var<storage, read> v_x: array<f32>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  var v_i: i32;
  var v_tmp: f32;
  var v_tmp_: i32;
  var v_tmp__: i32;
  var v_gpuc_report_exception_code: i32;
  var v_gpuc_report_exception_loc: i32;
  var v_gpuc_report_exception_a: i32;
  var v_gpuc_report_exception_b: i32;
  var v_gpuc_report_exception_tmp: i32;
  var v_lerp_a: f32;
  var v_lerp_b: i32;
  var v_lerp_t: f32;
  var v_sign3_v: f32;
  var v_sign3_v_: i32;
  var v_gpuc_report_exception_code_: i32;
  var v_gpuc_report_exception_loc_: i32;
  var v_gpuc_report_exception_a_: i32;
  var v_gpuc_report_exception_b_: i32;
  var v_gpuc_report_exception_tmp_: i32;
  v_i = i32(lid.x);
  if ((u32(v_i) >= u32(params.v_x_len))) {
    v_gpuc_report_exception_code = 1i;
    v_gpuc_report_exception_loc = 1i;
    v_gpuc_report_exception_a = v_i;
    v_gpuc_report_exception_b = params.v_x_len;
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
  v_lerp_a = v_x[v_i];
  v_lerp_b = 1i;
  v_lerp_t = 0.25f;
  v_tmp = (v_lerp_a + ((f32(v_lerp_b) - v_lerp_a) * v_lerp_t));
  v_sign3_v = v_x[v_i];
  loop {
    if ((v_sign3_v > 0.0f)) {
      v_tmp_ = 1i;
      break;
    }
    if ((v_sign3_v < 0.0f)) {
      v_tmp_ = -1i;
      break;
    }
    v_tmp_ = 0i;
    break;
  }
  v_sign3_v_ = (v_i - 2i);
  loop {
    if ((v_sign3_v_ > 0i)) {
      v_tmp__ = 1i;
      break;
    }
    if ((v_sign3_v_ < 0i)) {
      v_tmp__ = -1i;
      break;
    }
    v_tmp__ = 0i;
    break;
  }
  if ((u32(v_i) >= u32(params.v_out_len))) {
    v_gpuc_report_exception_code_ = 2i;
    v_gpuc_report_exception_loc_ = 27i;
    v_gpuc_report_exception_a_ = v_i;
    v_gpuc_report_exception_b_ = params.v_out_len;
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
  v_out[v_i] = ((v_tmp * f32(v_tmp_)) + f32(v_tmp__));
}
