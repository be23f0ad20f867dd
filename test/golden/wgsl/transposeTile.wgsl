// gpuc: kernel 'transposeTile'
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
var<workgroup> s_tile_0: array<f32, 272>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>) {
  var v_bx: i32;
  var v_by: i32;
  var v_tx: i32;
  var v_ty: i32;
  var v_tmp: i32;
  var v_tmp_1: i32;
  var v_tmp_2: i32;
  var v_tmp_3: i32;
  var v_done: bool;
  v_bx = (i32(wid.x) * 16i);
  v_by = (i32(wid.y) * 16i);
  v_tx = i32(lid.x);
  v_ty = i32(lid.y);
  if ((((v_bx + v_tx) < params.v_n) && ((v_by + v_ty) < params.v_n))) {
    v_tmp = v_ty;
    v_tmp_1 = ((((v_by + v_ty) * params.v_n) + v_bx) + v_tx);
    if ((u32(v_tmp_1) >= u32(params.v_x_len))) {
      gpuc_raise(1i, 6i, v_tmp_1, params.v_x_len);
      v_done = true;
    }
    if ((!v_done)) {
      if ((u32(v_tmp) >= 16u)) {
        gpuc_raise(2i, 7i, v_tmp, v_tx);
        v_done = true;
      }
    }
    if ((!v_done)) {
      if ((u32(v_tx) >= 17u)) {
        gpuc_raise(2i, 7i, v_tmp, v_tx);
        v_done = true;
      }
    }
    if ((!v_done)) {
      s_tile_0[((v_tmp * 17i) + v_tx)] = v_x[v_tmp_1];
    }
  }
  workgroupBarrier();
  if ((!v_done)) {
    if ((((v_by + v_tx) < params.v_n) && ((v_bx + v_ty) < params.v_n))) {
      v_tmp_2 = v_tx;
      if ((u32(v_tmp_2) >= 16u)) {
        gpuc_raise(2i, 11i, v_tmp_2, v_ty);
        v_done = true;
      }
      if ((!v_done)) {
        if ((u32(v_ty) >= 17u)) {
          gpuc_raise(2i, 11i, v_tmp_2, v_ty);
          v_done = true;
        }
      }
      v_tmp_3 = ((((v_bx + v_ty) * params.v_n) + v_by) + v_tx);
      if ((!v_done)) {
        if ((u32(v_tmp_3) >= u32(params.v_out_len))) {
          gpuc_raise(3i, 12i, v_tmp_3, params.v_out_len);
          v_done = true;
        }
      }
      if ((!v_done)) {
        v_out[v_tmp_3] = s_tile_0[((v_tmp_2 * 17i) + v_ty)];
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
