// gpuc: kernel 'folding'
struct Params {
  v_out_len: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read_write> v_out: array<f32>;
override wgx: u32 = 1u;
override wgy: u32 = 1u;
override wgz: u32 = 1u;

@compute @workgroup_size(wgx, wgy, wgz)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  var v_k: f32;
  var v_gpuc_report_exception_code: i32;
  var v_gpuc_report_exception_loc: i32;
  var v_gpuc_report_exception_a: i32;
  var v_gpuc_report_exception_b: i32;
  var v_gpuc_report_exception_tmp: i32;
  v_k = 0.7853981852531433f;
  if ((u32(i32(lid.x)) >= u32(params.v_out_len))) {
    v_gpuc_report_exception_code = 1i;
    v_gpuc_report_exception_loc = 1i;
    v_gpuc_report_exception_a = i32(lid.x);
    v_gpuc_report_exception_b = params.v_out_len;
    loop {
      let r = atomicCompareExchangeWeak(&state[0i], 0i, v_gpuc_report_exception_code);
      if (r.exchanged || r.old_value != 0i) { v_gpuc_report_exception_tmp = r.old_value; break; }
    }
    if ((v_gpuc_report_exception_tmp == 0i)) {
      atomicStore(&state[1i], v_gpuc_report_exception_loc);
      atomicStore(&state[2i], v_gpuc_report_exception_a);
      atomicStore(&state[3i], v_gpuc_report_exception_b);
      atomicStore(&state[4i], i32(lid.x));
      atomicStore(&state[5i], i32(lid.y));
      atomicStore(&state[6i], i32(lid.z));
      atomicStore(&state[7i], i32(wid.x));
      atomicStore(&state[8i], i32(wid.y));
      atomicStore(&state[9i], i32(wid.z));
    }
    return;
  }
  v_out[i32(lid.x)] = (sin((v_k * f32(i32(lid.x)))) + 17.0f);
}
