// Values with fields (issue #16 item 2): object and tuple values (`{ x, y, z, w }`, `[lo, hi]`),
// scalarized by inference — no allocation on any target. Every kernel here runs on each device of
// the matrix (helpers.ts: `dtest`; the CPU run also assembles its PTX with ptxas) and, unchanged, as
// plain JavaScript over the same thread loop: the results must be equal (inputs are small
// integers, so f32 and JS's doubles compute the same values).
//
// Locations of errors are checked against this file by marker comments (`// @NAME`, see
// helpers.ts: tsx reprints kernel sources).
//
// Every assert.ok has a message (without one, node's assert re-parses the source, which is slow).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { kernel, threadIdx, blockIdx, blockDim, CompileError } from "../src/index.ts";
import { dtest, openDevices, kernelError, lineOfIn, assertLocationIn, rejectsCompile, randI32, type On } from "./helpers.ts";

await openDevices();

const lineOf = lineOfIn(import.meta.url);
const assertLocation = assertLocationIn(import.meta.url);

type Launch = { blocks: number; threads: number };
type Out = Float32Array | Int32Array | Uint32Array;

/** Run a kernel function as plain JavaScript: once per thread of a 1-D grid, with its scope's names bound. */
function runPlain(fn: Function, scope: Record<string, unknown>, cfg: Launch, args: unknown[]): void {
  const tid = { x: 0, y: 0, z: 0 }, bid = { x: 0, y: 0, z: 0 };
  const names = ["threadIdx", "blockIdx", "blockDim", "gridDim", "__name", ...Object.keys(scope)];
  const f = new Function(...names, `return (${fn.toString()});`)(tid, bid, { x: cfg.threads, y: 1, z: 1 }, { x: cfg.blocks, y: 1, z: 1 }, (g: unknown) => g, ...Object.values(scope));
  for (bid.x = 0; bid.x < cfg.blocks; bid.x++) for (tid.x = 0; tid.x < cfg.threads; tid.x++) f(...args);
}

/**
 * The kernel on the device and the same function as plain JS, each on its own copy of the
 * arguments (`make` builds them); the output (argument `out`) must be equal.
 */
async function agreesWithJS(on: On, fn: Function, scope: Record<string, unknown>, cfg: Launch, make: () => unknown[], out: number) {
  const k = kernel(fn, { scope });
  const got = make(), want = make();
  await k.launch(on.dev, cfg, ...got);
  runPlain(fn, scope, cfg, want);
  on.same(got[out] as Out, want[out] as Out);
  return k;
}

const ints = (seed: number, n: number, lo = -50, hi = 50) => Float32Array.from(randI32(seed, n, lo, hi));

// ---- helpers (scope) ----------------------------------------------------------------------------

function add4(a: { x: number; y: number; z: number; w: number }, b: { x: number; y: number; z: number; w: number }) {
  return { x: a.x + b.x, y: a.y + b.y, z: a.z + b.z, w: a.w + b.w };
}
function scale4(v: { x: number; y: number; z: number; w: number }, s: number) {
  return { x: v.x * s, y: v.y * s, z: v.z * s, w: v.w * s };
}
function dot4(a: { x: number; y: number; z: number; w: number }, b: { x: number; y: number; z: number; w: number }) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
/** 32-bit add with carry: the sum's low word and the carries so far. */
function addCarry(acc: { sum: number; carry: number }, x: number) {
  const sum = (acc.sum + x) >>> 0;
  return { sum, carry: acc.carry + (sum < x ? 1 : 0) };
}
/** [lo, hi]: an early return of each order. */
function order(a: number, b: number) {
  if (a <= b) return [a, b];
  return [b, a];
}
/** A return inside a loop (inlined with the early-return flag) and the one after it. */
function firstNegative(x: Int32Array, n: number) {
  for (let j = 0; j < n; j++) { if (x[j] < 0) return { at: j, v: x[j] }; }
  return { at: -1, v: 0 };
}
/** An object parameter reassigned a value with a wider field type (i32 → f32). */
function widened(p: { x: number }, f: number) {
  if (f > 0) p = { x: p.x + 0.5 };
  return p.x;
}
function lengthSq({ x, y }: { x: number; y: number }) { return x * x + y * y; }
function sumPair([a, b]: number[]) { return a + b; }
function step(b: { pos: { x: number; y: number }; vel: { x: number; y: number } }, dt: number) {
  // A new velocity object: `vel: b.vel` would return a part of the argument, which the caller, who
  // assigns `b.pos.x`, may not pass then (gpuc does not follow which part of a result is shared).
  return { pos: { x: b.pos.x + b.vel.x * dt, y: b.pos.y + b.vel.y * dt }, vel: { ...b.vel } };
}

// =============================================================================================

describe("object values", () => {
  dtest("float4-like objects: literals, fields, helpers taking and returning them", async (on) => {
    function float4(x: Float32Array, o: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      const a = { x: x[4 * i], y: x[4 * i + 1], z: x[4 * i + 2], w: x[4 * i + 3] };
      const b = scale4(a, 2);
      const c = add4(a, b);
      const d = dot4(c, { w: 1, z: 1, y: 1, x: 1 });   // fields in another order: the same type
      o[4 * i] = c.x + d;
      o[4 * i + 1] = c.y;
      o[4 * i + 2] = c.z;
      o[4 * i + 3] = c.w;
    }
    const k = await agreesWithJS(on, float4, { add4, scale4, dot4 }, { blocks: 2, threads: 32 }, () => [ints(1, 256), new Float32Array(256)], 1);
    // One specialization of add4/scale4 per shape: the code holds scalars only.
    if (on.kind === "cpu") await noAllocation(k, ["f32[]", "f32[]"]);
  });

  dtest("p.x += 1, p.y = …, increments and compound assignments of fields", async (on) => {
    function fields(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      const p = { x: x[i], y: 0, n: 0 };
      p.x += 1;
      p.y = p.x * 3;
      p.n++;
      const old = p.n++;
      ++p.n;
      p.y -= old;
      o[i] = p.x * 1000 + p.y * 10 + p.n;
    }
    await agreesWithJS(on, fields, {}, { blocks: 1, threads: 64 }, () => [randI32(2, 64, -20, 20), new Int32Array(64)], 1);
  });

  dtest("nested object values: a body's position and velocity", async (on) => {
    function nested(x: Float32Array, o: Float32Array) {
      const i = threadIdx.x;
      let b = { pos: { x: x[i], y: 1 }, vel: { x: 2, y: x[i] } };
      for (let s = 0; s < 3; s++) b = step(b, 2);
      b.pos.x += b.vel.y;
      const { pos: { x: px, y: py }, vel } = b;
      o[i] = px * 100 + py + lengthSq(vel);
    }
    await agreesWithJS(on, nested, { step, lengthSq }, { blocks: 1, threads: 64 }, () => [ints(3, 64, -9, 9), new Float32Array(64)], 1);
  });

  dtest("a loop carries an aggregate: acc = addCarry(acc, x) (64-bit sums as {sum, carry})", async (on) => {
    function carries(x: Uint32Array, o: Uint32Array) {
      const i = threadIdx.x;
      let acc = { sum: 0, carry: 0 };
      for (let j = 0; j < 8; j++) acc = addCarry(acc, x[(i + j) % x.length]);
      const { sum, carry } = acc;
      o[2 * i] = sum;
      o[2 * i + 1] = carry;
    }
    const big = () => Uint32Array.from(randI32(4, 64, -0x7fffffff, 0x7fffffff), (v) => v >>> 0);
    await agreesWithJS(on, carries, { addCarry }, { blocks: 1, threads: 64 }, () => [big(), new Uint32Array(128)], 1);
  });

  dtest("a helper returning from inside a loop; an object parameter reassigned a wider value", async (on) => {
    function returns(x: Int32Array, o: Float32Array) {
      const i = threadIdx.x;
      const r = firstNegative(x, i % 8 + 1);
      o[i] = r.at * 100 + r.v + widened({ x: i }, i % 2);
    }
    await agreesWithJS(on, returns, { firstNegative, widened }, { blocks: 1, threads: 64 }, () => [randI32(11, 64, -3, 9), new Float32Array(64)], 1);
  });

  dtest("fields join their types as variables do (i32 ⊔ f32 = f32), each field on its own", async (on) => {
    function joins(x: Float32Array, o: Float32Array) {
      const i = threadIdx.x;
      let p = { a: 0, b: i };
      if (i % 2 === 0) p = { a: x[i] * 0.5, b: i + 1 };
      o[2 * i] = p.a;
      o[2 * i + 1] = p.b / 2;      // b stays an integer: its division is a float division, as in JS
    }
    await agreesWithJS(on, joins, {}, { blocks: 1, threads: 32 }, () => [ints(5, 32), new Float32Array(64)], 1);
  });

  dtest("?: between object values, and objects are truthy", async (on) => {
    function choose(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      const a = { lo: x[i], hi: 7 };
      const b = { hi: x[i] * 2, lo: -1 };
      const c = x[i] > 0 ? a : b;
      o[i] = c.lo * 100 + c.hi + (c ? 1 : 0);
    }
    await agreesWithJS(on, choose, {}, { blocks: 1, threads: 64 }, () => [randI32(6, 64, -9, 9), new Int32Array(64)], 1);
  });

  dtest("spread: { ...p, x } and [...t, v]", async (on) => {
    function spreads(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      const p = { x: x[i], y: 2, z: 3 };
      const q = { ...p, y: p.y * 10 };
      q.z += 1;
      const t = [x[i], 5];
      const u = [...t, q.z, ...t];
      o[i] = q.x * 1000 + q.y * 10 + q.z + u.length * 100000 + u[2] + u[4];
    }
    await agreesWithJS(on, spreads, {}, { blocks: 1, threads: 64 }, () => [randI32(7, 64, -9, 9), new Int32Array(64)], 1);
  });
});

describe("tuples and destructuring", () => {
  dtest("helpers returning [lo, hi] (early returns) and destructuring in every form", async (on) => {
    function destructure(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      const [lo, hi] = order(x[i], x[(i + 1) % x.length]);
      const { a, b: renamed, c = 5 } = { a: lo, b: hi };          // c is missing: its default
      const [, second, third = 9] = [a, renamed];                   // a hole and an element's default
      const [[p, q], { r }] = [[1, 2], { r: 3 }];                   // nested
      let s = 0, t = 0;
      ({ s, t } = { t: lo, s: hi });                               // assignment
      o[i] = lo * 1000000 + hi * 10000 + c * 1000 + second * 10 + third + p + q + r + s * 7 + t * 3 + sumPair([lo, 1]) + lengthSq({ x: 1, y: hi });
    }
    await agreesWithJS(on, destructure, { order, sumPair, lengthSq }, { blocks: 1, threads: 64 }, () => [randI32(8, 64, -9, 9), new Int32Array(64)], 1);
  });

  dtest("swap: [a, b] = [b, a] evaluates the whole right side first; swapping elements of a tuple", async (on) => {
    function swaps(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let a = x[i], b = i, c = 3;
      [a, b] = [b, a];
      [a, b, c] = [c, a, b];                                        // a rotation
      const t = [x[i], i, 5];
      [t[0], t[2]] = [t[2], t[0]];
      o[i] = a * 100000 + b * 1000 + c * 10 + t[0] + t[2] * 3 + t[1] * 7;
    }
    await agreesWithJS(on, swaps, {}, { blocks: 1, threads: 64 }, () => [randI32(9, 64, -9, 9), new Int32Array(64)], 1);
  });

  dtest("constant and dynamic indexing of tuples: reads, writes, ++, .length", async (on) => {
    function indexing(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      const t = [x[i], x[i] + 1, x[i] * 2, 4];
      let sum = 0;
      for (let j = 0; j < t.length; j++) sum += t[j] * (j + 1);       // dynamic reads
      t[i % 4] = 100;                                                // a dynamic write
      t[(i + 1) % 4]++;
      t[(i + 2) % 4] *= 3;
      const u = [{ a: 1, b: 2 }, { a: 3, b: 4 }];
      u[i % 2].b += 10;                                              // a field of a dynamically picked element
      o[i] = sum * 1000 + t[0] + t[1] * 3 + t[2] * 5 + t[3] * 7 + u[0].b * 11 + u[1].b * 13 + u[(i + 1) % 2].a;
    }
    await agreesWithJS(on, indexing, {}, { blocks: 1, threads: 64 }, () => [randI32(10, 64, -9, 9), new Int32Array(64)], 1);
  });

  dtest("a dynamic tuple index out of range raises a bounds KernelError (JS would read undefined)", async ({ dev }) => {
    const k = kernel(function tupleOob(o: Int32Array, n: number) {
      const t = [1, 2, 3];
      o[threadIdx.x] = t[threadIdx.x + n];   // @TUPLE_OOB
    });
    const o = new Int32Array(4);
    await k.launch(dev, { blocks: 1, threads: 3 }, o, 0);
    assert.deepEqual(Array.from(o.slice(0, 3)), [1, 2, 3], "in range");
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 1 }, new Int32Array(1), 3), "bounds");
    assert.match(err.message, /index 3 out of bounds for tuple 't' of length 3/);
    assertLocation(err.location, lineOf("TUPLE_OOB"));
  });
});

// ---- what the code is ---------------------------------------------------------------------------

/** The kernel's WGSL and PTX hold scalars only: no arrays but the parameters', no local memory. */
async function noAllocation(k: { compile(o: { target: string; types: string[] }): Promise<{ code: string | Uint8Array }> }, types: string[]) {
  const wgsl = (await k.compile({ target: "wgsl", types })).code as string;
  const body = wgsl.slice(wgsl.indexOf("@compute"));
  assert.ok(!/array</.test(body), `WGSL allocates an array:\n${body}`);
  const ptx = (await k.compile({ target: "ptx", types })).code as string;
  assert.ok(!/\.local\b/.test(ptx), `PTX uses local memory:\n${ptx}`);
  const js = (await k.compile({ target: "js", types })).code as string;
  assert.ok(!/new (Float32|Int32|Uint32|Float64)Array|\{\s*x:/.test(js), `JS allocates:\n${js}`);
}

test("helpers over object values specialize by shape: one instance for two literals of one type", async () => {
  const k = kernel(function twoLiterals(o: Float32Array) {
    const a = add4({ x: 1, y: 2, z: 3, w: 4 }, { w: 5, z: 6, y: 7, x: 8 });
    const b = add4(a, { x: o[0], y: 0, z: 0, w: 0 });
    o[0] = b.x + b.w;
  }, { scope: { add4 } });
  const ir = (await k.compile({ target: "js", types: ["f32[]"] })).code as string;
  assert.ok(!/function add4/.test(ir), "add4 returns an object value: inlined at each call");
  const o = new Float32Array([10]);
  const { device } = await import("../src/index.ts");
  const dev = await device("cpu");
  try { await k.launch(dev, { blocks: 1, threads: 1 }, o); } finally { dev.close(); }
  assert.equal(o[0], 9 + 10 + 9);
});

// ---- errors -------------------------------------------------------------------------------------

async function compileError(fn: Function, scope: Record<string, unknown> = {}, types = ["f32[]"]): Promise<CompileError> {
  const k = kernel(fn, { scope });
  try { await k.compile({ target: "js", types }); } catch (e) { if (e instanceof CompileError) return e; throw e; }
  assert.fail("expected a CompileError");
}

function expectError(e: CompileError, kind: string, re: RegExp, marker: string) {
  assert.equal(e.kind, kind, e.message);
  assert.match(e.message, re);
  assertLocation(e.diagnostics[0].location, lineOf(marker));
}

function keepsShared(q: { x: number }) { return q; }
function recurse(n: number): { v: number } {
  if (n <= 0) return { v: 0 };
  const r = recurse(n - 1);   // @REC_CALL
  return { v: r.v + 1 };
}

describe("errors of object values, each with its location", () => {
  test("a field of two types, a different shape, a field added", async () => {
    expectError(await compileError(function twoTypes(o: Float32Array) {
      const p = { x: 1, y: { a: 2 } };
      // @ts-expect-error: the misuse under test
      p.y = 3;   // @TWO_TYPES
      o[0] = p.x;
    }), "type", /field 'y' of 'p\.y' holds an object value \{ a: i32 \}; it cannot also hold a number|'p\.y' holds an object value/, "TWO_TYPES");
    expectError(await compileError(function otherShape(o: Float32Array) {
      let p = { x: 1, y: 2 };
      // @ts-expect-error: the misuse under test
      if (o[0] > 0) p = { x: 1, z: 2 };   // @OTHER_SHAPE
      o[0] = p.x;
    }), "type", /'p' holds an object value \{ x: i32, y: i32 \}; it cannot also hold an object value \{ x: i32, z: i32 \}: an object value keeps its fields/, "OTHER_SHAPE");
    expectError(await compileError(function tupleLength(o: Float32Array) {
      let t = [1, 2];
      t = [1, 2, 3];   // @TUPLE_LENGTH
      o[0] = t[0];
    }), "type", /'t' holds a tuple \[i32, i32\]; it cannot also hold a tuple \[i32, i32, i32\]/, "TUPLE_LENGTH");
    expectError(await compileError(function addField(o: Float32Array) {
      const p = { x: 1 };
      // @ts-expect-error: the misuse under test
      p.z = 2;   // @ADD_FIELD
      o[0] = p.x;
    }), "type", /cannot add field 'z' to 'p' \(an object value \{ x: i32 \}\)/, "ADD_FIELD");
    expectError(await compileError(function missingField(o: Float32Array) {
      const p = { x: 1 };
      // @ts-expect-error: the misuse under test
      o[0] = p.y;   // @MISSING_FIELD
    }), "type", /an object value \{ x: i32 \} has no field 'y'/, "MISSING_FIELD");
    expectError(await compileError(function scalarAndObject(o: Float32Array) {
      let p = 1;
      // @ts-expect-error: the misuse under test
      if (o[0] > 0) p = { x: 1 };   // @SCALAR_OBJECT
      o[0] = p;
    }), "type", /'p' holds a number; it cannot also hold an object value/, "SCALAR_OBJECT");
  });

  test("constant index out of range, an object indexed, an array in a field", async () => {
    expectError(await compileError(function constOob(o: Float32Array) {
      const t = [1, 2];
      o[0] = t[2];   // @CONST_OOB
    }), "type", /index 2 is out of range for 't', a tuple \[i32, i32\] \(length 2\)/, "CONST_OOB");
    expectError(await compileError(function constOobWrite(o: Float32Array) {
      const t = [1, 2];
      t[5] = 1;   // @CONST_OOB_WRITE
      o[0] = t[0];
    }), "type", /index 5 is out of range for 't'/, "CONST_OOB_WRITE");
    expectError(await compileError(function arrayField(o: Float32Array) {
      const p = { data: o, n: 1 };   // @ARRAY_FIELD
      o[0] = p.n;
    }), "type", /an object value's fields hold numbers, booleans and object values, not arrays/, "ARRAY_FIELD");
    expectError(await compileError(function mixedDynamic(o: Float32Array, i: number) {
      const t = [1, { a: 2 }];
      // @ts-expect-error: the misuse under test
      o[0] = t[i];   // @MIXED_DYNAMIC
    }, {}, ["f32[]", "i32"]), "type", /cannot also hold/, "MIXED_DYNAMIC");
  });

  test("===, storing into an array, methods, arithmetic: each said plainly", async () => {
    expectError(await compileError(function compares(o: Float32Array) {
      const a = { x: 1 }, b = { x: 1 };
      if (a === b) o[0] = 1;   // @COMPARES
    }), "type", /'===' on two object values compares references in JavaScript/, "COMPARES");
    expectError(await compileError(function stores(o: Float32Array) {
      const p = { x: 1 };
      // @ts-expect-error: the misuse under test
      o[0] = p;   // @STORES
    }), "type", /expected a number or boolean, got an object value \{ x: i32 \}/, "STORES");
    expectError(await compileError(function method(o: Float32Array) {
      const p = { x: 1 };
      // @ts-expect-error: the misuse under test
      o[0] = p.norm();   // @METHOD
    }), "dynamic-call", /unsupported dynamic function invocation \(call to 'p\.norm'\)/, "METHOD");
    expectError(await compileError(function adds(o: Float32Array) {
      const p = [1, 2];
      // @ts-expect-error: the misuse under test
      o[0] = p + 1;   // @ADDS
    }), "type", /expected a number or boolean, got a tuple \[i32, i32\]/, "ADDS");
  });

  test("JavaScript's sharing of objects: what would make it observable is refused", async () => {
    expectError(await compileError(function aliasAfter(o: Float32Array) {
      const p = { x: 1 };
      const q = p;   // @ALIAS
      p.x = 2;
      o[0] = q.x;
    }), "type", /the fields of 'p' are assigned, so its object cannot also be held by 'q'/, "ALIAS");
    expectError(await compileError(function boundShared(o: Float32Array) {
      const q = { x: 1 };
      const p = keepsShared(q);   // @BOUND_SHARED
      p.x = 2;
      o[0] = q.x;
    }, { keepsShared }), "type", /the fields of 'p' are assigned, so 'p' must hold a new object here/, "BOUND_SHARED");
    // Copies are fine: { ...p } is a new object.
    const k = kernel(function copies(o: Float32Array) {
      const p = { x: 1 };
      const q = { ...p };
      q.x = 2;
      o[0] = p.x * 10 + q.x;
    });
    await k.compile({ target: "js", types: ["f32[]"] });
  });

  test("recursion through a helper returning an object value; object launch arguments that are not objects of numbers", async () => {
    expectError(await compileError(function recursive(o: Float32Array) {
      o[0] = recurse(3).v;
    }, { recurse }), "recursion", /'recurse' returns an object value and is called recursively/, "REC_CALL");
    const k = kernel(function takesObject(_p: unknown, o: Float32Array) { o[0] = 1; });
    for (const bad of [{ x: "1" }, {}, { x: [1, 2] }, { x: new Float32Array(1) }, new Map()])
      await rejectsCompile(k.compile({ target: "js", args: [bad, new Float32Array(1)] }), "argument-type", /argument '_p' of kernel 'takesObject' got .*objects of numbers/);
  });
});

describe("examples/nbody.ts", () => {
  dtest("one n-body step with bodies as { x, y, z, w } values agrees with plain JavaScript", async ({ dev }) => {
    // The example imports the built "gpuc" (dist/), this suite its sources: one device serves both.
    const { default: nbody } = await import("../examples/nbody.ts");
    const r = await nbody.run(dev as unknown as Parameters<typeof nbody.run>[0]);
    assert.ok(r.ok, `nbody does not agree with plain JS: ${r.summary}`);
  });
});
