// The OpenCL C target's helpers: functions the emitted code calls where JavaScript's meaning needs
// more than a built-in (legal.ts marks those ops `helper`), collected by targets/helpers.ts
// (helperClosure) and emitted before the kernel.

import type { Helper } from "../helpers.js";

interface OpenCLHelper extends Helper { readonly text: string }

/** OpenCL C functions gpuc's code may call (each with the helpers it calls). */
export const OPENCL_HELPERS: Readonly<Record<string, OpenCLHelper>> = {
  // JS's `**`: C's pow gives 1 for pow(1, NaN) and pow(-1, ±inf), JavaScript NaN; elsewhere C99's
  // special cases are JavaScript's (pow(x, ±0) is 1 for every x, NaN included, in both).
  gpuc_pow: { deps: [], text: "float gpuc_pow(float x, float y) { return (isnan(y) || (fabs(x) == 1.0f && isinf(y))) ? NAN : pow(x, y); }" },
  gpuc_pow_d: { deps: [], text: "double gpuc_pow_d(double x, double y) { return (isnan(y) || (fabs(x) == 1.0 && isinf(y))) ? (double)NAN : pow(x, y); }" },
};
