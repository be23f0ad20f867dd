// The rendered text of every CompileError kind, as users see it (STYLE: rendered errors are
// tested as text). Kernels live in fixtures/errors.mjs so their locations are exact.

import { test } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, loadImage, CompileError, KernelError } from "../src/index.ts";
import { gpuc as gpucPlugin } from "../src/plugin/index.ts";
import { lineOfIn } from "./helpers.ts";
import * as F from "./fixtures/errors.mjs";

const FILE = "test/fixtures/errors.mjs";
declare const __syncthreads: () => void, warpSize: number;
const dev = await device("cpu");

async function compileError(fn: Function, scope?: Record<string, unknown>, args: unknown[] = [new Float32Array(4)]): Promise<CompileError> {
  try {
    await kernel(fn, { scope }).launch(dev, { blocks: 1, threads: 1 }, ...args);
  } catch (e) {
    assert.ok(e instanceof CompileError, `expected a CompileError, got ${e}`);
    return e;
  }
  assert.fail("expected a CompileError");
}

const HINT_NAMES = "    hint: kernels see their own locals, the `scope` option of kernel(), and gpuc's intrinsics";

test("dynamic-call: calling a value", async () => {
  const e = await compileError(F.dynamicCall);
  assert.equal(e.kind, "dynamic-call");
  assert.equal(e.message, `${FILE}:6:3: unsupported dynamic function invocation (call to 'f')\n` +
    "    hint: kernels can call helper functions (declared in the kernel or passed in `scope`) and gpuc's intrinsics");
  assert.deepEqual(e.location, { file: FILE, line: 6, column: 3 });
  assert.deepEqual(e.frames.map((f) => f.function), ["dynamicCall"]);
});

test("undefined-name", async () => {
  const e = await compileError(F.undefinedName);
  assert.equal(e.kind, "undefined-name");
  assert.equal(e.message, `${FILE}:10:10: use of undefined name 'notDefinedAnywhere'\n${HINT_NAMES}`);
});

test("unsupported-syntax: every construct is named, all reported at once", async () => {
  const e = await compileError(F.classAndTry);
  assert.equal(e.kind, "unsupported-syntax");
  assert.equal(e.message, `${FILE}:14:3: a class declaration is not supported in kernels\n${FILE}:15:3: try/catch is not supported in kernels\n(2 errors)`);
  const a = await compileError(F.allocation);
  // (`let g = () => 2` beside it is a function value, which kernels have.)
  assert.equal(a.message, `${FILE}:19:13: 'new Map(…)' is not supported in kernels (no allocation on the device; private arrays are \`new Float32Array(N)\` with a constant N)`);
});

test("unsupported-syntax in a kernel's parameters is reported as such, not as an argument count", async () => {
  const r = await compileError(F.restAndDefault, undefined, [new Float32Array(4), new Float32Array(4)]);
  assert.equal(r.message, `${FILE}:98:35: a rest parameter is not supported in a kernel's parameters; use plain names`);
  const d = await compileError(F.defaultParam, undefined, [new Float32Array(4), 3]);
  assert.equal(d.message, `${FILE}:102:33: a default value is not supported in a kernel's parameters; use plain names`);
  const t = await compileError(F.readsThis);
  assert.equal(t.message, `${FILE}:107:10: 'this' is not supported in kernels`);
});

test("invalid-assignment: const and constant tables", async () => {
  const e = await compileError(F.assignConst);
  assert.equal(e.kind, "invalid-assignment");
  assert.equal(e.message, `${FILE}:25:3: cannot assign to const 'n'`);
  const t = await compileError(F.writeTable, { table: new Float32Array(4) });
  assert.equal(t.message, `${FILE}:58:3: cannot write to a constant table captured from scope`);
});

test("type: float index, kernel return value, missing return in a helper", async () => {
  const e = await compileError(F.floatIndex);
  assert.equal(e.kind, "type");
  assert.equal(e.message, `${FILE}:30:5: array index must be an integer, got f32\n${HINT_INDEX}`);
  const r = await compileError(F.kernelReturnsValue);
  assert.equal(r.message, `${FILE}:34:10: a kernel cannot return a value\n    hint: write results into an array argument`);
  const h = await compileError(F.helperMissingReturn, { half: F.half });
  assert.equal(h.message, `${FILE}:41:8: function 'half' does not return a value on every path\n    called from 'helperMissingReturn' at ${FILE}:38:10`);
});

const HINT_INDEX = "    hint: convert it, e.g. `Math.floor(x) | 0`; JavaScript's `/` gives a float even for integers: for an integer quotient write `(a / b) | 0`, or `a >> 1` for `a / 2`";

test("type: a float index from a division names the division (C's integer `/` is JavaScript's float `/`)", async () => {
  const e = await compileError(F.halfIndex, undefined, [new Float32Array(8), 8]);
  assert.equal(e.message, `${FILE}:119:56: array index must be an integer, got f32 ('stride' is a float: it is assigned \`n / 2\` at line 119)\n${HINT_INDEX}\n` +
    `${FILE}:120:5: array index must be an integer, got f32 (\`n / 4\` is a float)\n${HINT_INDEX}\n(2 errors)`);
  const h = await compileError(F.passesHalf, { swap: F.swap }, [new Float32Array(8), 8]);
  assert.match(h.message, /^test\/fixtures\/errors\.mjs:124:\d+: array index must be an integer, got f32 \('j' is a float: the call passes one\)\n    called from 'passesHalf' at test\/fixtures\/errors\.mjs:128:3\n/);
});

test("unsupported-syntax: a labeled block (labeled loops and switches are the kernel language's)", async () => {
  const e = await compileError(F.labeledBlock);
  assert.equal(e.kind, "unsupported-syntax");
  assert.equal(e.message, `${FILE}:132:3: a label on a block is not supported in kernels, only on a loop or a switch\n` +
    "    hint: leave the block through a flag, or make it a loop that ends in `break` (`name: for (;;) { …; break; }`)");
});

test("errors in helpers carry the call chain down from the kernel", async () => {
  const e = await compileError(F.badHelperCaller, { level1: F.level1, level2: F.level2 });
  assert.equal(e.message,
    `${FILE}:54:10: property 'foo' is not supported on a number in kernels (only '.length' of arrays and the fields of object values)\n` +
    `    called from 'level1' at ${FILE}:50:10\n` +
    `    called from 'badHelperCaller' at ${FILE}:46:10`);
  assert.deepEqual(e.frames.map((f) => [f.function, f.location?.line]), [["level2", 54], ["level1", 50], ["badHelperCaller", 46]]);
});

test("unsupported-value: an object in scope", async () => {
  const e = await compileError(F.usesObject, { config: { a: 1 } });
  assert.equal(e.kind, "unsupported-value");
  assert.equal(e.message, `${FILE}:62:10: 'config' from scope is an object (Object); kernels can use numbers, booleans, typed arrays (and tables: Arrays of numbers or of typed arrays) and functions`);
});

test("undefined-name: CUDA's spelling of an intrinsic is named in the hint", async () => {
  const e = await compileError(function cudaStyle(x: Float32Array) { __syncthreads(); x[0] = warpSize; });
  assert.deepEqual(e.diagnostics.map((d) => [d.kind, d.message, d.hint]), [
    ["undefined-name", "use of undefined name '__syncthreads'", "CUDA's __syncthreads is syncthreads() in gpuc"],
    ["undefined-name", "use of undefined name 'warpSize'", "CUDA's warpSize is subgroupSize() in gpuc"],
  ]);
});

test("dynamic-call: an array's method says so, once (its callback is no second error)", async () => {
  const e = await compileError(function arrayMethods(x: Float32Array) { x[0] = x.map((v) => v * 2)[0]; x.sort(); });
  const hint = (m: string) => `'${m}' is a method of arrays that kernels do not have (they have subarray, at, forEach, reduce, reduceRight, some, every, findIndex, findLastIndex, indexOf, lastIndexOf, includes and fill): write it as a loop`;
  assert.deepEqual(e.diagnostics.map((d) => [d.kind, d.message, d.hint]), [
    ["dynamic-call", "unsupported dynamic function invocation (call to 'x.map')", hint("map")],
    ["dynamic-call", "unsupported dynamic function invocation (call to 'x.sort')", hint("sort")],
  ]);
});

test("collect, then throw once: three problems, three diagnostics", async () => {
  const e = await compileError(F.threeProblems);
  assert.equal(e.diagnostics.length, 3);
  assert.deepEqual(e.diagnostics.map((d) => d.location?.line), [66, 67, 68]);
  assert.match(e.message, /\(3 errors\)$/);
});

test("a declaration whose value is an error is reported there once, not again where the variable is read", async () => {
  const e = await compileError(F.failedDeclarations);
  assert.deepEqual(e.diagnostics.map((d) => [d.location?.line, d.message]), [
    [111, "strings can only be passed to console.log and Error in kernels"],
    [112, "Math.random() is not supported in kernels (no random state on the device)"],
  ]);
});

/** A rejection whose error is of `cls` and `kind`, located at the call in this file, with `text` after the location. */
const atCall = (cls: typeof CompileError | typeof KernelError, kind: string, text: string | RegExp) => (e: unknown) => {
  assert.ok(e instanceof cls, `expected a ${cls.name}, got ${e}`);
  assert.equal(e.kind, kind);
  assert.ok(e.location !== null && e.location.file.endsWith("errors.test.ts"), `located at the call, got ${JSON.stringify(e.location)}`);
  const where = `${e.location.file}:${e.location.line}:${e.location.column}: `;
  assert.ok(e.message.startsWith(where), `message starts with ${where}: ${e.message}`);
  if (typeof text === "string") assert.equal(e.message.slice(where.length), text);
  else assert.match(e.message.slice(where.length), text);
  return true;
};
const TAKES = "kernels take numbers, booleans, typed arrays (Float32Array, Float64Array, Int32Array, Uint32Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array), device arrays, objects of numbers ({ x: 1.5, n: 2 }) or Arrays of objects of one shape";

test("launch mistakes: a kind each (arity, argument-type, unsupported-array, launch-config), at the call in the user's code", async () => {
  const k = kernel(function twoArgs(a: number, x: Float32Array) { x[0] = a; }, { types: { a: "i32" } });
  const one = { blocks: 1, threads: 1 };
  await assert.rejects(k.launch(dev, one, new Float32Array(1)), atCall(CompileError, "arity", "kernel 'twoArgs' takes 2 arguments (a, x), got 1\n    hint: a launch passes every argument: an optional array not given is passed as undefined or null"));
  await assert.rejects(k.launch(dev, one, 1, new BigInt64Array(1)), atCall(CompileError, "unsupported-array",
    `argument 'x' of kernel 'twoArgs' is declared f32[] but got BigInt64Array, an array kind kernels do not take; pass a Float32Array`));
  await assert.rejects(k.launch(dev, one, 1, new Float64Array(1)), atCall(CompileError, "argument-type", "argument 'x' of kernel 'twoArgs' is declared f32[] but got Float64Array"));
  await assert.rejects(k.launch(dev, one, 1, [1, 2]), atCall(CompileError, "unsupported-array",
    "argument 'x' of kernel 'twoArgs' is declared f32[] but got an Array of numbers, which kernels take as f64[] (JavaScript's numbers; for another element type convert it: Float32Array.from(array)); pass a Float32Array"));
  await assert.rejects(k.launch(dev, one, 2.5, new Float32Array(1)), atCall(CompileError, "argument-type",
    "argument 'a' of kernel 'twoArgs' is declared i32 but got 2.5, which is not an i32 value (an integer from -2147483648 to 2147483647: x | 0 converts one)"));
  await assert.rejects(k.launch(dev, one, 3n, new Float32Array(1)), atCall(CompileError, "argument-type",
    "argument 'a' of kernel 'twoArgs' is declared i32 but got the BigInt 3n (convert it: Number(x)); pass a number"));
  // Without declared types the message says what kernels take.
  const u = kernel(function untyped(a: any, x: any) { x[0] = a; });
  await assert.rejects(u.launch(dev, one, Symbol("s"), new Float32Array(1)), atCall(CompileError, "argument-type", `argument 'a' of kernel 'untyped' got a symbol; ${TAKES}`));
  await assert.rejects(u.launch(dev, one, 1, new DataView(new ArrayBuffer(4))), atCall(CompileError, "unsupported-array", `argument 'x' of kernel 'untyped' got DataView, an array kind kernels do not take; ${TAKES}`));
  await assert.rejects(u.launch(dev, one, 1, new Proxy(new Float32Array(1), {})), atCall(CompileError, "unsupported-array",
    `argument 'x' of kernel 'untyped' got an object that is not itself a Float32Array (a Proxy of one?), which kernels do not take (pass the typed array itself); ${TAKES}`));
  const detached = new Float32Array(4);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  await assert.rejects(k.launch(dev, one, 1, detached), atCall(CompileError, "argument-type",
    "argument 'x' of kernel 'twoArgs' is a Float32Array whose buffer was detached (transferred by postMessage, structuredClone or transfer()): it has no data to pass"));
  // A forgotten launch configuration is said as such, not as a wrong number of arguments.
  await assert.rejects(k.launch(dev, new Float32Array(1) as never, 1), atCall(KernelError, "launch-config",
    "kernel 'twoArgs': launch(device, { blocks, threads }, ...arguments) takes the launch configuration second, got Float32Array"));
  await assert.rejects(k.launch({} as never, one, 1, new Float32Array(1)), atCall(KernelError, "launch-config",
    `kernel 'twoArgs': launch(device, { blocks, threads }, ...arguments) takes a device first (await device("cpu"), device("webgpu"), …), got Object`));
  await assert.rejects(k.launch(dev, { blocks: 2n as never, threads: 1 }, 1, new Float32Array(1)), atCall(KernelError, "launch-config",
    "'blocks' must be a positive integer or an array of 1 to 3 positive integers, got 2n"));
  const revoked = Proxy.revocable({ blocks: 1, threads: 1 }, {});
  revoked.revoke();
  await assert.rejects(k.launch(dev, revoked.proxy, 1, new Float32Array(1)), atCall(KernelError, "launch-config", /^kernel 'twoArgs': the launch configuration cannot be read \(.*revoked.*\)$/));
});

test("unknown-target", async () => {
  const k = kernel(function t(x: Float32Array) { x[0] = 1; });
  await assert.rejects(k.compile({ target: "vhdl", types: ["f32[]"] }), atCall(CompileError, "unknown-target", "unknown target 'vhdl' (available: js, wgsl, ptx, opencl, spirv, llvm)"));
  await assert.rejects(k.compile({ target: "ptx", types: ["f32[]"], features: { arch: "sm_50" } }), atCall(CompileError, "unknown-target",
    "'sm_50' is not an architecture of target 'ptx' (available: sm_75, sm_80, sm_86, sm_89, sm_90)"));
});

test("launch configuration errors are KernelErrors of kind 'launch-config', at the call", async () => {
  const k = kernel(function l(x: Float32Array) { x[0] = 1; });
  const x = new Float32Array(1);
  for (const [cfg, msg] of [
    [{ blocks: 0, threads: 1 }, "'blocks' dimension x must be a positive integer, got 0"],
    [{ blocks: 1, threads: 2000 }, "threads.x = 2000 exceeds the limit of 1024"],
    [{ blocks: 1, threads: [32, 32, 2] }, "2048 threads per block exceeds the limit of 1024"],
    [{ blocks: [1, 1, 1, 1], threads: 1 }, "'blocks' must be a positive integer or an array of 1 to 3 positive integers, got [1,1,1,1]"],
  ] as const) {
    await assert.rejects(k.launch(dev, cfg as never, x), atCall(KernelError, "launch-config", msg));
  }
});

test("locations in TypeScript run through a loader map back to the .ts source", async () => {
  const k = kernel(function mapped(out: Float32Array) {
    out[0] = notDefinedHere; // @MAPPED
  });
  try {
    await k.launch(dev, { blocks: 1, threads: 1 }, new Float32Array(1));
    assert.fail("expected an error");
  } catch (err) {
    assert.ok(err instanceof CompileError);
    assert.equal(err.location?.file, "test/errors.test.ts");
    assert.equal(err.location?.line, lineOfIn(import.meta.url)("MAPPED"));
  }
});

test("unsupported-type: element types kernels do not have", async () => {
  const e = await compileError(F.bigIntArray);
  assert.equal(e.kind, "unsupported-type");
  assert.equal(e.message, `${FILE}:72:13: BigInt64Array is not supported in kernels: arrays hold i32, u32, f32, f64 or narrow integers (Int32Array, Uint32Array, Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array)`);
});

test("private arrays need a constant size", async () => {
  const e = await compileError(F.dynamicPrivateSize, undefined, [new Float32Array(4), 3]);
  assert.equal(e.kind, "type");
  assert.equal(e.message, `${FILE}:77:30: the size of a private array must be a constant integer from 1 to 4096`);
});

test("barriers: not inside a switch, not in a helper that cannot be inlined", async () => {
  const s = await compileError(F.barrierInSwitch);
  assert.equal(s.message, `${FILE}:83:13: syncthreads() inside a switch is not supported\n    hint: use if/else around the barrier`);
  const h = await compileError(F.barrierHelper, { syncAndMaybe: F.syncAndMaybe });
  assert.equal(h.kind, "unsupported-syntax");
  assert.equal(h.message, `${FILE}:92:8: syncthreads() in 'syncAndMaybe', a helper that cannot be inlined into the kernel (it returns before its end, or recurses)\n` +
    "    hint: restructure the helper so that its only return is its last statement");
});

test("invalid-option: kernel options gpuc does not know or cannot use, and compile() without options", async () => {
  const fn = function opts(x: Float32Array) { x[0] = 1; };
  const rejects = (make: () => unknown, re: RegExp) => assert.throws(make, atCall(CompileError, "invalid-option", re));
  rejects(() => kernel(fn, { requiredThread: 64 } as never), /^kernel 'opts': unknown option 'requiredThread' \(did you mean 'requiredThreads'\?\) \(options: scope, types, name, boundsCheck, debugLevel, fastMath, maxThreads, requiredThreads, relocation, rewritable, id, imageOnly\)$/);
  rejects(() => kernel(fn, { id: "" }), /^kernel 'opts': id must be a non-empty string \(the bundler plugin writes it\), got the string ""$/);
  rejects(() => kernel(fn, { debugLevel: 9 } as never), /^kernel 'opts': debugLevel must be 0, 1 or 2, got the number 9$/);
  rejects(() => kernel(fn, { boundsCheck: "no" } as never), /^kernel 'opts': boundsCheck must be true or false, got the string "no"$/);
  rejects(() => kernel(fn, { scope: 5 } as never), /^kernel 'opts': scope must be an object, got the number 5$/);
  rejects(() => kernel(fn, { types: { x: 5 } } as never), /^kernel 'opts': types\.x must be a type name such as "f32", "i32" or "f32\[\]", got the number 5$/);
  rejects(() => kernel(fn, { maxThreads: 2048 }), /^kernel 'opts': maxThreads must be 1 to 3 positive integers with a product of at most 1024, got 2048$/);
  await assert.rejects(kernel(fn).compile(undefined as never), atCall(CompileError, "invalid-option", /^compile\(\) needs options: \{ target, types \}/));
  await assert.rejects(kernel(fn).compile({ target: "js", types: ["f32[]"], dumpSink: 5 } as never), atCall(CompileError, "invalid-option", "compile(): dumpSink must be a function, got the number 5"));
  await assert.rejects(kernel(fn).compile({ target: "js", types: [5] } as never), atCall(CompileError, "invalid-option",
    "parameter 'x' of 'opts' needs a type (bool, i32, u32, f32, f64, an array such as f32[], an object such as { x: f32 }, an array of objects such as { x: f32 }[], or null for an absent optional array), got the number 5"));
});

test("invalid-option: every call that takes options names a misspelt one and lists the valid ones; a launch configuration its unknown key", async () => {
  const fn = function misspelt(x: Float32Array) { x[0] = 1; };
  const k = kernel(fn);
  assert.throws(() => kernel(fn, { scop: {} } as never), atCall(CompileError, "invalid-option",
    "kernel 'misspelt': unknown option 'scop' (did you mean 'scope'?) (options: scope, types, name, boundsCheck, debugLevel, fastMath, maxThreads, requiredThreads, relocation, rewritable, id, imageOnly)"));
  await assert.rejects(k.compile({ target: "js", type: ["f32[]"] } as never), atCall(CompileError, "invalid-option",
    "compile(): unknown option 'type' (did you mean 'types'?) (options: target, features, args, types, dump, dumpSink, optimize)"));
  await assert.rejects(k.compile({ target: "ptx", types: ["f32[]"], features: { fastmath: true } } as never), atCall(CompileError, "invalid-option",
    "compile(): features: unknown feature 'fastmath' (did you mean 'fastMath'?) (features: arch, fastMath, maxThreads, requiredThreads, relocation, sanitize, provenChecks)"));
  // Every device kind, whether or not it can be opened here (the options are checked first).
  await assert.rejects(device("cpu", { thread: 2 } as never), atCall(CompileError, "invalid-option",
    'device("cpu"): unknown option \'thread\' (did you mean \'threads\'?) (options: print, printBufferWords, subgroupSize, threads, parallel, wasm, sanitize, threadOrder)'));
  await assert.rejects(device("webgpu", { powerPrefrence: "high-performance" } as never), atCall(CompileError, "invalid-option",
    'device("webgpu"): unknown option \'powerPrefrence\' (did you mean \'powerPreference\'?) (options: print, printBufferWords, gpu, powerPreference)'));
  await assert.rejects(device("webgpu", { threads: 2 }), atCall(CompileError, "invalid-option",
    'device("webgpu"): unknown option \'threads\' (options: print, printBufferWords, gpu, powerPreference); it is an option of device("cpu")'));
  await assert.rejects(device("webgpu", { powerPreference: "fast" } as never), atCall(CompileError, "invalid-option",
    'device("webgpu"): powerPreference must be "high-performance" or "low-power", got the string "fast"'));
  await assert.rejects(device("cuda", { platfrom: 0 } as never), atCall(CompileError, "invalid-option",
    'device("cuda"): unknown option \'platfrom\' (options: print, printBufferWords)'));
  await assert.rejects(device("opencl", { platfrom: 0 } as never), atCall(CompileError, "invalid-option",
    'device("opencl"): unknown option \'platfrom\' (did you mean \'platform\'?) (options: print, printBufferWords, platform, device, spirv, llvm)'));
  await assert.rejects(device(undefined, { prnt: console.log } as never), atCall(CompileError, "invalid-option",
    /^device\(\): unknown option 'prnt' \(did you mean 'print'\?\) \(options: print, printBufferWords, subgroupSize, threads, parallel, wasm, sanitize, threadOrder, gpu, powerPreference, platform, device, spirv, llvm\)$/));
  await assert.rejects(device("cpu", { subgroupSize: 12 }), atCall(CompileError, "invalid-option", 'device("cpu"): subgroupSize must be 1, 2, 4, 8, 16 or 32, got 12'));
  // The environment is input too: a value the CPU device's option cannot take names its variable.
  for (const [name, value, text] of [["GPUC_CPU_THREADS", "two", "an integer from 1 to 256"], ["GPUC_CPU_THREADS", "0", "an integer from 1 to 256"], ["GPUC_CPU_PARALLEL", "alwys", '"auto" or "always"']]) {
    const saved = process.env[name];
    process.env[name] = value;
    try {
      await assert.rejects(device("cpu"), atCall(CompileError, "invalid-option", `device("cpu"): the environment's ${name} must be ${text}, got "${value}"`));
    } finally { if (saved === undefined) delete process.env[name]; else process.env[name] = saved; }
  }
  await assert.rejects(loadImage(new Uint8Array(0), { publickey: "…" } as never), atCall(CompileError, "invalid-option",
    "loadImage(): unknown option 'publickey' (did you mean 'publicKey'?) (options: publicKey, sha256)"));
  assert.throws(() => gpucPlugin.esbuild({ target: ["wgsl"] } as never), (e: unknown) => e instanceof CompileError && e.kind === "invalid-option" &&
    e.message === "gpuc plugin: unknown option 'target' (did you mean 'targets'?) (options: targets, fileName, include, checks)");
  assert.throws(() => gpucPlugin.esbuild({ targets: ["wgls"] }), (e: unknown) => e instanceof CompileError && e.kind === "invalid-option" && /^gpuc plugin: unknown target 'wgls'/.test(e.message));
  // The launch configuration is not an options object: its mistakes stay launch-config, naming the key.
  await assert.rejects(k.launch(dev, { blocks: 1, thread: 4 } as never, new Float32Array(1)), atCall(KernelError, "launch-config",
    "the launch configuration has an unknown key 'thread' (did you mean 'threads'?) (keys: blocks, threads, signal, timeoutMs)"));
  await assert.rejects(k.launch(dev, { blocks: 1, threads: 4, timeoutMS: 100 } as never, new Float32Array(1)), atCall(KernelError, "launch-config",
    "the launch configuration has an unknown key 'timeoutMS' (did you mean 'timeoutMs'?) (keys: blocks, threads, signal, timeoutMs)"));
});

// Deliberately undefined at run time (the kernel of "locations in TypeScript…" must fail on it):
// declared for the type checker only. Kept at the end: that test asserts the line of its use.
declare const notDefinedHere: number;
