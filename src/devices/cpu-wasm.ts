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
export const HEADER = 32;
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
  /** Where its fixed data ends (its tables are inside it): a launch's state and arrays go after it. */
  readonly heap: number;
  /** Where each constant table is in its fixed data. */
  readonly tables: number[];
  /** Whether the module carries THREADS_SECTION (checked where it runs on several threads: cpu-workers.ts). */
  private threadsSection: boolean | undefined;

  /** @param bytes the module's (a launch on several threads relocates copies of them: cpu-workers.ts) */
  private constructor(readonly bytes: Uint8Array, private readonly module: WebAssembly.Module, sites: HostArray[], hooks: WasmHooks) {
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
  }

  /**
   * Whether the module may run on several threads at once: it carries THREADS_SECTION (read and
   * checked where it does: cpu-workers.ts; one that does not check out runs as JavaScript there).
   */
  get threads(): boolean { return (this.threadsSection ??= this.sections(THREADS_SECTION).length === 1); }

  /** The module's custom sections of that name. */
  sections(name: string): ArrayBuffer[] { return WebAssembly.Module.customSections(this.module, name); }

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

}

/** The arrays of a launch, one range per buffer, placed one after another from `at` (8-aligned). */
export function place(args: unknown[], readOnly: boolean[], at: number, fills: boolean[] = [], coveredX = 0): Placed {
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
export function placeShared(sets: { length: number; bytes: number }[][], at: number): { at: number[]; end: number }[] {
  return sets.map((set) => {
    const places = set.map((x) => { at = Math.ceil(at / 8) * 8; const p = at; at += x.length * x.bytes; return p; });
    return { at: places, end: at };
  });
}

/** Grow `memory` to hold `bytes` bytes: false where it cannot. */
export function grow(memory: LinearMemory, bytes: number): boolean {
  if (bytes > MAX_BYTES) return false;
  if (bytes <= memory.buffer.byteLength) return true;
  try { memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE)); return true; } catch { return false; }
}

export function copyIn(bytes: Uint8Array, ranges: Placed["ranges"]): void {
  for (const [buffer, r] of ranges) bytes.set(new Uint8Array(buffer, r.lo, r.upTo - r.lo), r.at);
}

export function copyBack(bytes: Uint8Array, ranges: Placed["ranges"]): void {
  for (const [buffer, r] of ranges) if (r.written) new Uint8Array(buffer, r.lo, r.hi - r.lo).set(bytes.subarray(r.at, r.at + r.hi - r.lo));
}

/** `run`'s words for the launch's arguments: an array as its place and length, a bool as 0 or 1. */
export function argumentWords(args: unknown[], ranges: Placed["ranges"]): number[] {
  const out: number[] = [];
  for (const a of args) {
    if (ArrayBuffer.isView(a)) {
      const r = ranges.get(a.buffer)!;
      out.push(r.at + a.byteOffset - r.lo, (a as HostArray).length);
    } else out.push(typeof a === "boolean" ? (a ? 1 : 0) : (a as number));
  }
  return out;
}

