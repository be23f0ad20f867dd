// Shared helpers of the execution suites: a seeded PRNG, poisoned outputs, array comparison.

import assert from "node:assert/strict";

/** xorshift32: a tiny seeded PRNG. */
export function prng(seed: number) {
  let s = seed >>> 0 || 0x9e3779b9;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  return {
    u32: next,
    i32: () => next() | 0,
    int: (lo: number, hi: number) => lo + (next() % (hi - lo + 1)),
    float: (lo: number, hi: number) => lo + (next() / 4294967296) * (hi - lo),
  };
}
export const randF32 = (seed: number, n: number, lo = -1, hi = 1) => { const r = prng(seed); return Float32Array.from({ length: n }, () => r.float(lo, hi)); };
export const randF64 = (seed: number, n: number, lo = -1, hi = 1) => { const r = prng(seed); return Float64Array.from({ length: n }, () => r.float(lo, hi)); };
export const randI32 = (seed: number, n: number, lo: number, hi: number) => { const r = prng(seed); return Int32Array.from({ length: n }, () => r.int(lo, hi)); };
export const randFullI32 = (seed: number, n: number) => { const r = prng(seed); return Int32Array.from({ length: n }, () => r.i32()); };
export const randFullU32 = (seed: number, n: number) => { const r = prng(seed); return Uint32Array.from({ length: n }, () => r.u32()); };

export const SENT_I = -123456789;
export const SENT_U = 0xdeadbeef;
export const poisonF32 = (n: number) => new Float32Array(n).fill(NaN);
export const poisonF64 = (n: number) => new Float64Array(n).fill(NaN);
export const poisonI32 = (n: number) => new Int32Array(n).fill(SENT_I);
export const poisonU32 = (n: number) => new Uint32Array(n).fill(SENT_U);

/** Full-array comparison (deepStrictEqual: NaN equals NaN, -0 differs from 0). */
export function same(got: ArrayLike<number>, want: ArrayLike<number>, msg?: string): void {
  assert.equal(got.length, want.length, `${msg ?? "array"}: length`);
  assert.deepEqual(Array.from(got), Array.from(want), msg);
}
