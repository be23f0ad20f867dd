// Legalizing (ir/passes/legalize.ts): every lowering of every target's table keeps the op's
// JavaScript value on edge inputs, the op it leaves behind only ever sees the inputs its target's
// instruction agrees on (even where a target evaluates both sides of a select, as PTX's selp
// does), operands are computed once, and back ends refuse a module that was not legalized.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { Block, Expr, ExprHandle, Function as IRFunction, LocalHandle, Module, Stmt } from "../src/ir/module.ts";
import { OPS, acceptsOperand, resultScalar, type OpName } from "../src/ir/ops.ts";
import { T, wrapValue, type Scalar } from "../src/ir/types.ts";
import { validateModule } from "../src/ir/validate.ts";
import { CONVERT_LOWERINGS, LOWERINGS, legalize, type ConvertLowering, type LegalTable, type Lowering } from "../src/ir/passes/legalize.ts";
import { InternalCompilerError } from "../src/errors.ts";
import { WGSL_LEGAL } from "../src/targets/wgsl/legal.ts";
import { PTX_LEGAL } from "../src/targets/ptx/legal.ts";
import { OPENCL_LEGAL } from "../src/targets/opencl/legal.ts";
import { SPIRV_LEGAL } from "../src/targets/spirv/legal.ts";
import { JS_LEGAL } from "../src/targets/js/legal.ts";
import { emitWGSL } from "../src/targets/wgsl/emit.ts";
import { emitPTX } from "../src/targets/ptx/emit.ts";
import { emitJS } from "../src/targets/js/emit.ts";

const TABLES = [WGSL_LEGAL, PTX_LEGAL, OPENCL_LEGAL, SPIRV_LEGAL];
const fmt = (v: number | boolean) => (Object.is(v, -0) ? "-0" : String(v));

const EDGES: Record<Scalar, (number | boolean)[]> = {
  bool: [false, true],
  i32: [0, 1, -1, 2, -2, 7, -7, 31, 32, 33, -31, -32, -33, 2147483647, -2147483648, -2147483647, 123456789],
  u32: [0, 1, 2, 7, 31, 32, 33, 2147483647, 2147483648, 4294967295, 4294967294, 123456789],
  f32: [0, -0, 1, -1, 0.5, -2.5, 3.75, NaN, Infinity, -Infinity, Math.fround(1e-40), Math.fround(3e38), Math.fround(-1e-7)],
  f64: [0, -0, 1, -1, 0.5, -2.5, 3.75, NaN, Infinity, -Infinity, 5e-324, 1.7e308, -1e-300],
};

/** A kernel with scalar locals x, y (type t) and r (the result), whose body `body` builds. */
function module(t: Scalar, rt: Scalar, body: (e: (x: Expr) => ExprHandle, x: () => ExprHandle, y: () => ExprHandle) => ExprHandle): Module {
  const f: IRFunction = {
    name: "k", kind: "kernel", params: [], paramNames: [], stateParam: null, returnType: T.void, loc: null, exprs: [], body: [],
    locals: [{ name: "x", type: T.scalar(t) }, { name: "y", type: T.scalar(t) }, { name: "r", type: T.scalar(rt) }],
  };
  const e = (x: Expr): ExprHandle => { f.exprs.push(x); return (f.exprs.length - 1) as ExprHandle; };
  const read = (l: number) => () => e({ k: "local", local: l as LocalHandle, type: T.scalar(t), loc: null });
  f.body = [{ k: "set", local: 2 as LocalHandle, value: body(e, read(0), read(1)), loc: null }];
  return { name: "k", debugLevel: 1, boundsCheck: true, functions: [f], entry: 0 as never, globals: [], shared: [], messages: [], formats: [], methodsUsed: [] };
}

/**
 * Run a straight-line body. Lazily, a select evaluates the chosen side only (the IR's meaning),
 * and every op the table lowers that is still there must see inputs in its lowering's domain.
 * `eager`: both sides of every select (and of && / ||) are computed, as a target that computes
 * both and picks one would, and every such op must see inputs it may be given at all.
 */
function run(m: Module, x: number | boolean, y: number | boolean, table: LegalTable, eager: boolean): number | boolean {
  const f = m.functions[0];
  const env: (number | boolean)[] = [x, y, 0];
  const ev = (h: ExprHandle): number | boolean => {
    const e = f.exprs[h];
    switch (e.k) {
      case "const": return e.value;
      case "local": return env[e.local];
      case "select": {
        const c = ev(e.cond);
        if (eager) { const a = ev(e.a), b = ev(e.b); return c ? a : b; }
        return c ? ev(e.a) : ev(e.b);
      }
      case "convert": {
        const from = (f.exprs[e.arg].type as { scalar: Scalar }).scalar, to = (e.type as { scalar: Scalar }).scalar;
        const v = ev(e.arg);
        const how = table.converts?.[`${from}>${to}`];
        if (how && how !== "native" && how !== "helper" && !eager)
          assert.ok(CONVERT_LOWERINGS[how].domain(v as number, from, to), `${table.target}: conversion ${from}>${to} left with input ${fmt(v)} outside '${how}'s domain`);
        return wrapValue(to, v);
      }
      case "op": {
        const t = (f.exprs[e.args[0]].type as { scalar: Scalar }).scalar;
        const args = (e.op === "land" || e.op === "lor") && !eager
          ? [ev(e.args[0]), (e.op === "land") === Boolean(ev(e.args[0])) ? ev(e.args[1]) : false]
          : e.args.map(ev);
        const how = table.ops[e.op]?.[t];
        if (how && how !== "native" && how !== "helper" && how !== "overlay") {
          const rule: { domain(a: typeof args, t: Scalar): boolean; speculable?(a: typeof args, t: Scalar): boolean } = LOWERINGS[how];
          if (!eager) assert.ok(rule.domain(args, t), `${table.target}: ${e.op} on ${t} left with inputs (${args.map(String).join(", ")}) outside '${how}'s domain`);
          else if (rule.speculable) assert.ok(rule.speculable(args, t), `${table.target}: ${e.op} on ${t} computed (eagerly) on inputs (${args.map(String).join(", ")}) it may not be given`);
        }
        return wrapValue(resultScalar(e.op, t), OPS[e.op].eval(args, t));
      }
      default: throw new Error(`unexpected ${e.k} in a legalized test body`);
    }
  };
  const exec = (b: Block): void => {
    for (const s of b) {
      if (s.k === "if") { exec(ev(s.cond) ? s.then : s.else); continue; }
      assert.equal(s.k, "set");
      const st = s as Extract<Stmt, { k: "set" }>;
      env[st.local] = ev(st.value);
    }
  };
  exec(f.body);
  return env[2];
}

const lowered = (table: LegalTable) => Object.entries(table.ops).flatMap(([op, byType]) =>
  Object.entries(byType!).filter(([, how]) => how !== "native" && how !== "helper" && how !== "overlay").map(([t, how]) => ({ op: op as OpName, t: t as Scalar, how: how as Lowering })));

for (const table of TABLES) {
  test(`legalize for ${table.target}: every lowering keeps JS's value on edge inputs and leaves its op only inputs in its domain`, () => {
    const cases = lowered(table);
    assert.ok(cases.length >= 6, `${table.target} lowers some ops`);
    for (const { op, t, how } of cases) {
      const row = OPS[op];
      const rt = resultScalar(op, t);
      // Operands as plain local reads, as the same local twice, and as computed values (bound to temporaries).
      const shapes: [string, (e: (x: Expr) => ExprHandle, x: () => ExprHandle, y: () => ExprHandle) => ExprHandle[]][] = [
        ["locals", (_e, x, y) => (row.arity === 1 ? [x()] : [x(), y()])],
        ["same local", (_e, x) => (row.arity === 1 ? [x()] : [x(), x()])],
        ["computed", (e, x, y) => {
          const plus0 = (h: ExprHandle) => e({ k: "select", cond: e({ k: "const", value: true, type: T.bool, loc: null }), a: h, b: e({ k: "const", value: 0, type: T.scalar(t), loc: null }), type: T.scalar(t), loc: null });
          return row.arity === 1 ? [plus0(x())] : [plus0(x()), plus0(y())];
        }],
      ];
      // And with a constant second operand (each edge value in turn).
      if (row.arity === 2) for (const k of EDGES[t]) shapes.push([`constant ${fmt(k)}`, (e, x) => [x(), e({ k: "const", value: k, type: T.scalar(t), loc: null })]]);
      for (const [shape, operands] of shapes) {
        const m = module(t, rt, (e, x, y) => e({ k: "op", op, args: operands(e, x, y), type: T.scalar(rt), loc: null }));
        legalize(m, table);
        validateModule(m);
        const constant = shape.startsWith("constant") ? EDGES[t].find((k) => `constant ${fmt(k)}` === shape)! : undefined;
        for (const a of EDGES[t]) for (const b of (row.arity === 1 || constant !== undefined ? [constant ?? 0] : EDGES[t])) {
          const same = shape === "same local";
          const want = wrapValue(rt, row.eval(row.arity === 1 ? [a] : [a, same ? a : b], t));
          for (const eager of [false, true]) {
            const got = run(m, a, b, table, eager);
            assert.ok(Object.is(got, want), `${table.target} '${how}': ${op}(${fmt(a)}${row.arity === 2 ? `, ${fmt(same ? a : b)}` : ""}) on ${t} (${shape}${eager ? ", eager" : ""}) gave ${fmt(got)}, JS gives ${fmt(want)}`);
          }
        }
      }
    }
  });
}

const CONVERT_EDGES: number[] = [...(EDGES.f64 as number[]), 2147483647, 2147483648, -2147483648, -2147483649, 4294967295, 4294967296, 4294967297.5, -4294967297, 1e10 + 0.5, -1e10, 2 ** 52 + 3, 2 ** 60, -(2 ** 63), 1e300, 0.9999999, -0.9999999, 123.75, -123.75];

for (const table of TABLES) {
  test(`legalize for ${table.target}: float → i32/u32 conversions wrap as JS's ToInt32/ToUint32 (in a statement, and under a select)`, () => {
    const cases = Object.entries(table.converts ?? {}).filter(([, how]) => how !== "native" && how !== "helper") as [`${Scalar}>${Scalar}`, ConvertLowering][];
    assert.ok(cases.length >= 2);
    for (const [k] of cases) {
      const [from, to] = k.split(">") as [Scalar, Scalar];
      const values = from === "f32" ? [...new Set(CONVERT_EDGES.map((v) => Math.fround(v)))] : CONVERT_EDGES;
      // r = to(x); and r = x > -1e30 ? to(x) : 7 (the conversion under a select: no branch there).
      const shapes: [string, (e: (x: Expr) => ExprHandle, x: () => ExprHandle) => ExprHandle][] = [
        ["statement", (e, x) => e({ k: "convert", arg: x(), type: T.scalar(to), loc: null })],
        ["computed operand", (e, x) => e({ k: "convert", arg: e({ k: "op", op: "add", args: [x(), e({ k: "const", value: 0, type: T.scalar(from), loc: null })], type: T.scalar(from), loc: null }), type: T.scalar(to), loc: null })],
        ["under a select", (e, x) => e({ k: "select", type: T.scalar(to), loc: null, cond: e({ k: "op", op: "gt", args: [x(), e({ k: "const", value: -1e30, type: T.scalar(from), loc: null })], type: T.bool, loc: null }),
          a: e({ k: "convert", arg: x(), type: T.scalar(to), loc: null }), b: e({ k: "const", value: 7, type: T.scalar(to), loc: null }) })],
      ];
      for (const [shape, body] of shapes) {
        const m = module(from, to, (e, x) => body(e, x));
        legalize(m, table);
        validateModule(m);
        if (shape === "under a select") assert.equal(m.functions[0].body.length, 1, "no statement is added for a conversion under a select");
        else assert.ok(m.functions[0].body.some((s) => s.k === "if"), "the wide case is a branch");
        for (const v of values) for (const eager of [false, true]) {
          const want = shape === "under a select" && !(v > -1e30) ? 7 : wrapValue(to, v);
          const got = run(m, v, 0, table, eager);
          assert.ok(Object.is(got, want), `${table.target}: ${k}(${fmt(v)}) (${shape}${eager ? ", eager" : ""}) gave ${fmt(got)}, JS gives ${fmt(want)}`);
        }
      }
    }
  });
}

test("legalize: an operand computed by its statement is computed once, into a temporary before it; under a select it is copied", () => {
  // r = x / (y + 1): the divisor goes to a temporary read three times (PTX's table).
  const m = module("i32", "i32", (e, x, y) => e({ k: "op", op: "div", type: T.i32, loc: null,
    args: [x(), e({ k: "op", op: "add", args: [y(), e({ k: "const", value: 1, type: T.i32, loc: null })], type: T.i32, loc: null })] }));
  legalize(m, PTX_LEGAL);
  validateModule(m);
  const f = m.functions[0];
  assert.deepEqual(f.body.map((s) => s.k), ["set", "set"]);
  assert.equal(f.locals[(f.body[0] as Extract<Stmt, { k: "set" }>).local].name, "div_divisor");
  const adds = (h: ExprHandle): number => { const e = f.exprs[h]; return (e.k === "op" && e.op === "add" ? 1 : 0) + (e.k === "op" ? e.args.reduce((n, a) => n + adds(a), 0) : e.k === "select" ? adds(e.cond) + adds(e.a) + adds(e.b) : 0); };
  assert.equal(f.body.reduce((n, s) => n + adds((s as Extract<Stmt, { k: "set" }>).value), 0), 1, "y + 1 is computed once");

  // Under a select's arm the statement may not compute it: no temporary, the tree is copied.
  const c = module("i32", "i32", (e, x, y) => e({ k: "select", type: T.i32, loc: null, cond: e({ k: "op", op: "gt", args: [x(), e({ k: "const", value: 0, type: T.i32, loc: null })], type: T.bool, loc: null }),
    a: e({ k: "op", op: "div", type: T.i32, loc: null, args: [x(), e({ k: "op", op: "add", args: [y(), e({ k: "const", value: 1, type: T.i32, loc: null })], type: T.i32, loc: null })] }),
    b: e({ k: "const", value: 5, type: T.i32, loc: null }) }));
  legalize(c, PTX_LEGAL);
  validateModule(c);
  assert.equal(c.functions[0].body.length, 1);
  for (const [x, y] of [[7, 2], [7, -1], [7, -2], [-2147483648, -2], [-5, 0]]) assert.equal(run(c, x, y, PTX_LEGAL, false), x > 0 ? wrapValue("i32", (x / (y + 1)) | 0) : 5);
});

test("legalize: JS lowers nothing; a table naming a lowering for an op it does not serve is an internal error", () => {
  const m = module("i32", "i32", (e, x, y) => e({ k: "op", op: "div", args: [x(), y()], type: T.i32, loc: null }));
  const before = JSON.stringify(m.functions[0].exprs);
  legalize(m, JS_LEGAL);
  assert.equal(JSON.stringify(m.functions[0].exprs), before);
  assert.equal(m.legalizedFor, "js");
  const bad: LegalTable = { target: "bad", ops: { add: { i32: "shift-mod-32" } }, nanTestsByBits: false, checks: "keep" };
  assert.throws(() => legalize(module("i32", "i32", (e, x, y) => e({ k: "op", op: "add", args: [x(), y()], type: T.i32, loc: null })), bad), InternalCompilerError);
  for (const table of [...TABLES, JS_LEGAL]) for (const [op, byType] of Object.entries(table.ops)) for (const t of Object.keys(byType!))
    assert.ok(acceptsOperand(OPS[op as OpName].operands, t as Scalar), `${table.target}: ${op} on ${t}`);
});

test("back ends refuse a module that was not legalized for them", () => {
  const fresh = () => module("i32", "i32", (e, x, y) => e({ k: "op", op: "div", args: [x(), y()], type: T.i32, loc: null }));
  assert.throws(() => emitWGSL(fresh()), (e: unknown) => e instanceof InternalCompilerError && /not legalized/.test(e.message));
  assert.throws(() => emitPTX(fresh(), {}), InternalCompilerError);
  assert.throws(() => emitJS(fresh()), InternalCompilerError);
  const forPTX = fresh();
  legalize(forPTX, PTX_LEGAL);
  assert.throws(() => emitWGSL(forPTX), (e: unknown) => e instanceof InternalCompilerError && /legalized for 'ptx'/.test(e.message));
});
