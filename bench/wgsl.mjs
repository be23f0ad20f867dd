// Hand-written WGSL baselines for bench/webgpu.ts and bench/webgpu-cold.mjs (section f) and
// bench/wgsl-driver.mjs (§m): the same algorithms as gpuc's kernels in bench/kernels.mjs, written
// as one would write them for WebGPU. Bindings: 0 a uniform block of the scalars (where there are
// any), then the arrays in order.

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

/** The naive matmul by hand (bench/kernels.mjs's matmul): one invocation per element of c. */
export const MATMUL_NAIVE_WGSL = `
struct P { n: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = p.n;
  let row = gid.y;
  let col = gid.x;
  if (row < n && col < n) {
    var acc = 0.0;
    for (var k = 0u; k < n; k++) {
      acc += a[row * n + k] * b[k * n + col];
    }
    c[row * n + col] = acc;
  }
}
`;

/** Per-block sums by hand (bench/kernels.mjs's blockSums): a tree in workgroup memory, blocks of 256. */
export const BLOCK_SUMS_WGSL = `
@group(0) @binding(0) var<storage, read_write> sums: array<f32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
var<workgroup> s: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let t = lid.x;
  let i = wid.x * 256u + t;
  if (i < arrayLength(&x)) { s[t] = x[i]; } else { s[t] = 0.0; }
  workgroupBarrier();
  for (var stride = 128u; stride > 0u; stride >>= 1u) {
    if (t < stride) { s[t] += s[t + stride]; }
    workgroupBarrier();
  }
  if (t == 0u) { sums[wid.x] = s[0]; }
}
`;
