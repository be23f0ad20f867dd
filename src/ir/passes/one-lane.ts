// Subgroups of one thread (legal.ts `subgroups: "one-lane"`: OpenCL C, SPIR-V, LLVM IR — OpenCL
// 1.2's model has no subgroups): every subgroup operation becomes the value it has for a subgroup
// of one, and subgroupSize() and the lane index are the constants 1 and 0.
//
// Why it is sound: in a subgroup of one every operation is exact and needs no other thread: a
// shuffle reads the thread's own value (any other lane is outside the subgroup, where the kernel
// language's shuffles keep the reader's value), a reduction or a vote is of one value (-0 + x and
// Math.min/max of x alone are x, as on the CPU device with subgroups of one), a ballot is bit 0
// (`v ? 1 : 0`), and a subgroup barrier waits for no one.

import type { Module } from "../module.js";
import { rewriteBlock } from "../module.js";
import { Builder } from "./legalize.js";

export function oneLaneSubgroups(m: Module): void {
  for (const f of m.functions) {
    f.exprs.forEach((e, h) => {
      if (e.k === "builtin" && (e.name === "subgroupSize" || e.name === "subgroupLaneId")) f.exprs[h] = { k: "const", value: e.name === "subgroupSize" ? 1 : 0, type: e.type, loc: e.loc };
    });
    const b = new Builder(f, false);
    f.body = rewriteBlock(f.body, (s) => {
      if (s.k !== "subgroup") return s;
      const [v] = s.args;
      const value = s.op !== "ballot" ? v : b.select(v, b.const(1, "u32"), b.const(0, "u32"));
      return { k: "set", local: s.result, value, loc: s.loc };
    });
  }
}
