// Zero fills as loops: where a target has no way to zero a private array at once (SPIR-V, LLVM
// IR, OpenCL C: legal.ts `zeroFill: "loop"`), each `init` becomes a counted loop of stores (a
// private array may be large). WGSL assigns `T()` and PTX unrolls a small array's stores: they
// spell `init` themselves.
//
//   init a    →   k = 0; loop { if (k >= n) { break } a[k] = 0; continuing { k = k + 1 } }
//
// Why it is sound: the loop stores 0 (false for bool elements) into elements 0 … n - 1 of the
// array, n its constant length, in order, and nothing else: what `init` means. The counter is a
// fresh local, read by nothing else.

import type { LocalHandle, Module, Stmt } from "../module.js";
import { rewriteBlock } from "../module.js";
import { elemScalar } from "../types.js";
import { InternalCompilerError } from "../../errors.js";
import { Builder } from "./legalize.js";

export function zeroFillLoops(m: Module): void {
  for (const f of m.functions) {
    const b = new Builder(f, false);
    b.current = "zero";
    f.body = rewriteBlock(f.body, (s) => (s.k === "init" ? loop(b, s.local, s.loc) : s));
  }
}

function loop(b: Builder, array: LocalHandle, loc: Stmt["loc"]): Stmt[] {
  const t = b.f.locals[array].type;
  if (t.kind !== "array" || t.size === null) throw new InternalCompilerError(`init of local ${array}, which is not a private array`);
  const k = b.local("i32", "k"), s = elemScalar(t.elem);
  return [
    { k: "set", local: k, value: b.const(0, "i32"), loc },
    {
      k: "loop", loc, breakIf: null,
      body: [
        { k: "if", cond: b.op("ge", [b.read(k), b.const(t.size, "i32")]), then: [{ k: "break", loc }], else: [], loc },
        { k: "store", array: b.read(array), index: b.read(k), value: b.const(s === "bool" ? false : 0, s), loc },
      ],
      continuing: [{ k: "set", local: k, value: b.op("add", [b.read(k), b.const(1, "i32")]), loc }],
    },
  ];
}
