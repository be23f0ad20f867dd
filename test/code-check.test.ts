// The cache-entry code check (src/cache/code-check.ts): the code gpuc emits for every target
// passes, and code that refers to something it neither defines nor is given is refused with
// the reason. The bad code is mostly real output, damaged the way a foreign or broken cache
// entry would be.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, threadIdx, blockIdx, blockDim, syncthreads, shared, type Artifact } from "../src/index.ts";
import { checkCode } from "../src/cache/code-check.ts";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// ---- kernels ------------------------------------------------------------------------------------

function saxpy(a: number, x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < x.length) y[i] = a * x[i] + y[i];
}

function lerp(a: number, b: number, t: number) { return a + (b - a) * t; }
function smoothstep(e0: number, e1: number, x: number) {
  const t = Math.min(Math.max((x - e0) / (e1 - e0), 0), 1);
  return t * t * (3 - 2 * t);
}
function helpers(out: Float32Array, x: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < out.length) out[i] = lerp(x[i], smoothstep(0, 1, x[i]), 0.25) + Math.sqrt(Math.abs(x[i])) + Math.floor(x[i]);
}

function fib(n: number): number { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function recursion(out: Int32Array) {
  out[threadIdx.x] = fib(threadIdx.x);
}

function printing(x: Float32Array, n: Int32Array) {
  const i = threadIdx.x;
  if (i < 2) console.log("i", i, "x", x[i], "n", n[i], "big", x[i] > 0);
}

function histogram(hist: Uint32Array, data: Uint32Array) {
  const local = shared(Uint32Array, 64);
  const t = threadIdx.x;
  const mine = new Float32Array(4);
  mine[t % 4] = t;
  if (t < 64) local[t] = 0;
  syncthreads();
  for (let i = blockIdx.x * blockDim.x + t; i < data.length; i += blockDim.x) Atomics.add(local, data[i] & 63, 1);
  syncthreads();
  if (t < 64) Atomics.add(hist, t, local[t] + (mine[t % 4] > 1e9 ? 1 : 0));
}

function table(out: Float32Array) {
  const i = threadIdx.x;
  out[i] = LUT[i % 4] * 2; // (unguarded: its check, and the trap, stay)
}
declare const LUT: Float32Array;

function deep(out: Float32Array, x: Float32Array) {
  out[threadIdx.x] = sumTo(x, threadIdx.x);
}
function sumTo(x: Float32Array, n: number): number { return n < 0 ? 0 : x[n] + sumTo(x, n - 1); }

type Case = { name: string; fn: Function; types: string[]; targets: string[]; options?: Record<string, unknown> };
const CASES: Case[] = [
  { name: "saxpy (bounds checks: the runtime library)", fn: saxpy, types: ["f32", "f32[]", "f32[]"], targets: ["js", "wgsl", "ptx", "opencl", "spirv", "llvm"] },
  { name: "helpers and Math", fn: helpers, types: ["f32[]", "f32[]"], targets: ["js", "wgsl", "ptx", "opencl", "spirv", "llvm"], options: { scope: { lerp, smoothstep } } },
  { name: "recursion", fn: recursion, types: ["i32[]"], targets: ["js", "ptx"], options: { scope: { fib } } },
  { name: "console.log", fn: printing, types: ["f32[]", "i32[]"], targets: ["js", "wgsl", "ptx", "opencl", "spirv", "llvm"] },
  { name: "shared memory, atomics, barriers, per-thread arrays", fn: histogram, types: ["u32[]", "u32[]"], targets: ["js", "wgsl", "ptx", "opencl", "spirv", "llvm"] },
  { name: "a scope table (patch)", fn: table, types: ["f32[]"], targets: ["js", "wgsl", "ptx", "opencl", "spirv", "llvm"], options: { scope: { LUT: new Float32Array([1, 2, 3, 4]) } } },
  { name: "a scope table (bake)", fn: table, types: ["f32[]"], targets: ["js", "ptx", "opencl", "spirv"], options: { scope: { LUT: new Float32Array([1, 2, 3, 4]) }, relocation: "bake" } },
  { name: "a scope table (table)", fn: table, types: ["f32[]"], targets: ["ptx"], options: { scope: { LUT: new Float32Array([1, 2, 3, 4]) }, relocation: "table" } },
  { name: "debug level 2 (call chains)", fn: deep, types: ["f32[]", "f32[]"], targets: ["js", "ptx"], options: { scope: { sumTo }, debugLevel: 2 } },
];

const artifacts = new Map<string, Artifact>();
async function compiled(c: Case, target: string): Promise<Artifact> {
  const key = `${c.name}/${target}`;
  let a = artifacts.get(key);
  if (!a) {
    a = await kernel(c.fn as never, c.options as never).compile({ target, types: c.types });
    artifacts.set(key, a);
  }
  return a;
}
const text = (a: Artifact): string => a.code as string;
const CASE = (name: string): Case => CASES.find((c) => c.name.startsWith(name))!;
/** The artifact with other code (and entry, bindings). */
const withCode = (a: Artifact, code: string, more: Partial<Artifact> = {}) => ({ target: a.target, code, entry: a.entry, bindings: a.bindings, ...more });

describe("real code passes", () => {
  for (const c of CASES) for (const target of c.targets) {
    test(`${target}: ${c.name}`, async () => {
      const a = await compiled(c, target);
      assert.equal(await checkCode(a), null, text(a));
    });
  }

  test("the checks see what they are meant to see in that code", async () => {
    // Guards against the kernels above no longer producing the shapes the bad-code tests damage.
    assert.match(text(await compiled(CASE("saxpy"), "js")), /function gpuc_report_exception\$\d+\(/);
    assert.match(text(await compiled(CASE("console.log"), "js")), /new ArrayBuffer\(8\)/);
    assert.match(text(await compiled(CASE("shared memory"), "js")), /Array\.from\(/);
    assert.match(text(await compiled(CASE("debug level 2"), "js")), /catch \(\$e\)/);
    const lut = await compiled(CASE("a scope table (patch)"), "js");
    assert.ok(lut.bindings.some((b) => /LUT/.test(b)) && text(lut).includes(lut.bindings[0]));
    assert.match(text(await compiled(CASE("recursion"), "ptx")), /\bcall \(gpuc_ret\), fib_\d+, \(/);
    assert.match(text(await compiled(CASE("saxpy"), "wgsl")), /\bfn gpuc_raise\(/);
  });
});

describe("js", () => {
  const js = async (name: string) => compiled(CASE(name), "js");
  // Every check below, with its verdict: the last test checks them again where no compiler is loaded.
  const seen: { input: unknown; verdict: string | null }[] = [];
  const check = async (input: Parameters<typeof checkCode>[0]) => { const verdict = await checkCode(input); seen.push({ input, verdict }); return verdict; };

  test("a call to a function whose definition is gone", async () => {
    const a = await js("saxpy");
    const code = text(a).replace(/function gpuc_report_exception\$0\([^)]*\) \{[\s\S]*?\n\}\n/, "");
    assert.doesNotMatch(code, /function gpuc_report_exception/);
    assert.equal(await check(withCode(a, code)), "it calls 'gpuc_report_exception$0', which it does not define");
  });

  test("a call to a helper not named like gpuc's own", async () => {
    const a = await js("saxpy");
    const code = text(a).replace("y[i] = ", "y[i] = helper(i) + ");
    assert.equal(await check(withCode(a, code)), "it calls 'helper', which it does not define");
  });

  test("names of the host: process, globalThis, require, fetch, console", async () => {
    const a = await js("saxpy");
    const inject = (s: string) => text(a).replace("y[i] = ", `${s}; y[i] = `);
    assert.equal(await check(withCode(a, inject("process.exit(1)"))), "it refers to 'process', which is neither defined in it nor given to it");
    assert.equal(await check(withCode(a, inject("globalThis.x = 1"))), "it refers to 'globalThis', which is neither defined in it nor given to it");
    assert.equal(await check(withCode(a, inject("require('fs')"))), "it calls 'require', which it does not define");
    assert.equal(await check(withCode(a, inject("void fetch"))), "it refers to 'fetch', which is neither defined in it nor given to it");
    assert.equal(await check(withCode(a, inject("console.log(i)"))), "it refers to 'console', which is neither defined in it nor given to it");
    assert.equal(await check(withCode(a, inject("typeof Deno"))), "it refers to 'Deno', which is neither defined in it nor given to it");
  });

  test("eval, Function, import(), import.meta, with", async () => {
    const a = await js("saxpy");
    const inject = (s: string) => text(a).replace("y[i] = ", `${s}; y[i] = `);
    assert.equal(await check(withCode(a, inject("eval('1')"))), "it calls 'eval', which it does not define");
    assert.equal(await check(withCode(a, inject("new Function('return 1')"))), "it calls 'Function', which it does not define");
    assert.equal(await check(withCode(a, inject("import('node:fs')"))), "it imports a module (import())");
    assert.match(await check(withCode(a, inject("import.meta.url"))) ?? "", /^it cannot be parsed: .*import\.meta/);
    const sloppy = "function k() { with ({}) { x(); } }";
    assert.equal(await check({ target: "js", code: sloppy, entry: "k" }), "it has a 'with' statement, which makes every name it uses unresolvable");
    assert.match(await check({ target: "js", code: `"use strict";\n${sloppy}`, entry: "k" }) ?? "", /^it cannot be parsed: /);
  });

  test("code that does not parse", async () => {
    const a = await js("saxpy");
    assert.match(await check(withCode(a, text(a).slice(0, -10))) ?? "", /^it cannot be parsed: /);
    assert.match(await check(withCode(a, "function saxpy() {}\n}; process.exit(); {")) ?? "", /^it cannot be parsed: /);
    assert.match(await check(withCode(a, "function saxpy() {}\nreturn process;")) ?? "", /^it cannot be parsed: /);
    assert.match(await check(withCode(a, "function saxpy() { let a; let a; }")) ?? "", /^it cannot be parsed: .*already been declared/);
  });

  test("its entry: defined at the top level", async () => {
    const a = await js("saxpy");
    assert.equal(await check(withCode(a, text(a), { entry: "other" })), "its entry 'other' is not defined");
    assert.equal(await check(withCode(a, text(a), { entry: "saxpy;process" })), "its entry 'saxpy;process' is not defined");
    assert.equal(await check({ target: "js", code: "function outer() { function k() {} }", entry: "k" }), "its entry 'k' is not defined");
    assert.equal(await check({ target: "js", code: "const k = () => 1;", entry: "k" }), "its entry 'k' is not defined");
  });

  test("bindings: the tables are given, and nothing else", async () => {
    const a = await compiled(CASE("a scope table (patch)"), "js");
    const table = a.bindings.find((b) => /LUT/.test(b))!;
    assert.equal(await check({ ...withCode(a, text(a)), bindings: a.bindings.filter((b) => b !== table) }),
      `it refers to '${table}', which is neither defined in it nor given to it`);
    assert.equal(await check({ ...withCode(a, text(a)), bindings: a.bindings.filter((b) => b !== "$trap") }),
      "it refers to '$trap', which is neither defined in it nor given to it");
    assert.equal(await check({ ...withCode(a, text(a)), bindings: [...a.bindings, "x = process"] }), "its binding 'x = process' is not a plain name");
    // Bindings new Function(...bindings, code) would not take (found by scripts/fuzz-stores.mjs:
    // a record whose bindings repeat passed, and the CPU device's load threw a SyntaxError).
    assert.equal(await check({ ...withCode(a, text(a)), bindings: [...a.bindings, a.bindings[0]] }), `its binding '${a.bindings[0]}' is given twice`);
    for (const b of ["class", "eval", "arguments", "yield"]) assert.equal(await check({ ...withCode(a, text(a)), bindings: [...a.bindings, b] }), `its binding '${b}' is not a plain name`);
  });

  test("assignments to globals and to undeclared names", async () => {
    const a = await js("saxpy");
    const inject = (s: string) => text(a).replace("y[i] = ", `${s}; y[i] = `);
    assert.equal(await check(withCode(a, inject("Math = null"))), "it assigns to the global 'Math'");
    assert.equal(await check(withCode(a, inject("Infinity++"))), "it assigns to the global 'Infinity'");
    assert.equal(await check(withCode(a, inject("leak = 1"))), "it assigns to 'leak', which it does not define");
    assert.equal(await check(withCode(a, inject("[leak] = [1]"))), "it assigns to 'leak', which it does not define");
  });

  test("scoping: declarations, hoisting, shadowing; labels, keys and properties are no references", async () => {
    const ok = async (body: string) => assert.equal(await check({ target: "js", code: `"use strict";\nfunction k(a) {\n${body}\n}`, entry: "k" }), null, body);
    const free = async (body: string, name: string, kind = "refers to") => assert.equal(
      await check({ target: "js", code: `"use strict";\nfunction k(a) {\n${body}\n}`, entry: "k" }),
      kind === "calls" ? `it calls '${name}', which it does not define` : `it refers to '${name}', which is neither defined in it nor given to it`, body);
    await ok("later(); function later() { return v; } var v = 1;");
    await ok("process: for (;;) { break process; }");
    await ok("const o = { process: 1, fetch() {}, get eval() { return 1; } }; return o.process + o.require;");
    await ok("const { process, x: [fetch = a] = [] } = a; return process + fetch;");
    await ok("for (const q of a) q; for (let i = 0; i < 2; i++) i; for (var w in a) w; return w;");
    await ok("try { a(); } catch ({ message }) { return message; }");
    await ok("const f = function self(n) { return n ? self(n - 1) : arguments.length; }; return f(2);");
    await ok("class C extends Array { #p = 1; static s = C.name; m() { return this.#p + (#p in this); } static { this.s; } } return new C();");
    await ok("return [a, ...a].map((x, i) => x + i + Math.PI + Number.EPSILON + Infinity + NaN + (undefined ?? 0));");
    await ok("return new Float64Array(new ArrayBuffer(8)).length + new Uint8Array(1)[0] + new Int32Array(1)[0] + new Uint32Array(1)[0] + new Float32Array(1)[0] + Array.from({ length: 1 }).length;");
    await ok("switch (a) { case 1: let s = 2; return s; default: return s; }");
    await free("{ let inner = 1; } return inner;", "inner");
    await free("for (let i = 0; i < 2; i++) {} return i;", "i");
    await free("try {} catch (e) {} return e;", "e");
    await free("const o = { process }; return o;", "process");
    await free("const { x = process } = a; return x;", "process");
    await free("return a.b[window];", "window");
    await free("return `${document}`;", "document");
    await free("return (() => exports)();", "exports");
    await free("class C { [Symbol.iterator]() {} }", "Symbol");
    await free("return undefinedHelper$3(a);", "undefinedHelper$3", "calls");
    await free("return new Proxy(a, {});", "Proxy", "calls");
  });

  test("'this' is refused where it is the global object", async () => {
    assert.equal(await check({ target: "js", code: "function k() { return this; }", entry: "k" }), "it uses 'this' in sloppy-mode code, where it is the global object");
    assert.equal(await check({ target: "js", code: "function k() { return (() => this)(); }", entry: "k" }), "it uses 'this' in sloppy-mode code, where it is the global object");
    assert.equal(await check({ target: "js", code: "this.x = 1; function k() {}", entry: "k" }), "it uses 'this' in sloppy-mode code, where it is the global object");
    assert.equal(await check({ target: "js", code: "\"use strict\"; function k() { return this; }", entry: "k" }), null);
    assert.equal(await check({ target: "js", code: "function k() { \"use strict\"; return this; }", entry: "k" }), null);
    assert.equal(await check({ target: "js", code: "function k() { return class { x = this; m() { return this; } }; }", entry: "k" }), null);
  });

  test("code that is not text", async () => {
    const a = await js("saxpy");
    assert.equal(await check(withCode(a, "", { code: new TextEncoder().encode(text(a)) } as never)), "its code is not text");
  });
  // A process that compiles checks with the compiler's parser (acorn, in-process); one that never
  // loads the compiler (gpuc/runtime reading an unsigned image) with oxc-parser. Both give every
  // verdict above (a parse error's own words aside).
  test("without the compiler loaded (oxc-parser), every verdict is the same", async () => {
    const inputs = seen.map((x) => ({ ...(x.input as object), code: typeof (x.input as { code: unknown }).code === "string" ? (x.input as { code: string }).code : null }));
    const script = `import { checkCode } from ${JSON.stringify(new URL("../src/cache/code-check.ts", import.meta.url).href)};
      let text = ""; for await (const c of process.stdin) text += c;
      const out = [];
      for (const x of JSON.parse(text)) out.push(await checkCode(x.code === null ? { ...x, code: new Uint8Array(1) } : x));
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { input: JSON.stringify(inputs), encoding: "utf8", cwd: fileURLToPath(new URL("..", import.meta.url)) });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as (string | null)[];
    assert.ok(seen.length >= 40, `${seen.length} checks`);
    seen.forEach((x, n) => {
      const [acorn, oxc] = [x.verdict, out[n]];
      if (acorn?.startsWith("it cannot be parsed: ")) assert.match(oxc ?? "", /^it cannot be parsed: /, JSON.stringify(x.input));
      else assert.equal(oxc, acorn, JSON.stringify(x.input));
    });
  });
});

describe("wgsl", () => {
  const wgsl = async (name: string) => compiled(CASE(name), "wgsl");

  test("a call to a function whose definition is gone", async () => {
    const a = await wgsl("saxpy");
    const code = text(a).replace(/fn gpuc_raise\(/, "fn gpuc_raise_gone(");
    assert.equal(await checkCode(withCode(a, code)), "it calls 'gpuc_raise', which it does not define");
  });

  test("a call to a function without the gpuc_ prefix that is not defined", async () => {
    const a = await wgsl("helpers");
    const code = text(a).replace(/\bsqrt\(/, "helper(");
    assert.equal(await checkCode(withCode(a, code)), "it calls 'helper', which it does not define");
    const templated = text(a).replace(/\bsqrt\(/, "convert<f32>(");
    assert.equal(await checkCode(withCode(a, templated)), "it calls 'convert', which it does not define");
    const member = text(a).replace(/\bsqrt\(/, "nested<vec2<f32>>(");
    assert.equal(await checkCode(withCode(a, member)), "it calls 'nested', which it does not define");
  });

  test("a call to something that is not a function", async () => {
    const a = await wgsl("saxpy");
    const code = text(a).replace("  gpuc_kernel(lid, wid, nwg);\n", "  gpuc_kernel(lid, wid, nwg);\n  let sneaky = 1i;\n  _ = sneaky(2i);\n");
    assert.match(code, /_ = sneaky\(2i\);/);
    assert.equal(await checkCode(withCode(a, code)), "it calls 'sneaky', which is not a function");
  });

  test("built-in functions, constructors and the module's types are defined", async () => {
    const a = await wgsl("saxpy");
    const extra = [
      "struct Pair { a: f32, b: f32, }",
      "alias V2 = vec2<f32>;",
      "fn extra(p: ptr<function, f32>) -> f32 {",
      "  let q = Pair(1.0, 2.0); let v = V2(1.0, 2.0); let m = mat2x2f(v, v); let arr = array<vec2<f32>, 2>(v, v);",
      "  let b = bitcast<u32>(1.5f) + countOneBits(3u) + pack4x8unorm(vec4f(0.5)) + u32(select(0, 1, q.a < q.b));",
      "  workgroupBarrier(); storageBarrier();",
      "  return fma(q.a, v.x, m[0].y) + arr[1].x + f32(b) + ldexp(1.0, 2i) + dot(vec3<f32>(1.0), vec3f(2.0)) + determinant(m) + *p;",
      "}",
    ].join("\n");
    assert.equal(await checkCode(withCode(a, `${text(a)}\n${extra}\n`)), null);
  });

  test("comments are not code", async () => {
    const a = await wgsl("saxpy");
    const code = `// evil(1)\n/* outer /* nested evil() */ still a comment: evil() */\n${text(a)}`;
    assert.equal(await checkCode(withCode(a, code)), null);
    assert.match(await checkCode(withCode(a, `/* /* */ ${text(a)}`)) ?? "", /^it cannot be parsed: /);
  });

  test("its entry: a @compute function", async () => {
    const a = await wgsl("saxpy");
    assert.equal(await checkCode(withCode(a, text(a), { entry: "other" })), "its entry 'other' is not defined");
    assert.equal(await checkCode(withCode(a, text(a).replace("@compute", ""))), `its entry '${a.entry}' is not a @compute function`);
  });

  test("code that is not text", async () => {
    const a = await wgsl("saxpy");
    assert.equal(await checkCode(withCode(a, "", { code: new Uint8Array(4) } as never)), "its code is not text");
  });
});

describe("ptx", () => {
  const ptx = async (name: string) => compiled(CASE(name), "ptx");
  const HEADER = ".version 7.8\n.target sm_75\n.address_size 64\n";

  test("an indirect call (through a register, with a .callprototype)", async () => {
    const code = `${HEADER}
.func (.param .b32 f_ret) f(.param .b32 f_p0)
{
  .reg .b32 %r<2>;
  ld.param.b32 %r1, [f_p0];
  st.param.b32 [f_ret], %r1;
  ret;
}

.visible .entry k()
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  mov.u64 %rd1, f;
  proto: .callprototype (.param .b32 _) _ (.param .b32 _);
  {
  .param .b32 param0;
  .param .b32 retval0;
  st.param.b32 [param0], 1;
  call.uni (retval0), %rd1, (param0), proto;
  ld.param.b32 %r1, [retval0];
  }
  ret;
}
`;
    assert.equal(await checkCode({ target: "ptx", code, entry: "k" }), "it makes an indirect call (call through register %rd1)");
    assert.equal(await checkCode({ target: "ptx", code: code.replace("call.uni (retval0), %rd1, (param0), proto;", "call.uni (retval0), f, (param0);"), entry: "k" }), null);
  });

  test("a call without arguments to a function it does not define", async () => {
    const a = await ptx("saxpy");
    const code = text(a).replace(/\n  ld\.param/, "\n  call.uni gpuc_flush;\n  ld.param");
    assert.match(code, /call\.uni gpuc_flush;/);
    assert.equal(await checkCode(withCode(a, code)), "it calls 'gpuc_flush', which it does not define");
    const defined = code.replace(/\.visible \.entry/, ".func gpuc_flush\n{\n  ret;\n}\n\n.visible .entry");
    assert.equal(await checkCode(withCode(a, defined)), null);
    const noReturnValue = code.replace("call.uni gpuc_flush;", "call gpuc_flush, ();");
    assert.equal(await checkCode(withCode(a, noReturnValue)), "it calls 'gpuc_flush', which it does not define");
  });

  test("a call to a function it declares but does not define", async () => {
    const a = await ptx("recursion");
    // Recursion keeps fib a .func, declared first; drop its body, keep the declaration.
    const code = text(a).replace(/\n(\.func \(\.param \.b32 (fib_\d+)_ret\) \2\([^)]*\))\n\{[\s\S]*?\n\}\n/, "\n");
    assert.match(code, /\.func \(\.param \.b32 fib_\d+_ret\) fib_\d+\([^)]*\);/);
    assert.doesNotMatch(code, /\.func[^;{]*\{/);
    assert.match(await checkCode(withCode(a, code)) ?? "", /^it calls 'fib_\d+', which it declares but does not define$/);
  });

  test("an external symbol", async () => {
    const a = await ptx("saxpy");
    const code = text(a).replace(".address_size 64\n", ".address_size 64\n\n.extern .func (.param .b32 r) foo(.param .b32 x);\n");
    assert.equal(await checkCode(withCode(a, code)), "it declares an external symbol 'foo' (.extern)");
    const shared = text(a).replace(".address_size 64\n", ".address_size 64\n.extern .shared .align 4 .b8 dynamic_smem[];\n");
    assert.equal(await checkCode(withCode(a, shared)), "it declares an external symbol 'dynamic_smem' (.extern)");
  });

  test("its entry: a defined .entry", async () => {
    const a = await ptx("saxpy");
    assert.equal(await checkCode(withCode(a, text(a), { entry: "other" })), "its entry 'other' is not defined");
    assert.equal(await checkCode(withCode(a, text(a).replace(".visible .entry", ".func"))), `its entry '${a.entry}' is a .func, not an .entry`);
    const declared = text(a).replace(/(\.visible \.entry \w+\([^)]*\))/, "$1;\n\n.visible .entry gone()");
    assert.equal(await checkCode(withCode(a, declared)), `its entry '${a.entry}' is not defined`);
  });

  test("comments are not code; calls to an entry are refused", async () => {
    const a = await ptx("recursion");
    const commented = `${text(a)}\n// call (gpuc_ret), missing_fn, (gpuc_arg0);\n/* call.uni other_missing; */\n`;
    assert.equal(await checkCode(withCode(a, commented)), null);
    const callsEntry = text(a).replace(/call \(gpuc_ret\), fib_\d+,/, `call (gpuc_ret), ${a.entry},`);
    assert.equal(await checkCode(withCode(a, callsEntry)), `it calls '${a.entry}', which is a kernel entry, not a function`);
  });

  test("unbalanced braces", async () => {
    const a = await ptx("saxpy");
    assert.equal(await checkCode(withCode(a, `${text(a)}\n}\n{\n  call.uni gpuc_flush;\n}\n`)), "it cannot be parsed: a '}' closes nothing");
    assert.equal(await checkCode(withCode(a, `${text(a)}\n.func gpuc_flush\n{\n  ret;\n`)), "it cannot be parsed: a '{' is not closed");
  });

  test("code that is not text", async () => {
    const a = await ptx("saxpy");
    assert.equal(await checkCode(withCode(a, "", { code: new Uint8Array(4) } as never)), "its code is not text");
  });
});

test("other targets: nothing to check yet", async () => {
  assert.equal(await checkCode({ target: "cubin", code: new Uint8Array([1, 2, 3]), entry: "k" }), null);
});

describe("spirv", () => {
  const spirv = async () => compiled(CASE("saxpy"), "spirv");
  const words = (a: Artifact) => new Uint32Array((a.code as Uint8Array).slice().buffer);
  const bytes = (w: Uint32Array) => new Uint8Array(w.buffer);

  test("text, a broken header, an instruction past the end", async () => {
    const a = await spirv();
    assert.equal(await checkCode(withCode(a, "anything at all" as never)), "its code is not a SPIR-V binary");
    const w = words(a);
    w[0] = 0x12345678;
    assert.equal(await checkCode({ target: "spirv", code: bytes(w), entry: a.entry }), "it cannot be parsed: no SPIR-V magic number");
    assert.equal(await checkCode({ target: "spirv", code: (a.code as Uint8Array).slice(0, 24), entry: a.entry }), "it cannot be parsed: an instruction runs past the end");
    assert.equal(await checkCode({ target: "spirv", code: (a.code as Uint8Array).slice(0, (a.code as Uint8Array).length - 4), entry: a.entry }), "it cannot be parsed: a function does not end");
  });

  test("a call to a function the module does not define; another entry name", async () => {
    const a = await spirv();
    const w = words(a);
    // OpFunctionCall (57): result type, result id, callee — pointed at an id that is no function.
    let at = -1;
    for (let i = 5; i < w.length; i += w[i] >>> 16) if ((w[i] & 0xffff) === 57) { at = i; break; }
    assert.ok(at > 0, "saxpy's SPIR-V calls the runtime library");
    w[at + 3] = 1;   // %1 is the OpenCL.std import
    assert.equal(await checkCode({ target: "spirv", code: bytes(w), entry: a.entry }), "it calls function %1, which it does not define");
    assert.equal(await checkCode({ target: "spirv", code: a.code, entry: "gpuc_other" }), "its entry 'gpuc_other' is not an entry point");
  });
});

describe("llvm", () => {
  const llvm = async (arch = "spir64") => {
    const c = CASE("saxpy");
    return kernel(c.fn as never).compile({ target: "llvm", types: c.types, features: { arch } });
  };

  test("AMD GPUs' code passes too; a call to a function neither defined nor a builtin, a call through a value, inline assembly", async () => {
    for (const arch of ["spir64", "gfx90a"]) {
      const a = await llvm(arch);
      assert.equal(await checkCode(a), null, arch);
      const call = /call (spir_func )?void @(gpuc_rt\d+_\w+)\(/.exec(text(a))!;
      assert.ok(call, `${arch}: saxpy's code calls the runtime library`);
      assert.equal(await checkCode(withCode(a, text(a).replace(call[0], call[0].replace(call[2], "gpuc_elsewhere")))), "it refers to '@gpuc_elsewhere', which it neither defines nor declares");
      assert.equal(await checkCode(withCode(a, `${text(a)}declare void @exit(i32)\n`)), "it declares an external function 'exit'");
      assert.match((await checkCode(withCode(a, text(a).replace(call[0], call[0].replace(`@${call[2]}`, "%t0")))))!, /^it calls through a value \('call (spir_func )?void %t0\(/);
      assert.equal(await checkCode(withCode(a, text(a).replace("entry:\n", "entry:\n  call void asm sideeffect \"s_endpgm\", \"\"()\n"))), "it holds inline assembly");
      assert.equal(await checkCode(withCode(a, `${text(a)}@x = external addrspace(1) global i32\n`)), "it declares an external global 'x'");
      assert.equal(await checkCode({ target: "llvm", code: a.code, entry: "gpuc_other" }), "its entry 'gpuc_other' is not a kernel of the module");
    }
  });

  test("SPIR's kernel argument metadata must be there, one entry per parameter (PoCL ends the process otherwise)", async () => {
    const a = await llvm();
    assert.equal(await checkCode(withCode(a, text(a).replace(/ !kernel_arg_type_qual !\d+/, ""))), "its kernel has no !kernel_arg_type_qual list");
    const short = text(a).replace(/^(!\d+ = !\{i32 0, i32 1,)/m, "!1 = !{i32 1,");
    assert.notEqual(short, text(a));
    assert.match((await checkCode(withCode(a, short)))!, /^its kernel's !kernel_arg_addr_space list has \d+ entries for \d+ parameters$/);
    assert.equal(await checkCode(withCode(a, `${text(a)}!opencl.kernels = !{!0}\n`)), "it has SPIR 1.2's !opencl.kernels list, which drivers here misread");
  });
});
