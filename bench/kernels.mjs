// Kernels the benchmarks compile and run: saxpy, a 512×512 matrix multiply, two kernels with
// barriers (a shared-memory reduction and a tiled matrix multiply), and a realistic
// ~100-line kernel (a supersampled Mandelbrot renderer with smooth coloring, an orbit trap and a
// few helpers). Plain functions: the bench wraps each in kernel() itself, so every timed compile
// can start from a fresh kernel object.

export function saxpy(a, x, y) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < y.length) y[i] = a * x[i] + y[i];
}

/** One thread per output element; f32 accumulator, k in increasing order. */
export function matmul(a, b, c, n) {
  const col = blockIdx.x * blockDim.x + threadIdx.x;
  const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    let acc = Math.fround(0);
    for (let k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
  }
}

/**
 * Kernels with barriers (section e). Per-block sums: a tree reduction in shared memory, one
 * block of 256 threads per 256 elements; the block sums are the result (the host adds nothing).
 */
export function blockSums(sums, x) {
  const s = shared(Float32Array, 256);
  const t = threadIdx.x;
  const i = blockIdx.x * blockDim.x + t;
  s[t] = i < x.length ? x[i] : 0;
  syncthreads();
  for (let stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    syncthreads();
  }
  if (t === 0) sums[blockIdx.x] = s[0];
}

/** C = A·B with 16×16 tiles staged in shared memory (a copy of examples/matmul.ts's kernel). */
export function matmulTiled(c, a, b, n) {
  const as = shared(Float32Array, 256);
  const bs = shared(Float32Array, 256);
  const tx = threadIdx.x, ty = threadIdx.y;
  const row = blockIdx.y * 16 + ty;
  const col = blockIdx.x * 16 + tx;
  let acc = 0;
  for (let t = 0; t < n; t += 16) {
    as[ty * 16 + tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0;
    bs[ty * 16 + tx] = col < n && t + ty < n ? b[(t + ty) * n + col] : 0;
    syncthreads();
    for (let k = 0; k < 16; k++) acc += as[ty * 16 + k] * bs[k * 16 + tx];
    syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}

/** The smallest kernel there is, for launch overhead. */
export function tiny(out) {
  out[0] = out[0] + 1;
}

// ---- the ~100-line kernel and its helpers -----------------------------------------------------

function clamp01(v) {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

function mix(a, b, t) {
  return a + (b - a) * t;
}

/** Inigo Quilez's cosine palette, one channel at a time. */
function palette(t, channel) {
  let phase = 0;
  switch (channel) {
    case 0: phase = 0.0; break;
    case 1: phase = 0.1; break;
    default: phase = 0.2;
  }
  return 0.5 + 0.5 * Math.cos(6.283185307179586 * (t + phase));
}

/** Continuous escape count: iter + 1 - log2(log|z|). */
function smoothIteration(zx, zy, iter) {
  const logMod = Math.log(zx * zx + zy * zy) * 0.5;
  const nu = Math.log(logMod / Math.LN2) / Math.LN2;
  return iter + 1 - nu;
}

/** Points in the main cardioid or the period-2 bulb never escape. */
function inMainBulbs(x, y) {
  const xq = x - 0.25;
  const q = xq * xq + y * y;
  if (q * (q + xq) <= 0.25 * y * y) return true;
  const xb = x + 1;
  return xb * xb + y * y <= 0.0625;
}

export function mandelbrot(out, width, height, cx, cy, scale, maxIter, samples) {
  const px = blockIdx.x * blockDim.x + threadIdx.x;
  const py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;

  let r = 0;
  let g = 0;
  let b = 0;
  let escaped = 0;
  for (let sy = 0; sy < samples; sy++) {
    for (let sx = 0; sx < samples; sx++) {
      // Sample position inside the pixel, then in the complex plane (aspect kept).
      const u = (px + (sx + 0.5) / samples - width * 0.5) / height;
      const v = (py + (sy + 0.5) / samples - height * 0.5) / height;
      const x0 = cx + u * scale;
      const y0 = cy - v * scale;

      if (inMainBulbs(x0, y0)) continue;

      let zx = 0;
      let zy = 0;
      let iter = 0;
      let trap = 1e20;
      while (iter < maxIter) {
        const x2 = zx * zx;
        const y2 = zy * zy;
        if (x2 + y2 > 256) break;
        zy = 2 * zx * zy + y0;
        zx = x2 - y2 + x0;
        trap = Math.min(trap, Math.abs(zx * zy));
        iter++;
      }
      if (iter >= maxIter) continue;

      escaped++;
      const mu = smoothIteration(zx, zy, iter);
      const t = Math.sqrt(mu / maxIter);
      const glow = clamp01(1 - Math.log(1 + trap * 40) * 0.25);
      r += mix(palette(t, 0), 1, glow * 0.3);
      g += mix(palette(t, 1), 0.9, glow * 0.3);
      b += mix(palette(t, 2), 0.6, glow * 0.3);
    }
  }

  const n = samples * samples;
  const coverage = escaped / n;
  let red = 0;
  let green = 0;
  let blue = 0;
  if (escaped > 0) {
    red = clamp01(r / escaped) * coverage;
    green = clamp01(g / escaped) * coverage;
    blue = clamp01(b / escaped) * coverage;
  }
  // Gamma 2.2, then pack as 0xRRGGBB.
  const ri = Math.round(Math.pow(red, 1 / 2.2) * 255) | 0;
  const gi = Math.round(Math.pow(green, 1 / 2.2) * 255) | 0;
  const bi = Math.round(Math.pow(blue, 1 / 2.2) * 255) | 0;
  out[py * width + px] = ((ri << 16) | (gi << 8) | bi) >>> 0;
}

export const mandelbrotScope = { clamp01, mix, palette, smoothIteration, inMainBulbs };

/** What each kernel specializes on, and the scope it needs. */
export const KERNELS = {
  saxpy: { fn: saxpy, types: ["f32", "f32[]", "f32[]"], scope: undefined },
  matmul: { fn: matmul, types: ["f32[]", "f32[]", "f32[]", "i32"], scope: undefined },
  blockSums: { fn: blockSums, types: ["f32[]", "f32[]"], scope: undefined },
  matmulTiled: { fn: matmulTiled, types: ["f32[]", "f32[]", "f32[]", "i32"], scope: undefined },
  mandelbrot: { fn: mandelbrot, types: ["u32[]", "i32", "i32", "f32", "f32", "f32", "i32", "i32"], scope: mandelbrotScope },
};

/** Lines of source the ~100-line kernel compiles (kernel plus helpers). */
export function mandelbrotLines() {
  return [mandelbrot, ...Object.values(mandelbrotScope)].reduce((n, f) => n + f.toString().split("\n").length, 0);
}
