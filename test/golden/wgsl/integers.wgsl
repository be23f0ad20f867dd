// gpuc: kernel 'integers'
struct Params {
  v_out_len: i32,
  v_a_len: i32,
  v_b_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_out: array<i32>;
@group(0) @binding(3) var<storage, read> v_a: array<i32>;
@group(0) @binding(4) var<storage, read> v_b: array<i32>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  var v_i: i32;
  var v_q: i32;
  var v_r: i32;
  var v_u: u32;
  var v_m: i32;
  var v_tmp: i32;
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
  v_i = i32(lid.x);
  if ((u32(v_i) >= u32(params.v_a_len))) {
    v_gpuc_report_exception_code = 1i;
    v_gpuc_report_exception_loc = 1i;
    v_gpuc_report_exception_a = v_i;
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
  if ((u32(v_i) >= u32(params.v_b_len))) {
    v_gpuc_report_exception_code_ = 2i;
    v_gpuc_report_exception_loc_ = 13i;
    v_gpuc_report_exception_a_ = v_i;
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
  v_q = select(v_a[v_i] / v_b[v_i], 0i, v_b[v_i] == 0i);
  v_r = (v_a[v_i] % v_b[v_i]);
  v_u = (u32(v_a[v_i]) >> (u32(u32((v_b[v_i] & 7i))) & 31u));
  v_m = (v_a[v_i] * -1640531535i);
  v_tmp = v_a[v_i];
  if ((u32(v_i) >= u32(params.v_out_len))) {
    v_gpuc_report_exception_code__ = 3i;
    v_gpuc_report_exception_loc__ = 30i;
    v_gpuc_report_exception_a__ = v_i;
    v_gpuc_report_exception_b__ = params.v_out_len;
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
  v_out[v_i] = ((((v_q + v_r) + select(0i, 1i, (v_u > 4294967000u))) + (v_m ^ (v_m >> (u32(15i) & 31u)))) + select(0i, 2i, select((u32(v_tmp) < v_u), true, (v_tmp < 0i))));
}
