// gpuc: kernel 'views'
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
  var v_tmp: i32;
  var v_tmp_1: i32;
  var v_tmp_2: i32;
  var v_tmp_3: i32;
  var v_tmp_4: i32;
  var v_tmp_5: f32;
  var v_tmp_6: i32;
  var v_tmp_7: i32;
  var v_tmp_8: i32;
  var v_tmp_9: i32;
  var v_sumView_v_offset: i32;
  var v_sumView_v_length: i32;
  var v_sumView_s: f32;
  var v_sumView_i: i32;
  v_i = i32(lid.x);
  v_tmp = params.v_x_len;
  v_tmp_1 = select(min(v_i, v_tmp), max((v_tmp + v_i), 0i), (v_i < 0i));
  v_tmp_2 = (v_i + 4i);
  v_tmp_3 = max((select(min(v_tmp_2, v_tmp), max((v_tmp + v_tmp_2), 0i), (v_tmp_2 < 0i)) - v_tmp_1), 0i);
  v_tmp_4 = v_tmp_1;
  v_sumView_v_offset = v_tmp_4;
  v_sumView_v_length = v_tmp_3;
  v_sumView_s = 0.0f;
  v_sumView_i = 0i;
  loop {
    if ((!(v_sumView_i < v_sumView_v_length))) {
      break;
    }
    v_sumView_s = (v_sumView_s + v_x[(v_sumView_v_offset + v_sumView_i)]);
    continuing {
      v_sumView_i = (v_sumView_i + 1i);
    }
  }
  v_tmp_5 = v_sumView_s;
  v_tmp_6 = params.v_x_len;
  v_tmp_7 = max((v_tmp_6 + -2i), 0i);
  v_tmp_8 = max((v_tmp_6 - v_tmp_7), 0i);
  v_tmp_9 = v_tmp_7;
  if ((0u >= u32(v_tmp_8))) {
    gpuc_raise(1i, 10i, 0i, v_tmp_8);
    return;
  }
  if ((u32(v_i) >= u32(params.v_out_len))) {
    gpuc_raise(3i, 11i, v_i, params.v_out_len);
    return;
  }
  v_out[v_i] = ((v_tmp_5 + f32(v_tmp_3)) + v_x[v_tmp_9]);
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
