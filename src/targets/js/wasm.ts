// The JS target's WebAssembly path: a kernel as a WebAssembly module the CPU device runs in place
// of its JavaScript where that is faster (devices/cpu-wasm.ts; the module's contract: wasm-abi.ts),
// every kernel in regions (wasm-regions.ts; one without barriers is one region). WebAssembly has
// f32 arithmetic, so an f32 step is one instruction instead of a `Math.fround` call around an f64
// one. The JavaScript stays the reference and the fallback: a kernel this file refuses (see
// `refusal`) has none, and a module that fails to load is not used.
//
// Why the module computes what the JavaScript computes, bit for bit (apart from which NaN a NaN
// is, which JavaScript leaves to the engine as well):
//  - f32 add, sub, mul, div and sqrt in f64 rounded to f32 once are the correctly rounded f32
//    results (f64 has more than 2 × 24 + 2 bits), which WebAssembly's f32 instructions give;
//    min, max, abs, neg, floor, ceil, trunc and comparisons are exact in both; every other Math
//    function (and `%` on floats, Math.round) is the same JavaScript function, imported, on the
//    f64 values, its result rounded with f32.demote_f64 as Math.fround rounds.
//  - i32/u32 arithmetic wraps as `|0`/`>>>0` and Math.imul do; division and remainder keep
//    JavaScript's meaning where WebAssembly's instructions trap (a zero divisor: 0; i32's
//    -2^31 / -1: -2^31); shifts take their count modulo 32 in both; a number becomes an i32 by
//    ToInt32 (truncation modulo 2^32, NaN and the infinities 0).
//  - Every array is a byte range of linear memory: the arguments copied in (and back), the
//    tables copied at load, shared and private arrays at fixed places. An access is in bounds
//    because the IR checks it (a `check` before it) or proved it (passes/ranges.ts), which holds
//    only with bounds checks on: a kernel compiled without them has no module.
//  - Threads run in the order of the JavaScript loops (blocks x fastest, then threads x fastest);
//    a check that fails records the exception as the JavaScript does (the same runtime function,
//    compiled here) and ends the launch with `unreachable`; prints go to the same state.

import type { Builtin, Module } from "../../ir/module.js";
import { walkStmts } from "../../ir/module.js";
import { isArray } from "../../ir/types.js";
import type { LocationTable } from "../locations.js";
import { Bytes, encodeModule, FC, OP, V, type FuncType, type Global, type Op, type ValType } from "./wasm-binary.js";
import { WASM_HOOKS, WASM_IMPORTS } from "./wasm-abi.js";
import { FunctionEmitter, KERNEL_EXTRA, IMPORTED_BINARY, IMPORTED_UNARY, Refused, alignUp, bytesOf, scalarOf, valType, type MemoryLayout, type ModuleContext, type Static } from "./wasm-function.js";
import { RegionKernelEmitter } from "./wasm-regions.js";
import { containsBarrier } from "../../ir/passes/inline.js";

/** WebAssembly signatures by wasm-abi.ts's names (d: f64, i: i32; after the `_`, the result). */
const SIGNATURES: Record<string, FuncType> = {
  d_d: { params: [V.f64], results: [V.f64] }, dd_d: { params: [V.f64, V.f64], results: [V.f64] }, d_i: { params: [V.f64], results: [V.i32] },
  iiiiiii_: { params: Array(7).fill(V.i32), results: [] },
};

export type WasmOutcome = { bytes: Uint8Array } | { refused: string };

export interface WasmOptions {
  fastMath: boolean;
  /** The builtins each function reads (emit.ts): a helper takes them as parameters, in this order. */
  builtins: Builtin[][];
  /** The JS text's location table: the module's exception records name the same ids. */
  locations: LocationTable;
}

export function emitWasm(m: Module, options: WasmOptions): WasmOutcome {
  const why = refusal(m, options);
  if (why) return { refused: why };
  try {
    return { bytes: new ModuleEmitter(m, options).emit() };
  } catch (e) {
    if (e instanceof Refused) return { refused: e.why };
    throw e;
  }
}

/** Why a module has no WebAssembly form, judged before emission, or null. */
function refusal(m: Module, o: WasmOptions): string | null {
  if (o.fastMath) return "fastMath carries f32 arithmetic in f64, which only the JavaScript does";
  if (!m.boundsCheck) return "without bounds checks an access out of bounds reads undefined in JavaScript";
  if (m.debugLevel === 2) return "debug level 2 records call frames as a trap passes through calls";
  // A callee precedes its callers (ir/module.ts), except along a recursive cycle.
  for (let i = 0; i < m.functions.length; i++) {
    let recursive = false;
    walkStmts(m.functions[i].body, (s) => { if (s.k === "call" && s.fn >= i) recursive = true; });
    if (recursive) return "recursion (private arrays have one place per function)";
  }
  return null;
}

class ModuleEmitter implements ModuleContext {
  private types: FuncType[] = [];
  private typeKeys = new Map<string, number>();
  private imports: { name: string; type: number }[] = [];
  private importIndex = new Map<string, number>();
  readonly layout: MemoryLayout;
  /** The first free byte of the fixed data; what `run` zero-fills at each launch. */
  private end = 0;
  private zeroed: [Static, number][] = [];

  constructor(readonly m: Module, readonly o: WasmOptions) {
    // Tables, then private arrays, then shared arrays (zeroed per launch, as JavaScript allocates
    // them per launch), then what the kernel's emitter reserves.
    const tables = m.globals.map((g) => this.place(g.value.length * bytesOf(g.type.elem)));
    const privates = m.functions.map((f) => {
      const map = new Map<number, Static>();
      f.locals.forEach((l, i) => {
        if (isArray(l.type) && !f.params.includes(i as never) && i !== f.stateParam) map.set(i, this.reserve((l.type.size ?? 0) * bytesOf(l.type.elem), false));
      });
      return map;
    });
    // A shared array sized at launch: its place and length, which `run` is given, at a fixed place.
    const dynamicShared = m.shared.map((x) => x.size !== undefined);
    // One with a fixed size has 16 bytes unused before and after it: four lanes of which one at
    // least reads or writes inside it may reach three elements past it (wasm-lanes.ts, padded).
    const shared = m.shared.map((x) => {
      if (x.size) return this.reserve(8, false);
      this.place(16);
      const at = this.reserve((x.type.size ?? 0) * bytesOf(x.type.elem), true);
      this.place(16);
      return at;
    });
    this.layout = { tables, privates, shared, dynamicShared };
  }

  reserve(bytes: number, zeroed: boolean): Static {
    const s = { at: this.place(bytes) };
    if (zeroed && bytes) this.zeroed.push([s, bytes]);
    return s;
  }

  /** `bytes` bytes of the fixed data, 8-aligned: where they start. */
  private place(bytes: number): number {
    const at = alignUp(this.end, 8);
    this.end = at + bytes;
    return at;
  }

  typeIndex(t: FuncType): number {
    const key = `${t.params.join(",")}>${t.results.join(",")}`;
    let i = this.typeKeys.get(key);
    if (i === undefined) { i = this.types.length; this.types.push(t); this.typeKeys.set(key, i); }
    return i;
  }

  /** The function index of import `name` (imports were all declared before any body was emitted). */
  importOf(name: string): number {
    const i = this.importIndex.get(name);
    if (i === undefined) throw new Error(`wasm: import ${name} was not declared`);
    return i;
  }

  /** The function index of IR function `fn` (the kernel's: its per-block function). */
  functionIndex(fn: number): number { return this.imports.length + fn; }

  /** The WebAssembly parameters of IR function `f` (its per-block function for the kernel). */
  signature(fi: number): FuncType {
    const f = this.m.functions[fi];
    const params: ValType[] = [];
    if (f.stateParam !== null || fi === this.m.entry) params.push(V.i32, V.i32);
    for (const p of f.params) {
      const t = f.locals[p].type;
      if (isArray(t)) params.push(V.i32, V.i32);
      else params.push(valType(scalarOf(t)));
    }
    const extra = fi === this.m.entry ? KERNEL_EXTRA.length : this.o.builtins[fi].length;
    for (let i = 0; i < extra; i++) params.push(V.i32);
    return { params, results: f.returnType.kind === "scalar" ? [valType(f.returnType.scalar)] : [] };
  }

  emit(): Uint8Array {
    const m = this.m;
    // Imports first: every one a body may call.
    const wanted = new Set<string>();
    for (const f of m.functions) for (const e of f.exprs) {
      if (e.k === "op" && (IMPORTED_UNARY.has(e.op) || IMPORTED_BINARY.has(e.op))) wanted.add(e.op);
      if (e.k === "op" && e.op === "rem" && (e.type.kind === "scalar" && (e.type.scalar === "f32" || e.type.scalar === "f64"))) wanted.add("fmod");
      if (e.k === "convert" && (e.type.kind === "scalar" && (e.type.scalar === "i32" || e.type.scalar === "u32"))) {
        const from = f.exprs[e.arg].type;
        if (from.kind === "scalar" && (from.scalar === "f32" || from.scalar === "f64")) wanted.add("toInt32");
      }
    }
    // The kernel runs in regions (wasm-regions.ts): one without barriers, subgroup operations or
    // its lane is one region, whose loop over the threads may take four at a time (wasm-lanes.ts).
    const barriers = containsBarrier(m.functions[m.entry].body) || this.o.builtins[m.entry].includes("subgroupLaneId");
    if (barriers) wanted.add("divergent");
    for (const name of [...wanted].sort()) {
      this.importIndex.set(name, this.imports.length);
      this.imports.push({ name, type: this.typeIndex(SIGNATURES[name === "divergent" ? WASM_HOOKS.divergent : WASM_IMPORTS[name].sig]) });
    }
    const functions: number[] = [];
    const bodies: { locals: ValType[]; code: Uint8Array; relocs: readonly number[] }[] = [];
    let hasLoop = false, steps = 0, accesses = 0, atomics = false, fours = false;
    m.functions.forEach((f, fi) => {
      // (The runtime library's atomics are on the state, which each thread has its own of.)
      walkStmts(f.body, (s) => { if (s.k === "loop") hasLoop = true; else if (s.k === "atomic" && f.kind !== "runtime") atomics = true; });
      // (What the kernel and its helpers do; the runtime library's exception records aside.)
      if (f.kind !== "runtime") {
        walkStmts(f.body, (s) => { if (s.k === "store" || s.k === "atomic") accesses++; });
        for (const e of f.exprs) { if (e.k === "op" || e.k === "convert" || e.k === "select") steps++; else if (e.k === "load") accesses++; }
      }
      const sig = this.signature(fi);
      functions.push(this.typeIndex(sig));
      if (fi === m.entry) {
        const k = new RegionKernelEmitter(this, f, fi, sig);
        bodies.push(k.emit());
        fours = k.fours;
      } else bodies.push(new FunctionEmitter(this, f, fi, sig).emit());
    });
    // run: the shared arrays (and the kernel's per-thread storage) zeroed, then every block in order.
    const entrySig = this.signature(m.entry);
    const dynamic = this.layout.dynamicShared.filter(Boolean).length;
    const own = entrySig.params.length - KERNEL_EXTRA.length;
    const runParams = entrySig.params.slice(0, own).concat(Array(7 + 2 * dynamic + 2).fill(V.i32));
    functions.push(this.typeIndex({ params: runParams, results: [] }));
    bodies.push(this.runBody(own, dynamic));
    const heap = alignUp(this.end, 16);
    const globals: Global[] = [
      ...this.layout.tables.map((p, i) => ({ type: V.i32, mutable: false, init: p, export: `table${i}` })),
      { type: V.i32, mutable: false, init: heap, export: "heap" },
    ];
    return encodeModule({
      types: this.types,
      imports: this.imports.map((i) => ({ module: "m", name: i.name, kind: "func", type: i.type })),
      // (The loader grows the memory to `heap` once it has the instance: the module has no data.)
      memoryPages: 1,
      functions, globals,
      exports: [{ name: "run", func: this.imports.length + m.functions.length }],
      bodies,
      // (Blocks that meet through atomics need atomic instructions on a shared memory: such a
      // module runs on one thread, the JavaScript on the workers.)
      threads: !atomics,
      // (A kernel with barriers runs its threads in region loops. One without loops that does
      // little per element it reads or writes is memory-bound: its arrays' copies in and back
      // cost about what its run does — unless its threads run four at a time in a loop with
      // nothing to test: saxpy.ts 7.9 ms against 13.3 as JavaScript, copies included.)
      prefer: hasLoop || barriers || fours || steps >= 4 * Math.max(1, accesses),
    });
  }

  /**
   * run(state, stateWords, ...parameters, gx, gy, gz, dx, dy, dz, subgroupSize, ...shared sized at
   * launch: a place and a length each, first, end): blocks `first` to `end` (exclusive) by linear
   * index, bx fastest, then by, then bz. `own`: how many parameters come before the grid.
   */
  private runBody(own: number, dynamic: number): { locals: ValType[]; code: Uint8Array; relocs: number[] } {
    const c = new Bytes();
    const relocs: number[] = [];
    const op = (o: Op) => c.byte(OP[o]);
    const get = (i: number) => op("local.get").u32(i);
    const set = (i: number) => op("local.set").u32(i);
    const addr = (s: Static) => { op("i32.const"); relocs.push(c.length); c.s32wide(s.at); };
    const nParams = own + 7;
    const [gx, gy] = [own, own + 1];
    const [first, end] = [nParams + 2 * dynamic, nParams + 2 * dynamic + 1];
    const [bx, by, bz, lin] = [first + 2, first + 3, first + 4, first + 5];
    // Each shared array sized at launch: its place and length where the code reads them, zero-filled.
    let d = 0;
    this.m.shared.forEach((x, i) => {
      if (!x.size) return;
      const ptr = nParams + 2 * d, len = ptr + 1;
      d++;
      addr(this.layout.shared[i]); get(ptr); op("i32.store").u32(2).u32(0);
      addr(this.layout.shared[i]); get(len); op("i32.store").u32(2).u32(4);
      get(ptr); op("i32.const").s32(0); get(len); op("i32.const").s32(Math.log2(bytesOf(x.type.elem))); op("i32.shl");
      c.byte(0xfc).u32(FC["memory.fill"]).byte(0);
    });
    for (const [at, bytes] of this.zeroed) {
      addr(at); op("i32.const").s32(0); op("i32.const").s32(bytes);
      c.byte(0xfc).u32(FC["memory.fill"]).byte(0);
    }
    // (No block: nothing to divide by a grid that may be empty.)
    get(first); get(end); op("i32.ge_u"); op("if").byte(0x40); op("return"); op("end");
    get(first); set(lin);
    get(first); get(gx); op("i32.rem_u"); set(bx);
    get(first); get(gx); op("i32.div_u"); get(gy); op("i32.rem_u"); set(by);
    get(first); get(gx); op("i32.div_u"); get(gy); op("i32.div_u"); set(bz);
    op("block").byte(0x40); op("loop").byte(0x40);
    get(lin); get(end); op("i32.ge_u"); op("br_if").u32(1);
    for (let i = 0; i < own; i++) get(i);
    get(bx); get(by); get(bz);
    for (let i = 0; i < 7; i++) get(own + i);
    op("call").u32(this.functionIndex(this.m.entry));
    // The next block: bx, carried into by, then bz.
    get(lin); op("i32.const").s32(1); op("i32.add"); set(lin);
    get(bx); op("i32.const").s32(1); op("i32.add"); set(bx);
    get(bx); get(gx); op("i32.eq");
    op("if").byte(0x40);
    op("i32.const").s32(0); set(bx);
    get(by); op("i32.const").s32(1); op("i32.add"); set(by);
    get(by); get(gy); op("i32.eq");
    op("if").byte(0x40); op("i32.const").s32(0); set(by); get(bz); op("i32.const").s32(1); op("i32.add"); set(bz); op("end");
    op("end");
    op("br").u32(0);
    op("end"); op("end");
    op("end");
    return { locals: [V.i32, V.i32, V.i32, V.i32], code: c.bytes, relocs };
  }
}
