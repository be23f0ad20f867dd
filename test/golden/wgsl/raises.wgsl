// gpuc: kernel 'raises'
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

fn gpuc_print_reserve(lid: vec3<u32>, wid: vec3<u32>, v_format_1: i32, v_words_2: i32) -> i32 {
  var v_size_3: i32;
  var v_tmp_4: i32;
  var v_at_5: i32;
  var v_tmp_6: i32;
  v_size_3 = (v_words_2 + 7i);
  v_tmp_4 = atomicAdd(&state[27i], v_size_3);
  v_at_5 = (32i + v_tmp_4);
  if (((v_at_5 + v_size_3) > i32(arrayLength(&state)))) {
    v_tmp_6 = atomicAdd(&state[28i], 1i);
    return -1i;
  }
  atomicStore(&state[v_at_5], v_format_1);
  atomicStore(&state[(v_at_5 + 1i)], i32(lid.x));
  atomicStore(&state[(v_at_5 + 2i)], i32(lid.y));
  atomicStore(&state[(v_at_5 + 3i)], i32(lid.z));
  atomicStore(&state[(v_at_5 + 4i)], i32(wid.x));
  atomicStore(&state[(v_at_5 + 5i)], i32(wid.y));
  atomicStore(&state[(v_at_5 + 6i)], i32(wid.z));
  return (v_at_5 + 7i);
}

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>) {
  var v_i: i32;
  var v_tmp: i32;
  v_i = i32(lid.x);
  if ((u32(v_i) >= u32(params.v_x_len))) {
    gpuc_raise(2i, 1i, v_i, params.v_x_len);
    return;
  }
  if ((v_x[v_i] < 0.0f)) {
    gpuc_raise(1i, 3i, 0i, 0i);
    return;
  }
  if ((v_x[v_i] > 100.0f)) {
    v_tmp = gpuc_print_reserve(lid, wid, 0i, 2i);
    if ((v_tmp >= 0i)) {
      atomicStore(&state[v_tmp], bitcast<i32>(v_x[v_i]));
      atomicStore(&state[(v_tmp + 1i)], v_i);
    }
  }
  if ((u32(v_i) >= u32(params.v_out_len))) {
    gpuc_raise(3i, 6i, v_i, params.v_out_len);
    return;
  }
  v_out[v_i] = sqrt(v_x[v_i]);
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
