// The SPIR-V back end: validated IR (every helper inlined) → one SPIR-V 1.0 module, OpenCL flavour
// (Kernel capability, Physical64 addressing, the OpenCL memory model, OpenCL.std for Math).
//
// Lowering, in short:
//  - every IR local is a Function variable (loads and stores; no phis), so control flow needs no
//    SSA bookkeeping; the Kernel capability needs no structured control flow, so if/loop/switch
//    become blocks and branches as in the PTX back end;
//  - i32 and u32 are one 32-bit integer type (OpenCL's SPIR-V has no signedness): the op chosen
//    says which (SDiv/UDiv, SLessThan/ULessThan, SConvert/UConvert); integer arithmetic wraps;
//  - the kernel's parameters are those of the OpenCL C target, in the same order and with the
//    same roles (layout.ts), so one loader binds both; arrays are CrossWorkgroup pointers (a
//    parameter's offset applied once in the entry block), shared arrays Workgroup variables (or
//    Workgroup pointer parameters where sized at launch), private arrays Function arrays;
//  - barriers as in OpenCL C: `ContractionOff` unless fastMath; in a kernel with barriers a thread
//    that returned or trapped goes on through them, its other statements guarded (a trap inside
//    a guarded statement branches past it);
//  - the runtime library's functions stay functions, taking the state as a pointer and a length.

import type { Builtin, Expr, ExprHandle, Function, Loc, Module, Stmt } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import type { OpName } from "../../ir/ops.js";
import { elemBytes, isFloatScalar, isNarrow, scalarOf, wordBytes, type Elem, type Scalar } from "../../ir/types.js";
import { LocationTable } from "../locations.js";
import { BlockEmitter } from "../blocks.js";
import { assertLegalized } from "../../ir/passes/legalize.js";
import { InternalCompilerError } from "../../errors.js";
import type { TargetFeatures } from "../target.js";
import { BuiltIn, CL, Capability, Decoration, ExecutionMode, Op, Scope, Semantics, SpirvBuilder, StorageClass, stringWords } from "./words.js";
import type { SPIRVLayout } from "./layout.js";
import type { KernelArg } from "../layout-kit.js";

interface SPIRVCode { code: Uint8Array; entry: string; layout: SPIRVLayout; locations: Loc[] }

export function emitSPIRV(m: Module, features: TargetFeatures): SPIRVCode {
  assertLegalized(m, "spirv");
  return new SPIRVEmitter(m, features).emit();
}

type SC = (typeof StorageClass)[keyof typeof StorageClass];
/** An array as the code reaches it: a pointer to its first element (`pointer`) or an array variable, its length, element type and storage class. */
interface ArrayRef { base: number; isVariable: boolean; length: number; elem: Elem; sc: SC }

const C_NAME = (n: string) => n.replace(/[^A-Za-z0-9_]/g, "_");

class SPIRVEmitter extends BlockEmitter<number, number> {
  private b = new SpirvBuilder();
  private extSet = 0;
  private locations = new LocationTable();
  private builtins = new Map<number, number>();
  private fnIds = new Map<number, number>();
  // Per function being emitted.
  private f!: Function;
  private code: number[] = [];
  private varDecls: number[] = [];
  private vars: number[] = [];
  private arrays = new Map<number, ArrayRef>();
  private shared: ArrayRef[] = [];
  private tables: ArrayRef[] = [];

  constructor(private m: Module, private features: TargetFeatures) {
    super();
  }

  emit(): SPIRVCode {
    const b = this.b, m = this.m;
    b.capabilities.add(Capability.Addresses).add(Capability.Kernel).add(Capability.Int64);
    this.extSet = b.id();
    b.emit(b.imports, Op.ExtInstImport, [this.extSet, ...stringWords("OpenCL.std")]);
    // Runtime functions first (callees precede callers), then the kernel.
    m.functions.forEach((g, i) => { if (g.kind === "runtime") this.fnIds.set(i, b.id()); });
    m.functions.forEach((g, i) => { if (g.kind === "runtime") this.function(g, i); });
    const kernel = m.functions[m.entry];
    const entry = `gpuc_${C_NAME(kernel.name)}`;
    const { id, layout } = this.kernel(kernel);
    b.emit(b.entries, Op.EntryPoint, [6 /* Kernel */, id, ...stringWords(entry), ...this.builtins.values()]);
    if (!this.features.fastMath) b.emit(b.modes, Op.ExecutionMode, [id, ExecutionMode.ContractionOff]);
    if (this.features.requiredThreads) b.emit(b.modes, Op.ExecutionMode, [id, ExecutionMode.LocalSize, ...this.features.requiredThreads]);
    const words = b.words();
    return { code: new Uint8Array(words.buffer, words.byteOffset, words.byteLength), entry, layout, locations: this.locations.list };
  }

  // ---- types and constants -------------------------------------------------------------------

  private tVoid(): number { return this.b.type("void", Op.TypeVoid, []); }
  tBool(): number { return this.b.type("bool", Op.TypeBool, []); }
  tInt(bits: number): number {
    if (bits === 8) this.b.capabilities.add(Capability.Int8);
    if (bits === 16) this.b.capabilities.add(Capability.Int16);
    return this.b.type(`i${bits}`, Op.TypeInt, [bits, 0]);
  }
  private tFloat(bits: number): number {
    if (bits === 64) this.b.capabilities.add(Capability.Float64);
    return this.b.type(`f${bits}`, Op.TypeFloat, [bits]);
  }
  private tScalar(s: Scalar): number { return s === "bool" ? this.tBool() : s === "f32" ? this.tFloat(32) : s === "f64" ? this.tFloat(64) : this.tInt(32); }
  private tElem(e: Elem): number { return isNarrow(e) ? this.tInt(elemBytes(e) * 8) : this.tScalar(e as Scalar); }
  private tPtr(sc: number, to: number): number { return this.b.type(`p${sc}:${to}`, Op.TypePointer, [sc, to]); }
  private tArray(elem: number, n: number): number { return this.b.type(`a${elem}:${n}`, Op.TypeArray, [elem, this.i32(n)]); }

  /** A constant of type `t` (interned by its words), made by `op`. */
  private interned(t: number, name: string, words: number[], op: number = Op.Constant): number {
    return this.b.intern(`c:${name}:${words.join(":")}`, (id) => this.b.emit(this.b.globals, op, [t, id, ...words]));
  }
  private i32(v: number): number { return this.interned(this.tInt(32), "i32", [v >>> 0]); }
  i64(v: bigint): number { return this.interned(this.tInt(64), "i64", [Number(v & 0xffffffffn), Number((v >> 32n) & 0xffffffffn)]); }
  constant(v: number | boolean, s: Scalar): number {
    if (typeof v === "boolean" || s === "bool") return this.interned(this.tBool(), `bool:${Boolean(v)}`, [], v ? Op.ConstantTrue : Op.ConstantFalse);
    if (s === "f32") return this.interned(this.tFloat(32), "f32", [...new Uint32Array(new Float32Array([v]).buffer)]);
    return s === "f64" ? this.interned(this.tFloat(64), "f64", [...new Uint32Array(new Float64Array([v]).buffer)]) : this.i32(v);
  }

  // ---- code ------------------------------------------------------------------------------------

  op(op: number, type: number, ...operands: number[]): number {
    const id = this.b.id();
    this.b.emit(this.code, op, [type, id, ...operands]);
    return id;
  }
  private inst(op: number, ...operands: number[]): void { this.b.emit(this.code, op, operands); }
  protected newLabel(): number { return this.b.id(); }
  protected writeLabel(id: number): void { this.b.emit(this.code, Op.Label, [id]); }
  protected writeBranch(to: number): void { this.inst(Op.Branch, to); }
  protected writeCondBranch(cond: number, then: number, els: number): void { this.inst(Op.BranchConditional, cond, then, els); }
  protected writeSwitch(sel: number, otherwise: number, cases: [number, number][]): void { this.inst(Op.Switch, sel, otherwise, ...cases.flatMap(([v, l]) => [v >>> 0, l])); }
  ext(type: number, fn: number, ...args: number[]): number { return this.op(Op.ExtInst, type, this.extSet, fn, ...args); }
  /** A Function variable (with `init`: its initial value, a constant). */
  private local(type: number, init?: number): number {
    const id = this.b.id();
    this.b.emit(this.varDecls, Op.Variable, [this.tPtr(StorageClass.Function, type), id, StorageClass.Function, ...(init === undefined ? [] : [init])]);
    return id;
  }

  /** A builtin's value, an i32: a component of its Input variable (made on first use), or a constant. */
  private builtin(name: Builtin): number {
    const spelling = BUILTINS[name];
    if (typeof spelling === "number") return this.i32(spelling);
    const [which, axis] = spelling;
    let v = this.builtins.get(which);
    if (v === undefined) {
      v = this.b.id();
      const vec = this.b.type("v3i64", Op.TypeVector, [this.tInt(64), 3]);
      this.b.emit(this.b.globals, Op.Variable, [this.tPtr(StorageClass.Input, vec), v, StorageClass.Input]);
      this.b.emit(this.b.decorations, Op.Decorate, [v, Decoration.BuiltIn, which]);
      this.b.emit(this.b.decorations, Op.Decorate, [v, Decoration.Constant]);
      this.builtins.set(which, v);
    }
    const vec = this.b.type("v3i64", Op.TypeVector, [this.tInt(64), 3]);
    return this.op(Op.UConvert, this.tInt(32), this.op(Op.CompositeExtract, this.tInt(64), this.op(Op.Load, vec, v), axis));
  }

  /** The kernel: its parameters (layout.ts's order and roles), its entry block, its body. */
  private kernel(f: Function): { id: number; layout: SPIRVLayout } {
    const b = this.b, m = this.m;
    this.begin(f);
    const relocation = this.features.relocation ?? "table";
    const params: { type: number; id: number }[] = [];
    const args: KernelArg[] = [];
    const param = (a: KernelArg, type: number): number => { const id = b.id(); params.push({ type, id }); args.push(a); return id; };
    const setup: (() => void)[] = [];
    f.params.forEach((p, i) => {
      const t = f.locals[p].type, name = f.paramNames[i] ?? f.locals[p].name;
      if (t.kind === "array") {
        const ptr = this.tPtr(StorageClass.CrossWorkgroup, this.tElem(t.elem));
        const base = param({ name, role: "buffer", index: i }, ptr);
        const off = param({ name, role: "offset", index: i }, this.tInt(32));
        const len = param({ name, role: "length", index: i }, this.tInt(32));
        setup.push(() => {
          const start = this.op(Op.PtrAccessChain, ptr, base, off);
          this.arrays.set(p, { base: start, isVariable: false, length: len, elem: t.elem, sc: StorageClass.CrossWorkgroup });
        });
      } else if (t.kind === "scalar") {
        const v = param({ name, role: "value", index: i }, t.scalar === "bool" ? this.tInt(32) : this.tScalar(t.scalar));
        setup.push(() => this.inst(Op.Store, this.vars[p], t.scalar === "bool" ? this.op(Op.INotEqual, this.tBool(), v, this.i32(0)) : v));
      }
    });
    if (f.stateParam !== null) {
      const ptr = this.tPtr(StorageClass.CrossWorkgroup, this.tInt(32));
      const base = param({ name: "gpuc_state", role: "state", index: -1 }, ptr);
      const len = param({ name: "gpuc_state_len", role: "state-length", index: -1 }, this.tInt(32));
      this.arrays.set(f.stateParam, { base, isVariable: false, length: len, elem: "i32", sc: StorageClass.CrossWorkgroup });
    }
    const tables = m.globals.map((g, i) => {
      const elem = this.tElem(g.type.elem);
      if (relocation === "table") {
        const id = param({ name: g.name, role: "table", index: i }, this.tPtr(StorageClass.CrossWorkgroup, elem));
        this.tables[i] = { base: id, isVariable: false, length: this.i32(g.value.length), elem: g.type.elem, sc: StorageClass.CrossWorkgroup };
        return { symbol: `arg ${args.length - 1}`, index: i };
      }
      // bake: the data as an initialized UniformConstant variable (OpenCL C's program-scope __constant).
      const n = Math.max(1, g.value.length);
      const arrayType = this.tArray(elem, n);
      const items = Array.from({ length: n }, (_v, j) => this.constant(j < g.value.length ? g.value[j] : 0, g.type.elem as Scalar));
      const init = b.id();
      b.emit(b.globals, Op.ConstantComposite, [arrayType, init, ...items]);
      const v = b.id();
      b.emit(b.globals, Op.Variable, [this.tPtr(StorageClass.UniformConstant, arrayType), v, StorageClass.UniformConstant, init]);
      b.emit(b.decorations, Op.Decorate, [v, Decoration.Constant]);
      b.emit(b.names, Op.Name, [v, ...stringWords(`g_${C_NAME(g.name)}`)]);
      this.tables[i] = { base: v, isVariable: true, length: this.i32(g.value.length), elem: g.type.elem, sc: StorageClass.UniformConstant };
      return { symbol: `g_${C_NAME(g.name)}`, index: i };
    });
    let localBytes = 0, dynamic = 0;
    m.shared.forEach((sh, i) => {
      const elem = this.tElem(sh.type.elem);
      if (sh.size) {
        const ptr = param({ name: sh.name, role: "local", index: dynamic }, this.tPtr(StorageClass.Workgroup, elem));
        const len = param({ name: `${sh.name}_len`, role: "local-length", index: dynamic++ }, this.tInt(32));
        this.shared[i] = { base: ptr, isVariable: false, length: len, elem: sh.type.elem, sc: StorageClass.Workgroup };
        return;
      }
      const bytes = wordBytes(sh.type.elem, sh.type.size ?? 0);
      localBytes += bytes;
      const arrayType = this.tArray(elem, bytes / elemBytes(sh.type.elem));
      const v = b.id();
      b.emit(b.globals, Op.Variable, [this.tPtr(StorageClass.Workgroup, arrayType), v, StorageClass.Workgroup]);
      this.shared[i] = { base: v, isVariable: true, length: this.i32(sh.type.size ?? 0), elem: sh.type.elem, sc: StorageClass.Workgroup };
    });
    const id = b.id();
    const head = this.header(this.tVoid(), id, params, `gpuc_${C_NAME(f.name)}`);
    for (const s of setup) s();
    this.body(f);
    this.end(head);
    return { id, layout: { args, relocation, tables, localBytes } };
  }

  /** A runtime-library function: arrays as a pointer and a length. */
  private function(g: Function, index: number): void {
    const b = this.b;
    this.begin(g);
    const params: { type: number; id: number }[] = [];
    for (const p of g.params) {
      const t = g.locals[p].type;
      if (t.kind === "array") {
        const base = b.id(), len = b.id();
        params.push({ type: this.tPtr(StorageClass.CrossWorkgroup, this.tElem(t.elem)), id: base }, { type: this.tInt(32), id: len });
        this.arrays.set(p, { base, isVariable: false, length: len, elem: t.elem, sc: StorageClass.CrossWorkgroup });
      } else {
        // (Into its variable, first thing in the body.)
        params.push({ type: this.tScalar(scalarOf(t)), id: b.id() });
        this.inst(Op.Store, this.vars[p], params[params.length - 1].id);
      }
    }
    const ret = g.returnType.kind === "scalar" ? this.tScalar(g.returnType.scalar) : this.tVoid();
    const head = this.header(ret, this.fnIds.get(index)!, params, g.name);
    this.body(g);
    this.end(head);
  }

  private entryLabel = 0;

  /** A function's OpFunction and parameters (its type interned, its name recorded). */
  private header(ret: number, id: number, params: { type: number; id: number }[], name: string): number[] {
    const b = this.b, types = params.map((p) => p.type);
    const head: number[] = [];
    b.emit(head, Op.Function, [ret, id, 0, b.type(`fn:${ret}:${types.join(",")}`, Op.TypeFunction, [ret, ...types])]);
    for (const p of params) b.emit(head, Op.FunctionParameter, [p.type, p.id]);
    b.emit(b.names, Op.Name, [id, ...stringWords(name)]);
    return head;
  }

  private begin(f: Function): void {
    this.f = f;
    this.code = [];
    this.varDecls = [];
    this.arrays = new Map();
    this.beginBlocks();
    this.entryLabel = this.b.id();
    this.vars = f.locals.map((l, i) => {
      if (f.params.includes(i as never) && l.type.kind === "array") return 0;
      if (i === f.stateParam) return 0;
      // Every local starts as zero (false), as the IR's locals do (OpenCL C's declarations).
      if (l.type.kind === "scalar") return this.local(this.tScalar(l.type.scalar), this.constant(0, l.type.scalar));
      if (l.type.kind === "array" && l.type.size !== null) {
        const v = this.local(this.tArray(this.tElem(l.type.elem), Math.max(1, l.type.size)));
        this.arrays.set(i, { base: v, isVariable: true, length: this.i32(l.type.size), elem: l.type.elem, sc: StorageClass.Function });
        return v;
      }
      throw new InternalCompilerError(`SPIR-V local of type ${JSON.stringify(l.type)}`);
    });
  }

  private body(f: Function): void {
    this.block(f.body);
    if (!this.terminated) {
      if (f.returnType.kind === "scalar") this.inst(Op.Unreachable);
      else this.inst(Op.Return);
      this.terminated = true;
    }
  }

  private end(head: number[]): void {
    const fn: number[] = [...head];
    this.b.emit(fn, Op.Label, [this.entryLabel]);
    fn.push(...this.varDecls, ...this.code);
    this.b.emit(fn, Op.FunctionEnd, []);
    this.b.functions.push(...fn);
  }

  // ---- statements -------------------------------------------------------------------------------

  // (In a kernel with barriers a thread that returns or traps goes on through them, done: the
  // done guards are the IR's by now, ir/passes/done-guards.ts; such a kernel has no return or
  // trap left.)
  protected stmt(s: Stmt): void {
    switch (s.k) {
      case "set": this.inst(Op.Store, this.vars[s.local], this.expr(s.value)); return;
      case "store": {
        const a = this.arrayRef(s.array);
        const ptr = this.element(a, s.index);
        let v = this.expr(s.value);
        if (isNarrow(a.elem)) v = this.op(Op.UConvert, this.tElem(a.elem), v);
        this.inst(Op.Store, ptr, v);
        return;
      }
      case "if": case "loop": case "switch": case "break": case "continue": this.control(s); return;
      case "return":
        if (s.value !== null) this.inst(Op.ReturnValue, this.expr(s.value)); else this.inst(Op.Return);
        this.terminated = true;
        return;
      case "trap":
        this.inst(Op.Return);
        this.terminated = true;
        return;
      case "barrier":
        this.inst(Op.ControlBarrier, this.i32(Scope.Workgroup), this.i32(Scope.Workgroup), this.i32(Semantics.SeqCst | Semantics.WorkgroupMemory | Semantics.CrossWorkgroupMemory));
        return;
      case "fence":
        this.inst(Op.MemoryBarrier, this.i32(s.scope === "device" ? Scope.Device : Scope.Workgroup), this.i32(Semantics.SeqCst | Semantics.WorkgroupMemory | Semantics.CrossWorkgroupMemory));
        return;
      case "init": throw new InternalCompilerError("a zero fill reached the SPIR-V back end (ir/passes/zero-fill.ts writes it out)");
      case "atomic": return this.atomic(s);
      case "call": {
        const callee = this.m.functions[s.fn];
        const args: number[] = [];
        s.args.forEach((a, i) => {
          if (callee.locals[callee.params[i]].type.kind === "array") { const r = this.arrayRef(a); args.push(r.base, r.length); } else args.push(this.expr(a));
        });
        const ret = callee.returnType.kind === "scalar" ? this.tScalar(callee.returnType.scalar) : this.tVoid();
        const r = this.op(Op.FunctionCall, ret, this.fnIds.get(s.fn)!, ...args);
        if (s.result !== null) this.inst(Op.Store, this.vars[s.result], r);
        return;
      }
      case "subgroup": throw new InternalCompilerError("a subgroup operation reached the SPIR-V back end (ir/passes/one-lane.ts makes it a value)");
      case "check": throw new InternalCompilerError("a check reached the back end unlowered (legalize lowers them before emission)");
      default: assertNeverIR(s);
    }
  }

  private atomic(s: Extract<Stmt, { k: "atomic" }>): void {
    const a = this.arrayRef(s.array);
    const ptr = this.element(a, s.index);
    const v = s.args.map((x) => this.expr(x));
    const scope = this.i32(a.sc === StorageClass.Workgroup ? Scope.Workgroup : Scope.Device);
    const sem = this.i32(Semantics.SeqCst | (a.sc === StorageClass.Workgroup ? Semantics.WorkgroupMemory : Semantics.CrossWorkgroupMemory));
    const int = this.tInt(32);
    const set = (r: number) => { if (s.result !== null) this.inst(Op.Store, this.vars[s.result], r); };
    if (s.word) {
      const word = this.word(a, ptr);
      if (s.op === "load") set(this.op(Op.AtomicLoad, int, word, scope, sem));
      else if (s.op === "compareExchange") set(this.op(Op.AtomicCompareExchange, int, word, scope, sem, sem, v[1], v[0]));
      else throw new InternalCompilerError(`word atomic ${s.op}`);
      return;
    }
    // (Every atomic on a narrow element, its load too, is on its word by now: passes/cas-loops.ts.)
    if (isNarrow(a.elem) || (a.elem === "f32" && s.op === "add") || s.op === "inc" || s.op === "dec") throw new InternalCompilerError(`atomic ${s.op} on ${a.elem} elements reached the SPIR-V back end (passes/cas-loops.ts writes it out)`);
    const t = this.tElem(a.elem);
    const ops: Record<string, number> = {
      add: Op.AtomicIAdd, sub: Op.AtomicISub, and: Op.AtomicAnd, or: Op.AtomicOr, xor: Op.AtomicXor, exchange: Op.AtomicExchange,
      min: a.elem === "u32" ? Op.AtomicUMin : Op.AtomicSMin, max: a.elem === "u32" ? Op.AtomicUMax : Op.AtomicSMax,
    };
    switch (s.op) {
      case "load": set(this.op(Op.AtomicLoad, t, ptr, scope, sem)); return;
      case "store": this.inst(Op.AtomicStore, ptr, scope, sem, v[0]); set(v[0]); return;
      case "compareExchange": set(this.op(Op.AtomicCompareExchange, int, ptr, scope, sem, sem, v[1], v[0])); return;
      default: set(this.op(ops[s.op], t, ptr, scope, sem, v[0]));
    }
  }

  /** The 32-bit word that holds an element (a pointer to int): the element itself for 32-bit elements, else its address rounded down to 4 (narrow arrays are word-aligned and padded). */
  private word(a: ArrayRef, ptr: number): number {
    const wordPtr = this.tPtr(a.sc, this.tInt(32));
    if (a.elem === "i32" || a.elem === "u32") return ptr;
    if (!isNarrow(a.elem)) return this.op(Op.Bitcast, wordPtr, ptr);
    const i64 = this.tInt(64);
    return this.op(Op.ConvertUToPtr, wordPtr, this.op(Op.BitwiseAnd, i64, this.op(Op.ConvertPtrToU, i64, ptr), this.i64(~3n & 0xffffffffffffffffn)));
  }

  /** Where the element at `ptr` sits in its word: the offset of its lowest bit (0, 8, 16 or 24). */
  private bitOffset(ptr: number): number {
    const int = this.tInt(32);
    return this.op(Op.IMul, int, this.op(Op.BitwiseAnd, int, this.op(Op.UConvert, int, this.op(Op.ConvertPtrToU, this.tInt(64), ptr)), this.i32(3)), this.i32(8));
  }

  // ---- arrays -----------------------------------------------------------------------------------

  private arrayRef(h: ExprHandle): ArrayRef {
    const e = this.f.exprs[h];
    if (e.k === "local") {
      const r = this.arrays.get(e.local);
      if (!r) throw new InternalCompilerError(`SPIR-V array local ${e.local} has no reference`);
      return r;
    }
    if (e.k === "global") return this.tables[e.global];
    if (e.k === "shared") return this.shared[e.shared];
    throw new InternalCompilerError(`array expression of kind ${e.k}`);
  }

  /** A pointer to element `index` of an array. */
  private element(a: ArrayRef, index: ExprHandle): number {
    const ptr = this.tPtr(a.sc, this.tElem(a.elem));
    const i = this.expr(index);
    return a.isVariable ? this.op(Op.AccessChain, ptr, a.base, i) : this.op(Op.PtrAccessChain, ptr, a.base, i);
  }

  // ---- expressions ------------------------------------------------------------------------------

  private exprScalar(h: ExprHandle): Scalar { return scalarOf(this.f.exprs[h].type); }

  protected expr(h: ExprHandle): number {
    const e: Expr = this.f.exprs[h];
    switch (e.k) {
      case "const": return this.constant(e.value, scalarOf(e.type));
      case "local": return this.op(Op.Load, this.tScalar(scalarOf(e.type)), this.vars[e.local]);
      case "builtin": return this.builtin(e.name);
      case "location": return this.i32(this.locations.id(e.site));
      case "length": return this.arrayRef(e.array).length;
      case "load": {
        const a = this.arrayRef(e.array);
        const v = this.op(Op.Load, this.tElem(a.elem), this.element(a, e.index));
        if (!isNarrow(a.elem)) return v;
        return this.op(a.elem === "i8" || a.elem === "i16" ? Op.SConvert : Op.UConvert, this.tInt(32), v);
      }
      // (OpSelect and OpLogicalAnd/Or compute both operands: a side that reads memory is a branch
      // by now, ir/passes/lazy-reads.ts.)
      case "select": return this.op(Op.Select, this.tScalar(this.exprScalar(h)), this.expr(e.cond), this.expr(e.a), this.expr(e.b));
      case "convert": return this.convert(this.expr(e.arg), this.exprScalar(e.arg), this.exprScalar(h));
      case "op": return this.arith(e.op, e.args.map((a) => this.expr(a)), this.exprScalar(e.args[0]), this.exprScalar(h));
      case "global": case "shared": throw new InternalCompilerError("an array used as a value");
      case "bitOffset": return this.bitOffset(this.element(this.arrayRef(e.array), e.index));
      default: return assertNeverIR(e);
    }
  }

  private convert(x: number, from: Scalar, to: Scalar): number {
    const t = this.tScalar(to);
    if (from === to) return x;
    // Truthiness: NaN and ±0 are false (an ordered comparison is false for a NaN).
    if (to === "bool") return isFloatScalar(from) ? this.op(Op.FOrdNotEqual, t, x, this.constant(0, from)) : this.op(Op.INotEqual, t, x, this.i32(0));
    if (from === "bool") return this.op(Op.Select, t, x, this.constant(1, to), this.constant(0, to));
    const fromFloat = isFloatScalar(from), toFloat = isFloatScalar(to);
    if (!fromFloat && !toFloat) return x;   // i32 ↔ u32: the same bits, the same type
    if (fromFloat && toFloat) return this.op(Op.FConvert, t, x);
    if (toFloat) return this.op(from === "u32" ? Op.ConvertUToF : Op.ConvertSToF, t, x);
    return this.op(to === "u32" ? Op.ConvertFToU : Op.ConvertFToS, t, x);
  }

  /** One legalized op (legal.ts: shift counts are in range; division never sees 0 or -1 for i32). */
  private arith(op: OpName, a: number[], t: Scalar, rt: Scalar): number {
    return SPIRV_OPS[op](this, a, t, this.tScalar(rt));
  }
}

/** Each builtin: its Input variable and component, or (subgroups of one thread: constants by now, ir/passes/one-lane.ts) its value. */
const BUILTINS: Record<Builtin, [number, number] | number> = {
  "threadIdx.x": [BuiltIn.LocalInvocationId, 0], "threadIdx.y": [BuiltIn.LocalInvocationId, 1], "threadIdx.z": [BuiltIn.LocalInvocationId, 2],
  "blockIdx.x": [BuiltIn.WorkgroupId, 0], "blockIdx.y": [BuiltIn.WorkgroupId, 1], "blockIdx.z": [BuiltIn.WorkgroupId, 2],
  "blockDim.x": [BuiltIn.WorkgroupSize, 0], "blockDim.y": [BuiltIn.WorkgroupSize, 1], "blockDim.z": [BuiltIn.WorkgroupSize, 2],
  "gridDim.x": [BuiltIn.NumWorkgroups, 0], "gridDim.y": [BuiltIn.NumWorkgroups, 1], "gridDim.z": [BuiltIn.NumWorkgroups, 2],
  subgroupSize: 1, subgroupLaneId: 0,
};

/** The operand kind an instruction is chosen by: 0 float, 1 signed (and bool), 2 unsigned. */
const kind = (t: Scalar) => (isFloatScalar(t) ? 0 : t === "u32" ? 2 : 1);

/** How SPIR-V spells one op: the emitter, the operands' ids, their type and the result's type id. */
type Spelling = (g: SPIRVEmitter, a: number[], t: Scalar, T: number) => number;

/** The instruction by operand kind (float, signed, unsigned), on the operands. */
const by = (...ops: [number, number, number] | [number]): Spelling => (g, a, t, T) => g.op(ops.length === 1 ? ops[0] : ops[kind(t)], T, ...a);
/** A comparison: a bool. */
const cmp = (f: number, s: number, u: number): Spelling => (g, a, t) => g.op([f, s, u][kind(t)], g.tBool(), ...a);
/** The OpenCL.std instruction by operand kind, on the operands. */
const cl = (...fns: [number, number, number] | [number]): Spelling => (g, a, t, T) => g.ext(T, fns.length === 1 ? fns[0] : fns[kind(t)], ...a);
const lowered = (op: string): Spelling => () => { throw new InternalCompilerError(`${op} reached the SPIR-V back end (legalize lowers it)`); };

/** Every op's spelling (a new op fails to compile here until it has one). */
const SPIRV_OPS: Record<OpName, Spelling> = {
  add: by(Op.FAdd, Op.IAdd, Op.IAdd), sub: by(Op.FSub, Op.ISub, Op.ISub), mul: by(Op.FMul, Op.IMul, Op.IMul),
  div: by(Op.FDiv, Op.SDiv, Op.UDiv), neg: by(Op.FNegate, Op.SNegate, Op.SNegate),
  rem: (g, a, t, T) => (kind(t) === 0 ? g.ext(T, CL.fmod, ...a) : g.op(kind(t) === 2 ? Op.UMod : Op.SRem, T, ...a)),
  min: cl(CL.fmin, CL.s_min, CL.u_min), max: cl(CL.fmax, CL.s_max, CL.u_max), abs: cl(CL.fabs, CL.s_abs, CL.s_abs),
  // C's pow gives 1 for pow(1, NaN) and pow(-1, ±inf); JavaScript NaN.
  pow: (g, [x, y], t, T) => {
    const B = g.tBool();
    const one = g.op(Op.FOrdEqual, B, g.ext(T, CL.fabs, x), g.constant(1, t));
    const odd = g.op(Op.LogicalOr, B, g.op(Op.IsNan, B, y), g.op(Op.LogicalAnd, B, one, g.op(Op.IsInf, B, y)));
    return g.op(Op.Select, T, odd, g.constant(NaN, t), g.ext(T, CL.pow, x, y));
  },
  atan2: cl(CL.atan2), hypot: cl(CL.hypot), sign: lowered("sign"), round: lowered("round"),
  and: by(Op.BitwiseAnd), or: by(Op.BitwiseOr), xor: by(Op.BitwiseXor), bitnot: by(Op.Not),
  shl: by(Op.ShiftLeftLogical), shr: by(Op.ShiftRightArithmetic, Op.ShiftRightArithmetic, Op.ShiftRightLogical), clz32: cl(CL.clz),
  eq: (g, a, t) => g.op(t === "bool" ? Op.LogicalEqual : kind(t) === 0 ? Op.FOrdEqual : Op.IEqual, g.tBool(), ...a),
  // (Unordered: NaN !== NaN.)
  ne: (g, a, t) => g.op(t === "bool" ? Op.LogicalNotEqual : kind(t) === 0 ? Op.FUnordNotEqual : Op.INotEqual, g.tBool(), ...a),
  lt: cmp(Op.FOrdLessThan, Op.SLessThan, Op.ULessThan), le: cmp(Op.FOrdLessThanEqual, Op.SLessThanEqual, Op.ULessThanEqual),
  gt: cmp(Op.FOrdGreaterThan, Op.SGreaterThan, Op.UGreaterThan), ge: cmp(Op.FOrdGreaterThanEqual, Op.SGreaterThanEqual, Op.UGreaterThanEqual),
  land: by(Op.LogicalAnd), lor: by(Op.LogicalOr), not: by(Op.LogicalNot),
  floor: cl(CL.floor), ceil: cl(CL.ceil), trunc: cl(CL.trunc), sqrt: cl(CL.sqrt), exp: cl(CL.exp), log: cl(CL.log), log2: cl(CL.log2), log10: cl(CL.log10),
  sin: cl(CL.sin), cos: cl(CL.cos), tan: cl(CL.tan), asin: cl(CL.asin), acos: cl(CL.acos), atan: cl(CL.atan), sinh: cl(CL.sinh), cosh: cl(CL.cosh),
  tanh: cl(CL.tanh), asinh: cl(CL.asinh), acosh: cl(CL.acosh), atanh: cl(CL.atanh), cbrt: cl(CL.cbrt), expm1: cl(CL.expm1), log1p: cl(CL.log1p),
  isnan: (g, a) => g.op(Op.IsNan, g.tBool(), ...a), isfinite: (g, a) => g.op(Op.IsFinite, g.tBool(), ...a),
  f32bits: by(Op.Bitcast), f32frombits: by(Op.Bitcast),
  f64hi: (g, [x], _t, T) => { const i64 = g.tInt(64); return g.op(Op.UConvert, T, g.op(Op.ShiftRightLogical, i64, g.op(Op.Bitcast, i64, x), g.i64(32n))); },
  f64lo: (g, [x], _t, T) => g.op(Op.UConvert, T, g.op(Op.Bitcast, g.tInt(64), x)),
};
