// Launch-time sizes in the kernel: where a target places the shared arrays sized at launch itself
// (PTX: one block of dynamic shared memory; legal.ts `launchSizes: "kernel"`), the kernel computes
// each one's length and byte offset in that block at its start, as IR, which legalize then gives
// JavaScript's i32 meaning like any arithmetic:
//
//   len_0 = size_0; at_0 = 0
//   len_i = size_i; at_i = (at_{i-1} + len_{i-1} * bytes_{i-1} + 15) & -16     (16-byte aligned, in order)
//
// and records the two locals on the shared array (`Shared.placed`); the emitter adds the offset
// to the block's address and reads the length for the bounds checks.
//
// Why it is sound: a size reads only the kernel's integer parameters (which keep their
// arguments' values: infer checks it), blockDim and constants, and sizeIR spells each node with
// the IR op of the same i32 meaning as ir/size.ts evalSize, which the loader uses (wrapping
// add, sub and mul; x / 0 and x % 0 are 0 and -2^31 / -1 wraps — legalize's divisor-safe
// lowering; shift counts mod 32; comparisons of i32), so each local holds what the loader
// computed, and the offsets follow the loader's layout. The statements come first in the kernel,
// before anything can read a shared array; nothing else writes the fresh locals.

import type { Expr, ExprHandle, Module } from "../module.js";
import type { SizeExpr } from "../size.js";
import { T, elemBytes } from "../types.js";
import { Builder } from "./legalize.js";

/** A launch-time size as an i32 IR expression: `add` adds a node, `param` reads parameter i as an i32. */
export function sizeIR(e: SizeExpr, add: (x: Expr) => ExprHandle, param: (index: number) => ExprHandle): ExprHandle {
  const sub = (x: SizeExpr) => sizeIR(x, add, param);
  switch (e.k) {
    case "param": return param(e.index);
    case "blockDim": return add({ k: "builtin", name: `blockDim.${"xyz"[e.axis]}` as "blockDim.x", type: T.i32, loc: null });
    case "const": return add({ k: "const", value: e.value | 0, type: T.i32, loc: null });
    case "op": return add({ k: "op", op: e.op, args: [sub(e.args[0]), sub(e.args[1])], type: T.i32, loc: null });
    case "select": {
      const cond = add({ k: "op", op: e.cmp, args: [sub(e.args[0]), sub(e.args[1])], type: T.bool, loc: null });
      return add({ k: "select", cond, a: sub(e.a), b: sub(e.b), type: T.i32, loc: null });
    }
  }
}

export function placeLaunchSizes(m: Module): void {
  if (!m.shared.some((sh) => sh.size)) return;
  const f = m.functions[m.entry], b = new Builder(f, false);
  b.current = "launch";
  const param = (i: number) => {
    const h = b.read(f.params[i]);
    return (f.locals[f.params[i]].type as { scalar?: string }).scalar === "i32" ? h : b.convert(h, "i32");
  };
  const head: typeof f.body = [];
  let prev: { length: ExprHandle; offset: ExprHandle; bytes: number } | null = null;
  for (const sh of m.shared) {
    if (!sh.size) continue;
    const length = b.local("i32", "len"), offset = b.local("i32", "at");
    head.push({ k: "set", local: length, value: sizeIR(sh.size, (x) => b.add(x), param), loc: null });
    const at = prev === null ? b.const(0, "i32")
      : b.op("and", [b.op("add", [b.op("add", [prev.offset, b.op("mul", [prev.length, b.const(prev.bytes, "i32")])]), b.const(15, "i32")]), b.const(-16, "i32")]);
    head.push({ k: "set", local: offset, value: at, loc: null });
    sh.placed = { length, offset };
    prev = { length: b.read(length), offset: b.read(offset), bytes: elemBytes(sh.type.elem) };
  }
  f.body = [...head, ...f.body];
}
