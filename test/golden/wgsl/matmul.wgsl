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
@group(0) @binding(5) var gpuc_record: texture_storage_1d<rgba32sint, write>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>) {
  var v_row: i32;
  var v_col: i32;
  var v_acc: f32;
  var v_k: i32;
  var v_tmp: i32;
  var v_tmp_1: i32;
  var v_tmp_2: i32;
  var v_tmp_3: i32;
  var v_tmp_4: i32;
  var v_k_1: i32;
  v_row = ((i32(wid.y) * i32(wgy)) + i32(lid.y));
  v_col = ((i32(wid.x) * i32(wgx)) + i32(lid.x));
  if (((v_row >= params.v_n) || (v_col >= params.v_n))) {
    return;
  }
  v_acc = 0.0f;
  v_k = 0i;
  if ((!(((((v_row * params.v_n) >= 0i) && ((v_row * params.v_n) < params.v_a_len)) && ((params.v_n - 1i) <= ((params.v_a_len - 1i) - (v_row * params.v_n)))) && ((v_col < params.v_b_len) && ((params.v_n - 1i) <= select((((params.v_b_len - 1i) - v_col) / params.v_n), 0i, (params.v_n == 0i))))))) {
    v_k_1 = 0i;
    loop {
      if ((!(v_k_1 < params.v_n))) {
        break;
      }
      v_tmp_3 = ((v_row * params.v_n) + v_k_1);
      if ((u32(v_tmp_3) >= u32(params.v_a_len))) {
        gpuc_raise(1i, 8i, v_tmp_3, params.v_a_len);
        return;
      }
      v_tmp_4 = ((v_k_1 * params.v_n) + v_col);
      if ((u32(v_tmp_4) >= u32(params.v_b_len))) {
        gpuc_raise(2i, 9i, v_tmp_4, params.v_b_len);
        return;
      }
      continuing {
        v_k_1 = (v_k_1 + 1i);
      }
    }
  }
  loop {
    if ((!(v_k < params.v_n))) {
      break;
    }
    v_tmp = ((v_row * params.v_n) + v_k);
    v_tmp_1 = ((v_k * params.v_n) + v_col);
    v_acc = (v_acc + (v_a[v_tmp] * v_b[v_tmp_1]));
    continuing {
      v_k = (v_k + 1i);
    }
  }
  v_tmp_2 = ((v_row * params.v_n) + v_col);
  if ((u32(v_tmp_2) >= u32(params.v_c_len))) {
    gpuc_raise(3i, 12i, v_tmp_2, params.v_c_len);
    return;
  }
  v_c[v_tmp_2] = v_acc;
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
