enable subgroups;
diagnostic(off, subgroup_uniformity);
// gpuc: kernel 'subgroups'
struct Params {
  v_out_len: i32,
  v_x_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_out: array<i32>;
@group(0) @binding(3) var<storage, read> v_x: array<i32>;
@group(0) @binding(4) var gpuc_record: texture_storage_1d<rgba32sint, write>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

var<private> gpuc_exc: vec4<i32>;
fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}

fn gpuc_kernel(lid: vec3<u32>, wid: vec3<u32>, nwg: vec3<u32>, sgl: u32, sgs: u32) {
  var v_i: i32;
  var v_v: i32;
  var v_tmp: i32;
  var v_sum: i32;
  var v_tmp_1: i32;
  var v_other: i32;
  var v_tmp_2: u32;
  var v_ballot: u32;
  v_i = ((i32(wid.x) * i32(wgx)) + i32(lid.x));
  if ((u32(v_i) >= u32(params.v_x_len))) {
    gpuc_raise(1i, 1i, v_i, params.v_x_len);
    return;
  }
  v_v = v_x[v_i];
  v_tmp = subgroupAdd(v_v);
  v_sum = v_tmp;
  {
    let gpuc_v = v_v;
    let gpuc_n = 1u;
    v_tmp_1 = select(gpuc_v, subgroupShuffle(gpuc_v, min(sgl ^ gpuc_n, sgs - 1u)), (sgl ^ gpuc_n) < sgs);
  }
  v_other = v_tmp_1;
  v_tmp_2 = subgroupBallot((v_v > 0i)).x;
  v_ballot = v_tmp_2;
  if ((u32(v_i) >= u32(params.v_out_len))) {
    gpuc_raise(2i, 9i, v_i, params.v_out_len);
    return;
  }
  v_out[v_i] = (((v_sum + v_other) + (i32(v_ballot) & 255i)) + i32(sgl));
}

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(subgroup_invocation_id) sgl: u32, @builtin(subgroup_size) sgs: u32) {
  gpuc_kernel(lid, wid, nwg, sgl, sgs);
  if (gpuc_exc.x != 0i && atomicAdd(&state[5i], 1i) == 0i) {
    textureStore(gpuc_record, 0i, gpuc_exc);
    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));
  }
}
