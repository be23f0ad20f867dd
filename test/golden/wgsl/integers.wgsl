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
@group(0) @binding(5) var gpuc_record: texture_storage_1d<rgba32sint, write>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>) {
  var v_i: i32;
  var v_q: i32;
  var v_r: i32;
  var v_u: u32;
  var v_m: i32;
  var v_tmp: i32;
  var v_div_dividend: i32;
  var v_div_divisor: i32;
  v_i = i32(lid.x);
  if ((u32(v_i) >= u32(params.v_a_len))) {
    gpuc_raise(1i, 1i, v_i, params.v_a_len);
    return;
  }
  if ((u32(v_i) >= u32(params.v_b_len))) {
    gpuc_raise(2i, 2i, v_i, params.v_b_len);
    return;
  }
  v_div_dividend = v_a[v_i];
  v_div_divisor = v_b[v_i];
  v_q = select((v_div_dividend / v_div_divisor), 0i, (v_div_divisor == 0i));
  v_r = (v_a[v_i] % v_b[v_i]);
  v_u = (u32(v_a[v_i]) >> (u32((v_b[v_i] & 7i)) & 31u));
  v_m = (v_a[v_i] * -1640531535i);
  v_tmp = v_a[v_i];
  if ((u32(v_i) >= u32(params.v_out_len))) {
    gpuc_raise(3i, 8i, v_i, params.v_out_len);
    return;
  }
  v_out[v_i] = ((((v_q + v_r) + select(0i, 1i, (v_u > 4294967000u))) + (v_m ^ (v_m >> 15u))) + select(0i, 2i, select((u32(v_tmp) < v_u), true, (v_tmp < 0i))));
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
