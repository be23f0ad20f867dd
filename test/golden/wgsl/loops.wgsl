// gpuc: kernel 'loops'
struct Params {
  v_n: i32,
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
  var v_n: i32 = params.v_n;
  var v_i: i32;
  var v_acc: f32;
  var v_j: i32;
  var v_k: i32;
  var v_d: i32;
  var v_gpuc_report_exception_code: i32;
  var v_gpuc_report_exception_loc: i32;
  var v_gpuc_report_exception_a: i32;
  var v_gpuc_report_exception_b: i32;
  var v_gpuc_report_exception_tmp: i32;
  v_i = i32(lid.x);
  v_acc = 0.0f;
  v_j = 0i;
  loop {
    if ((!(v_j < v_n))) {
      break;
    }
    if (((v_j % 3i) == 0i)) {
      continue;
    }
    if ((v_j > 20i)) {
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
    v_gpuc_report_exception_code = 1i;
    v_gpuc_report_exception_loc = 18i;
    v_gpuc_report_exception_a = v_i;
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
  v_out[v_i] = ((v_acc + f32(v_k)) + f32(v_d));
}
