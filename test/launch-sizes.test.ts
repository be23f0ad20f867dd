// Launch-time sizes computed in the kernel (ir/passes/launch-sizes.ts, the ptx target's): after
// the pass and PTX's legalizing, the statements at the kernel's start give each shared array sized
// at launch the length the loader computes (ir/size.ts evalSize) and the 16-byte-aligned byte
// offset of the loader's layout, on edge arguments (division by 0 and -1, shift counts past 31,
// wrapping products, u32 parameters past 2^31, selects). The generated PTX is assembled by the
// execution suites (test/helpers.ts); a CUDA GPU runs it where one is present.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { Expr, ExprHandle, Function as IRFunction, LocalHandle, Module, Shared, Stmt } from "../src/ir/module.ts";
import { OPS } from "../src/ir/ops.ts";
import { T, elemBytes, wrapValue, type Elem, type Scalar } from "../src/ir/types.ts";
import { evalSize, type SizeExpr } from "../src/ir/size.ts";
import { validateModule } from "../src/ir/validate.ts";
import { legalize } from "../src/ir/passes/legalize.ts";
import { placeLaunchSizes } from "../src/ir/passes/launch-sizes.ts";
import { PTX_LEGAL } from "../src/targets/ptx/legal.ts";

const p = (index: number): SizeExpr => ({ k: "param", index });
const c = (value: number): SizeExpr => ({ k: "const", value });
const op = (o: Extract<SizeExpr, { k: "op" }>["op"], a: SizeExpr, b: SizeExpr): SizeExpr => ({ k: "op", op: o, args: [a, b] });

/** Sizes of every shape a kernel can write, over an i32 n, a u32 u and an i32 d. */
const SIZES: [Elem, SizeExpr][] = [
  ["f32", op("div", p(0), p(2))],
  ["u8", op("rem", p(1), p(2))],
  ["f64", op("shl", p(0), p(2))],
  ["i16", op("shr", op("mul", p(0), c(65537)), op("sub", p(2), c(1)))],
  ["i32", { k: "select", cmp: "le", args: [p(1), c(32)], a: op("max", op("and", p(0), c(1023)), { k: "blockDim", axis: 1 }), b: op("or", op("min", p(2), c(7)), c(1)) }],
  ["u32", op("add", op("mul", { k: "blockDim", axis: 0 }, c(3)), p(1))],
];
const EDGES = { n: [0, 1, -1, 7, -2147483648, 2147483647, 100000], u: [0, 5, 32, 2147483648, 4294967295], d: [0, 1, -1, 3, 31, 32, 33, -2147483648] };

function kernelModule(): Module {
  const f: IRFunction = {
    name: "k", kind: "kernel", params: [0, 1, 2] as LocalHandle[], paramNames: ["n", "u", "d"], stateParam: null, returnType: T.void, loc: null, exprs: [], body: [],
    locals: [{ name: "n", type: T.i32 }, { name: "u", type: T.u32 }, { name: "d", type: T.i32 }],
  };
  const shared: Shared[] = SIZES.map(([elem, size], i) => ({ name: `s${i}`, type: T.array(elem, "shared"), size }));
  return { name: "k", debugLevel: 1, boundsCheck: true, functions: [f], entry: 0 as never, globals: [], shared, messages: [], formats: [], methodsUsed: [] };
}

/** The kernel's straight-line start, run on parameters and blockDim: every local's value. */
function run(f: IRFunction, params: number[], threads: number[]): (number | boolean)[] {
  const env: (number | boolean)[] = [...params];
  const ev = (h: ExprHandle): number | boolean => {
    const e: Expr = f.exprs[h];
    const s = (e.type as { scalar: Scalar }).scalar;
    switch (e.k) {
      case "const": return e.value;
      case "local": return env[e.local];
      case "builtin": return threads["xyz".indexOf(e.name.slice(-1))];
      case "convert": return wrapValue(s, ev(e.arg));
      case "select": return ev(e.cond) ? ev(e.a) : ev(e.b);
      case "op": {
        const t = (f.exprs[e.args[0]].type as { scalar: Scalar }).scalar;
        return wrapValue(s, OPS[e.op].eval(e.args.map(ev), t));
      }
      default: throw new Error(`unexpected ${e.k} at a kernel's start`);
    }
  };
  for (const st of f.body as Stmt[]) {
    assert.equal(st.k, "set");
    const set = st as Extract<Stmt, { k: "set" }>;
    env[set.local] = ev(set.value);
  }
  return env;
}

test("launch-time sizes computed in the kernel (ptx) are the loader's lengths and offsets, on edge arguments", () => {
  const m = kernelModule();
  placeLaunchSizes(m);
  legalize(m, PTX_LEGAL);
  validateModule(m);
  const f = m.functions[0];
  let checked = 0;
  for (const n of EDGES.n) for (const u of EDGES.u) for (const d of EDGES.d) for (const threads of [[1, 1, 1], [256, 4, 1]]) {
    const env = run(f, [n, u, d], threads);
    let at = 0;
    m.shared.forEach((sh) => {
      const want = evalSize(sh.size!, [n, u, d], threads);
      const where = `${sh.name} at n=${n}, u=${u}, d=${d}, blockDim=${threads}`;
      assert.equal(env[sh.placed!.length], want, `length of ${where}`);
      assert.equal(env[sh.placed!.offset], at, `offset of ${where}`);
      at = (at + Math.imul(want, elemBytes(sh.type.elem)) + 15) & -16;
      checked++;
    });
  }
  assert.ok(checked > 1000);
});

test("a kernel without shared arrays sized at launch is left as it was", () => {
  const m = kernelModule();
  m.shared = [{ name: "s", type: T.array("f32", "shared", 64) }];
  placeLaunchSizes(m);
  assert.deepEqual(m.functions[0].body, []);
  assert.equal(m.shared[0].placed, undefined);
});
