// n-body: one all-pairs integration step, as in NVIDIA's nbody sample, with bodies as values —
// `{ x, y, z, w }` (position and mass) read from a Float32Array of 4·n, and a helper that returns
// the acceleration `{ x, y, z }`. Object values compile to scalars: nothing is allocated.
import { kernel, blockIdx, blockDim, threadIdx, type Device, type f32, type i32 } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

interface Body { x: f32; y: f32; z: f32; w: f32 }
interface Vec3 { x: f32; y: f32; z: f32 }

const SOFTENING_SQUARED = 0.01;
const DAMPING = 0.995;

/** Body i of an array of 4·n floats. */
function body(a: Float32Array, i: i32): Body {
  return { x: a[4 * i], y: a[4 * i + 1], z: a[4 * i + 2], w: a[4 * i + 3] };
}

function store(a: Float32Array, i: i32, b: Body) {
  a[4 * i] = b.x;
  a[4 * i + 1] = b.y;
  a[4 * i + 2] = b.z;
  a[4 * i + 3] = b.w;
}

/** The acceleration `ai` plus what body j exerts on body i (bj.w is j's mass). */
function bodyBodyInteraction(ai: Vec3, bi: Body, bj: Body): Vec3 {
  const r = { x: bj.x - bi.x, y: bj.y - bi.y, z: bj.z - bi.z };
  const distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING_SQUARED;
  const invDist = 1 / Math.sqrt(distSqr);
  const s = bj.w * (invDist * invDist * invDist);
  return { x: ai.x + r.x * s, y: ai.y + r.y * s, z: ai.z + r.z * s };
}

export const integrate = kernel(function integrateBodies(newPos: Float32Array, newVel: Float32Array, oldPos: Float32Array, oldVel: Float32Array, dt: f32, n: i32) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const bi = body(oldPos, i);
  let acc = { x: 0, y: 0, z: 0 };
  for (let j = 0; j < n; j++) acc = bodyBodyInteraction(acc, bi, body(oldPos, j));
  const v0 = body(oldVel, i);
  const v = { x: (v0.x + acc.x * dt) * DAMPING, y: (v0.y + acc.y * dt) * DAMPING, z: (v0.z + acc.z * dt) * DAMPING, w: v0.w };
  store(newPos, i, { x: bi.x + v.x * dt, y: bi.y + v.y * dt, z: bi.z + v.z * dt, w: bi.w });
  store(newVel, i, v);
}, { scope: { body, store, bodyBodyInteraction, SOFTENING_SQUARED, DAMPING } });

const example: Example = {
  name: "nbody",
  description: "one all-pairs n-body step of 2048 bodies ({x, y, z, w} values, a helper returning {x, y, z})",
  kernels: [{ kernel: integrate, types: ["f32[]", "f32[]", "f32[]", "f32[]", "f32", "i32"] }],
  async run(dev: Device) {
    const n = 2048, dt = 0.01;
    const rnd = random(11);
    const pos = Float32Array.from({ length: 4 * n }, (_, k) => (k % 4 === 3 ? 0.5 + rnd() : rnd() * 2 - 1));
    const vel = Float32Array.from({ length: 4 * n }, (_, k) => (k % 4 === 3 ? 0 : rnd() * 0.2 - 0.1));
    const newPos = new Float32Array(4 * n), newVel = new Float32Array(4 * n);
    const cfg = { blocks: Math.ceil(n / 256), threads: 256 };
    await integrate.launch(dev, cfg, newPos, newVel, pos, vel, dt, n); // compiles
    const [, kernelMs] = await timeAsync(() => integrate.launch(dev, cfg, newPos, newVel, pos, vel, dt, n));
    // Plain JS with the kernel language's f32 semantics: every operation rounded to f32.
    const f = Math.fround, dtf = f(dt);
    const refPos = new Float32Array(4 * n), refVel = new Float32Array(4 * n);
    const [, referenceMs] = time(() => {
      for (let i = 0; i < n; i++) {
        const bi = { x: pos[4 * i], y: pos[4 * i + 1], z: pos[4 * i + 2], w: pos[4 * i + 3] };
        let acc = { x: 0, y: 0, z: 0 };
        for (let j = 0; j < n; j++) {
          const r = { x: f(pos[4 * j] - bi.x), y: f(pos[4 * j + 1] - bi.y), z: f(pos[4 * j + 2] - bi.z) };
          const distSqr = f(f(f(f(r.x * r.x) + f(r.y * r.y)) + f(r.z * r.z)) + f(SOFTENING_SQUARED));
          const invDist = f(1 / f(Math.sqrt(distSqr)));
          const s = f(pos[4 * j + 3] * f(f(invDist * invDist) * invDist));
          acc = { x: f(acc.x + f(r.x * s)), y: f(acc.y + f(r.y * s)), z: f(acc.z + f(r.z * s)) };
        }
        const damp = (v: number, a: number) => f(f(v + f(a * dtf)) * f(DAMPING));
        const v = { x: damp(vel[4 * i], acc.x), y: damp(vel[4 * i + 1], acc.y), z: damp(vel[4 * i + 2], acc.z), w: vel[4 * i + 3] };
        refPos.set([f(bi.x + f(v.x * dtf)), f(bi.y + f(v.y * dtf)), f(bi.z + f(v.z * dtf)), bi.w], 4 * i);
        refVel.set([v.x, v.y, v.z, v.w], 4 * i);
      }
    });
    // GPUs sum 2048 terms whose order is the same but whose square roots and divisions may round
    // differently (WGSL allows inexact ones): a relative 1e-4 there; exact on the CPU device.
    const ok = agree(newPos, refPos, dev, 1e-4) && agree(newVel, refVel, dev, 1e-4);
    return { summary: `body 0 moves to (${Array.from(newPos.slice(0, 3), (v) => v.toFixed(4)).join(", ")})`, ok, kernelMs, referenceMs };
  },
};
export default example;
