// The shape of an example: its kernels (for compiling to every target) and a run on a device
// that checks the result against plain JavaScript.
import type { Device, Kernel } from "gpuc";

export interface ExampleRun {
  /** One line: what was computed. */
  summary: string;
  /** Whether the device result matches the plain-JS reference. */
  ok: boolean;
  /** Wall time of the kernel launches (after a first, compiling launch). */
  kernelMs: number;
  /** Wall time of the plain-JS reference on the same data. */
  referenceMs: number;
}

export interface Example {
  name: string;
  description: string;
  /** Kernels with the argument types they are compiled for. */
  kernels: { kernel: Kernel; types: string[] }[];
  run(dev: Device): Promise<ExampleRun>;
}

/** A deterministic PRNG (xorshift32) for example inputs. */
export function random(seed = 1): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

export function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

export async function timeAsync<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

/**
 * Whether a device's result agrees with the plain-JS reference: exactly on the CPU device (the
 * reference semantics), and on GPU devices exactly for integers and within 1e-5 relative for
 * floats (their math functions and operation order may round differently).
 */
export function agree(got: ArrayLike<number>, want: ArrayLike<number>, dev: Device, tolerance = 1e-5, allowedMismatches = 0): boolean {
  if (got.length !== want.length) return false;
  const exact = dev.kind === "cpu" || got instanceof Int32Array || got instanceof Uint32Array;
  let mismatches = 0;
  for (let i = 0; i < got.length; i++) {
    const a = got[i], b = want[i];
    const ok = exact ? a === b || (a !== a && b !== b) : Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));
    if (!ok && (exact && dev.kind === "cpu" || ++mismatches > allowedMismatches)) return false;
  }
  return true;
}
