// gpuc: kernel 'loops'
struct Params {
  v_n: i32,
  v_out_len: i32,
  gpuc_zero: u32,
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
  var v_i: i32;
  var v_acc: f32;
  var v_j: i32;
  var v_k: i32;
  var v_d: i32;
  v_i = i32(lid.x);
  v_acc = 0.0f;
  v_j = 0i;
  loop {
    if ((!(v_j < params.v_n))) {
      break;
    }
    if (((v_j % 3i) == 0i)) {
      continue;
    }
    if (((select(0u, 1u, (v_j > 20i)) ^ params.gpuc_zero) != 0u)) {
      break;
    }
    v_acc = (v_acc + (f32(v_j) * 0.5f));
    continuing {
      v_j = (v_j + 1i);
    }
  }
  v_k = 0i;
  loop {
    if ((!((v_k * v_k) < v_i))) {
      break;
    }
    v_k = (v_k + 1i);
  }
  v_d = 0i;
  loop {
    v_d = (v_d + 2i);
    continuing {
      break if (!(v_d < v_k));
    }
  }
  if ((u32(v_i) >= u32(params.v_out_len))) {
    gpuc_raise(1i, 18i, v_i, params.v_out_len);
    return;
  }
  v_out[v_i] = ((v_acc + f32(v_k)) + f32(v_d));
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
