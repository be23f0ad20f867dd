// What the targets' layouts (<target>/layout.ts) share: the kernel arguments of the OpenCL family
// (OpenCL C, SPIR-V, LLVM IR — one order and one set of roles, so that one loader binds them all),
// and the parts each layout's schema is made of (in the targets' read-back.ts: the devices import
// the layouts, and a bundle that leaves out the read-back checks leaves out the schemas).

import type { SchemaKit } from "./target.js";

/**
 * What the loader passes for one argument of an OpenCL-family kernel: a kernel parameter's value
 * (`value`), an array parameter's buffer (`buffer`), the element offset of the array's first
 * element in that buffer (`offset`: a view passes its base's buffer), its length (`length`); the
 * kernel state and its length in words (`state`, `state-length`); a constant table's buffer
 * (`table`, by manifest index); a shared array sized at launch (`local`: local memory of the
 * launch's size, by index among those arrays; on an AMD GPU the array's byte offset in the
 * launch's dynamic LDS) and its length (`local-length`).
 */
export const ARG_ROLES = ["value", "buffer", "offset", "length", "state", "state-length", "table", "local", "local-length"] as const;

export interface KernelArg {
  /** The argument's name: in the kernel's signature (OpenCL C), or the parameter's, table's or shared array's, for messages. */
  name: string;
  role: (typeof ARG_ROLES)[number];
  /** The kernel parameter's index (`value`, `buffer`, `offset`, `length`), table or dynamic shared array index; -1 for the state. */
  index: number;
}

/** The parts of the layouts' schemas (read back from caches and images), made with the caller's valibot. */
export function schemaParts(v: SchemaKit) {
  const count = v.pipe(v.number(), v.integer(), v.minValue(0));
  const int = v.pipe(v.number(), v.integer());
  return {
    count, int,
    /** Per line of the code, the id of its source location or -1. */
    lines: v.array(int),
    /** The constant tables in manifest order: the symbol that holds each. */
    tables: v.array(v.strictObject({ symbol: v.string(), index: count })),
    /** An OpenCL-family kernel's arguments (KernelArg), with the target's own fields. */
    args: (extra: Record<string, Parameters<SchemaKit["strictObject"]>[0][string]> = {}) =>
      v.array(v.strictObject({ name: v.string(), role: v.picklist(ARG_ROLES), index: int, ...extra })),
  };
}
