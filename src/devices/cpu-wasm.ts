// The CPU device's WebAssembly path (targets/js/wasm.ts writes the modules; wasm-abi.ts is the
// contract): a kernel's module checked and instantiated at load, and run on the device's own
// thread with the launch's arrays copied into its linear memory and the written ones back.
//
// The module is code read back like the rest of the artifact: it is used only when the engine
// compiles it (WebAssembly's validation), it imports nothing but its memory and the functions of
// WASM_IMPORTS, and it exports exactly what the contract names, its tables inside its fixed data.
// A module that fails any of this is not used (the kernel runs as JavaScript), never an error:
// the JavaScript is the reference, and a WebAssembly module can reach nothing but its memory.

import type { HostArray } from "./device.js";
import { PREFER_SECTION, THREADS_SECTION, WASM_HOOKS, WASM_IMPORTS } from "../targets/js/wasm-abi.js";

/** The loader's functions a module may import (wasm-abi.ts, WASM_HOOKS). */
export interface WasmHooks { divergent: (...args: number[]) => never }

/** The state's header words (runtime/state.ts: PRINT_BASE; the print cursor at 27). */
const HEADER = 32;
const PRINT_CURSOR = 27;
const PAGE = 65536;
/** The most linear memory a launch takes (wasm32's 4 GiB, less a page). */
const MAX_BYTES = 65535 * PAGE;
/** The memory a module imports: up to 4 GiB (wasm-abi.ts). */
const MEMORY = { initial: 1, maximum: 65536 };

/**
 * A WebAssembly.Memory as this file uses one (declared here: the package's types name no
 * WebAssembly type, which a project without the DOM library lacks).
 */
export interface LinearMemory { readonly buffer: ArrayBufferLike; grow(pages: number): number }

/** A launch laid out in a memory several threads share: each thread's `run` arguments (its block range aside). */
export interface ThreadsLaunch {
  /** Per thread: `run`'s arguments but the last two, and where its state is. */
  calls: number[][];
  states: number[];
  /** The written arrays copied back (also after a trap). */
  finish(): void;
}

/**
 * A launch's arrays in linear memory: each buffer's range (views of one buffer share it), placed
 * from `at`. `upTo`: where its copy in ends (`hi`, or where the one array in the range starts when
 * the launch fills it: the bytes before, at most 7 of alignment, are copied still).
 */
interface Placed { ranges: Map<ArrayBufferLike, { lo: number; hi: number; at: number; written: boolean; upTo: number; arrays: number }>; end: number }

export class WasmKernel {
  /** Whether the kernel likely runs faster here than as JavaScript (it has a loop). */
  readonly prefer: boolean;
  private readonly memory: WebAssembly.Memory;
  private readonly run: (...args: number[]) => void;
  private readonly heap: number;
  private readonly tables: number[];
  /** Where the memory import's limits flags and the relocations are (wasm-abi.ts, THREADS_SECTION); null: one thread only. */
  private readonly threadsInfo: { limits: number; relocs: number[] } | null;

  private constructor(private readonly bytes: Uint8Array, module: WebAssembly.Module, sites: HostArray[], hooks: WasmHooks) {
    const imports: Record<string, WebAssembly.ImportValue> = {};
    for (const i of WebAssembly.Module.imports(module)) {
      if (i.module !== "m") throw new Error(`it imports from '${i.module}'`);
      if (i.name === "memory" && i.kind === "memory") continue;
      const f = Object.hasOwn(WASM_IMPORTS, i.name) ? WASM_IMPORTS[i.name].fn : Object.hasOwn(WASM_HOOKS, i.name) ? hooks[i.name as keyof WasmHooks] : undefined;
      if (!f || i.kind !== "function") throw new Error(`it imports '${i.name}' (${i.kind})`);
      imports[i.name] = f;
    }
    const expected = new Set(["run", "heap", ...sites.map((_, i) => `table${i}`)]);
    const exported = WebAssembly.Module.exports(module);
    for (const e of exported) if (!expected.delete(e.name) || e.kind !== (e.name === "run" ? "function" : "global")) throw new Error(`it exports '${e.name}' (${e.kind})`);
    if (expected.size) throw new Error(`it does not export '${[...expected][0]}'`);
    this.memory = new WebAssembly.Memory(MEMORY);
    const x = new WebAssembly.Instance(module, { m: { ...imports, memory: this.memory } }).exports as Record<string, unknown>;
    const value = (name: string) => (x[name] as WebAssembly.Global).value as number;
    this.run = x.run as (...args: number[]) => void;
    this.heap = value("heap");
    this.prefer = WasmKernel.prefers(bytes);
    this.tables = sites.map((s, i) => {
      const at = value(`table${i}`);
      if (at < 0 || at % 8 || at + s.byteLength > this.heap) throw new Error(`its table ${i} is outside its data`);
      return at;
    });
    if (this.heap > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((this.heap - this.memory.buffer.byteLength) / PAGE));
    sites.forEach((s, i) => this.updateTable(i, s));
    this.threadsInfo = threadsSection(bytes, module, this.heap);
  }

  /** Whether the module may run on several threads at once (it carries THREADS_SECTION, and it checked out). */
  get threads(): boolean { return this.threadsInfo !== null; }

  /**
   * The module for the thread whose fixed data starts at `base` (a multiple of 8) of a shared
   * memory: its memory import shared, each relocated constant moved by `base`.
   */
  threadModule(base: number): Uint8Array<ArrayBuffer> {
    const t = this.threadsInfo!;
    const b = new Uint8Array(this.bytes);
    b[t.limits] = 0x03;
    for (const r of t.relocs) writeWide(b, r, readWide(b, r) + base);
    return b;
  }

  /** Bytes a thread's fixed data takes in a shared memory (its tables inside the first thread's). */
  get threadBytes(): number { return Math.ceil(this.heap / 64) * 64; }

  /** The kernel's module from its base64 text, checked and instantiated; the reason where it cannot be used. */
  static load(base64: string, sites: HostArray[], hooks: WasmHooks): WasmKernel | { refused: string } {
    try {
      const bytes = WasmKernel.decode(base64);
      return new WasmKernel(bytes, new WebAssembly.Module(bytes), sites, hooks);
    } catch (e) {
      return { refused: (e as Error).message };
    }
  }

  /** A module's bytes from its base64 text (throws where it is not base64). */
  static decode(base64: string): Uint8Array<ArrayBuffer> {
    const text = atob(base64);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }

  /** The same from the module's base64 text, of which only the start is decoded. */
  static prefersText(base64: string): boolean {
    try { return WasmKernel.prefers(WasmKernel.decode(base64.slice(0, 32))); } catch { return false; }
  }

  /**
   * Whether the module prefers to run (its first section, PREFER_SECTION, says 1: wasm-abi.ts),
   * read from its bytes without compiling it; false for bytes that do not say so.
   */
  static prefers(bytes: Uint8Array): boolean {
    const name = PREFER_SECTION;
    // Header (8 bytes), section id 0, its size (one LEB byte), the name's length and the name, the byte.
    if (bytes.length < 11 + name.length || bytes[8] !== 0 || bytes[9] !== name.length + 2 || bytes[10] !== name.length) return false;
    for (let i = 0; i < name.length; i++) if (bytes[11 + i] !== name.charCodeAt(i)) return false;
    return bytes[11 + name.length] === 1;
  }

  /** Constant table `i`'s values, written where the code reads them. */
  updateTable(i: number, values: HostArray): void {
    const b = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    new Uint8Array(this.memory.buffer, this.tables[i], b.length).set(b);
  }

  /**
   * One launch: the state's header and the arguments' arrays copied in (the arrays of one buffer
   * as one range, so that views of it that overlap still do), room for the shared arrays sized at
   * launch (their lengths and element sizes, in the artifact's order), `run`, then every array some
   * parameter may write copied back and the state's header and prints out — also when the launch
   * ended in a trap, as the JavaScript leaves what it wrote. An array the launch fills (`fills`:
   * the artifact's, where the threads along x cover it; alone in its buffer) is not copied in;
   * where such a launch does not end normally, nothing is copied back or out, and it returns false
   * as where the arrays do not fit in linear memory: the caller runs the JavaScript (from the
   * arrays as they were, so that the elements the launch did not write keep their values). A trap
   * otherwise comes out as the engine's error, after the copies; the recorded exception is in `state`.
   */
  launch(state: Int32Array, args: unknown[], readOnly: boolean[], fills: boolean[], grid: readonly number[], subgroupSize: number, shared: { length: number; bytes: number }[]): boolean {
    const { ranges, end } = place(args, readOnly, this.heap + state.byteLength, fills, grid[0] * grid[3]);
    const [sharedAt] = placeShared([shared], end);
    if (!grow(this.memory, sharedAt.end)) return false;
    const mem = this.memory.buffer;
    const bytes = new Uint8Array(mem);
    new Int32Array(mem, this.heap, HEADER).fill(0);
    copyIn(bytes, ranges);
    const call = [this.heap, state.length, ...argumentWords(args, ranges), ...grid, subgroupSize];
    shared.forEach((x, i) => call.push(sharedAt.at[i], x.length));
    call.push(0, grid[0] * grid[1] * grid[2]);
    const out = () => {
      copyBack(bytes, ranges);
      const words = new Int32Array(mem, this.heap, state.length);
      const cursor = Math.min(Math.max(words[PRINT_CURSOR], 0), state.length - HEADER);
      state.set(words.subarray(0, HEADER + cursor));
    };
    try {
      this.run(...call);
    } catch (e) {
      if ([...ranges.values()].some((r) => r.upTo < r.hi)) return false;
      out();
      throw e;
    }
    out();
    return true;
  }

  /**
   * A launch laid out for `threads` threads sharing `memory` (each running `threadModule` of its
   * own base: thread i's fixed data at i · threadBytes, the tables written in thread 0's): the
   * threads' states (zeroed headers), the arrays (copied in), each thread's shared arrays sized at
   * launch. Null where it does not fit in linear memory.
   */
  launchOnThreads(memory: LinearMemory, threads: number, stateWords: number, sites: readonly HostArray[], args: unknown[], readOnly: boolean[],
    grid: readonly number[], subgroupSize: number, shared: { length: number; bytes: number }[]): ThreadsLaunch | null {
    const states = Array.from({ length: threads }, (_, i) => threads * this.threadBytes + i * stateWords * 4);
    const { ranges, end } = place(args, readOnly, threads * this.threadBytes + threads * stateWords * 4);
    const sharedAt = placeShared(states.map(() => shared), end);
    if (!grow(memory, sharedAt.at(-1)?.end ?? end)) return null;
    const bytes = new Uint8Array(memory.buffer);
    sites.forEach((s, i) => bytes.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), this.tables[i]));
    for (const p of states) new Int32Array(memory.buffer, p, HEADER).fill(0);
    copyIn(bytes, ranges);
    const words = argumentWords(args, ranges);
    const calls = states.map((p, i) => {
      const call = [p, stateWords, ...words, ...grid, subgroupSize];
      shared.forEach((x, j) => call.push(sharedAt[i].at[j], x.length));
      return call;
    });
    return { calls, states, finish: () => copyBack(new Uint8Array(memory.buffer), ranges) };
  }
}

/** The arrays of a launch, one range per buffer, placed one after another from `at` (8-aligned). */
function place(args: unknown[], readOnly: boolean[], at: number, fills: boolean[] = [], coveredX = 0): Placed {
  const ranges: Placed["ranges"] = new Map();
  args.forEach((a, i) => {
    if (!ArrayBuffer.isView(a)) return;
    const lo = a.byteOffset & ~7, hi = a.byteOffset + a.byteLength;
    // (Filled: the threads along x cover it, and their index does not wrap.)
    const upTo = fills[i] && coveredX >= (a as HostArray).length && coveredX < 2 ** 31 ? a.byteOffset : hi;
    const r = ranges.get(a.buffer);
    if (!r) ranges.set(a.buffer, { lo, hi, at: 0, written: !readOnly[i], upTo, arrays: 1 });
    else { r.lo = Math.min(r.lo, lo); r.hi = Math.max(r.hi, hi); r.written ||= !readOnly[i]; r.arrays++; }
  });
  for (const r of ranges.values()) {
    // (A buffer of two arrays is copied whole: the bytes between them are neither's.)
    if (r.arrays > 1) r.upTo = r.hi;
    at = Math.ceil(at / 8) * 8; r.at = at; at += r.hi - r.lo;
  }
  return { ranges, end: at };
}

/** Each set of shared arrays sized at launch placed after the last, from `at` (8-aligned): their places and where the set ends. */
function placeShared(sets: { length: number; bytes: number }[][], at: number): { at: number[]; end: number }[] {
  return sets.map((set) => {
    const places = set.map((x) => { at = Math.ceil(at / 8) * 8; const p = at; at += x.length * x.bytes; return p; });
    return { at: places, end: at };
  });
}

/** Grow `memory` to hold `bytes` bytes: false where it cannot. */
function grow(memory: LinearMemory, bytes: number): boolean {
  if (bytes > MAX_BYTES) return false;
  if (bytes <= memory.buffer.byteLength) return true;
  try { memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE)); return true; } catch { return false; }
}

function copyIn(bytes: Uint8Array, ranges: Placed["ranges"]): void {
  for (const [buffer, r] of ranges) bytes.set(new Uint8Array(buffer, r.lo, r.upTo - r.lo), r.at);
}

function copyBack(bytes: Uint8Array, ranges: Placed["ranges"]): void {
  for (const [buffer, r] of ranges) if (r.written) new Uint8Array(buffer, r.lo, r.hi - r.lo).set(bytes.subarray(r.at, r.at + r.hi - r.lo));
}

/** `run`'s words for the launch's arguments: an array as its place and length, a bool as 0 or 1. */
function argumentWords(args: unknown[], ranges: Placed["ranges"]): number[] {
  const out: number[] = [];
  for (const a of args) {
    if (ArrayBuffer.isView(a)) {
      const r = ranges.get(a.buffer)!;
      out.push(r.at + a.byteOffset - r.lo, (a as HostArray).length);
    } else out.push(typeof a === "boolean" ? (a ? 1 : 0) : (a as number));
  }
  return out;
}

/** A five-byte LEB128 i32 at `at` (the relocations' form: wasm-binary.ts, s32wide). */
function readWide(b: Uint8Array, at: number): number {
  let v = 0;
  for (let i = 0; i < 5; i++) v |= (b[at + i] & 0x7f) << (7 * i);
  return v;
}

function writeWide(b: Uint8Array, at: number, v: number): void {
  for (let i = 0; i < 4; i++) { b[at + i] = (v & 0x7f) | 0x80; v >>= 7; }
  b[at + 4] = v & 0x7f;
}

/**
 * The module's THREADS_SECTION, checked against its bytes: exactly one; the limits flags byte a
 * memory with a maximum (0x01); each relocation an `i32.const` whose operand is five bytes long
 * and a place below `heap`. Null where there is none or it does not check out (one thread only).
 */
function threadsSection(bytes: Uint8Array, module: WebAssembly.Module, heap: number): { limits: number; relocs: number[] } | null {
  const sections = WebAssembly.Module.customSections(module, THREADS_SECTION);
  if (sections.length !== 1) return null;
  const d = new Uint8Array(sections[0]);
  let p = 0;
  const u32 = (): number => {
    let v = 0, shift = 0;
    for (;;) {
      if (p >= d.length || shift > 28) throw new Error("truncated");
      const c = d[p++];
      v += (c & 0x7f) * 2 ** shift;
      if (!(c & 0x80)) return v;
      shift += 7;
    }
  };
  try {
    const limits = u32(), n = u32();
    if (bytes[limits] !== 0x01 || n > bytes.length) return null;
    const relocs: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = u32();
      if (r < 1 || r + 5 > bytes.length || bytes[r - 1] !== 0x41) return null;
      for (let j = 0; j < 4; j++) if (!(bytes[r + j] & 0x80)) return null;
      if (bytes[r + 4] & 0x80) return null;
      const v = readWide(bytes, r);
      if (v < 0 || v >= heap) return null;
      relocs.push(r);
    }
    return p === d.length ? { limits, relocs } : null;
  } catch {
    return null;
  }
}
