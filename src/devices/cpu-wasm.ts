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
import { WASM_HOOKS, WASM_IMPORTS } from "../targets/js/wasm-abi.js";

/** The loader's functions a module may import (wasm-abi.ts, WASM_HOOKS). */
export interface WasmHooks { divergent: (...args: number[]) => never }

/** The state's header words (runtime/state.ts: PRINT_BASE; the print cursor at 27). */
const HEADER = 32;
const PRINT_CURSOR = 27;
const PAGE = 65536;
/** The most linear memory a launch takes (wasm32's 4 GiB, less a page). */
const MAX_BYTES = 65535 * PAGE;

export class WasmKernel {
  /** Whether the kernel likely runs faster here than as JavaScript (it has a loop). */
  readonly prefer: boolean;
  private readonly memory: WebAssembly.Memory;
  private readonly run: (...args: number[]) => void;
  private readonly heap: number;
  private readonly tables: number[];

  private constructor(module: WebAssembly.Module, sites: HostArray[], hooks: WasmHooks) {
    const imports: Record<string, WebAssembly.ImportValue> = {};
    for (const i of WebAssembly.Module.imports(module)) {
      if (i.module !== "m") throw new Error(`it imports from '${i.module}'`);
      if (i.name === "memory" && i.kind === "memory") continue;
      const f = Object.hasOwn(WASM_IMPORTS, i.name) ? WASM_IMPORTS[i.name].fn : Object.hasOwn(WASM_HOOKS, i.name) ? hooks[i.name as keyof WasmHooks] : undefined;
      if (!f || i.kind !== "function") throw new Error(`it imports '${i.name}' (${i.kind})`);
      imports[i.name] = f;
    }
    const expected = new Set(["run", "heap", "prefer", ...sites.map((_, i) => `table${i}`)]);
    const exported = WebAssembly.Module.exports(module);
    for (const e of exported) if (!expected.delete(e.name) || e.kind !== (e.name === "run" ? "function" : "global")) throw new Error(`it exports '${e.name}' (${e.kind})`);
    if (expected.size) throw new Error(`it does not export '${[...expected][0]}'`);
    this.memory = new WebAssembly.Memory({ initial: 1 });
    const x = new WebAssembly.Instance(module, { m: { ...imports, memory: this.memory } }).exports as Record<string, unknown>;
    const value = (name: string) => (x[name] as WebAssembly.Global).value as number;
    this.run = x.run as (...args: number[]) => void;
    this.heap = value("heap");
    this.prefer = value("prefer") === 1;
    this.tables = sites.map((s, i) => {
      const at = value(`table${i}`);
      if (at < 0 || at % 8 || at + s.byteLength > this.heap) throw new Error(`its table ${i} is outside its data`);
      return at;
    });
    if (this.heap > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((this.heap - this.memory.buffer.byteLength) / PAGE));
    sites.forEach((s, i) => this.updateTable(i, s));
  }

  /** The kernel's module from its base64 text, checked and instantiated; the reason where it cannot be used. */
  static load(base64: string, sites: HostArray[], hooks: WasmHooks): WasmKernel | { refused: string } {
    try {
      const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
      return new WasmKernel(new WebAssembly.Module(bytes), sites, hooks);
    } catch (e) {
      return { refused: (e as Error).message };
    }
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
   * ended in a trap, as the JavaScript leaves what it wrote. False where the arrays do not fit in
   * linear memory (the caller runs the JavaScript). A trap comes out as the engine's error, after
   * the copies; the recorded exception is in `state`.
   */
  launch(state: Int32Array, args: unknown[], readOnly: boolean[], grid: readonly number[], subgroupSize: number, shared: { length: number; bytes: number }[]): boolean {
    const ranges = new Map<ArrayBufferLike, { lo: number; hi: number; at: number; written: boolean }>();
    args.forEach((a, i) => {
      if (!ArrayBuffer.isView(a)) return;
      const lo = a.byteOffset & ~7, hi = a.byteOffset + a.byteLength;
      const r = ranges.get(a.buffer);
      if (!r) ranges.set(a.buffer, { lo, hi, at: 0, written: !readOnly[i] });
      else { r.lo = Math.min(r.lo, lo); r.hi = Math.max(r.hi, hi); r.written ||= !readOnly[i]; }
    });
    let at = this.heap + state.byteLength;
    for (const r of ranges.values()) { at = Math.ceil(at / 8) * 8; r.at = at; at += r.hi - r.lo; }
    const sharedAt = shared.map((x) => { at = Math.ceil(at / 8) * 8; const p = at; at += x.length * x.bytes; return p; });
    if (at > MAX_BYTES) return false;
    if (at > this.memory.buffer.byteLength) {
      try { this.memory.grow(Math.ceil((at - this.memory.buffer.byteLength) / PAGE)); } catch { return false; }
    }
    const mem = this.memory.buffer;
    const bytes = new Uint8Array(mem);
    new Int32Array(mem, this.heap, HEADER).fill(0);
    for (const [buffer, r] of ranges) bytes.set(new Uint8Array(buffer, r.lo, r.hi - r.lo), r.at);
    const call: number[] = [this.heap, state.length];
    for (const a of args) {
      if (ArrayBuffer.isView(a)) {
        const r = ranges.get(a.buffer)!;
        call.push(r.at + a.byteOffset - r.lo, (a as HostArray).length);
      } else call.push(typeof a === "boolean" ? (a ? 1 : 0) : (a as number));
    }
    call.push(...grid, subgroupSize);
    shared.forEach((x, i) => call.push(sharedAt[i], x.length));
    try {
      this.run(...call);
    } finally {
      for (const [buffer, r] of ranges) if (r.written) new Uint8Array(buffer, r.lo, r.hi - r.lo).set(bytes.subarray(r.at, r.at + r.hi - r.lo));
      const words = new Int32Array(mem, this.heap, state.length);
      const cursor = Math.min(Math.max(words[PRINT_CURSOR], 0), state.length - HEADER);
      state.set(words.subarray(0, HEADER + cursor));
    }
    return true;
  }
}
