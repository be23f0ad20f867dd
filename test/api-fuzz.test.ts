// A fuzz test of the public API (#19 item 3): random values of every JavaScript type thrown at
// kernel() (and its options), compile(), launch() (its device, configuration and arguments),
// dev.array() and loadImage(), on every device of the matrix. Each call either succeeds with the
// right result or throws a CompileError or KernelError of a documented kind — never a TypeError
// from below, an InternalCompilerError or anything else — and the mistakes of a launch (arity,
// argument-type, unsupported-array, launch-config) are located at the call, in this file.
//
// Seeded and fast in `npm test`; GPUC_API_FUZZ=10000 runs that many calls per device (the issue's
// run), GPUC_API_FUZZ_SEED another seed. A failure names its call number and what it was called with.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, loadImage, CompileError, KernelError, DeviceArray, threadIdx, blockIdx, blockDim, type Device, type Kernel } from "../src/index.ts";
import { sha256 } from "../src/sha256.ts";
import { serializeImage } from "../src/cache/image-file.ts";
import { prng, DEVICES, openKind } from "./helpers.ts";

const CALLS = Number(process.env.GPUC_API_FUZZ ?? 1000);
const SEED = Number(process.env.GPUC_API_FUZZ_SEED ?? 19);

/** The kinds README documents (errors.ts's unions). */
const COMPILE_KINDS = new Set(["syntax", "unsupported-syntax", "undefined-name", "dynamic-call", "type", "unsupported-type", "unsupported-feature",
  "unsupported-value", "invalid-assignment", "invalid-argument", "invalid-option", "arity", "argument-type", "unsupported-array", "recursion", "generator-error",
  "runtime-signature", "unknown-target", "relocation"]);
const KERNEL_KINDS = new Set(["bounds", "exception", "launch-config", "launch", "device-unavailable", "invalid-image"]);
/** Mistakes of a call, which must point at the call (this file). */
const AT_CALL = new Set(["arity", "argument-type", "unsupported-array", "launch-config"]);

// ---- the kernels ----------------------------------------------------------------------------------
// Each with a reference: what its output must hold after a launch that succeeded.

const fuzzFill = kernel(function fuzzFill(fillOut: Float32Array, fillValue: number) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < fillOut.length) fillOut[i] = fillValue;
});
const fuzzLen = kernel(function fuzzLen(lenOut: Int32Array, lenOf: any) {
  if (blockIdx.x === 0 && threadIdx.x === 0) lenOut[0] = lenOf.length;
});
const fuzzFlag = kernel(function fuzzFlag(flagOut: Int32Array, flagOn: boolean, flagK: number) {
  if (blockIdx.x === 0 && threadIdx.x === 0 && flagOut.length > 0) flagOut[0] = flagOn ? flagK | 0 : -1;
}, { types: { flagK: "u32" } });

const SOURCES: Function[] = [
  function fuzzSrcA(o: Float32Array, a: number) { o[threadIdx.x] = a * 2; },
  function fuzzSrcB(o: Int32Array, x: Int32Array) { const i = threadIdx.x; if (i < o.length && i < x.length) o[i] = x[i] + 1; },
  (o: Float32Array) => { o[0] = 1; },
  function fuzzSrcBad(o: Float32Array) { o[0] = (globalThis as any).nope; },
  async function fuzzSrcAsync(o: Float32Array) { o[0] = 1; },
  class FuzzClass {},
  Math.sin,
  function fuzzSrcC(o: Float32Array) { o[0] = 1; }.bind(null),
];

// ---- random values -----------------------------------------------------------------------------

type R = ReturnType<typeof prng> & { chance(p: number): boolean; pick<T>(xs: readonly T[]): T };
function rng(seed: number): R {
  const r = prng(seed);
  return Object.assign(r, {
    chance: (p: number) => r.u32() / 4294967296 < p,
    pick: <T,>(xs: readonly T[]): T => xs[r.u32() % xs.length],
  });
}

const ARRAY_KINDS = [Float32Array, Float64Array, Int32Array, Uint32Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array] as const;
type TA = InstanceType<(typeof ARRAY_KINDS)[number]>;
const OTHER_VIEWS = [BigInt64Array, BigUint64Array] as const;
const NUMBERS = [0, -0, 1, -1, 2.5, -2.5, 0.1, 1e300, -1e300, 1e-300, NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 2 ** 32, 2 ** 32 - 1,
  Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, Number.EPSILON, 3, 7, 255, 256, 65536];
const STRINGS = ["", "1", "2.5", "f32", "f32[]", "i32", "js", "wgsl", "a\nb", "\u0000", "\u2028", "😀", "x".repeat(300), "blocks", "__proto__", "constructor"];
const ODD_NAMES = ["a\nb", "a b", "\u2028", "*/", "\"'`", "😀", "0start", "for", "main", "gpuc_state", "-", "$", "a".repeat(200), "", "\u0000x"];

function number(r: R): number {
  return r.chance(0.6) ? r.pick(NUMBERS) : r.chance(0.5) ? r.int(-1000, 1000) : r.float(-1e6, 1e6);
}

/** A typed array of kind C and length n, on one of the buffers a user may have: plain, shared, resizable, growable, at an offset. */
function typedArray(r: R, C: (typeof ARRAY_KINDS)[number], n: number): TA {
  const bpe = C.BYTES_PER_ELEMENT;
  let a: TA;
  switch (r.int(0, 4)) {
    case 0: a = new C(n); break;
    case 1: a = new C(new SharedArrayBuffer(n * bpe) as never); break;
    case 2: a = new C(new (ArrayBuffer as any)(n * bpe, { maxByteLength: (n + 4) * bpe })); break;
    case 3: a = new C(new (SharedArrayBuffer as any)(n * bpe, { maxByteLength: (n + 4) * bpe })); break;
    default: { const skip = r.int(0, 3); a = new C(new ArrayBuffer((n + 3) * bpe), skip * bpe, n); }
  }
  const float = C === Float32Array || C === Float64Array;
  for (let i = 0; i < n; i++) a[i] = float ? r.float(-100, 100) : r.int(-300, 70000);
  return a;
}

function detached(r: R): TA {
  const a = typedArray(r, r.pick(ARRAY_KINDS), r.int(1, 8));
  if (a.buffer instanceof SharedArrayBuffer) { const b = new ArrayBuffer(8), on = new Float32Array(b); structuredClone(b, { transfer: [b] }); return on; }
  structuredClone(a.buffer, { transfer: [a.buffer as ArrayBuffer] });
  return a;
}

interface World { dev: Device; other: Device; closedArray: DeviceArray }

/** A device array of `dev` (or a view of one), or null where the device refuses the kind (f64 on WebGPU). */
function deviceArray(r: R, dev: Device, C: (typeof ARRAY_KINDS)[number], n: number): DeviceArray | null {
  try {
    const d = dev.array(typedArray(r, C, n + 2));
    return r.chance(0.3) ? d.subarray(1, n + 1) : d.subarray(0, n);
  } catch (e) {
    if (e instanceof KernelError) return null;
    throw e;
  }
}

/** Any value at all. */
function anyValue(r: R, w: World, depth = 0): unknown {
  switch (r.int(0, 22)) {
    case 0: return number(r);
    case 1: return r.pick([0n, 1n, -5n, 2n ** 64n, 4n]);
    case 2: return r.pick(STRINGS);
    case 3: return r.pick([Symbol("s"), Symbol.iterator, Symbol.for("gpuc")]);
    case 4: return r.pick([() => 1, function named() {}, class {}, async () => {}, Math.sin, fuzzFill.launch, new Proxy(() => 1, {})]);
    case 5: return r.pick([null, undefined, true, false]);
    case 6: return r.pick([{}, Object.create(null), { length: 3 }, new Date(0), new Map(), /re/, new Error("x"), Promise.resolve(1), { blocks: 1, threads: 1 }, { toString() { return "f32"; } }]);
    case 7: return depth < 2 ? Array.from({ length: r.int(0, 4) }, () => anyValue(r, w, depth + 1)) : [];
    case 8: return r.pick([[], [1, 2, 3], Object.freeze([1, 2]), [1n], [, 2], new Array(3)]);
    case 9: return new Proxy(typedArray(r, r.pick(ARRAY_KINDS), r.int(0, 4)), {});
    case 10: { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; }
    case 11: return new Proxy({}, {});
    case 12: return Object.freeze(typedArray(r, r.pick(ARRAY_KINDS), 0));
    case 13: return Object.preventExtensions(typedArray(r, r.pick(ARRAY_KINDS), r.int(1, 4)));
    case 14: return detached(r);
    case 15: return new (r.pick(OTHER_VIEWS))(r.int(0, 4));
    case 16: return r.pick([new DataView(new ArrayBuffer(8)), new ArrayBuffer(8), new SharedArrayBuffer(8)]);
    case 17: case 18: return typedArray(r, r.pick(ARRAY_KINDS), r.int(0, 8));
    case 19: return deviceArray(r, w.dev, r.pick(ARRAY_KINDS), r.int(0, 6));
    case 20: return r.chance(0.5) ? w.closedArray : w.other.array(new Float32Array(2));
    case 21: return new (r.pick(ARRAY_KINDS))(new SharedArrayBuffer(16) as never);
    default: return r.chance(0.5) ? w.dev : fuzzFill;
  }
}

/** A value for one dimension of a launch configuration: mostly sensible, sometimes not. */
function gridValue(r: R, w: World): unknown {
  switch (r.int(0, 6)) {
    case 0: return r.int(1, 4);
    case 1: return [r.int(1, 3), r.int(1, 2), r.int(1, 2)].slice(0, r.int(1, 3));
    case 2: return r.pick([0, -1, 1.5, NaN, Infinity, 2000, 65, 70000, 2 ** 31, 1e10, -0]);
    case 3: return r.pick([1n, 2n, [1n], [1, 2n], "4", ["4"], [], [1, 1, 1, 1], [[1]], { x: 1 }, null, undefined]);
    case 4: return [r.int(1, 40), r.int(1, 40), r.int(1, 3)];
    case 5: return anyValue(r, w);
    default: return r.int(1, 64);
  }
}

/** Thread shapes a valid launch uses (few: each one is its own WebGPU pipeline). */
const GOOD_THREADS = [1, 2, 32, 64, [8, 8], [4, 2, 2], [16, 1, 1]] as const;
function goodConfig(r: R): { blocks: number | number[]; threads: number | readonly number[] } {
  return { blocks: r.chance(0.7) ? r.int(1, 3) : [r.int(1, 3), r.int(1, 2)], threads: r.pick(GOOD_THREADS) };
}

// ---- the calls ---------------------------------------------------------------------------------

/** What went wrong in a call, or null. */
type Verdict = string | null;

/** How the last call ended: "ok", or the class and kind of its error (for the counts). */
let outcome = "ok";

/** The verdict on an error a call threw. */
function judge(e: unknown, what: "launch" | "compile" | "kernel" | "image" | "array"): Verdict {
  outcome = e instanceof CompileError || e instanceof KernelError ? `${e.name} ${e.kind}` : "other";
  if (e instanceof CompileError) {
    if (!COMPILE_KINDS.has(e.kind)) return `a CompileError of undocumented kind '${e.kind}': ${e.message}`;
  } else if (e instanceof KernelError) {
    if (!KERNEL_KINDS.has(e.kind)) return `a KernelError of undocumented kind '${e.kind}': ${e.message}`;
  } else {
    return `${(e as Error)?.name ?? typeof e}: ${(e as Error)?.stack ?? String(e)}`;
  }
  if ((what === "launch" || what === "compile") && AT_CALL.has(e.kind)) {
    const at = e.location;
    if (!at || !at.file.endsWith("api-fuzz.test.ts")) return `a '${e.kind}' error not located at the call (${JSON.stringify(at)}): ${e.message}`;
    if (!e.message.startsWith(`${at.file}:${at.line}:${at.column}: `)) return `a '${e.kind}' error whose message does not start with its location: ${e.message}`;
  }
  return null;
}

/** An argument as a failure report shows it. */
function show(v: unknown): string {
  try {
    if (typeof v === "bigint") return `${v}n`;
    if (typeof v === "symbol" || typeof v === "function") return String(v).slice(0, 40);
    if (v instanceof DeviceArray) return `DeviceArray<${v.elem}>(${v.length})`;
    if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${(v as TA).length ?? v.byteLength})`;
    return (JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? String(v)).slice(0, 80);
  } catch { try { return Object.prototype.toString.call(v); } catch { return "<a revoked Proxy>"; } }
}

/** The x extent of a launch configuration that was accepted: blocks.x × threads.x. */
function extentX(cfg: { blocks: unknown; threads: unknown }): number {
  const x = (v: unknown) => (typeof v === "number" ? v : (v as number[])[0]);
  return x(cfg.blocks) * x(cfg.threads);
}

async function snapshot(a: unknown): Promise<number[] | null> {
  try {
    if (a instanceof DeviceArray) return Array.from(await a.read());
    if (ArrayBuffer.isView(a) && !(a instanceof DataView) && !(a instanceof BigInt64Array) && !(a instanceof BigUint64Array)) return Array.from(a as TA);
  } catch { /* a revoked Proxy, a closed device's array */ }
  return null;
}
const same = (got: number[], want: number[]) => got.length === want.length && got.every((g, i) => Object.is(g, want[i]));

async function launchCall(r: R, w: World): Promise<[string, Verdict]> {
  const { dev } = w;
  const which = r.int(0, 2);
  const good = (p: number) => r.chance(p);
  let args: unknown[];
  if (which === 0) {
    const n = r.int(0, 70);
    const out = good(0.85) ? (r.chance(0.3) ? deviceArray(r, dev, Float32Array, n) : typedArray(r, Float32Array, n)) : anyValue(r, w);
    args = [out, good(0.85) ? (r.chance(0.8) ? number(r) : r.chance(0.5)) : anyValue(r, w)];
  } else if (which === 1) {
    const out = good(0.9) ? (r.chance(0.2) ? deviceArray(r, dev, Int32Array, r.int(0, 2)) : typedArray(r, Int32Array, r.int(0, 2))) : anyValue(r, w);
    const C = r.pick(ARRAY_KINDS), n = r.int(0, 9);
    args = [out, good(0.85) ? (r.chance(0.25) ? deviceArray(r, dev, C, n) : typedArray(r, C, n)) : anyValue(r, w)];
  } else {
    args = [good(0.9) ? typedArray(r, Int32Array, r.int(1, 2)) : anyValue(r, w),
      good(0.85) ? (r.chance(0.5) ? r.chance(0.5) : number(r)) : anyValue(r, w),
      good(0.85) ? (r.chance(0.7) ? r.int(0, 2 ** 32 - 1) : number(r)) : anyValue(r, w)];
  }
  if (r.chance(0.04)) args = r.chance(0.5) ? args.slice(1) : [...args, anyValue(r, w)];
  const cfg = good(0.85) ? goodConfig(r) : r.chance(0.6) ? { blocks: gridValue(r, w), threads: gridValue(r, w) } : anyValue(r, w);
  const target = good(0.97) ? dev : anyValue(r, w);
  const k = [fuzzFill, fuzzLen, fuzzFlag][which];
  const call = `${k.name}.launch(${target === dev ? "dev" : show(target)}, ${show(cfg)}, ${args.map(show).join(", ")})`;
  const before = await snapshot(args[0]);
  try {
    await k.launch(target as Device, cfg as never, ...args);
  } catch (e) {
    return [call, judge(e, "launch")];
  }
  // It ran: the output must hold what JavaScript would have computed.
  const got = await snapshot(args[0]);
  if (!got || !before) return [call, "a launch succeeded with an output that is not an array"];
  const want = before.slice();
  if (which === 0) {
    const v = Math.fround(Number(args[1]));
    for (let i = 0; i < Math.min(want.length, extentX(cfg as never)); i++) want[i] = v;
  } else if (which === 1) {
    want[0] = (args[1] as { length: number }).length;
  } else {
    const on = Boolean(args[1]), kk = args[2] as number;
    if (want.length) want[0] = on ? kk | 0 : -1;
  }
  return [call, same(got, want) ? null : `wrong result: got [${got.slice(0, 8)}], want [${want.slice(0, 8)}]`];
}

async function compileCall(r: R, w: World): Promise<[string, Verdict]> {
  const k = r.pick([fuzzFill, fuzzLen, fuzzFlag]);
  const goodTypes = [["f32[]", "f32"], ["i32[]", r.pick(["f32[]", "u8[]", "i16[]", "f64[]"])], ["i32[]", "bool", "u32"]][[fuzzFill, fuzzLen, fuzzFlag].indexOf(k)];
  const opts: Record<string, unknown> = {};
  opts.target = r.chance(0.85) ? r.pick(["js", "wgsl", "ptx", "opencl", "spirv"]) : anyValue(r, w);
  if (r.chance(0.5)) opts.types = r.chance(0.6) ? goodTypes : r.chance(0.5) ? goodTypes.map((t) => (r.chance(0.3) ? anyValue(r, w) : t)) : anyValue(r, w);
  else opts.args = r.chance(0.5) ? Array.from({ length: goodTypes.length }, () => anyValue(r, w)) : anyValue(r, w);
  if (r.chance(0.2)) opts.features = r.chance(0.5) ? { arch: r.pick(["sm_75", "sm_90", "sm_50", anyValue(r, w)]), fastMath: r.pick([true, false, anyValue(r, w)]) }
    : r.chance(0.5) ? { maxThreads: gridValue(r, w), requiredThreads: r.chance(0.5) ? undefined : gridValue(r, w), relocation: r.pick(["bake", "table", "patch", anyValue(r, w)]) } : anyValue(r, w);
  if (r.chance(0.1)) { opts.dump = r.chance(0.5) ? [r.pick(["infer", "fold", "all", "nope"])] : anyValue(r, w); opts.dumpSink = r.chance(0.8) ? () => {} : anyValue(r, w); }
  if (r.chance(0.05)) opts.optimize = r.chance(0.5) ? false : anyValue(r, w);
  const whole = r.chance(0.03) ? anyValue(r, w) : opts;
  const call = `${k.name}.compile(${show(whole)})`;
  try {
    const art = await k.compile(whole as never);
    const ok = typeof art.code === "string" || art.code instanceof Uint8Array;
    return [call, ok ? null : "compile() returned an artifact without code"];
  } catch (e) {
    return [call, judge(e, "compile")];
  }
}

async function kernelCall(r: R, w: World): Promise<[string, Verdict]> {
  let fn: unknown = r.chance(0.8) ? r.pick(SOURCES) : anyValue(r, w);
  if (typeof fn === "function" && r.chance(0.3)) {
    // A copy with an odd name (the property can hold anything: a string, a number, a symbol).
    const base = r.pick(SOURCES.slice(0, 2)) as (...a: never[]) => void;
    const copy = function (this: unknown, ...a: never[]) { return base.apply(this, a); };
    fn = new Function("threadIdx", `return ${base.toString()}`)(threadIdx);
    if (r.chance(0.1)) fn = copy;
    try { Object.defineProperty(fn, "name", { value: r.chance(0.8) ? r.pick(ODD_NAMES) : anyValue(r, w) }); } catch { /* non-configurable */ }
  }
  let options: unknown;
  if (r.chance(0.5)) {
    const o: Record<string, unknown> = {};
    const keys = ["scope", "types", "name", "boundsCheck", "debugLevel", "fastMath", "maxThreads", "requiredThreads", "relocation", "rewritable", "nonsense"];
    for (const key of keys) if (r.chance(0.15)) o[key] = r.chance(0.5) ? anyValue(r, w) : ({
      scope: { helper: Math.sin, table: new Float32Array(3) }, types: { a: r.pick(["f32", "i32", "u32", "bool", "f64", "float", "u8"]) }, name: r.pick(ODD_NAMES),
      boundsCheck: false, debugLevel: r.pick([0, 1, 2, 3]), fastMath: true, maxThreads: r.pick([64, [8, 8], 2048]), requiredThreads: r.pick([32, [4, 4, 4]]),
      relocation: r.pick(["bake", "table", "patch"]), rewritable: ["table"], nonsense: 1,
    } as Record<string, unknown>)[key];
    options = r.chance(0.05) ? anyValue(r, w) : o;
  }
  const call = `kernel(${show(fn)}${options === undefined ? "" : `, ${show(options)}`})`;
  let k: Kernel;
  try { k = kernel(fn as Function, options as never); }
  catch (e) { return [call, judge(e, "kernel")]; }
  // Then use it: compile it for a target, or launch it with the arguments the first two sources take.
  const next = `${call} then ${r.chance(0.5) ? "compile" : "launch"}`;
  try {
    if (next.endsWith("compile")) await k.compile({ target: r.pick(["js", "wgsl", "ptx"]), types: r.pick([["f32[]", "f32"], ["i32[]", "i32[]"], ["f32[]"]]) });
    else await k.launch(w.dev, goodConfig(r), ...(r.chance(0.5) ? [new Float32Array(70), number(r)] : [new Int32Array(70), new Int32Array(70)]));
  } catch (e) {
    return [next, judge(e, "launch")];
  }
  return [next, null];
}

async function imageCall(r: R, w: World): Promise<[string, Verdict]> {
  let source: unknown;
  switch (r.int(0, 7)) {
    case 0: source = anyValue(r, w); break;
    case 7: {
      // A well-formed image (checksums right) of junk entries: loaded, each entry skipped or kept for its first use.
      const junk = () => r.pick<unknown>([{}, { key: `fuzz-${r.u32()}`, owner: { gpuc: "0.0.0+x" } }, { key: `fuzz-${r.u32()}`, kernel: "k", target: "js", types: ["f32[]"] }, { key: 5 }, anyValue(r, w)]);
      try { source = serializeImage(Array.from({ length: r.int(0, 3) }, junk) as never); } catch { source = serializeImage([]); }
      break;
    }
    case 1: source = Uint8Array.from({ length: r.int(0, 64) }, () => r.int(0, 255)); break;
    case 2: source = new TextEncoder().encode(`gpuc-image ${r.pick(["2", "1", "x"])} ${"0".repeat(64)}\n{}`); break;
    case 3: {
      const doc = r.pick([{}, { entries: [] }, { gpuc: "x", entries: [{ key: "k", entry: { owner: { gpuc: 5 } } }] }, { entries: [anyValue(r, w) ?? null] }, [1, 2], "x"]);
      let body: string;
      try { body = JSON.stringify(doc, (_k, x) => (typeof x === "bigint" ? Number(x) : x)) ?? "null"; } catch { body = "{}"; }
      source = new TextEncoder().encode(`gpuc-image 2 ${sha256(body)}\n${body}`);
      if (r.chance(0.3)) source = (source as Uint8Array).buffer;
      break;
    }
    case 4: source = r.pick(["no/such/file.gpucimg", "test", "package.json", "", "\u0000", new URL("http://example.invalid/x.gpucimg"), new URL("file:///no/such/file"), "https://example.invalid/k.gpucimg", "a://[bad"]); break;
    case 5: source = new Int32Array(new SharedArrayBuffer(8)); break;
    default: source = detached(r);
  }
  const options = r.chance(0.2) ? (r.chance(0.5) ? anyValue(r, w) : { publicKey: anyValue(r, w) }) : undefined;
  const call = `loadImage(${show(source)}${options === undefined ? "" : `, ${show(options)}`})`;
  try {
    const report = await loadImage(source as never, options as never);
    return [call, Array.isArray(report.loaded) && Array.isArray(report.skipped) ? null : "loadImage returned no report"];
  } catch (e) {
    return [call, judge(e, "image")];
  }
}

async function arrayCall(r: R, w: World): Promise<[string, Verdict]> {
  const v = r.chance(0.5) ? anyValue(r, w) : typedArray(r, r.pick(ARRAY_KINDS), r.int(0, 8));
  const call = `dev.array(${show(v)})`;
  try {
    const d = w.dev.array(v as never);
    const back = await d.read();
    return [call, same(Array.from(back), Array.from(v as TA)) ? null : "dev.array(x).read() differs from x"];
  } catch (e) {
    return [call, judge(e, "array")];
  }
}

/** A device array's methods (subarray, write, read) and dev.copy, with random arguments; results checked against typed arrays. */
async function arrayOpsCall(r: R, w: World): Promise<[string, Verdict]> {
  const { dev } = w;
  const C = r.pick([Float32Array, Int32Array, Uint8Array, Int16Array] as const), n = r.int(0, 12);
  const host = typedArray(r, C, n);
  const a = dev.array(host);
  const int = () => (r.chance(0.8) ? r.int(-n - 2, n + 2) : anyValue(r, w));
  const op = r.int(0, 2);
  let call = "";
  try {
    if (op === 0) {
      const b = int(), e = r.chance(0.3) ? undefined : int();
      call = `array(${n}).subarray(${show(b)}, ${show(e)})`;
      const v = a.subarray(b as number, e as number);
      const want = host.subarray(b as number, e as number);
      const got = await v.read();
      return [call, same(Array.from(got), Array.from(want)) ? null : `subarray read [${Array.from(got)}], want [${Array.from(want)}]`];
    }
    if (op === 1) {
      const data = r.chance(0.7) ? typedArray(r, C, n) : anyValue(r, w);
      call = `array(${n}).write(${show(data)})`;
      await a.write(data as never);
      const got = Array.from(await a.read()), want = (await snapshot(data)) ?? [];
      return [call, same(got, want) ? null : `read after write [${got}], want [${want}]`];
    }
    const other = dev.array(typedArray(r, C, n));
    const src = r.chance(0.85) ? (r.chance(0.5) ? a : other) : anyValue(r, w);
    const range = r.chance(0.3) ? undefined : r.chance(0.8) ? { srcOffset: r.chance(0.7) ? r.int(0, n) : int(), dstOffset: r.chance(0.7) ? r.int(0, n) : int(), length: r.chance(0.6) ? r.int(0, n) : int() } : anyValue(r, w);
    call = `dev.copy(array(${n}), ${src === a ? "itself" : show(src)}, ${show(range)})`;
    const before = Array.from(host), from = src === a ? Array.from(host) : ((await snapshot(src)) ?? []);
    await dev.copy(a, src as never, range as never);
    const rr = (range ?? {}) as { srcOffset?: number; dstOffset?: number; length?: number };   // (an object: anything else is refused)
    const so = rr.srcOffset ?? 0, dO = rr.dstOffset ?? 0, len = rr.length ?? n - so;
    const want = before.slice();
    for (let i = 0; i < len; i++) want[dO + i] = from[so + i];
    const got = Array.from(await a.read());
    return [call, same(got, want) ? null : `after copy [${got}], want [${want}]`];
  } catch (e) {
    return [call, judge(e, "array")];
  }
}

/** device() with a random kind (the CPU's, or one that is not) and random options. */
async function deviceCall(r: R, w: World): Promise<[string, Verdict]> {
  const kind = r.chance(0.6) ? "cpu" : r.chance(0.5) ? r.pick(["opencl", "metal", "tpu", "", "CPU"]) : anyValue(r, w);
  const options = r.chance(0.3) ? undefined : r.chance(0.7)
    ? { print: r.chance(0.5) ? () => {} : anyValue(r, w), printBufferWords: r.chance(0.5) ? undefined : r.chance(0.5) ? r.int(1, 4096) : anyValue(r, w), subgroupSize: r.chance(0.5) ? undefined : r.pick([1, 4, 32, 3, 64, anyValue(r, w)]) }
    : anyValue(r, w);
  const call = `device(${show(kind)}, ${show(options)})`;
  try {
    const d = await device(kind as never, options as never);
    d.close();
    return [call, d.kind === "cpu" || d.kind === kind ? null : `device(${show(kind)}) opened a ${d.kind} device`];
  } catch (e) {
    return [call, judge(e, "array")];
  }
}

// ---- the run -----------------------------------------------------------------------------------

const opened: Device[] = [];
after(() => { for (const d of opened) d.close(); });

for (const kind of DEVICES) {
  test(`the public API under ${CALLS} random calls: a correct result or a documented gpuc error [${kind}]`, { timeout: Math.max(120_000, CALLS * 200) }, async () => {
    const dev = await openKind(kind);
    const other = await device("cpu");
    const closing = await device("cpu");
    opened.push(dev, other);
    const closedArray = closing.array(new Float32Array(2));
    closing.close();
    const w: World = { dev, other, closedArray };
    const r = rng(SEED * 7919 + ["cpu", "webgpu", "cuda"].indexOf(kind));
    const counts = new Map<string, number>();
    const failures: string[] = [];
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) {
      const op = r.int(0, 99);
      const [what, fn] = op < 55 ? ["launch", launchCall] as const : op < 69 ? ["compile", compileCall] as const : op < 81 ? ["kernel", kernelCall] as const
        : op < 87 ? ["loadImage", imageCall] as const : op < 92 ? ["dev.array", arrayCall] as const : op < 98 ? ["device arrays", arrayOpsCall] as const : ["device()", deviceCall] as const;
      outcome = "ok";
      const [call, verdict] = await fn(r, w);
      if (verdict) failures.push(`#${i}: ${call}\n    ${verdict}`);
      const key = `${what}: ${verdict ? "FAILED" : outcome}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`api-fuzz [${kind}] seed ${SEED}: ${CALLS} calls in ${seconds} s, ${failures.length} failed\n  ${[...counts].sort().map(([k, n]) => `${k}: ${n}`).join("\n  ")}`);
    assert.equal(failures.length, 0, `${failures.length} of ${CALLS} calls ended wrong (seed ${SEED}):\n${failures.slice(0, 20).join("\n")}`);
  });
}
