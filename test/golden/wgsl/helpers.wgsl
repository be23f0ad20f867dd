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

fn gpuc_report_exception(lid: vec3<u32>, wid: vec3<u32>, v_code_1: i32, v_loc_2: i32, v_a_3: i32, v_b_4: i32) {
  var v_tmp_5: i32;
  var v_thread_6: i32;
  var v_w_7: i32;
  v_tmp_5 = atomicAdd(&state[5i], 1i);
  if ((v_tmp_5 == 0i)) {
    v_thread_6 = ((i32(lid.x) | (i32(lid.y) << 10u)) | (i32(lid.z) << 20u));
    v_w_7 = 0i;
    loop {
      if ((!(v_w_7 < min(8i, i32(arrayLength(&state)))))) {
        break;
      }
      atomicStore(&state[select((v_w_7 + 2i), v_w_7, (v_w_7 < 5i))], select(select(select(select(select(select(select(i32(wid.z), i32(wid.y), (v_w_7 == 6i)), i32(wid.x), (v_w_7 == 5i)), v_thread_6, (v_w_7 == 4i)), v_b_4, (v_w_7 == 3i)), v_a_3, (v_w_7 == 2i)), v_loc_2, (v_w_7 == 1i)), v_code_1, (v_w_7 == 0i)));
      continuing {
        v_w_7 = (v_w_7 + 1i);
      }
    }
  }
}

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
  if (gpuc_exc.x != 0i) { gpuc_report_exception(lid, wid, gpuc_exc.x, gpuc_exc.y, gpuc_exc.z, gpuc_exc.w); }
}
