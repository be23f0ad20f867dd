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
var<workgroup> s_tile_0: array<f32, 272>;
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
  var v_n: i32 = params.v_n;
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
  if ((((v_bx + v_tx) < v_n) && ((v_by + v_ty) < v_n))) {
    v_tmp = v_ty;
    v_tmp_1 = ((((v_by + v_ty) * v_n) + v_bx) + v_tx);
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
    if ((((v_by + v_tx) < v_n) && ((v_bx + v_ty) < v_n))) {
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
      v_tmp_3 = ((((v_bx + v_ty) * v_n) + v_by) + v_tx);
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
  if (gpuc_exc.x != 0i) { gpuc_report_exception(lid, wid, gpuc_exc.x, gpuc_exc.y, gpuc_exc.z, gpuc_exc.w); }
}
