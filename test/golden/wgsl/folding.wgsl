// gpuc: kernel 'folding'
struct Params {
  v_out_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_out: array<f32>;
@group(0) @binding(3) var gpuc_record: texture_storage_1d<rgba32sint, write>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>) {
  if ((u32(i32(lid.x)) >= u32(params.v_out_len))) {
    gpuc_raise(1i, 0i, i32(lid.x), params.v_out_len);
    return;
  }
  v_out[i32(lid.x)] = (sin((0.7853981852531433f * f32(i32(lid.x)))) + 17.0f);
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
