// gpuc: kernel 'blockSum'
struct Params {
  v_n: i32,
  v_out_len: i32,
  v_x_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_out: array<f32>;
@group(0) @binding(3) var<storage, read> v_x: array<f32>;
@group(0) @binding(4) var gpuc_record: texture_storage_1d<rgba32sint, write>;
var<workgroup> s_s_0: array<f32, 64>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>) {
  var v_t: i32;
  var v_i: i32;
  var v_tmp: f32;
  var v_stride: i32;
  var v_tmp_1: i32;
  var v_done: bool;
  v_t = i32(lid.x);
  v_i = ((i32(wid.x) * i32(wgx)) + v_t);
  if ((v_i >= (params.v_n + 64i))) {
    v_done = true;
  }
  if ((!v_done)) {
    if ((v_i < params.v_n)) {
      if ((u32(v_i) >= u32(params.v_x_len))) {
        gpuc_raise(3i, 5i, v_i, params.v_x_len);
        v_done = true;
      }
      v_tmp = v_x[v_i];
    } else {
      v_tmp = 0.0f;
    }
  }
  if ((!v_done)) {
    if ((u32(v_t) >= 64u)) {
      gpuc_raise(1i, 7i, v_t, 64i);
      v_done = true;
    }
  }
  if ((!v_done)) {
    s_s_0[v_t] = v_tmp;
  }
  workgroupBarrier();
  v_stride = 32i;
  loop {
    if ((!(v_stride > 0i))) {
      break;
    }
    if ((!v_done)) {
      if ((v_t < v_stride)) {
        v_tmp_1 = (v_t + v_stride);
        s_s_0[v_t] = (s_s_0[v_t] + s_s_0[v_tmp_1]);
      }
    }
    workgroupBarrier();
    continuing {
      v_stride = (v_stride >> 1u);
    }
  }
  if ((!v_done)) {
    if ((v_t == 0i)) {
      if ((u32(i32(wid.x)) >= u32(params.v_out_len))) {
        gpuc_raise(2i, 18i, i32(wid.x), params.v_out_len);
        v_done = true;
      }
      if ((!v_done)) {
        v_out[i32(wid.x)] = s_s_0[0i];
      }
    }
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
