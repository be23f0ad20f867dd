// gpuc: kernel 'atomicsNarrow'
struct Params {
  v_hist_len: i32,
  v_bits_len: i32,
  v_x_len: i32,
  v_hist_off: u32,
  v_bits_off: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_hist: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> v_bits: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read> v_x: array<i32>;
@group(0) @binding(5) var gpuc_record: texture_storage_1d<rgba32sint, write>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_ld_i16(w: u32, e: u32) -> i32 { return bitcast<i32>(w << (16u - (e & 1u) * 16u)) >> 16u; }

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>) {
  var v_i: i32;
  var v_v: i32;
  var v_tmp: i32;
  var v_tmp_1: i32;
  var v_tmp_2: i32;
  var v_tmp_3: i32;
  var v_tmp_4: i32;
  var v_tmp_5: i32;
  var v_tmp_6: i32;
  var v_cas_i: i32;
  var v_cas_old: i32;
  var v_cas_prev: i32;
  var v_cas_shift: i32;
  var v_cas_cur: i32;
  var v_cas_i_1: i32;
  var v_cas_x0: i32;
  var v_cas_old_1: i32;
  var v_cas_prev_1: i32;
  var v_cas_shift_1: i32;
  var v_cas_cur_1: i32;
  var v_cas_i_2: i32;
  var v_cas_x0_1: i32;
  var v_cas_old_2: i32;
  var v_cas_prev_2: i32;
  var v_cas_shift_2: i32;
  var v_cas_cur_2: i32;
  v_i = ((i32(wid.x) * i32(wgx)) + i32(lid.x));
  if ((v_i >= params.v_x_len)) {
    return;
  }
  v_v = v_x[v_i];
  v_tmp = (v_v & 15i);
  if ((u32(v_tmp) >= u32(params.v_hist_len))) {
    gpuc_raise(3i, 4i, v_tmp, params.v_hist_len);
    return;
  }
  v_cas_i = v_tmp;
  v_cas_old = bitcast<i32>(atomicLoad(&v_hist[(u32(v_cas_i) + params.v_hist_off) >> 2u]));
  v_cas_shift = i32(((u32(v_cas_i) + params.v_hist_off) & 3u) * 8u);
  loop {
    v_cas_prev = v_cas_old;
    v_cas_cur = ((v_cas_prev >> u32(v_cas_shift)) & 255i);
    loop {
      let r = atomicCompareExchangeWeak(&v_hist[(u32(v_cas_i) + params.v_hist_off) >> 2u], bitcast<u32>(v_cas_prev), bitcast<u32>(((v_cas_prev & (~(255i << u32(v_cas_shift)))) | (((v_cas_cur + 1i) & 255i) << u32(v_cas_shift)))));
      if (r.exchanged || r.old_value != bitcast<u32>(v_cas_prev)) { v_cas_old = bitcast<i32>(r.old_value); break; }
    }
    continuing {
      break if (v_cas_old == v_cas_prev);
    }
  }
  v_tmp_1 = v_cas_cur;
  v_tmp_2 = (v_i & 3i);
  if ((u32(v_tmp_2) >= u32(params.v_bits_len))) {
    gpuc_raise(1i, 5i, v_tmp_2, params.v_bits_len);
    return;
  }
  v_cas_i_1 = v_tmp_2;
  v_cas_x0 = (1i << u32(((v_i & 7i) & 31i)));
  v_cas_old_1 = bitcast<i32>(atomicLoad(&v_bits[(u32(v_cas_i_1) + params.v_bits_off) >> 1u]));
  v_cas_shift_1 = i32(((u32(v_cas_i_1) + params.v_bits_off) & 1u) * 16u);
  loop {
    v_cas_prev_1 = v_cas_old_1;
    v_cas_cur_1 = ((v_cas_prev_1 << u32((16i - v_cas_shift_1))) >> 16u);
    loop {
      let r = atomicCompareExchangeWeak(&v_bits[(u32(v_cas_i_1) + params.v_bits_off) >> 1u], bitcast<u32>(v_cas_prev_1), bitcast<u32>(((v_cas_prev_1 & (~(65535i << u32(v_cas_shift_1)))) | (((v_cas_cur_1 | v_cas_x0) & 65535i) << u32(v_cas_shift_1)))));
      if (r.exchanged || r.old_value != bitcast<u32>(v_cas_prev_1)) { v_cas_old_1 = bitcast<i32>(r.old_value); break; }
    }
    continuing {
      break if (v_cas_old_1 == v_cas_prev_1);
    }
  }
  v_tmp_3 = v_cas_cur_1;
  v_tmp_4 = gpuc_ld_i16(atomicLoad(&v_bits[(u32(0i) + params.v_bits_off) >> 1u]), (u32(0i) + params.v_bits_off));
  v_tmp_5 = (16i + (v_v & 3i));
  if ((u32(v_tmp_5) >= u32(params.v_hist_len))) {
    gpuc_raise(3i, 7i, v_tmp_5, params.v_hist_len);
    return;
  }
  v_cas_i_2 = v_tmp_5;
  v_cas_x0_1 = (v_tmp_4 & 1i);
  v_cas_old_2 = bitcast<i32>(atomicLoad(&v_hist[(u32(v_cas_i_2) + params.v_hist_off) >> 2u]));
  v_cas_shift_2 = i32(((u32(v_cas_i_2) + params.v_hist_off) & 3u) * 8u);
  loop {
    v_cas_prev_2 = v_cas_old_2;
    v_cas_cur_2 = ((v_cas_prev_2 >> u32(v_cas_shift_2)) & 255i);
    loop {
      let r = atomicCompareExchangeWeak(&v_hist[(u32(v_cas_i_2) + params.v_hist_off) >> 2u], bitcast<u32>(v_cas_prev_2), bitcast<u32>(((v_cas_prev_2 & (~(255i << u32(v_cas_shift_2)))) | (((v_cas_cur_2 - v_cas_x0_1) & 255i) << u32(v_cas_shift_2)))));
      if (r.exchanged || r.old_value != bitcast<u32>(v_cas_prev_2)) { v_cas_old_2 = bitcast<i32>(r.old_value); break; }
    }
    continuing {
      break if (v_cas_old_2 == v_cas_prev_2);
    }
  }
  v_tmp_6 = v_cas_cur_2;
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  gpuc_kernel(lid, wid, nwg);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
