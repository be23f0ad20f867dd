// The LLVM IR back end: validated IR (every helper inlined) → one module of textual LLVM IR, for
// an AMD GPU (`amdgcn-amd-amdhsa`, a code object per architecture) or SPIR (`spir64-unknown-
// unknown`, which OpenCL drivers that take SPIR build: PoCL here). One emitter; the triple
// decides only how a few things are spelled (Flavor below): address spaces, calling conventions,
// work-item builtins, barriers and fences.
//
// Lowering, in short (as the SPIR-V back end, which shares OpenCL's model):
//  - every IR local is an alloca (loads and stores; no phis outside the helpers below), so control
//    flow needs no SSA bookkeeping: if/loop/switch become blocks and branches;
//  - i32 and u32 are one `i32` type: the instruction chosen says which (sdiv/udiv, icmp slt/ult,
//    sitofp/uitofp); integer arithmetic wraps (no nsw/nuw); floats carry no fast-math flags, so
//    nothing is contracted or reassociated;
//  - the kernel's parameters are those of the OpenCL C target, in the same order and with the
//    same roles (layout.ts): arrays are global pointers (their offset applied once in the entry
//    block), shared arrays local (addrspace 3) globals or, sized at launch, a local pointer
//    parameter (SPIR) or a byte offset into the launch's dynamic LDS (AMD); private arrays allocas;
//  - barriers meet the block's threads with its memory (a thread that returned goes on through
//    them, its other statements guarded: passes/done-guards.ts); a fence orders the thread's
//    accesses for its scope;
//  - atomics are atomicrmw/cmpxchg/atomic load and store, seq_cst (workgroup scope on shared
//    arrays on AMD GPUs, agent scope on global ones); narrow, f32-add and inc/dec ones are the
//    compare-and-swap loops of passes/cas-loops.ts by now;
//  - subgroups are threads of one, as on the opencl and spirv targets (OpenCL 1.2 has none:
//    ir/passes/one-lane.ts);
//  - float `%` is the softmath overlay's exact fmod (LLVM's frem is exact on SPIR but expanded
//    inexactly for AMD GPUs), as are Math's functions beyond the intrinsics for sqrt (an AMD
//    GPU's f64 sqrt is helpers.ts's), floor/ceil/trunc, and f32 exp/log/sin/cos;
//  - the runtime library's functions stay functions, taking the state as a pointer and a length.

import type { Expr, ExprHandle, Function, Loc, Module, Stmt } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import { barrierUnderBranch } from "../../ir/module-info.js";
import type { OpName } from "../../ir/ops.js";
import { elemBytes, isFloatScalar, isNarrow, scalarOf, wordBytes, type Elem, type Scalar } from "../../ir/types.js";
import { LocationTable } from "../locations.js";
import { BlockEmitter } from "../blocks.js";
import { assertLegalized } from "../../ir/passes/legalize.js";
import { InternalCompilerError } from "../../errors.js";
import type { TargetFeatures } from "../target.js";
import type { LLVMLayout } from "./layout.js";
import type { KernelArg } from "../layout-kit.js";
import { LLVM_ARCHES } from "./info.js";
import { floatConst, sqrtF64Helper, type LLVMHelper } from "./helpers.js";

interface LLVMCode { code: string; entry: string; layout: LLVMLayout; locations: Loc[] }

export function emitLLVM(m: Module, features: TargetFeatures): LLVMCode {
  assertLegalized(m, "llvm");
  return new LLVMEmitter(m, features).emit();
}

/** Address spaces (both triples number global, local and constant memory alike). */
const GLOBAL = 1, LOCAL = 3;

/** What the triple decides. */
interface Flavor {
  triple: string;
  /** Empty: the tools' own for the triple. */
  datalayout: string;
  /** The address space of allocas. */
  privateSpace: number;
  kernelCC: string;
  /** The calling convention of other functions, with its trailing space ("" for the default). */
  funcCC: string;
}

const SPIR: Flavor = {
  triple: "spir64-unknown-unknown",
  datalayout: "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024",
  privateSpace: 0, kernelCC: "spir_kernel", funcCC: "spir_func ",
};
const AMDGCN: Flavor = { triple: "amdgcn-amd-amdhsa", datalayout: "", privateSpace: 5, kernelCC: "amdgpu_kernel", funcCC: "" };

/** An array as the code reaches it: a pointer to its first element, its length (an i32 value), element type and address space. */
interface ArrayRef { base: string; length: string; elem: Elem; space: number }

const C_NAME = (n: string) => n.replace(/[^A-Za-z0-9_]/g, "_");

/** A scalar's LLVM type. */
function ty(s: Scalar): string { return s === "bool" ? "i1" : s === "f32" ? "float" : s === "f64" ? "double" : "i32"; }
/**
 * A scalar's LLVM type in memory: bools as i8 (0 or 1), as clang keeps them — PoCL gives each
 * work-item its own copy of an i1 alloca live across a barrier wrongly (found by the fuzzer).
 */
function memTy(s: Scalar): string { return s === "bool" ? "i8" : ty(s); }
/** An element's LLVM type in memory (8- and 16-bit integers as such, bools as i8). */
function elemTy(e: Elem): string { return isNarrow(e) ? `i${elemBytes(e) * 8}` : memTy(e as Scalar); }
/** A pointer type in an address space. */
function ptr(space: number): string { return space === 0 ? "ptr" : `ptr addrspace(${space})`; }


class LLVMEmitter extends BlockEmitter<string, string> {
  private readonly flavor: Flavor;
  private readonly arch: string;
  private readonly amd: boolean;
  private locations = new LocationTable();
  /** Declarations and module-level definitions, each once. */
  private declares = new Set<string>();
  private moduleGlobals: string[] = [];
  /** helpers.ts's functions the module uses: their texts, and their names. */
  private helpers = new Set<string>();
  private helperNames = new Set<string>();
  private fnNames = new Map<number, string>();
  private functions: string[] = [];
  // Per function being emitted.
  private f!: Function;
  private code: string[] = [];
  private allocas: string[] = [];
  private vars: string[] = [];
  private arrays = new Map<number, ArrayRef>();
  private tmp = 0;
  private shared: ArrayRef[] = [];
  private tables: ArrayRef[] = [];
  /** The kernel's symbol (its local memory is named after it). */
  private entry = "";
  /** Numbered metadata nodes (SPIR's kernel argument lists), `!1` on: `!0` is the SPIR version. */
  private metadata: string[] = [];

  constructor(private m: Module, private features: TargetFeatures) {
    super();
    this.arch = features.arch ?? LLVM_ARCHES[0];
    if (!(LLVM_ARCHES as readonly string[]).includes(this.arch)) throw new InternalCompilerError(`LLVM IR for an architecture gpuc does not have: ${this.arch}`);
    this.amd = this.arch !== "spir64";
    this.flavor = this.amd ? AMDGCN : SPIR;
  }

  emit(): LLVMCode {
    const m = this.m;
    m.functions.forEach((g, i) => { if (g.kind === "runtime") this.fnNames.set(i, `@gpuc_rt${i}_${C_NAME(g.name)}`); });
    m.functions.forEach((g, i) => { if (g.kind === "runtime") this.function(g, i); });
    const kernel = m.functions[m.entry];
    const entry = `gpuc_${C_NAME(kernel.name)}`;
    this.entry = entry;
    const layout = this.kernel(kernel, entry);
    const fl = this.flavor;
    const head = [`; gpuc: kernel ${JSON.stringify(kernel.name).replace(/[\r\u2028\u2029]/g, " ")} for ${this.arch}`, ...(fl.datalayout ? [`target datalayout = "${fl.datalayout}"`] : []), `target triple = "${fl.triple}"`, ""];
    const tail: string[] = [];
    if (!this.amd) {
      // SPIR 1.2's module metadata (OpenCL C 1.2).
      tail.push("!opencl.spir.version = !{!0}", "!opencl.ocl.version = !{!0}", "!0 = !{i32 1, i32 2}", ...this.metadata);
    }
    const text = [...head, ...this.moduleGlobals, ...(this.moduleGlobals.length ? [""] : []), ...[...this.declares].sort(), "", ...this.helpers, ...this.functions, ...tail].join("\n");
    return { code: `${text}\n`, entry, layout, locations: this.locations.list };
  }

  // ---- values -----------------------------------------------------------------------------------

  private fresh(): string { return `%t${this.tmp++}`; }
  protected newLabel(): string { return `L${this.tmp++}`; }
  /** An instruction with a result: its value's name. */
  private op(text: string): string { const r = this.fresh(); this.code.push(`  ${r} = ${text}`); return r; }
  private inst(text: string): void { this.code.push(`  ${text}`); }
  protected writeLabel(name: string): void { this.code.push(`${name}:`); }
  protected writeBranch(to: string): void { this.inst(`br label %${to}`); }
  protected writeCondBranch(cond: string, then: string, els: string): void { this.inst(`br i1 ${cond}, label %${then}, label %${els}`); }
  protected writeSwitch(sel: string, otherwise: string, cases: [number, string][]): void {
    this.inst(`switch i32 ${sel}, label %${otherwise} [${cases.map(([v, l]) => `i32 ${v | 0}, label %${l}`).join(" ")}]`);
  }
  private declare(text: string): void { this.declares.add(text); }
  /** An alloca in the entry block (a local of the function). */
  private local(type: string): string {
    const r = this.fresh();
    this.allocas.push(`  ${r} = alloca ${type}, align ${type === "double" || type.includes("double") ? 8 : 4}${this.flavor.privateSpace ? `, addrspace(${this.flavor.privateSpace})` : ""}`);
    return r;
  }
  private get pp(): string { return ptr(this.flavor.privateSpace); }
  /** Store scalar `v` of type `s` into local memory at `p` (bools as i8). */
  private storeLocal(s: Scalar, v: string, p: string): void {
    this.inst(`store ${memTy(s)} ${s === "bool" ? (v === "true" ? "1" : v === "false" ? "0" : this.op(`zext i1 ${v} to i8`)) : v}, ${this.pp} ${p}`);
  }
  /** Load a scalar of type `s` from local memory at `p`. */
  private loadLocal(s: Scalar, p: string): string {
    const v = this.op(`load ${memTy(s)}, ${this.pp} ${p}`);
    return s === "bool" ? this.op(`trunc i8 ${v} to i1`) : v;
  }

  private constant(v: number | boolean, s: Scalar): string {
    if (s === "bool" || typeof v === "boolean") return v ? "true" : "false";
    if (isFloatScalar(s)) return floatConst(s === "f32" ? Math.fround(v) : v);
    return String(v | 0);
  }

  /** An intrinsic call (declared once). */
  private intrinsic(ret: string, name: string, args: [string, string][]): string {
    this.declare(`declare ${ret} @${name}(${args.map((a) => a[0]).join(", ")})`);
    return this.op(`call ${ret} @${name}(${args.map(([t, v]) => `${t} ${v}`).join(", ")})`);
  }
  private suffix(s: Scalar): string { return s === "f32" ? "f32" : s === "f64" ? "f64" : "i32"; }

  // ---- functions --------------------------------------------------------------------------------

  /** The kernel: its parameters (layout.ts's order and roles), its entry block, its body. */
  private kernel(f: Function, entry: string): LLVMLayout {
    const m = this.m;
    this.begin(f);
    const params: string[] = [];
    const args: KernelArg[] = [];
    const param = (a: KernelArg, type: string): string => { const v = `%p${params.length}`; params.push(`${type} ${v}`); args.push(a); return v; };
    const setup: (() => void)[] = [];
    f.params.forEach((p, i) => {
      const t = f.locals[p].type, name = f.paramNames[i] ?? f.locals[p].name;
      if (t.kind === "array") {
        const base = param({ name, role: "buffer", index: i }, ptr(GLOBAL));
        const off = param({ name, role: "offset", index: i }, "i32");
        const len = param({ name, role: "length", index: i }, "i32");
        setup.push(() => {
          const start = this.op(`getelementptr ${elemTy(t.elem)}, ${ptr(GLOBAL)} ${base}, i32 ${off}`);
          this.arrays.set(p, { base: start, length: len, elem: t.elem, space: GLOBAL });
        });
      } else if (t.kind === "scalar") {
        const v = param({ name, role: "value", index: i }, t.scalar === "bool" ? "i32" : ty(t.scalar));
        setup.push(() => this.storeLocal(t.scalar, t.scalar === "bool" ? this.op(`icmp ne i32 ${v}, 0`) : v, this.vars[p]));
      }
    });
    if (f.stateParam !== null) {
      const base = param({ name: "gpuc_state", role: "state", index: -1 }, ptr(GLOBAL));
      const len = param({ name: "gpuc_state_len", role: "state-length", index: -1 }, "i32");
      this.arrays.set(f.stateParam, { base, length: len, elem: "i32", space: GLOBAL });
    }
    const tables = m.globals.map((g, i) => {
      const v = param({ name: g.name, role: "table", index: i }, ptr(GLOBAL));
      this.tables[i] = { base: v, length: String(g.value.length), elem: g.type.elem, space: GLOBAL };
      return { symbol: `arg ${args.length - 1}`, index: i };
    });
    let localBytes = 0, dynamic = 0;
    m.shared.forEach((sh, i) => {
      const elem = elemTy(sh.type.elem);
      if (sh.size) {
        const at = param({ name: sh.name, role: "local", index: dynamic }, this.amd ? "i32" : ptr(LOCAL));
        const len = param({ name: `${sh.name}_len`, role: "local-length", index: dynamic++ }, "i32");
        if (!this.amd) { this.shared[i] = { base: at, length: len, elem: sh.type.elem, space: LOCAL }; return; }
        // AMD GPUs: one dynamic LDS block per launch, each such array at its byte offset in it.
        this.moduleGlobals.push("@gpuc_dynamic_lds = external addrspace(3) global [0 x i8], align 16");
        setup.push(() => { this.shared[i] = { base: this.op(`getelementptr i8, ${ptr(LOCAL)} @gpuc_dynamic_lds, i32 ${at}`), length: len, elem: sh.type.elem, space: LOCAL }; });
        return;
      }
      const bytes = wordBytes(sh.type.elem, sh.type.size ?? 0);
      localBytes += bytes;
      // Named `@<kernel>.<name>`: PoCL takes only such a local global for memory of each
      // work-group (any other is one block shared by all of them).
      const name = `@${this.entry}.shared${i}_${C_NAME(sh.name)}`;
      this.moduleGlobals.push(`${name} = internal addrspace(3) global [${bytes / elemBytes(sh.type.elem)} x ${elem}] undef, align ${elemBytes(sh.type.elem) === 8 ? 8 : 4}`);
      this.shared[i] = { base: name, length: String(sh.type.size ?? 0), elem: sh.type.elem, space: LOCAL };
    });
    this.moduleGlobals = [...new Set(this.moduleGlobals)];
    for (const s of setup) s();
    this.body(f);
    const attrs: string[] = [];
    const meta: string[] = [];
    const conditionalBarriers = barrierUnderBranch(f.body);
    // SPIR: PoCL 3.1's optimizer miscompiles some kernels with a barrier inside an `if` (found by
    // the fuzzer; OpenCL C builds them with -cl-opt-disable, which is what makes clang mark them
    // optnone): such a kernel is marked so here, and PoCL leaves it as it is.
    if (!this.amd && conditionalBarriers) attrs.push("noinline", "optnone");
    const req = this.features.requiredThreads, max = this.features.maxThreads;
    if (this.amd) {
      const n = req ? req[0] * req[1] * req[2] : max ? max[0] * max[1] * max[2] : 1024;
      attrs.push(`"amdgpu-flat-work-group-size"="${req ? n : 1},${n}"`);
    } else {
      // SPIR's kernel argument metadata, each list one entry per parameter (PoCL reads the
      // address spaces, access qualifiers, types and type qualifiers: without them it aborts).
      const node = (items: string[]) => { this.metadata.push(`!${this.metadata.length + 1} = !{${items.join(", ")}}`); return `!${this.metadata.length}`; };
      const roles = args.map((a) => a.role);
      const types = params.map((p, k) => this.argType(args[k], f, p));
      meta.push(`!kernel_arg_addr_space ${node(roles.map((r) => `i32 ${r === "buffer" || r === "state" || r === "table" ? GLOBAL : r === "local" ? LOCAL : 0}`))}`);
      meta.push(`!kernel_arg_access_qual ${node(roles.map(() => `!"none"`))}`);
      const typeNode = node(types.map((t) => `!"${t}"`));
      meta.push(`!kernel_arg_type ${typeNode}`, `!kernel_arg_base_type ${typeNode}`);
      meta.push(`!kernel_arg_type_qual ${node(roles.map(() => `!""`))}`);
      if (req) meta.push(`!reqd_work_group_size ${node([`i32 ${req[0]}`, `i32 ${req[1]}`, `i32 ${req[2]}`])}`);
    }
    this.end(`define ${this.flavor.kernelCC} void @${entry}(${params.join(", ")})${attrs.length ? " #0" : ""}${meta.length ? ` ${meta.join(" ")}` : ""}`);
    if (attrs.length) this.functions.push(`attributes #0 = { ${attrs.join(" ")} }`);
    return { arch: this.arch, args, relocation: "table", tables, localBytes, conditionalBarriers };
  }

  /** A kernel argument's OpenCL C type (SPIR's kernel_arg_type): what the opencl target declares it as. */
  private argType(a: KernelArg, f: Function, _param: string): string {
    const C: Record<string, string> = { f32: "float", f64: "double", i32: "int", u32: "uint", bool: "int", i8: "char", u8: "uchar", u8c: "uchar", i16: "short", u16: "ushort" };
    switch (a.role) {
      case "value": return C[scalarOf(f.locals[f.params[a.index]].type)];
      case "buffer": return `${C[(f.locals[f.params[a.index]].type as { elem: Elem }).elem]}*`;
      case "state": return "int*";
      case "table": return `${C[this.m.globals[a.index].type.elem]}*`;
      case "local": return `${C[this.m.shared.filter((s) => s.size)[a.index].type.elem]}*`;
      case "offset": return "uint";
      default: return "int";
    }
  }

  /** A runtime-library function: arrays as a pointer and a length. */
  private function(g: Function, index: number): void {
    this.begin(g);
    const params: string[] = [];
    let k = 0;
    const stores: (() => void)[] = [];
    for (const p of g.params) {
      const t = g.locals[p].type;
      if (t.kind === "array") {
        const base = `%p${k++}`, len = `%p${k++}`;
        params.push(`${ptr(GLOBAL)} ${base}`, `i32 ${len}`);
        this.arrays.set(p, { base, length: len, elem: t.elem, space: GLOBAL });
      } else {
        const s = scalarOf(t), v = `%p${k++}`;
        params.push(`${ty(s)} ${v}`);
        stores.push(() => this.storeLocal(s, v, this.vars[p]));
      }
    }
    for (const s of stores) s();
    const ret = g.returnType.kind === "scalar" ? ty(g.returnType.scalar) : "void";
    this.body(g);
    this.end(`define internal ${this.flavor.funcCC}${ret} ${this.fnNames.get(index)!}(${params.join(", ")})`);
  }

  private begin(f: Function): void {
    this.f = f;
    this.code = [];
    this.allocas = [];
    this.arrays = new Map();
    this.beginBlocks();
    this.tmp = 0;
    this.pointerSpace = new Map();   // (value names restart with each function)
    this.vars = f.locals.map((l, i) => {
      if (f.params.includes(i as never) && l.type.kind === "array") return "";
      if (i === f.stateParam) return "";
      if (l.type.kind === "scalar") {
        // Every local starts as zero (false), as the IR's locals do (WGSL's, OpenCL C's declarations).
        const v = this.local(memTy(l.type.scalar));
        this.allocas.push(`  store ${memTy(l.type.scalar)} ${isFloatScalar(l.type.scalar) ? "0.0" : "0"}, ${this.pp} ${v}`);
        return v;
      }
      if (l.type.kind === "array" && l.type.size !== null) {
        const v = this.local(`[${Math.max(1, l.type.size)} x ${elemTy(l.type.elem)}]`);
        this.arrays.set(i, { base: v, length: String(l.type.size), elem: l.type.elem, space: this.flavor.privateSpace });
        return v;
      }
      throw new InternalCompilerError(`LLVM IR local of type ${JSON.stringify(l.type)}`);
    });
  }

  private body(f: Function): void {
    this.block(f.body);
    if (!this.terminated) {
      this.inst(f.returnType.kind === "scalar" ? "unreachable" : "ret void");
      this.terminated = true;
    }
  }

  private end(head: string): void {
    this.functions.push(`${head} {`, "entry:", ...this.allocas, ...this.code, "}", "");
  }

  // ---- statements -------------------------------------------------------------------------------

  // (In a kernel with barriers a thread that returns or traps goes on through them, done: the
  // done guards are the IR's by now, ir/passes/done-guards.ts; such a kernel has no return or
  // trap left.)
  protected stmt(s: Stmt): void {
    const f = this.f;
    switch (s.k) {
      case "set": this.storeLocal(this.localScalar(s.local), this.expr(s.value), this.vars[s.local]); return;
      case "store": {
        const a = this.arrayRef(s.array);
        const p = this.element(a, s.index);
        let v = this.expr(s.value);
        if (isNarrow(a.elem)) v = this.op(`trunc i32 ${v} to ${elemTy(a.elem)}`);
        else if (a.elem === "bool") v = this.op(`zext i1 ${v} to i8`);
        this.inst(`store ${elemTy(a.elem)} ${v}, ${ptr(a.space)} ${p}, align ${elemBytes(a.elem)}`);
        return;
      }
      case "if": case "loop": case "switch": case "break": case "continue": this.control(s); return;
      case "return": {
        if (s.value !== null) {
          const v = this.expr(s.value);
          this.inst(`ret ${ty(scalarOf(f.returnType))} ${v}`);
        } else this.inst("ret void");
        this.terminated = true;
        return;
      }
      case "trap":
        // (The runtime library recorded the exception; the thread ends.)
        this.inst(f.returnType.kind === "scalar" ? "unreachable" : "ret void");
        this.terminated = true;
        return;
      case "barrier": this.barrier(); return;
      case "fence": this.fence(s.scope); return;
      case "init": throw new InternalCompilerError("a zero fill reached the LLVM back end (ir/passes/zero-fill.ts writes it out)");
      case "atomic": return this.atomic(s);
      case "call": {
        const callee = this.m.functions[s.fn];
        const args: string[] = [];
        s.args.forEach((a, i) => {
          const pt = callee.locals[callee.params[i]].type;
          if (pt.kind === "array") {
            const r = this.arrayRef(a);
            if (r.space !== GLOBAL) throw new InternalCompilerError("a runtime function given an array that is not in global memory");
            args.push(`${ptr(GLOBAL)} ${r.base}`, `i32 ${r.length}`);
          } else args.push(`${ty(scalarOf(pt))} ${this.expr(a)}`);
        });
        const ret = callee.returnType.kind === "scalar" ? ty(callee.returnType.scalar) : "void";
        const call = `call ${this.flavor.funcCC}${ret} ${this.fnNames.get(s.fn)!}(${args.join(", ")})`;
        if (ret === "void") { this.inst(call); return; }
        const r = this.op(call);
        if (s.result !== null) this.storeLocal(scalarOf(callee.returnType), r, this.vars[s.result]);
        return;
      }
      case "subgroup": throw new InternalCompilerError("a subgroup operation reached the LLVM back end (ir/passes/one-lane.ts makes it a value)");
      case "check": throw new InternalCompilerError("a check reached the back end unlowered (legalize lowers them before emission)");
      default: assertNeverIR(s);
    }
  }

  private localScalar(l: number): Scalar { return scalarOf(this.f.locals[l].type); }

  /** Every thread of the block waits here, its global and local memory accesses seen by the others after it. */
  private barrier(): void {
    if (this.amd) {
      this.declare("declare void @llvm.amdgcn.s.barrier()");
      this.inst(`fence syncscope("workgroup") release`);
      this.inst("call void @llvm.amdgcn.s.barrier()");
      this.inst(`fence syncscope("workgroup") acquire`);
      return;
    }
    // CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE. Convergent, as OpenCL declares it: no
    // transformation may make it depend on more values than it does here (an optimizer that
    // sank it into a branch, or duplicated it, would break the block's meeting).
    this.declare("declare spir_func void @_Z7barrierj(i32) convergent");
    this.inst("call spir_func void @_Z7barrierj(i32 3) convergent");
  }

  private fence(scope: "device" | "block"): void {
    // (SPIR: LLVM's fence, which its drivers take; OpenCL's mem_fence is no symbol of PoCL's library.)
    this.inst(`fence syncscope("${scope === "device" ? (this.amd ? "agent" : "device") : "workgroup"}") seq_cst`);
  }

  /** The sync scope of an atomic on an array (AMD GPUs: the block's for local memory, the device's for global). */
  private scope(a: ArrayRef): string {
    if (!this.amd) return "";
    return a.space === LOCAL ? ` syncscope("workgroup")` : ` syncscope("agent")`;
  }

  private atomic(s: Extract<Stmt, { k: "atomic" }>): void {
    const a = this.arrayRef(s.array);
    const p = this.element(a, s.index);
    const v = s.args.map((x) => this.expr(x));
    const P = ptr(a.space), sc = this.scope(a);
    const set = (r: string, t: string) => { if (s.result !== null) this.inst(`store ${t} ${r}, ${this.pp} ${this.vars[s.result]}`); };
    const cas = (word: string, expected: string, replacement: string) =>
      this.op(`extractvalue { i32, i1 } ${this.op(`cmpxchg ${P} ${word}, i32 ${expected}, i32 ${replacement}${sc} seq_cst seq_cst, align 4`)}, 0`);
    if (s.word) {
      const word = this.word(a, p);
      if (s.op === "load") set(this.op(`load atomic i32, ${P} ${word}${sc} seq_cst, align 4`), "i32");
      else if (s.op === "compareExchange") set(cas(word, v[0], v[1]), "i32");
      else throw new InternalCompilerError(`word atomic ${s.op}`);
      return;
    }
    // (Every atomic on a narrow element, its load too, is on its word by now: passes/cas-loops.ts.)
    if (isNarrow(a.elem) || (a.elem === "f32" && s.op === "add") || s.op === "inc" || s.op === "dec") throw new InternalCompilerError(`atomic ${s.op} on ${a.elem} elements reached the LLVM back end (passes/cas-loops.ts writes it out)`);
    const t = elemTy(a.elem), align = elemBytes(a.elem);
    const rmw: Record<string, string> = {
      add: "add", sub: "sub", and: "and", or: "or", xor: "xor", exchange: "xchg",
      min: a.elem === "u32" ? "umin" : "min", max: a.elem === "u32" ? "umax" : "max",
    };
    switch (s.op) {
      case "load": set(this.op(`load atomic ${t}, ${P} ${p}${sc} seq_cst, align ${align}`), t); return;
      case "store": this.inst(`store atomic ${t} ${v[0]}, ${P} ${p}${sc} seq_cst, align ${align}`); set(v[0], t); return;
      case "compareExchange": {
        if (t !== "i32") throw new InternalCompilerError(`compareExchange on ${a.elem} elements reached the LLVM back end`);
        set(cas(p, v[0], v[1]), t);
        return;
      }
      default: set(this.op(`atomicrmw ${rmw[s.op]} ${P} ${p}, ${t} ${v[0]}${sc} seq_cst, align ${align}`), t);
    }
  }

  /** The 32-bit word that holds an element: the element itself for 32-bit elements, else its address rounded down to 4 (narrow arrays are word-aligned and padded). */
  private word(a: ArrayRef, p: string): string {
    if (!isNarrow(a.elem)) return p;
    const P = ptr(a.space);
    return this.op(`inttoptr i64 ${this.op(`and i64 ${this.op(`ptrtoint ${P} ${p} to i64`)}, -4`)} to ${P}`);
  }

  /** Where the element at `p` sits in its word: the offset of its lowest bit (0, 8, 16 or 24). */
  private bitOffset(p: string): string {
    return this.op(`mul i32 ${this.op(`and i32 ${this.op(`trunc i64 ${this.op(`ptrtoint ${this.ptrTypeOf(p)} ${p} to i64`)} to i32`)}, 3`)}, 8`);
  }

  /** The pointer types of values made by element(): remembered as they are made. */
  private pointerSpace = new Map<string, number>();
  private ptrTypeOf(p: string): string { return ptr(this.pointerSpace.get(p) ?? GLOBAL); }

  // ---- arrays -----------------------------------------------------------------------------------

  private arrayRef(h: ExprHandle): ArrayRef {
    const e = this.f.exprs[h];
    if (e.k === "local") {
      const r = this.arrays.get(e.local);
      if (!r) throw new InternalCompilerError(`LLVM IR array local ${e.local} has no reference`);
      return r;
    }
    if (e.k === "global") return this.tables[e.global];
    if (e.k === "shared") return this.shared[e.shared];
    throw new InternalCompilerError(`array expression of kind ${e.k}`);
  }

  /** A pointer to element `index` of an array. */
  private element(a: ArrayRef, index: ExprHandle): string {
    const i = this.expr(index);
    const p = this.op(`getelementptr ${elemTy(a.elem)}, ${ptr(a.space)} ${a.base}, i32 ${i}`);
    this.pointerSpace.set(p, a.space);
    return p;
  }

  // ---- expressions ------------------------------------------------------------------------------

  private exprScalar(h: ExprHandle): Scalar { return scalarOf(this.f.exprs[h].type); }

  protected expr(h: ExprHandle): string {
    const e: Expr = this.f.exprs[h];
    switch (e.k) {
      case "const": return this.constant(e.value, this.exprScalar(h));
      case "local": return this.loadLocal(this.exprScalar(h), this.vars[e.local]);
      case "builtin": return this.builtin(e.name);
      case "location": return String(this.locations.id(e.site));
      case "length": return this.arrayRef(e.array).length;
      case "load": {
        const a = this.arrayRef(e.array);
        const v = this.op(`load ${elemTy(a.elem)}, ${ptr(a.space)} ${this.element(a, e.index)}, align ${elemBytes(a.elem)}`);
        if (a.elem === "bool") return this.op(`trunc i8 ${v} to i1`);
        if (!isNarrow(a.elem)) return v;
        return this.op(`${a.elem === "i8" || a.elem === "i16" ? "sext" : "zext"} ${elemTy(a.elem)} ${v} to i32`);
      }
      // (select and `and i1`/`or i1` compute both operands: a side that reads memory is a branch
      // by now, ir/passes/lazy-reads.ts.)
      case "select": {
        const t = ty(this.exprScalar(h));
        const c = this.expr(e.cond), x = this.expr(e.a), y = this.expr(e.b);
        return this.op(`select i1 ${c}, ${t} ${x}, ${t} ${y}`);
      }
      case "convert": return this.convert(this.expr(e.arg), this.exprScalar(e.arg), this.exprScalar(h));
      case "op": return this.arith(e.op, e.args.map((a) => this.expr(a)), this.exprScalar(e.args[0]), this.exprScalar(h));
      case "global": case "shared": throw new InternalCompilerError("an array used as a value");
      case "bitOffset": return this.bitOffset(this.element(this.arrayRef(e.array), e.index));
      default: return assertNeverIR(e);
    }
  }

  /** A work-item builtin, as an i32. */
  private builtin(name: Expr & { k: "builtin" } extends { name: infer N } ? N : never): string {
    if (name === "subgroupSize" || name === "subgroupLaneId") throw new InternalCompilerError(`${name} reached the LLVM back end (ir/passes/one-lane.ts makes it a constant)`);
    const [group, axis] = name.split(".") as ["threadIdx" | "blockIdx" | "blockDim" | "gridDim", "x" | "y" | "z"];
    const dim = "xyz".indexOf(axis);
    if (!this.amd) {
      const fn = { threadIdx: "_Z12get_local_idj", blockIdx: "_Z12get_group_idj", blockDim: "_Z14get_local_sizej", gridDim: "_Z14get_num_groupsj" }[group];
      this.declare(`declare spir_func i64 @${fn}(i32)`);
      return this.op(`trunc i64 ${this.op(`call spir_func i64 @${fn}(i32 ${dim})`)} to i32`);
    }
    if (group === "threadIdx") return this.intrinsic("i32", `llvm.amdgcn.workitem.id.${axis}`, []);
    if (group === "blockIdx") return this.intrinsic("i32", `llvm.amdgcn.workgroup.id.${axis}`, []);
    // The HSA dispatch packet: workgroup_size_{x,y,z} (u16) at bytes 4, 6, 8; grid_size_{x,y,z}
    // (u32, in work-items) at 12, 16, 20.
    const packet = this.intrinsic("ptr addrspace(4)", "llvm.amdgcn.dispatch.ptr", []);
    const size = this.op(`zext i16 ${this.op(`load i16, ptr addrspace(4) ${this.op(`getelementptr i8, ptr addrspace(4) ${packet}, i64 ${4 + 2 * dim}`)}, align 2`)} to i32`);
    if (group === "blockDim") return size;
    const grid = this.op(`load i32, ptr addrspace(4) ${this.op(`getelementptr i8, ptr addrspace(4) ${packet}, i64 ${12 + 4 * dim}`)}, align 4`);
    return this.op(`udiv i32 ${grid}, ${size}`);
  }

  private convert(x: string, from: Scalar, to: Scalar): string {
    if (from === to) return x;
    const T = ty(to);
    // Truthiness: NaN and ±0 are false (an ordered comparison is false for a NaN).
    if (to === "bool") return isFloatScalar(from) ? this.op(`fcmp one ${ty(from)} ${x}, 0.0`) : this.op(`icmp ne i32 ${x}, 0`);
    if (from === "bool") return this.op(`select i1 ${x}, ${T} ${this.constant(1, to)}, ${T} ${this.constant(0, to)}`);
    if (!isFloatScalar(from) && !isFloatScalar(to)) return x;   // i32 ↔ u32: the same bits, the same type
    if (isFloatScalar(from) && isFloatScalar(to)) return this.op(`${to === "f64" ? "fpext" : "fptrunc"} ${ty(from)} ${x} to ${T}`);
    if (isFloatScalar(to)) return this.op(`${from === "u32" ? "uitofp" : "sitofp"} i32 ${x} to ${T}`);
    // (legalize wrapped the value into the conversion's range: wrap-to-int32.)
    return this.op(`${to === "u32" ? "fptoui" : "fptosi"} ${ty(from)} ${x} to i32`);
  }

  /** One legalized op (legal.ts: shift counts are in range; division never sees 0 or -1 for i32). */
  private arith(op: OpName, a: string[], t: Scalar, rt: Scalar): string {
    const [x, y] = a;
    const T = ty(t), R = ty(rt);
    const float = isFloatScalar(t), u = t === "u32";
    const f1 = (name: string) => this.intrinsic(T, `llvm.${name}.${this.suffix(t)}`, [[T, x]]);
    const f2 = (name: string) => this.intrinsic(T, `llvm.${name}.${this.suffix(t)}`, [[T, x], [T, y]]);
    switch (op) {
      case "add": return this.op(`${float ? "fadd" : "add"} ${T} ${x}, ${y}`);
      case "sub": return this.op(`${float ? "fsub" : "sub"} ${T} ${x}, ${y}`);
      case "mul": return this.op(`${float ? "fmul" : "mul"} ${T} ${x}, ${y}`);
      case "div": return this.op(`${float ? "fdiv" : u ? "udiv" : "sdiv"} ${T} ${x}, ${y}`);
      case "rem": return this.op(`${u ? "urem" : "srem"} ${T} ${x}, ${y}`);   // (float %: the overlay's fmod, legal.ts)
      case "min": return float ? f2("minnum") : this.intrinsic(T, `llvm.${u ? "umin" : "smin"}.i32`, [[T, x], [T, y]]);
      case "max": return float ? f2("maxnum") : this.intrinsic(T, `llvm.${u ? "umax" : "smax"}.i32`, [[T, x], [T, y]]);
      case "neg": return float ? this.op(`fneg ${T} ${x}`) : this.op(`sub i32 0, ${x}`);
      case "abs": return float ? f1("fabs") : this.intrinsic("i32", "llvm.abs.i32", [["i32", x], ["i1", "false"]]);
      case "sign": case "round": throw new InternalCompilerError(`${op} reached the LLVM back end (legalize lowers it)`);
      case "and": return this.op(`and ${T} ${x}, ${y}`);
      case "or": return this.op(`or ${T} ${x}, ${y}`);
      case "xor": return this.op(`xor ${T} ${x}, ${y}`);
      case "shl": return this.op(`shl i32 ${x}, ${y}`);
      case "shr": return this.op(`${u ? "lshr" : "ashr"} i32 ${x}, ${y}`);
      case "bitnot": return this.op(`xor i32 ${x}, -1`);
      case "clz32": return this.intrinsic("i32", "llvm.ctlz.i32", [["i32", x], ["i1", "false"]]);
      case "eq": return this.op(float ? `fcmp oeq ${T} ${x}, ${y}` : `icmp eq ${T} ${x}, ${y}`);
      // (`ne` is unordered: NaN !== NaN.)
      case "ne": return this.op(float ? `fcmp une ${T} ${x}, ${y}` : `icmp ne ${T} ${x}, ${y}`);
      case "lt": case "le": case "gt": case "ge": {
        if (float) return this.op(`fcmp o${op} ${T} ${x}, ${y}`);
        if (t === "bool") {
          const xi = this.op(`zext i1 ${x} to i32`), yi = this.op(`zext i1 ${y} to i32`);
          return this.op(`icmp s${op} i32 ${xi}, ${yi}`);
        }
        return this.op(`icmp ${u ? "u" : "s"}${op} i32 ${x}, ${y}`);
      }
      case "land": return this.op(`and i1 ${x}, ${y}`);
      case "lor": return this.op(`or i1 ${x}, ${y}`);
      case "not": return this.op(`xor i1 ${x}, true`);
      case "floor": case "ceil": case "trunc": return f1(op);
      // SPIR: the driver's sqrt, correctly rounded (OpenCL's rule for it, and PoCL's). An AMD GPU:
      // LLVM 16 spells llvm.sqrt as v_sqrt_f32/f64, which are not: gpuc's own (sqrtF64). f32 goes
      // through f64 — one rounding of the exact root to 53 bits, then one to 24, is the exact
      // root rounded to 24 (53 ≥ 2·24 + 2, so the double rounding is innocuous for sqrt).
      case "sqrt": {
        if (!this.amd) return f1(op);
        const wide = t === "f64" ? x : this.op(`fpext float ${x} to double`);
        const root = this.op(`call ${this.flavor.funcCC}double @${this.helper(sqrtF64Helper(this.flavor.funcCC))}(double ${wide})`);
        return t === "f64" ? root : this.op(`fptrunc double ${root} to float`);
      }
      case "exp": case "log": case "log2": case "log10": case "sin": case "cos":
        if (t !== "f32") throw new InternalCompilerError(`${op} on ${t} reached the LLVM back end (the softmath overlay implements it)`);
        return f1(op);
      case "tan": {
        if (t !== "f32") throw new InternalCompilerError(`tan on ${t} reached the LLVM back end (the softmath overlay implements it)`);
        return this.op(`fdiv float ${f1("sin")}, ${f1("cos")}`);
      }
      case "isnan": return this.op(`fcmp uno ${T} ${x}, 0.0`);
      case "isfinite": return this.op(`fcmp one ${T} ${f1("fabs")}, ${floatConst(Infinity)}`);
      case "f32bits": case "f32frombits": return this.op(`bitcast ${T} ${x} to ${R}`);
      case "f64hi": case "f64lo": {
        const bits = this.op(`bitcast double ${x} to i64`);
        return this.op(`trunc i64 ${op === "f64hi" ? this.op(`lshr i64 ${bits}, 32`) : bits} to i32`);
      }
      case "pow": case "atan2": case "hypot": case "cbrt": case "expm1": case "log1p": case "asin": case "acos": case "atan":
      case "sinh": case "cosh": case "tanh": case "asinh": case "acosh": case "atanh":
        // The overlay implements these in the kernel language (targets/softmath).
        throw new InternalCompilerError(`${op} on ${t} reached the LLVM back end`);
      default: return assertNeverOp(op);
    }
  }

  /** A helper of helpers.ts, added to the module once (with its declarations): its name. */
  private helper(h: LLVMHelper): string {
    if (!this.helperNames.has(h.name)) {
      this.helperNames.add(h.name);
      for (const d of h.declares) this.declare(d);
      this.helpers.add(h.text);
    }
    return h.name;
  }
}

function assertNeverOp(op: never): never {
  throw new InternalCompilerError(`op ${String(op)} has no LLVM IR spelling`);
}
