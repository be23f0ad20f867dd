// Hand-written WGSL baselines for bench/webgpu.ts and bench/webgpu-cold.mjs (section f): the same
// algorithms as gpuc's saxpy and tiled matmul kernels (bench/kernels.mjs), written as one would
// write them for WebGPU. Bindings: 0 a uniform block of the scalars, then the arrays in order.

/** saxpy by hand: one invocation per element, workgroups of 256, `if (i < n)`. */
export const SAXPY_WGSL = `
struct P { a: f32, n: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i < p.n) {
    y[i] = p.a * x[i] + y[i];
  }
}
`;

/** The tiled matmul by hand: the algorithm of examples/matmul.ts, 16×16 tiles in workgroup memory. */
export const MATMUL_WGSL = `
struct P { n: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@group(0) @binding(2) var<storage, read> a: array<f32>;
@group(0) @binding(3) var<storage, read> b: array<f32>;
var<workgroup> as_: array<f32, 256>;
var<workgroup> bs_: array<f32, 256>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let n = p.n;
  let tx = lid.x;
  let ty = lid.y;
  let row = wid.y * 16u + ty;
  let col = wid.x * 16u + tx;
  var acc = 0.0;
  for (var t = 0u; t < n; t += 16u) {
    if (row < n && t + tx < n) { as_[ty * 16u + tx] = a[row * n + t + tx]; } else { as_[ty * 16u + tx] = 0.0; }
    if (col < n && t + ty < n) { bs_[ty * 16u + tx] = b[(t + ty) * n + col]; } else { bs_[ty * 16u + tx] = 0.0; }
    workgroupBarrier();
    for (var k = 0u; k < 16u; k++) {
      acc += as_[ty * 16u + k] * bs_[k * 16u + tx];
    }
    workgroupBarrier();
  }
  if (row < n && col < n) {
    c[row * n + col] = acc;
  }
}
`;
