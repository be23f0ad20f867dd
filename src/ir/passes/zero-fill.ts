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

import type { Expr, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import { rewriteBlock } from "../module.js";
import { T, elemScalar } from "../types.js";
import { InternalCompilerError } from "../../errors.js";

export function zeroFillLoops(m: Module): void {
  for (const f of m.functions) f.body = rewriteBlock(f.body, (s) => (s.k === "init" ? loop(f, s.local, s.loc) : s));
}

function loop(f: Function, array: LocalHandle, loc: Stmt["loc"]): Stmt[] {
  const t = f.locals[array].type;
  if (t.kind !== "array" || t.size === null) throw new InternalCompilerError(`init of local ${array}, which is not a private array`);
  const add = (e: Expr): ExprHandle => { f.exprs.push(e); return (f.exprs.length - 1) as ExprHandle; };
  f.locals.push({ name: "zero_k", type: T.i32 });
  const k = (f.locals.length - 1) as LocalHandle;
  const read = () => add({ k: "local", local: k, type: T.i32, loc: null });
  const int = (v: number) => add({ k: "const", value: v, type: T.i32, loc: null });
  const zero = elemScalar(t.elem) === "bool" ? add({ k: "const", value: false, type: T.bool, loc: null }) : add({ k: "const", value: 0, type: T.scalar(elemScalar(t.elem)), loc: null });
  return [
    { k: "set", local: k, value: int(0), loc },
    {
      k: "loop", loc, breakIf: null,
      body: [
        { k: "if", cond: add({ k: "op", op: "ge", args: [read(), int(t.size)], type: T.bool, loc: null }), then: [{ k: "break", loc }], else: [], loc },
        { k: "store", array: add({ k: "local", local: array, type: t, loc: null }), index: read(), value: zero, loc },
      ],
      continuing: [{ k: "set", local: k, value: add({ k: "op", op: "add", args: [read(), int(1)], type: T.i32, loc: null }), loc }],
    },
  ];
}
