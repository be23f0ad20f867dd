// gpuc: kernel 'atomicF32'
struct Params {
  v_sums_len: i32,
  v_x_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_sums: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read> v_x: array<f32>;
@group(0) @binding(4) var gpuc_record: texture_storage_1d<rgba32sint, write>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>) {
  var v_i: i32;
  var v_tmp: i32;
  var v_tmp_1: f32;
  var v_cas_i: i32;
  var v_cas_x0: f32;
  var v_cas_old: i32;
  var v_cas_prev: i32;
  var v_cas_cur: f32;
  v_i = ((i32(wid.x) * i32(wgx)) + i32(lid.x));
  if ((v_i < params.v_x_len)) {
    v_tmp = (v_i & 1i);
    if ((u32(v_tmp) >= u32(params.v_sums_len))) {
      gpuc_raise(2i, 2i, v_tmp, params.v_sums_len);
      return;
    }
    v_cas_i = v_tmp;
    v_cas_x0 = v_x[v_i];
    v_cas_old = bitcast<i32>(atomicLoad(&v_sums[v_cas_i]));
    loop {
      v_cas_prev = v_cas_old;
      v_cas_cur = bitcast<f32>(v_cas_prev);
      loop {
        let r = atomicCompareExchangeWeak(&v_sums[v_cas_i], bitcast<u32>(v_cas_prev), bitcast<u32>(bitcast<i32>((v_cas_cur + v_cas_x0))));
        if (r.exchanged || r.old_value != bitcast<u32>(v_cas_prev)) { v_cas_old = bitcast<i32>(r.old_value); break; }
      }
      continuing {
        break if (v_cas_old == v_cas_prev);
      }
    }
    v_tmp_1 = v_cas_cur;
  }
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
