// One IR function as a WebAssembly function body, for the JS target's WebAssembly path (wasm.ts
// assembles the module and says why its code computes the JavaScript's bits): statements and
// expressions with JavaScript's meaning; a kernel's per-block function runs its threads in the
// JavaScript's order (wasm-regions.ts: a kernel with barriers).

import type { Block, Builtin, Expr, ExprHandle, Function, Module, Stmt } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import { lowerCheck } from "../../ir/passes/lower-checks.js";
import { isArray, type Elem, type Scalar, type Type } from "../../ir/types.js";
import type { LocationTable } from "../locations.js";
import { Bytes, FC, OP, V, type FuncType, type Op, type ValType } from "./wasm-binary.js";
import { BLOCK_LIMITS } from "../target.js";
import { wasmElemBytes } from "./wasm-abi.js";
import { InternalCompilerError } from "../../errors.js";

/** Thrown while emitting a construct the path does not take; the kernel then has no module. */
export class Refused { constructor(readonly why: string) {} }

/**
 * A place in the module's fixed data that is each thread's own where several run the module at
 * once (wasm-abi.ts, THREADS_SECTION): code reaches it only through `addr`, which records the
 * constant as a relocation. (An object, not a number, so that no place is written as a plain
 * constant by mistake: two threads would share it.)
 */
export interface Static { readonly at: number }

/** Where the module's fixed arrays live in linear memory. */
export interface MemoryLayout {
  /** Where constant table i lives (read-only: one copy for every thread, not relocated). */
  tables: number[];
  /** Where shared array i and function f's private array local l live. */
  shared: Static[];
  /** Which shared arrays are sized at launch (`shared[i]` is then where their place and length are). */
  dynamicShared: boolean[];
  privates: Map<number, Static>[];
}

/** What a function's emitter needs of the module being assembled (wasm.ts). */
export interface ModuleContext {
  readonly m: Module;
  /** The builtins each function reads (a helper takes them as parameters, in this order); the JS text's location table. */
  readonly o: { builtins: Builtin[][]; locations: LocationTable };
  readonly layout: MemoryLayout;
  importOf(name: string): number;
  functionIndex(fn: number): number;
  /** A fixed place of `bytes` bytes (8-aligned); with `zeroed`, zero-filled at the start of each launch. */
  reserve(bytes: number, zeroed: boolean): Static;
}

/** The most threads a block has: per-thread storage is sized for them. */
export const BLOCK_THREADS = BLOCK_LIMITS.threads;
/** memory.fill (its operands, the address, the byte and the count, on the stack). */
export const FC_FILL = (c: Bytes) => c.byte(0xfc).u32(FC["memory.fill"]).byte(0);

/** The kernel's per-block function's parameters after the kernel's own: its block, the grid, the subgroup size. */
export const KERNEL_EXTRA: readonly Builtin[] = ["blockIdx.x", "blockIdx.y", "blockIdx.z", "gridDim.x", "gridDim.y", "gridDim.z", "blockDim.x", "blockDim.y", "blockDim.z", "subgroupSize"];

export const alignUp = (x: number, a: number) => Math.ceil(x / a) * a;
export const valType = (s: Scalar): ValType => (s === "f32" ? V.f32 : s === "f64" ? V.f64 : V.i32);
export const scalarOf = (t: Type): Scalar => {
  if (t.kind !== "scalar") throw new Refused(`a value of kind ${t.kind}`);
  return t.scalar;
};
export const SHIFT: Record<number, number> = { 1: 0, 2: 1, 4: 2, 8: 3 };

export const LOAD: Record<Elem, Op> = {
  bool: "i32.load8_u", i32: "i32.load", u32: "i32.load", f32: "f32.load", f64: "f64.load",
  i8: "i32.load8_s", u8: "i32.load8_u", u8c: "i32.load8_u", i16: "i32.load16_s", u16: "i32.load16_u",
};
export const STORE: Record<Elem, Op> = {
  bool: "i32.store8", i32: "i32.store", u32: "i32.store", f32: "f32.store", f64: "f64.store",
  i8: "i32.store8", u8: "i32.store8", u8c: "i32.store8", i16: "i32.store16", u16: "i32.store16",
};
export const bytesOf = wasmElemBytes;

/** Integer and bool operations that are a few instructions and cannot trap (`cheap`). */
const CHEAP_OPS: ReadonlySet<string> = new Set(["add", "sub", "mul", "and", "or", "xor", "shl", "shr", "bitnot", "not", "neg", "eq", "ne", "lt", "le", "gt", "ge", "min", "max"]);

/** Math functions that are one import each, f64 → f64 (an f32 operand promoted, the result demoted). */
export const IMPORTED_UNARY = new Set(["cbrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "round"]);
export const IMPORTED_BINARY = new Set(["pow", "atan2", "hypot"]);

/**
 * What a WebAssembly block is for, so that a branch finds its target by kind: an IR loop's break
 * and continue, a kernel thread's end, a kernel with barriers' region loop (`rbreak`, `rcontinue`)
 * and its block (`block`, left when no thread of it runs any more).
 */
export type Label = "break" | "continue" | "thread" | "rbreak" | "rcontinue" | "block" | "lanes" | "vbreak" | "vcontinue" | "vloop" | "other";

export class FunctionEmitter {
  protected c = new Bytes();
  protected locals: ValType[] = [];
  private nParams: number;
  /** Each IR local's WebAssembly local: one, or a pointer and a length for an array. */
  protected slots: (number | [number, number])[] = [];
  protected builtinSlots = new Map<Builtin, number>();
  protected labels: Label[] = [];
  private free = new Map<ValType, number[]>();
  protected isKernel: boolean;
  protected state: [number, number] | null = null;
  /** Where in `c` each relocated constant (`addr`) starts. */
  private relocs: number[] = [];

  constructor(protected mod: ModuleContext, protected f: Function, protected fi: number, sig: FuncType) {
    this.nParams = sig.params.length;
    this.isKernel = fi === mod.m.entry;
    let next = 0;
    if (f.stateParam !== null || this.isKernel) { this.state = [0, 1]; next = 2; }
    if (f.stateParam !== null) this.slots[f.stateParam] = this.state!;
    for (const p of f.params) {
      const t = f.locals[p].type;
      if (isArray(t)) { this.slots[p] = [next, next + 1]; next += 2; }
      else this.slots[p] = next++;
    }
    if (this.isKernel) {
      KERNEL_EXTRA.forEach((b) => this.builtinSlots.set(b, next++));
      for (const b of ["threadIdx.x", "threadIdx.y", "threadIdx.z", "subgroupLaneId"] as const) this.builtinSlots.set(b, this.local(V.i32));
    } else for (const b of mod.o.builtins[fi]) this.builtinSlots.set(b, next++);
    f.locals.forEach((l, i) => {
      if (this.slots[i] !== undefined) return;
      if (isArray(l.type)) {
        const at = mod.layout.privates[fi].get(i);
        if (at === undefined) throw new Refused(`array local ${l.name} has no place`);
        const ptr = this.local(V.i32), len = this.local(V.i32);
        this.slots[i] = [ptr, len];
      } else this.slots[i] = this.local(valType(scalarOf(l.type)));
    });
  }

  protected local(t: ValType): number { this.locals.push(t); return this.nParams + this.locals.length - 1; }
  protected temp(t: ValType): number { return this.free.get(t)?.pop() ?? this.local(t); }
  protected release(t: ValType, i: number): void { let l = this.free.get(t); if (!l) this.free.set(t, (l = [])); l.push(i); }

  protected op(o: Op): Bytes { return this.c.byte(OP[o]); }
  protected get(i: number): void { this.op("local.get").u32(i); }
  protected set(i: number): void { this.op("local.set").u32(i); }
  protected i32(v: number): void { this.op("i32.const").s32(v); }
  /**
   * Emit what `fn` emits where it completes; where it throws `Refused`, nothing (its code and
   * relocations dropped, its labels closed): false.
   */
  protected attempt(fn: () => void): boolean {
    const code = this.capture(fn);
    if (code) this.place(code);
    return code !== null;
  }

  /**
   * What `fn` emits, kept aside (to be placed later, once or more: `place`); null where it throws
   * `Refused` (its labels closed).
   */
  protected capture(fn: () => void): { bytes: Uint8Array; relocs: number[] } | null {
    const c = this.c, relocs = this.relocs, labels = this.labels.length;
    const inner = new Bytes(), innerRelocs: number[] = [];
    this.c = inner; this.relocs = innerRelocs;
    try { fn(); }
    catch (e) {
      if (!(e instanceof Refused)) throw e;
      this.labels.length = labels;
      return null;
    } finally { this.c = c; this.relocs = relocs; }
    return { bytes: inner.bytes, relocs: innerRelocs };
  }

  /** Code kept aside by `capture`, here (its relocations with it). */
  protected place(code: { bytes: Uint8Array; relocs: number[] }): void {
    for (const r of code.relocs) this.relocs.push(this.c.length + r);
    this.c.raw(code.bytes);
  }

  /** The address `plus` bytes into fixed place `s`: a relocated constant (wasm-abi.ts, THREADS_SECTION). */
  protected addr(s: Static, plus = 0): void { this.op("i32.const"); this.relocs.push(this.c.length); this.c.s32wide(s.at + plus); }
  protected depth(l: Label): number {
    const i = this.labels.lastIndexOf(l);
    if (i < 0) throw new Refused(`a ${l} outside its construct`);
    return this.labels.length - 1 - i;
  }
  protected open(kind: "block" | "loop" | "if", label: Label, result: ValType | null = null): void {
    this.op(kind).byte(result ?? 0x40);
    this.labels.push(label);
  }
  protected close(): void { this.op("end"); this.labels.pop(); }

  emit(): { locals: ValType[]; code: Uint8Array; relocs: number[] } {
    const f = this.f;
    // Private arrays: their fixed places, set once.
    for (const [i, at] of this.mod.layout.privates[this.fi]) {
      const [ptr, len] = this.slots[i] as [number, number];
      const t = f.locals[i].type as Extract<Type, { kind: "array" }>;
      this.addr(at); this.set(ptr); this.i32(t.size ?? 0); this.set(len);
    }
    if (this.isKernel) this.threads();
    else {
      this.block(f.body);
      if (f.returnType.kind === "scalar") this.op("unreachable");
    }
    this.op("end");
    return { locals: this.locals, code: this.c.bytes, relocs: this.relocs };
  }

  /** The kernel's block: its threads (RegionKernelEmitter's; wasm.ts makes every entry kernel one). */
  protected threads(): void { throw new InternalCompilerError("a kernel's WebAssembly outside regions"); }

  protected block(b: Block): void { for (const s of b) this.stmt(s); }

  /**
   * A loop as the IR has them: `body` (its continue leaves it: the `labels[1]` block),
   * `continuing`, then `test` (true leaves the loop: the `labels[0]` block), and around again.
   */
  protected loopOf(labels: [Label, Label], body: () => void, continuing: () => void, test: (() => void) | null): void {
    this.open("block", labels[0]);
    this.open("loop", "other");
    this.open("block", labels[1]);
    body();
    this.close();
    continuing();
    if (test) { test(); this.op("br_if").u32(this.depth(labels[0])); }
    this.op("br").u32(0);
    this.close();
    this.close();
  }

  /** What an IR `return` does in the kernel: ends the thread. */
  protected kernelReturn(): void { this.op("br").u32(this.depth("thread")); }

  /** A scalar local's value onto the stack. */
  protected readLocal(l: number): void { this.get(this.slots[l] as number); }

  protected stmt(s: Stmt): void {
    switch (s.k) {
      case "set": this.expr(s.value); this.set(this.slots[s.local] as number); return;
      case "store": {
        const a = this.arrayOf(s.array);
        this.address(a, s.index);
        this.expr(s.value);
        this.op(STORE[a.elem]).u32(SHIFT[bytesOf(a.elem)]).u32(0);
        return;
      }
      case "call": return this.call(s);
      case "if":
        this.expr(s.cond);
        this.open("if", "other");
        this.block(s.then);
        if (s.else.length) { this.op("else"); this.block(s.else); }
        this.close();
        return;
      case "loop": {
        const breakIf = s.breakIf;
        return this.loopOf(["break", "continue"], () => this.block(s.body), () => this.block(s.continuing), breakIf === null ? null : () => this.expr(breakIf));
      }
      case "switch": return this.switch(s);
      case "break": this.op("br").u32(this.depth("break")); return;
      case "continue": this.op("br").u32(this.depth("continue")); return;
      case "return":
        if (this.isKernel) return this.kernelReturn();
        if (s.value !== null) this.expr(s.value);
        this.op("return");
        return;
      case "atomic": return this.atomic(s);
      case "init": {
        const a = this.arrayOf(this.localArray(s.local));
        a.ptr(); this.i32(0); a.len(); this.i32(SHIFT[bytesOf(a.elem)]); this.op("i32.shl");
        this.c.byte(0xfc).u32(FC["memory.fill"]).byte(0);
        return;
      }
      case "trap": this.op("unreachable"); return;
      // One thread runs at a time: a fence orders nothing that is not already in order.
      case "fence": return;
      case "check": for (const x of lowerCheck(s)) this.stmt(x); return;
      case "barrier": throw new Refused("syncthreads()");
      case "subgroup": throw new Refused("subgroup operations");
      default: assertNeverIR(s);
    }
  }

  /** A private array local as an array operand (for `init`). */
  private localArray(l: number): { ptr(): void; len(): void; elem: Elem } {
    const [p, n] = this.slots[l] as [number, number];
    return { ptr: () => this.get(p), len: () => this.get(n), elem: (this.f.locals[l].type as { elem: Elem }).elem };
  }

  protected arrayOf(h: ExprHandle | { ptr(): void; len(): void; elem: Elem }): { ptr(): void; len(): void; elem: Elem } {
    if (typeof h === "object") return h;
    const e = this.f.exprs[h];
    if (e.type.kind !== "array") throw new Refused(`an array operand of kind ${e.type.kind}`);
    const elem = e.type.elem;
    switch (e.k) {
      case "local": {
        const [p, n] = this.slots[e.local] as [number, number];
        return { ptr: () => this.get(p), len: () => this.get(n), elem };
      }
      case "global": {
        const g = this.mod.m.globals[e.global];
        const at = this.mod.layout.tables[e.global];
        return { ptr: () => this.i32(at), len: () => this.i32(g.value.length), elem };
      }
      case "shared": {
        const s = this.mod.m.shared[e.shared];
        const at = this.mod.layout.shared[e.shared];
        // (One sized at launch: its place and length where `run` left them.)
        if (this.mod.layout.dynamicShared[e.shared]) return { ptr: () => { this.addr(at); this.op("i32.load").u32(2).u32(0); }, len: () => { this.addr(at); this.op("i32.load").u32(2).u32(4); }, elem };
        return { ptr: () => this.addr(at), len: () => this.i32(s.type.size ?? 0), elem };
      }
      default: throw new Refused(`an array expression of kind ${e.k}`);
    }
  }

  /** The byte address of element `index` of `a` (in bounds: checked or proved before). */
  private address(a: { ptr(): void; elem: Elem }, index: ExprHandle): void {
    a.ptr();
    this.expr(index);
    const shift = SHIFT[bytesOf(a.elem)];
    if (shift) { this.i32(shift); this.op("i32.shl"); }
    this.op("i32.add");
  }

  private call(s: Extract<Stmt, { k: "call" }>): void {
    const callee = this.mod.m.functions[s.fn];
    if (callee.stateParam !== null) {
      if (!this.state) throw new Refused("a call passing a state its caller has not");
      this.get(this.state[0]); this.get(this.state[1]);
    }
    for (const a of s.args) {
      const t = this.f.exprs[a].type;
      if (isArray(t)) { const r = this.arrayOf(a); r.ptr(); r.len(); }
      else this.expr(a);
    }
    for (const b of this.mod.o.builtins[s.fn]) this.builtin(b);
    this.op("call").u32(this.mod.functionIndex(s.fn));
    if (s.result !== null) this.set(this.slots[s.result] as number);
    else if (callee.returnType.kind === "scalar") this.op("drop");
  }

  private builtin(b: Builtin): void {
    const slot = this.builtinSlots.get(b);
    if (slot === undefined) throw new Refused(`${b}()`);
    this.get(slot);
  }

  /**
   * A switch: the selector compared with each case's values in order (the default taken when none
   * is equal), a jump to that case's body; bodies in order, so a case that falls through runs the
   * next one's, and one that completes without falling through leaves the switch.
   */
  private switch(s: Extract<Stmt, { k: "switch" }>): void {
    const sel = scalarOf(this.f.exprs[s.selector].type);
    const vt = valType(sel);
    const t = this.temp(vt);
    this.expr(s.selector); this.set(t);
    const n = s.cases.length;
    this.open("block", "break");
    for (let i = 0; i < n; i++) this.open("block", "other");
    s.cases.forEach((c, i) => {
      for (const v of c.values) {
        this.get(t);
        // (An f32 selector compared in f64: a case value f32 cannot hold equals no f32.)
        if (vt === V.f32) { this.op("f64.promote_f32"); this.op("f64.const").f64(v); this.op("f64.eq"); }
        else if (vt === V.f64) { this.op("f64.const").f64(v); this.op("f64.eq"); }
        else { this.i32(v | 0); this.op("i32.eq"); }
        this.op("br_if").u32(i);
      }
    });
    const def = s.cases.findIndex((c) => c.isDefault);
    this.op("br").u32(def < 0 ? n : def);
    s.cases.forEach((c) => {
      this.close();
      this.block(c.body);
      if (!c.fallthrough) this.op("br").u32(this.depth("break"));
    });
    this.close();
    this.release(vt, t);
  }

  /** An atomic step, plainly: one thread runs at a time. The old value (or `store`'s operand) to `result`. */
  private atomic(s: Extract<Stmt, { k: "atomic" }>): void {
    if (s.word) throw new Refused("word atomics");
    const a = this.arrayOf(s.array);
    const v = valType(a.elem === "f32" ? "f32" : a.elem === "f64" ? "f64" : "i32");
    const addr = this.temp(V.i32), old = this.temp(v);
    const args = s.args.map((x) => { const t = this.temp(v); this.expr(x); this.set(t); return t; });
    this.address(a, s.index); this.set(addr);
    this.get(addr); this.op(LOAD[a.elem]).u32(SHIFT[bytesOf(a.elem)]).u32(0); this.set(old);
    const unsigned = a.elem === "u32";
    const store = (value: () => void) => { this.get(addr); value(); this.op(STORE[a.elem]).u32(SHIFT[bytesOf(a.elem)]).u32(0); };
    const bin = (o: Op) => store(() => { this.get(old); this.get(args[0]); this.op(o); });
    const pick = (cmp: Op) => store(() => { this.get(old); this.get(args[0]); this.get(old); this.get(args[0]); this.op(cmp); this.op("select"); });
    switch (s.op) {
      case "add": bin(v === V.f32 ? "f32.add" : "i32.add"); break;
      case "sub": bin("i32.sub"); break;
      case "and": bin("i32.and"); break;
      case "or": bin("i32.or"); break;
      case "xor": bin("i32.xor"); break;
      case "min": pick(unsigned ? "i32.lt_u" : "i32.lt_s"); break;
      case "max": pick(unsigned ? "i32.gt_u" : "i32.gt_s"); break;
      case "exchange": case "store": store(() => this.get(args[0])); break;
      case "compareExchange": store(() => { this.get(args[1]); this.get(old); this.get(old); this.get(args[0]); this.op(v === V.f32 ? "f32.eq" : "i32.eq"); this.op("select"); }); break;
      case "load": break;
      // CUDA's atomicInc/atomicDec, compared as unsigned (ir/module.ts).
      case "inc": store(() => { this.i32(0); this.get(old); this.i32(1); this.op("i32.add"); this.get(old); this.get(args[0]); this.op("i32.ge_u"); this.op("select"); }); break;
      case "dec": store(() => {
        this.get(args[0]); this.get(old); this.i32(1); this.op("i32.sub");
        this.get(old); this.op("i32.eqz"); this.get(old); this.get(args[0]); this.op("i32.gt_u"); this.op("i32.or");
        this.op("select");
      }); break;
      default: assertNeverIR(s.op as never);
    }
    if (s.result !== null) { this.get(s.op === "store" ? args[0] : old); this.set(this.slots[s.result] as number); }
    for (const t of args) this.release(v, t);
    this.release(v, old); this.release(V.i32, addr);
  }

  /** Expressions emitted otherwise while set (the four-lane forms' ops lane by lane: a lane's operand). */
  protected operandOverride: Map<ExprHandle, () => void> | null = null;

  protected expr(h: ExprHandle): void {
    const o = this.operandOverride?.get(h);
    if (o) return o();
    const e: Expr = this.f.exprs[h];
    switch (e.k) {
      case "const": return this.constant(e.value, scalarOf(e.type));
      case "local": return this.readLocal(e.local);
      case "builtin": return this.builtin(e.name);
      case "location": this.i32(this.mod.o.locations.id(e.site)); return;
      case "op": return this.operation(e as Extract<Expr, { k: "op" }>);
      case "convert": this.expr(e.arg); return this.convert(scalarOf(this.f.exprs[e.arg].type), scalarOf(e.type));
      case "select": {
        // Two sides that cost little and can neither trap nor change anything: both computed,
        // one picked (a `select`, no branch to mispredict on data); else only the side taken.
        if (this.cheap(e.a, 6) && this.cheap(e.b, 6)) {
          this.expr(e.a); this.expr(e.b); this.expr(e.cond); this.op("select");
          return;
        }
        this.expr(e.cond);
        this.open("if", "other", valType(scalarOf(e.type)));
        this.expr(e.a); this.op("else"); this.expr(e.b);
        this.close();
        return;
      }
      case "load": {
        const a = this.arrayOf(e.array);
        this.address(a, e.index);
        this.op(LOAD[a.elem]).u32(SHIFT[bytesOf(a.elem)]).u32(0);
        return;
      }
      case "length": this.arrayOf(e.array).len(); return;
      case "global": case "shared": throw new Refused("an array used as a value");
      case "bitOffset": throw new Refused("word offsets");
      default: assertNeverIR(e);
    }
  }

  /**
   * Whether expression `h` is at most `budget` steps of integer or bool arithmetic on constants,
   * locals and builtins: no load (its index may be out of bounds where the other side is taken),
   * no division, no call, no float (a float op is not free), nothing that traps.
   */
  protected cheap(h: ExprHandle, budget: number): boolean {
    const e = this.f.exprs[h];
    if (e.type.kind !== "scalar" || e.type.scalar === "f32" || e.type.scalar === "f64") return false;
    switch (e.k) {
      case "const": case "builtin": return true;
      case "local": return !this.rematerialized(e.local);
      case "op": {
        if (budget <= 0 || !CHEAP_OPS.has(e.op)) return false;
        return e.args.every((a) => {
          const t = this.f.exprs[a].type;
          return t.kind === "scalar" && t.scalar !== "f32" && t.scalar !== "f64" && this.cheap(a, budget - 1);
        });
      }
      default: return false;
    }
  }

  /** Whether reading local `l` evaluates an expression in its place (wasm-regions.ts). */
  protected rematerialized(_l: number): boolean { return false; }

  private constant(v: number | boolean, t: Scalar): void {
    if (typeof v === "boolean") return this.i32(v ? 1 : 0);
    if (t === "f32") { this.op("f32.const").f32(v); return; }
    if (t === "f64") { this.op("f64.const").f64(v); return; }
    this.i32(v | 0);
  }

  /** `x` on the stack, of type `from`, as a `to` (JavaScript's conversions: function.ts, convert). */
  private convert(from: Scalar, to: Scalar): void {
    if (from === to) return;
    if (from === "bool") {
      if (to === "f32") this.op("f32.convert_i32_u");
      else if (to === "f64") this.op("f64.convert_i32_u");
      return;
    }
    switch (to) {
      case "bool":
        // Truthiness: a number is false at ±0 and NaN.
        if (from === "f32") { this.op("f32.abs"); this.op("f32.const").f32(0); this.op("f32.gt"); }
        else if (from === "f64") { this.op("f64.abs"); this.op("f64.const").f64(0); this.op("f64.gt"); }
        else { this.i32(0); this.op("i32.ne"); }
        return;
      case "i32": case "u32":
        if (from === "i32" || from === "u32") return;
        if (from === "f32") this.op("f64.promote_f32");
        return this.toInt32();
      case "f32":
        this.op(from === "i32" ? "f32.convert_i32_s" : from === "u32" ? "f32.convert_i32_u" : "f32.demote_f64");
        return;
      case "f64":
        this.op(from === "i32" ? "f64.convert_i32_s" : from === "u32" ? "f64.convert_i32_u" : "f64.promote_f32");
        return;
    }
  }

  /** ToInt32 of the f64 on the stack: truncation modulo 2^32 (through i64 within ±2^63; the import beyond, and for NaN). */
  private toInt32(): void {
    const x = this.temp(V.f64);
    this.set(x);
    this.get(x); this.op("f64.abs"); this.op("f64.const").f64(9223372036854775808); this.op("f64.lt");
    this.open("if", "other", V.i32);
    this.get(x); this.c.byte(0xfc).u32(FC["i64.trunc_sat_f64_s"]); this.op("i32.wrap_i64");
    this.op("else");
    this.get(x); this.op("call").u32(this.mod.importOf("toInt32"));
    this.close();
    this.release(V.f64, x);
  }

  private operation(e: Extract<Expr, { k: "op" }>): void {
    const t = scalarOf(this.f.exprs[e.args[0]].type);
    const f = t === "f32" || t === "f64";
    const p = t === "f32" ? "f32" : "f64";
    const both = () => { this.expr(e.args[0]); this.expr(e.args[1]); };
    const simple = (o: Op) => { both(); this.op(o); };
    /** Both operands into temps (an op that reads one twice), then `body`. */
    const held = (vt: ValType, body: (a: number, b: number) => void) => {
      const a = this.temp(vt), b = this.temp(vt);
      this.expr(e.args[0]); this.set(a);
      if (e.args.length > 1) { this.expr(e.args[1]); this.set(b); }
      body(a, b);
      this.release(vt, a); this.release(vt, b);
    };
    const imported = (name: string) => {
      for (const a of e.args) { this.expr(a); if (t === "f32") this.op("f64.promote_f32"); }
      this.op("call").u32(this.mod.importOf(name === "rem" ? "fmod" : name));
      if (t === "f32") this.op("f32.demote_f64");
    };
    const cmp = (s: string, u: string, fl: string) => simple((f ? `${p}.${fl}` : t === "u32" ? `i32.${u}` : `i32.${s}`) as Op);
    switch (e.op) {
      case "add": return simple(f ? `${p}.add` : "i32.add");
      case "sub": return simple(f ? `${p}.sub` : "i32.sub");
      case "mul": return simple(f ? `${p}.mul` : "i32.mul");
      case "div": case "rem": {
        if (f) { if (e.op === "div") return simple(`${p}.div`); return imported("rem"); }
        const divisor = this.f.exprs[e.args[1]];
        const o: Op = e.op === "div" ? (t === "u32" ? "i32.div_u" : "i32.div_s") : (t === "u32" ? "i32.rem_u" : "i32.rem_s");
        // A constant divisor other than 0 (and -1 for i32 division) needs no guard.
        if (divisor.k === "const" && divisor.value !== 0 && !(t === "i32" && e.op === "div" && divisor.value === -1)) return simple(o);
        return held(V.i32, (a, b) => {
          this.get(b); this.op("i32.eqz");
          this.open("if", "other", V.i32);
          this.i32(0);
          this.op("else");
          if (t === "i32" && e.op === "div") {
            // -2^31 / -1 overflows WebAssembly's instruction; JavaScript's (a / b) | 0 is -a wrapped.
            this.get(b); this.i32(-1); this.op("i32.eq");
            this.open("if", "other", V.i32);
            this.i32(0); this.get(a); this.op("i32.sub");
            this.op("else");
            this.get(a); this.get(b); this.op(o);
            this.close();
          } else { this.get(a); this.get(b); this.op(o); }
          this.close();
        });
      }
      case "min": case "max":
        if (f) return simple(`${p}.${e.op}`);
        return held(V.i32, (a, b) => {
          this.get(a); this.get(b); this.get(a); this.get(b);
          this.op(e.op === "min" ? (t === "u32" ? "i32.lt_u" : "i32.lt_s") : (t === "u32" ? "i32.gt_u" : "i32.gt_s"));
          this.op("select");
        });
      case "pow": case "atan2": case "hypot": return imported(e.op);
      case "neg":
        if (f) { this.expr(e.args[0]); this.op(`${p}.neg`); return; }
        this.i32(0); this.expr(e.args[0]); this.op("i32.sub"); return;
      case "abs":
        if (f) { this.expr(e.args[0]); this.op(`${p}.abs`); return; }
        if (t === "u32") { this.expr(e.args[0]); return; }
        return held(V.i32, (a) => { this.i32(0); this.get(a); this.op("i32.sub"); this.get(a); this.get(a); this.i32(0); this.op("i32.lt_s"); this.op("select"); });
      case "sign":
        if (t === "u32") { this.expr(e.args[0]); this.i32(0); this.op("i32.ne"); return; }
        if (!f) return held(V.i32, (a) => { this.get(a); this.i32(0); this.op("i32.gt_s"); this.get(a); this.i32(0); this.op("i32.lt_s"); this.op("i32.sub"); });
        // Math.sign: ±1, and ±0 and NaN as they are.
        return held(valType(t), (a) => {
          const k = (v: number) => (t === "f32" ? this.op("f32.const").f32(v) : this.op("f64.const").f64(v));
          this.get(a); k(0); this.op(`${p}.gt`);
          this.open("if", "other", valType(t));
          k(1);
          this.op("else");
          this.get(a); k(0); this.op(`${p}.lt`);
          this.open("if", "other", valType(t));
          k(-1); this.op("else"); this.get(a);
          this.close();
          this.close();
        });
      case "and": return simple("i32.and");
      case "or": return simple("i32.or");
      case "xor": return simple("i32.xor");
      case "shl": return simple("i32.shl");
      case "shr": return simple(t === "u32" ? "i32.shr_u" : "i32.shr_s");
      case "bitnot": this.expr(e.args[0]); this.i32(-1); this.op("i32.xor"); return;
      case "clz32": this.expr(e.args[0]); this.op("i32.clz"); return;
      case "eq": return simple(f ? `${p}.eq` : "i32.eq");
      case "ne": return simple(f ? `${p}.ne` : "i32.ne");
      case "lt": return cmp("lt_s", "lt_u", "lt");
      case "le": return cmp("le_s", "le_u", "le");
      case "gt": return cmp("gt_s", "gt_u", "gt");
      case "ge": return cmp("ge_s", "ge_u", "ge");
      case "land": case "lor":
        // The right operand only where it decides.
        this.expr(e.args[0]);
        this.open("if", "other", V.i32);
        if (e.op === "land") { this.expr(e.args[1]); this.op("else"); this.i32(0); }
        else { this.i32(1); this.op("else"); this.expr(e.args[1]); }
        this.close();
        return;
      case "not": this.expr(e.args[0]); this.op("i32.eqz"); return;
      case "floor": case "ceil": case "trunc": case "sqrt": this.expr(e.args[0]); this.op(`${p}.${e.op}`); return;
      case "round": case "cbrt": case "exp": case "expm1": case "log": case "log2": case "log10": case "log1p":
      case "sin": case "cos": case "tan": case "asin": case "acos": case "atan":
      case "sinh": case "cosh": case "tanh": case "asinh": case "acosh": case "atanh":
        return imported(e.op);
      case "isnan": return held(valType(t), (a) => { this.get(a); this.get(a); this.op(`${p}.ne`); });
      case "isfinite":
        this.expr(e.args[0]); this.op(`${p}.abs`);
        if (t === "f32") this.op("f32.const").f32(Infinity); else this.op("f64.const").f64(Infinity);
        this.op(`${p}.lt`);
        return;
      case "f32bits": this.expr(e.args[0]); this.op("i32.reinterpret_f32"); return;
      case "f32frombits": this.expr(e.args[0]); this.op("f32.reinterpret_i32"); return;
      case "f64hi": this.expr(e.args[0]); this.op("i64.reinterpret_f64"); this.op("i64.const").s64(32n); this.op("i64.shr_u"); this.op("i32.wrap_i64"); return;
      case "f64lo": this.expr(e.args[0]); this.op("i64.reinterpret_f64"); this.op("i32.wrap_i64"); return;
      default: assertNeverIR(e.op as never);
    }
  }
}
