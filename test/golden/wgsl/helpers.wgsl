// gpuc: kernel 'helpers'
struct Params {
  v_out_len: i32,
  v_x_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_out: array<f32>;
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
  var v_tmp: f32;
  var v_tmp_1: i32;
  var v_tmp_2: i32;
  var v_lerp_a: f32;
  var v_lerp_b: i32;
  var v_lerp_t: f32;
  var v_sign3_v: f32;
  var v_sign3_v_1: i32;
  v_i = i32(lid.x);
  if ((u32(v_i) >= u32(params.v_x_len))) {
    gpuc_raise(1i, 1i, v_i, params.v_x_len);
    return;
  }
  v_lerp_a = v_x[v_i];
  v_lerp_b = 1i;
  v_lerp_t = 0.25f;
  v_tmp = (v_lerp_a + ((f32(v_lerp_b) - v_lerp_a) * v_lerp_t));
  v_sign3_v = v_x[v_i];
  loop {
    if ((v_sign3_v > 0.0f)) {
      v_tmp_1 = 1i;
      break;
    }
    if ((v_sign3_v < 0.0f)) {
      v_tmp_1 = -1i;
      break;
    }
    v_tmp_1 = 0i;
    break;
  }
  v_sign3_v_1 = (v_i - 2i);
  loop {
    if ((v_sign3_v_1 > 0i)) {
      v_tmp_2 = 1i;
      break;
    }
    if ((v_sign3_v_1 < 0i)) {
      v_tmp_2 = -1i;
      break;
    }
    v_tmp_2 = 0i;
    break;
  }
  if ((u32(v_i) >= u32(params.v_out_len))) {
    gpuc_raise(2i, 16i, v_i, params.v_out_len);
    return;
  }
  v_out[v_i] = ((v_tmp * f32(v_tmp_1)) + f32(v_tmp_2));
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
