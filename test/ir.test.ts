// The IR stage by stage: the validator rejects each broken invariant, the op table's folding is
// exact, the passes keep meaning, and inference specializes and widens as ARCHITECTURE.md says
// ("Inference is the builder").

import { test } from "node:test";
import assert from "node:assert/strict";
import type { Block, Expr, ExprHandle, Function as IRFunction, Module, Stmt } from "../src/ir/module.ts";
import { OPS, type OpName } from "../src/ir/ops.ts";
import { T, wrapValue, type Scalar } from "../src/ir/types.ts";
import { validateModule } from "../src/ir/validate.ts";
import { InvalidIRError } from "../src/ir/module.ts";
import { foldConstants } from "../src/ir/passes/fold.ts";
import { blockDim, blockIdx, device, kernel, KernelError, shared, syncthreads, threadIdx } from "../src/index.ts";

// A scope name a kernel below uses (bound through `scope`, never on the host).
declare const W: Float32Array;

/** A tiny builder for hand-made (and deliberately broken) IR. */
function fn(body: (f: IRFunction, e: (x: Expr) => ExprHandle) => Block, extra: Partial<IRFunction> = {}): Module {
  const f: IRFunction = { name: "k", kind: "kernel", params: [0 as never], locals: [{ name: "out", type: T.array("f32", "global") }, { name: "t", type: T.i32 }],
    exprs: [], body: [], returnType: T.void, loc: null, paramNames: ["out"], stateParam: null, ...extra };
  const e = (x: Expr): ExprHandle => { f.exprs.push(x); return (f.exprs.length - 1) as ExprHandle; };
  f.body = body(f, e);
  return { name: "k", debugLevel: 1, boundsCheck: true, functions: [f], entry: 0 as never, globals: [], shared: [], messages: [], formats: [], methodsUsed: [] };
}
const c = (value: number | boolean, type = T.i32): Expr => ({ k: "const", value, type, loc: null });
const local = (l: number, type: Expr["type"]): Expr => ({ k: "local", local: l as never, type, loc: null });

function rejects(m: Module, pattern: RegExp): void {
  assert.throws(() => validateModule(m), (err: unknown) => err instanceof InvalidIRError && pattern.test(err.message), `expected ${pattern}`);
}

test("validator accepts well-formed IR", () => {
  validateModule(fn((_f, e) => [{ k: "set", local: 1 as never, value: e(c(3)), loc: null }]));
});

test("validator: expressions are trees (a handle used twice)", () => {
  rejects(fn((_f, e) => { const x = e(c(1)); return [{ k: "set", local: 1 as never, value: e({ k: "op", op: "add", args: [x, x], type: T.i32, loc: null }), loc: null }]; }), /used twice/);
});

test("validator: operand and result types follow the op table", () => {
  rejects(fn((_f, e) => [{ k: "set", local: 1 as never, value: e({ k: "op", op: "add", args: [e(c(1)), e(c(1, T.f32))], type: T.i32, loc: null }), loc: null }]), /operands differ/);
  rejects(fn((_f, e) => [{ k: "set", local: 1 as never, value: e({ k: "op", op: "lt", args: [e(c(1)), e(c(2))], type: T.i32, loc: null }), loc: null }]), /gives bool, not i32/);
  rejects(fn((_f, e) => [{ k: "set", local: 1 as never, value: e({ k: "op", op: "and", args: [e(c(1, T.f32)), e(c(2, T.f32))], type: T.f32, loc: null }), loc: null }]), /does not accept f32/);
  rejects(fn((_f, e) => [{ k: "set", local: 1 as never, value: e({ k: "convert", arg: e(c(1)), type: T.i32, loc: null }), loc: null }]), /converts i32 to itself/);
});

test("validator: set and store types, constant arrays, indices", () => {
  rejects(fn((_f, e) => [{ k: "set", local: 1 as never, value: e(c(1, T.f32)), loc: null }]), /f32 value into 't' of type i32/);
  rejects(fn((_f, e) => [{ k: "store", array: e(local(0, T.array("f32", "global"))), index: e(c(0)), value: e(c(1)), loc: null }]), /i32 value into f32 elements/);
  rejects(fn((_f, e) => [{ k: "store", array: e(local(0, T.array("f32", "global"))), index: e(c(0, T.f32)), value: e(c(1, T.f32)), loc: null }]), /index is f32/);
  rejects(fn((_f, e) => [{ k: "set", local: 0 as never, value: e(c(1, T.f32)), loc: null }]), /assigns array local/);
});

test("validator: break/continue placement, returns, kernels return void", () => {
  rejects(fn(() => [{ k: "break", loc: null }]), /break outside a loop/);
  rejects(fn(() => [{ k: "continue", loc: null }]), /continue outside a loop/);
  rejects(fn((_f, e) => [{ k: "return", value: e(c(1)), loc: null }]), /returns i32 from a function returning void/);
  rejects(fn(() => [], { returnType: T.i32 }), /a kernel returns a value/);
  validateModule(fn(() => [{ k: "loop", body: [{ k: "break", loc: null }], continuing: [], breakIf: null, loc: null }]));
});

test("validator: unknown types never survive inference", () => {
  rejects(fn((_f, e) => [{ k: "set", local: 1 as never, value: e(c(1, T.unknown as never)), loc: null }]), /unknown type/);
});

// ---- the op table's exact semantics ------------------------------------------------------------

function foldOne(op: OpName, t: Scalar, args: number[]): number | boolean {
  const m = fn((f, e) => {
    const resultT = OPS[op].result === "same" ? T.scalar(t) : OPS[op].result === "bool" ? T.bool : T.i32;
    f.locals.push({ name: "r", type: resultT });
    return [{ k: "set", local: 2 as never, value: e({ k: "op", op, args: args.map((a) => e(c(wrapValue(t, a), T.scalar(t)))), type: resultT, loc: null }), loc: null }];
  });
  foldConstants(m);
  const s = m.functions[0].body[0] as Extract<Stmt, { k: "set" }>;
  const r = m.functions[0].exprs[s.value];
  assert.equal(r.k, "const");
  return (r as Extract<Expr, { k: "const" }>).value;
}

test("folding follows each type's semantics exactly", () => {
  assert.equal(foldOne("add", "i32", [2147483647, 1]), -2147483648);
  assert.equal(foldOne("mul", "i32", [65537, 65537]), 131073);            // not 4295098369
  assert.equal(foldOne("mul", "u32", [4294967295, 2]), 4294967294);
  assert.equal(foldOne("div", "i32", [-7, 2]), -3);                        // truncates toward zero
  assert.equal(foldOne("div", "i32", [5, 0]), 0);                          // (5 / 0) | 0
  assert.equal(foldOne("div", "i32", [-2147483648, -1]), -2147483648);
  assert.equal(foldOne("rem", "i32", [-7, 3]), -1);
  assert.equal(foldOne("rem", "i32", [7, 0]), 0);
  assert.equal(foldOne("shr", "i32", [-16, 2]), -4);
  assert.equal(foldOne("shr", "u32", [4294967280, 2]), 1073741820);
  assert.equal(foldOne("shl", "i32", [1, 33]), 2);                         // counts are mod 32
  assert.equal(foldOne("add", "f32", [0.1, 0.2]), Math.fround(Math.fround(0.1) + Math.fround(0.2)));
  assert.notEqual(foldOne("add", "f32", [0.1, 0.2]), 0.1 + 0.2);
  assert.equal(foldOne("add", "f64", [0.1, 0.2]), 0.1 + 0.2);
  assert.equal(foldOne("sqrt", "f32", [2]), Math.fround(Math.SQRT2));
  assert.equal(foldOne("clz32", "u32", [1]), 31);
  assert.equal(foldOne("lt", "f32", [NaN, 1]), false);
  assert.equal(foldOne("ne", "f32", [NaN, NaN]), true);
  assert.equal(foldOne("neg", "i32", [-2147483648]), -2147483648);
  assert.equal(foldOne("abs", "i32", [-2147483648]), -2147483648);
});

// ---- inference, through the printed IR -----------------------------------------------------

async function ir(f: Function, types: string[], scope?: Record<string, unknown>, stage: "infer" | "dce" = "infer"): Promise<string> {
  let text = "";
  await kernel(f, { scope, boundsCheck: false }).compile({ target: "js", types, dump: [stage], dumpSink: (_s, t) => { text = t; } });
  return text;
}

test("inference: a variable takes the common type of its values", async () => {
  const text = await ir(function widen(out: Float32Array, x: Float32Array) {
    let acc = 0;
    for (let i = 0; i < x.length; i++) acc += x[i];
    out[0] = acc;
  }, ["f32[]", "f32[]"]);
  assert.match(text, /locals %3:acc: f32, %4:i: i32/);
});

test("inference: one helper, two specializations", async () => {
  function twice(v: number) { return v + v; }
  const text = await ir(function spec(out: Float32Array, n: number) {
    out[0] = twice(n) + twice(0.5);
  }, ["f32[]", "i32"], { twice });
  assert.match(text, /helper #0 @twice\(%0:v: i32\) -> i32/);
  assert.match(text, /helper #1 @twice\(%0:v: f32\) -> f32/);
});

test("inference: literals take the type of the other operand", async () => {
  const text = await ir(function lit(out: Float64Array, x: Float64Array) {
    out[0] = x[0] * 0.1 + 1;
  }, ["f64[]", "f64[]"]);
  assert.match(text, /add\.f64\(mul\.f64\(%1:x\[0:i32\], 0\.1:f64\), 1:f64\)/);
});

test("inference: integer division only for (a / b) | 0", async () => {
  const text = await ir(function divs(out: Float32Array, a: number, b: number) {
    out[0] = a / b;
    out[1] = (a / b) | 0;
  }, ["f32[]", "i32", "i32"]);
  assert.match(text, /%0:out\[0:i32\] = div\.f32\(f32\(%1:a\), f32\(%2:b\)\)/);
  assert.match(text, /%0:out\[1:i32\] = f32\(div\.i32\(%1:a, %2:b\)\)/);
});

test("printer: the module prints globals, functions and locations", async () => {
  const text = await ir(function tab(out: Float32Array) { out[0] = W[1]; }, ["f32[]"], { W: new Float32Array([1, 2]) });
  assert.match(text, /^global @W: f32\[2\] constant\n\nkernel #0 @tab\(%0:out: f32\[\]; state %1:\$state\) -> void \{\n  %0:out\[0:i32\] = @W\[1:i32\]  ; \d+:\d+\n\}\n$/);
});

test("passes: dead code and constant branches disappear", async () => {
  const text = await ir(function dead(out: Float32Array) {
    // @ts-expect-error -- never read, deliberately: dead-code elimination must remove it
    const unused = out[0] * 2;
    if (2 > 3) out[1] = 5;
    out[2] = 1 + 2;
  }, ["f32[]"], undefined, "dce");
  assert.doesNotMatch(text, /unused|5:f32/);
  assert.match(text, /%0:out\[2:i32\] = 3:f32/);
});

test("printModule is deterministic", async () => {
  const f = function det(out: Float32Array, x: Float32Array) { out[0] = Math.sqrt(x[0]) + 1; };
  assert.equal(await ir(f, ["f32[]", "f32[]"]), await ir(f, ["f32[]", "f32[]"]));
});

test("bounds checks proven by ranges are dropped — and only those (thread indices, launch bounds, remainders)", async () => {
  const dce = async (fn: Function, opts: Record<string, unknown>, types: string[]) => {
    let text = "";
    await kernel(fn, opts).compile({ target: "js", types, dump: ["dce"], dumpSink: (_s, t) => { text = t; } });
    return text;
  };
  const sharedByThread = function byThread(o: Float32Array) {
    const s = shared(Float32Array, 64);
    const t = threadIdx.x;
    s[t] = t;
    syncthreads();
    o[t] = s[63 - t] + s[t % 7];
  };
  // With the block fixed at 64 threads, t < 64: s[t] and s[63 - t] need no check; t % 7 < 7 never did.
  const fixed = await dce(sharedByThread, { requiredThreads: 64 }, ["f32[]"]);
  assert.doesNotMatch(fixed, /ge\.u32\(u32\([^)]*\), 64:u32\)/);
  assert.match(fixed, /ge\.u32\(u32\(%\d+:t\), u32\(length\(%0:o\)\)\)/, "o's length is not known: its check stays");
  // Without launch bounds a block may have 1024 threads: the checks of s stay (not t % 7).
  const open = await dce(sharedByThread, {}, ["f32[]"]);
  assert.equal((open.match(/, 64:u32\)/g) ?? []).length, 2);
  // One past the end is not proven: the check stays and still reports.
  const pastEnd = function pastEnd(o: Float32Array) {
    const s = shared(Float32Array, 64);
    const t = threadIdx.x;
    s[t] = 1;
    syncthreads();
    o[t] = s[t + 1];
  };
  assert.match(await dce(pastEnd, { requiredThreads: 64 }, ["f32[]"]), /%\d+:tmp = add\.i32\(%\d+:t, 1:i32\)[^\n]*\n  check\.bounds ge\.u32\(u32\(%\d+:tmp\), 64:u32\)/);
  const dev = await device("cpu");
  await assert.rejects(kernel(pastEnd, { requiredThreads: 64 }).launch(dev, { blocks: 1, threads: 64 }, new Float32Array(64)), (e: unknown) =>
    e instanceof KernelError && e.kind === "bounds" && /index 64 out of bounds for array 's' of length 64/.test(e.message));
  // A counter j = j + 1 under its loop's test j < o.length (at most 2^31 - 1) never wraps: j is in
  // [0, 2^31 - 1], j % 8 below 8, and o[j] under the test: no check is left, and no versioning.
  const counter = function counter(o: Float32Array) {
    const a = new Float32Array(8);
    for (let j = 0; j < o.length; j++) a[j % 8] += o[j];
    o[threadIdx.x % 8] = a[threadIdx.x % 8];
  };
  const c = await dce(counter, {}, ["f32[]"]);
  assert.equal((c.match(/check\.bounds/g) ?? []).length, 1, c);
  assert.equal((c.match(/loop \{/g) ?? []).length, 1, c);
  assert.doesNotMatch(c, /%(\d+):tmp = rem\.i32\(threadIdx\.x, 8:i32\)[^\n]*\n {2}check\.bounds ge\.u32\(u32\(%\1:tmp\), 8:u32\)/);
  const o = Float32Array.from({ length: 8 }, (_, i) => i);
  await kernel(counter).launch(dev, { blocks: 1, threads: 1 }, o);
  assert.equal(o[0], 0);
  // Under j <= n, j + 1 wraps where n is 2^31 - 1: j has no range (it could wrap below zero, and
  // j % 8 with it), and a[j % 8] keeps its check.
  const wraps = function wraps(o: Float32Array, n: number) {
    const a = new Float32Array(8);
    for (let j = 0; j <= n; j++) a[j % 8] += o[j];
    o[threadIdx.x % 8] = a[threadIdx.x % 8];
  };
  assert.match(await dce(wraps, {}, ["f32[]", "i32"]), /%(\d+):tmp = rem\.i32\(%\d+:j, 8:i32\)[^\n]*\n {4}check\.bounds ge\.u32\(u32\(%\1:tmp\), 8:u32\)/);
  // An element of a Uint8Array is below 256: a histogram's 256 bins indexed by a byte need no
  // check; an Int8Array's element may be negative, a Uint16Array's past 255: their checks stay.
  const bins = function bins(h: Uint32Array, d: Uint8Array, e: Int8Array, w: Uint16Array) {
    const c = shared(Uint32Array, 256);
    c[d[threadIdx.x]] += 1;
    c[e[threadIdx.x]] += 1;
    c[w[threadIdx.x]] += 1;
    syncthreads();
    h[threadIdx.x] = c[threadIdx.x & 255];
  };
  const b = await dce(bins, {}, ["u32[]", "u8[]", "i8[]", "u16[]"]);
  assert.equal((b.match(/check\.bounds ge\.u32\([^\n]*, 256:u32\)/g) ?? []).length, 2, b);
  dev.close();
});

test("a check under a test that bounds its index is dropped where the index cannot be negative — and only there", async () => {
  const dce = async (fn: Function, target: string, types: string[]) => {
    let text = "";
    await kernel(fn).compile({ target, types, dump: ["dce"], dumpSink: (_s, t) => { text = t; } });
    return text;
  };
  const checksOf = (text: string, arr: string) => (text.match(new RegExp(`check\\.bounds ge\\.u32\\(u32\\(%\\d+:i\\), u32\\(length\\(%\\d+:${arr}\\)\\)\\)`, "g")) ?? []).length;
  const saxpy = function saxpy(a: number, x: Float32Array, y: Float32Array) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < y.length) y[i] = a * x[i] + y[i];
  };
  // On WebGPU the grid has at most 65535 blocks a side: i >= 0, so i < y.length bounds y[i]; x's stays.
  const wgsl = await dce(saxpy, "wgsl", ["f32", "f32[]", "f32[]"]);
  assert.equal(checksOf(wgsl, "y"), 0);
  assert.equal(checksOf(wgsl, "x"), 1);
  // PTX grids go to 2^31 - 1 blocks: blockIdx.x * blockDim.x may wrap below zero, so y[i]'s check stays.
  const ptx = await dce(saxpy, "ptx", ["f32", "f32[]", "f32[]"]);
  assert.equal(checksOf(ptx, "y"), 1);
  // A test can say i >= 0 too, on any target.
  const both = function both(a: number, x: Float32Array, y: Float32Array) {
    const i = blockIdx.x * blockDim.x + threadIdx.x - 3;
    if (i >= 0 && i < y.length) y[i] = a * x[0];
  };
  assert.equal(checksOf(await dce(both, "ptx", ["f32", "f32[]", "f32[]"]), "y"), 0);
  assert.equal(checksOf(await dce(both, "js", ["f32", "f32[]", "f32[]"]), "y"), 0);
  // An early exit gives the same fact to what follows it.
  const early = function early(a: number, x: Float32Array, y: Float32Array) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= y.length) return;
    y[i] = a * x[i];
  };
  assert.equal(checksOf(await dce(early, "wgsl", ["f32", "f32[]", "f32[]"]), "y"), 0);
  // A local assigned under the test no longer is what the test compared: its check stays, and fires.
  const moved = function moved(a: number, x: Float32Array, y: Float32Array) {
    let i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < y.length) {
      i = i + a;
      y[i] = x[0];
    }
  };
  assert.equal(checksOf(await dce(moved, "wgsl", ["i32", "f32[]", "f32[]"]), "y"), 1);
  // A test of a value read from memory is not a fact about a later read of it.
  const loaded = function loaded(a: number, x: Float32Array, y: Float32Array) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (x[i] < y.length) { y[i] = a; y[x[i]] = a; }
  };
  assert.match(await dce(loaded, "wgsl", ["f32", "i32[]", "f32[]"]), /check\.bounds ge\.u32\(u32\([^\n]*length\(%\d+:y\)/);
  // The reduction tree: under t < s, t + s < 2s (s at most half the block).
  const tree = function tree(a: number, x: Float32Array, y: Float32Array) {
    const sh = shared(Float32Array, 256);
    const t = threadIdx.x;
    sh[t] = y[t];
    syncthreads();
    for (let s = blockDim.x >> 1; s > 0; s >>= 1) {
      if (t < s) sh[t] += sh[t + s];
      syncthreads();
    }
    if (t < 128) { let u = t + 128; u = u + x.length; sh[u] = a; }
  };
  let text = "";
  await kernel(tree).compile({ target: "js", types: ["f32", "f32[]", "f32[]"], features: { requiredThreads: [256, 1, 1] }, dump: ["dce"], dumpSink: (_s, t) => { text = t; } });
  assert.equal((text.match(/, 256:u32\)/g) ?? []).length, 1, `only sh[u] keeps its check (u changed after it was t + 128):\n${text}`);
  const dev = await device("cpu");
  const y = new Float32Array(4);
  await assert.rejects(kernel(moved, { types: { a: "i32" } }).launch(dev, { blocks: 1, threads: 4 }, 1, new Float32Array(4), y),
    (e: unknown) => e instanceof KernelError && e.kind === "bounds" && /index 4 out of bounds for array 'y' of length 4/.test(e.message));
  dev.close();
});

// ---- checks are IR statements ----------------------------------------------------------------

/** A check statement over handles made by `e` (report #0; operands i32 constants). */
function checkStmt(e: (x: Expr) => ExprHandle, cond: ExprHandle | null, kind: "bounds" | "throw" = "bounds"): Stmt {
  return { k: "check", kind, cond, report: 0 as never, state: e(local(2, T.array("i32", "global"))), code: e(c(1)), site: e(c(-1)), a: e(c(0)), b: e(c(0)), loc: null };
}

test("validator: a check reports through a runtime function, from a function with the kernel state, with i32 operands", () => {
  rejects(fn((_f, e) => [checkStmt(e, e(c(true, T.bool)))]), /report function #0 is not a runtime function/);
  const withState = { locals: [{ name: "out", type: T.array("f32", "global") }, { name: "t", type: T.i32 }, { name: "$state", type: T.array("i32", "global") }], stateParam: 2 as never };
  const m = fn((_f, e) => [checkStmt(e, e(c(1)))], withState);
  const runtime: IRFunction = { ...m.functions[0], name: "gpuc_report_exception", kind: "runtime", body: [], exprs: [], stateParam: null };
  m.functions.unshift(runtime);
  m.entry = 1 as never;
  rejects(m, /condition is i32/);
  m.functions[1].body = [checkStmt((x) => { m.functions[1].exprs.push(x); return (m.functions[1].exprs.length - 1) as ExprHandle; }, null, "bounds")];
  validateModule(m);
});

test("fold: a check that cannot fire goes; one that always fires loses its condition (and ends its block)", () => {
  const m = fn((_f, e) => [checkStmt(e, e(c(false, T.bool))), checkStmt(e, e(c(true, T.bool)))]);
  foldConstants(m);
  const body = m.functions[0].body;
  assert.equal(body.length, 1);
  assert.ok(body[0].k === "check" && body[0].cond === null);
});

test("passes see a check as what it is: a user throw that tests an index is not a bounds check to hoisting", async () => {
  const guard = function guard(o: Int32Array, n: number) {
    for (let k = 0; k < n; k++) {
      if (k >= o.length) throw new Error("past the end");
      o[k] = k;
    }
  };
  // From k = n - 8 (no range: k may be negative): o[k]'s check is not proven by the user's test alone.
  const from = function from(o: Int32Array, n: number) {
    for (let k = n - 8; k < n; k++) {
      if (k >= o.length) throw new Error("past the end");
      o[k - n + 8] = k;
    }
  };
  const dump = async (fn: Function) => {
    let text = "";
    await kernel(fn).compile({ target: "js", types: ["i32[]", "i32"], dump: ["dce"], dumpSink: (_s, t) => { text = t; } });
    return text;
  };
  // From 0, k is in [0, 2^31 - 1] and below o.length after the user's test: o[k] needs no check,
  // and the throw stays, once.
  const text = await dump(guard);
  assert.equal((text.match(/check\.bounds/g) ?? []).length, 0, text);
  assert.equal((text.match(/check\.throw/g) ?? []).length, 1, text);
  // The loop is versioned on o[k - n + 8]'s bounds check; the throw stays in both copies.
  const fromText = await dump(from);
  assert.equal((fromText.match(/check\.bounds/g) ?? []).length, 1, fromText);
  assert.equal((fromText.match(/check\.throw/g) ?? []).length, 2, fromText);
  const dev = await device("cpu");
  for (const fn of [guard, from]) {
    const o = new Int32Array(8);
    await kernel(fn).launch(dev, { blocks: 1, threads: 1 }, o, 8);
    assert.deepEqual([...o], [0, 1, 2, 3, 4, 5, 6, 7]);
    await assert.rejects(kernel(fn).launch(dev, { blocks: 1, threads: 1 }, o, 9), (e: unknown) => e instanceof KernelError && /past the end/.test(e.message));
  }
  dev.close();
});

test("names: thousands of temporaries of one name stay short and distinct (WGSL and PTX code grew quadratically with underscored names)", async () => {
  const { Namer, numbered } = await import("../src/targets/names.ts");
  const namer = new Namer(numbered);
  namer.reserve("v_tmp_3");
  const names = Array.from({ length: 5000 }, () => namer.take("v_tmp"));
  assert.equal(new Set(names).size, 5000);
  assert.ok(!names.includes("v_tmp_3"), "a reserved name is never taken");
  assert.ok(Math.max(...names.map((n) => n.length)) <= "v_tmp_5001".length);
  // A kernel of 2,000 statements: its WGSL grows linearly (it was 2 MB, ~1 KB a statement).
  const lines = Array.from({ length: 2000 }, (_, i) => `a = x[(i + ${i % 7}) & 1023] * ${i % 5} + a;`);
  const big = new Function(`return function big(o, x) { const i = threadIdx.x; let a = 0;\n${lines.join("\n")}\no[i] = a; }`)();
  const wgsl = await kernel(big).compile({ target: "wgsl", types: ["f32[]", "f32[]"] });
  assert.ok(wgsl.code.length < 2000 * 250, `${wgsl.code.length} characters of WGSL for 2,000 statements`);
});
