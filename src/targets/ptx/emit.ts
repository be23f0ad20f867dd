// The PTX back end: validated IR → one PTX module (NVIDIA's virtual ISA, assembled by ptxas or
// the CUDA driver's JIT).
//
// Lowering, in short:
//  - every IR local is one virtual register of its type's class (%p pred, %r b32, %f f32,
//    %fd f64, %rd b64); expressions are trees, so each gets fresh temporaries and ptxas
//    allocates the real registers;
//  - structured control flow becomes labels and predicated branches (`@!%p bra`);
//  - an array is a base address and a length: kernel array parameters are a .u64 pointer and a
//    .u32 length; private arrays are .local, shared arrays .shared (32-bit addresses); constant
//    tables by the relocation strategy: `patch` — through .global pointers (`gpuc_table_<i>_…`)
//    the loader fills with cuModuleGetGlobal before the first launch; `table` — through a table
//    of pointers passed as the entry's `gpuc_tables` parameter and on to every function that
//    reads a table; `bake` — the data itself, as initialized .global arrays;
//  - the kernel state is two more entry parameters (pointer and length), passed to the
//    functions that use it;
//  - helpers and the runtime library stay `.func`s when not inlined (PTX has a call stack, so
//    recursion works); `trap` is `exit` (an exiting thread also releases barriers waiting on it);
//  - float arithmetic is `.rn` (never contracted into FMAs: results equal the CPU's), division
//    and square root correctly rounded unless `fastMath`; JS semantics where PTX differs
//    (integer division by zero, shift counts, float→int wrapping, NaN and signed zeros in
//    min/max, Math.round) are spelled out.

import type { SizeExpr } from "../../ir/size.js";
import type { Block, Builtin, Expr, ExprHandle, Function, Loc, Module, Stmt } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import { elemScalar, isNarrow, type Elem, type Scalar } from "../../ir/types.js";
import { LocationTable } from "../locations.js";
import { assertLegalized } from "../../ir/passes/legalize.js";
import { completesBlock, reaching, readsMemory, usesExpr } from "../../ir/module-info.js";
import { Namer, numbered } from "../names.js";
import type { TargetFeatures } from "../target.js";
import { PTX_PRELUDE } from "./prelude.js";
import { helperClosure } from "../helpers.js";
import { PTXArith } from "./arith.js";
import { CLASS, ELEM_BYTES, REG_DECL, SUFFIX, arrayBytes, elemMemType, immediate, memType, movType, paramType, sanitize, scalarOf, type RegClass } from "./common.js";
import { InternalCompilerError } from "../../errors.js";
import type { PTXEntryParam, PTXLayout } from "./layout.js";
export { sanitize } from "./common.js";

interface PTXCode { code: string; entry: string; layout: PTXLayout; locations: Loc[] }

/** The PTX ISA version written for an architecture (the oldest that has what gpuc emits). */
function ptxVersion(arch: string): string {
  const sm = Number(/^sm_(\d+)/.exec(arch)?.[1] ?? 75);
  return sm >= 90 ? "7.8" : "7.8";
}

export function emitPTX(m: Module, features: TargetFeatures): PTXCode {
  assertLegalized(m, "ptx");
  return new PTXModuleEmitter(m, features).emit();
}

/** An array as the code reaches it: its state space, base address and length. */
interface ArrayRef {
  space: "global" | "shared" | "local";
  /** A register holding the base address (b64, or b32 for shared memory), or a symbol. */
  base: string;
  /** Whether `base` is a 64-bit address. */
  wide: boolean;
  elem: Elem;
  /** A register or immediate holding the length (i32). */
  length: string;
}

class PTXModuleEmitter {
  readonly locations = new LocationTable();
  readonly prelude = new Set<string>();
  readonly fnNames: string[];
  readonly lineLocs: number[] = [];
  /** Functions some emitted code calls (a runtime function only ever inlined into cold blocks is left out). */
  readonly called = new Set<number>();

  /** Under `table`: the functions that read a table, themselves or through a callee (they take the pointer table). */
  readonly needsTables = new Set<number>();

  constructor(readonly m: Module, readonly features: TargetFeatures) {
    if (features.relocation === "table")
      reaching(m, (f) => usesExpr(f, (e) => e.k === "global")).forEach((needs, i) => { if (needs) this.needsTables.add(i); });
    const names = new Namer(numbered);
    this.fnNames = m.functions.map((f, i) => (i === m.entry ? sanitize(f.name) : names.take(`${sanitize(f.name)}_${i}`)));
  }

  emit(): PTXCode {
    const m = this.m;
    const arch = this.features.arch ?? "sm_75";
    const out: string[] = [];
    const outLocs: number[] = [];
    const push = (text: string, locs?: number[]): void => {
      const lines = text.split("\n");
      out.push(...lines);
      outLocs.push(...(locs ?? lines.map(() => -1)));
    };
    push([`// gpuc: kernel '${sanitize(m.functions[m.entry].name)}'`, `.version ${ptxVersion(arch)}`, `.target ${arch}`, ".address_size 64", ""].join("\n"));
    const relocation = this.features.relocation ?? "patch";
    const tables = m.globals.map((g, i) => ({ symbol: relocation === "table" ? `slot ${i}` : `gpuc_table_${i}_${sanitize(g.name)}`, index: i }));
    if (relocation === "patch") for (const t of tables) push(`.visible .global .align 8 .u64 ${t.symbol};`);
    if (relocation === "bake") m.globals.forEach((g, i) => push(bakedTable(tables[i].symbol, g.type.elem as Scalar, g.value)));
    let sharedBytes = 0;
    m.shared.forEach((sh, i) => {
      if (sh.size) return;
      const { bytes, align } = arrayBytes(sh.type.elem, sh.type.size ?? 0);
      sharedBytes += bytes;
      push(`.shared .align ${align} .b8 ${sharedName(m, i)}[${Math.max(bytes, 4)}];`);
    });
    // Shared arrays sized at launch share the kernel's dynamic shared memory (cuLaunchKernel's
    // sharedMemBytes): the kernel computes each one's length and offset (16-byte aligned) from
    // its parameters, as the device does (devices/cuda.ts).
    if (m.shared.some((sh) => sh.size)) push(`.extern .shared .align 16 .b8 ${DYNAMIC_SHARED}[];`);
    const bodies: { text: string[]; locs: number[]; fn: number }[] = [];
    let entryParams: PTXEntryParam[] = [];
    // Functions in module order (callees first); prototypes first, so recursion and any order work.
    const protos: string[] = [];
    m.functions.forEach((f, i) => {
      const fe = new PTXFunctionEmitter(this, f, i, tables.map((t) => t.symbol));
      const r = fe.emit();
      if (i === m.entry) entryParams = fe.entryParams;
      bodies.push({ text: r.lines, locs: r.locs, fn: i });
      protos.push(`${r.signature};`);
    });
    const live = (i: number) => i === m.entry || this.called.has(i);
    const liveProtos = protos.filter((_p, i) => i !== m.entry && live(i));
    protos.length = 0;
    protos.push(...liveProtos);
    // The prelude: hand-written PTX for what has no instruction (exact float remainder).
    const prelude = helperClosure(PTX_PRELUDE, this.prelude);
    for (const name of prelude) protos.push(`${PTX_PRELUDE[name].signature};`);
    if (protos.length) push(["", ...protos].join("\n"));
    for (const name of prelude) push(["", PTX_PRELUDE[name].signature, PTX_PRELUDE[name].body].join("\n"));
    for (const b of bodies) if (live(b.fn)) { push(""); push(b.text.join("\n"), b.locs); }
    push("");
    const code = out.join("\n");
    return {
      code, entry: this.fnNames[m.entry],
      layout: { arch, params: entryParams, relocation, tables, sharedBytes, lines: outLocs },
      locations: this.locations.list,
    };
  }
}

function sharedName(m: Module, i: number): string { return `gpuc_shared_${i}_${sanitize(m.shared[i].name)}`; }

/** The kernel's dynamic shared memory, where the shared arrays sized at launch are. */
const DYNAMIC_SHARED = "gpuc_dynamic_shared";

class PTXFunctionEmitter {
  private lines: string[] = [];
  private locs: number[] = [];
  private stmtLoc: Loc | null = null;
  private counters: Record<RegClass, number> = { p: 0, r: 0, f: 0, fd: 0, rd: 0 };
  private labels = 0;
  private regs: string[] = [];
  private arrays = new Map<number, ArrayRef>();
  /** The kernel's shared arrays sized at launch: registers of their base address and length. */
  private dynamicShared = new Map<number, { base: string; length: string }>();
  private breakTargets: string[] = [];
  private continueTargets: string[] = [];
  private localDecls: string[] = [];
  private isKernel: boolean;
  readonly entryParams: PTXEntryParam[] = [];

  /** The shared cold block that records an exception (see `coldReport`), once used. */
  private cold: { label: string; args: string[]; fn: number } | null = null;
  /** Under `table`: the register holding the pointer table's address. */
  private tablesReg: string | null = null;

  private readonly arith: PTXArith;

  constructor(
    private mod: PTXModuleEmitter, private f: Function, private index: number, private tableSymbols: string[],
    /** Emitting a runtime function's body inline (into a caller's cold block): register prefix and the argument values. */
    private inline: { prefix: string; args: (string | ArrayRef)[] } | null = null,
  ) {
    this.isKernel = index === mod.m.entry && !inline;
    this.arith = new PTXArith({ line: (t) => this.line(t), reg: (c) => this.reg(c), usePrelude: (n) => mod.prelude.add(n), fastMath: mod.features.fastMath === true });
  }

  private get m(): Module { return this.mod.m; }

  emit(): { signature: string; lines: string[]; locs: number[]; decls?: string[] } {
    const f = this.f;
    const name = this.mod.fnNames[this.index];
    // Registers for every scalar local; arrays get their references below.
    f.locals.forEach((l, i) => { if (l.type.kind === "scalar") this.regs[i] = this.reg(CLASS[l.type.scalar]); });
    const head: string[] = [];
    let signature: string;
    if (this.inline) {
      // The arguments are the caller's registers: copy scalars, share array references.
      const args = this.inline.args;
      f.params.forEach((p, i) => {
        const a = args[i];
        if (typeof a === "string") this.arith.move(scalarOf(f.locals[p].type), this.regs[p], a);
        else this.arrays.set(p, a);
      });
      head.push(...this.lines.map((l) => l.trim()));
      this.lines = [];
      this.locs = [];
      signature = "";
    } else if (this.isKernel) {
      const params: string[] = [];
      const add = (p: PTXEntryParam): string => { this.entryParams.push(p); params.push(`.param .${p.type} ${p.name}`); return p.name; };
      f.params.forEach((p, i) => {
        const t = f.locals[p].type;
        const pname = `${name}_${sanitize(f.paramNames[i] ?? f.locals[p].name)}_${i}`;
        if (t.kind === "scalar") {
          const type = t.scalar === "bool" ? "u32" : SUFFIX[t.scalar] as PTXEntryParam["type"];
          const n = add({ name: pname, role: "value", index: i, type });
          if (t.scalar === "bool") {
            const tmp = this.reg("r");
            head.push(`ld.param.u32 ${tmp}, [${n}];`, `setp.ne.u32 ${this.regs[p]}, ${tmp}, 0;`);
          } else head.push(`ld.param.${type} ${this.regs[p]}, [${n}];`);
        } else if (t.kind === "array") {
          const ptr = add({ name: pname, role: "pointer", index: i, type: "u64" });
          const len = add({ name: `${pname}_len`, role: "length", index: i, type: "u32" });
          const base = this.reg("rd"), length = this.reg("r");
          head.push(`ld.param.u64 ${base}, [${ptr}];`, `cvta.to.global.u64 ${base}, ${base};`, `ld.param.u32 ${length}, [${len}];`);
          this.arrays.set(p, { space: "global", base, wide: true, elem: t.elem, length });
        }
      });
      if (this.mod.needsTables.has(this.index)) {
        const p = add({ name: `${name}_gpuc_tables`, role: "tables", index: -1, type: "u64" });
        this.tablesReg = this.reg("rd");
        head.push(`ld.param.u64 ${this.tablesReg}, [${p}];`, `cvta.to.global.u64 ${this.tablesReg}, ${this.tablesReg};`);
      }
      if (f.stateParam !== null) {
        const ptr = add({ name: `${name}_gpuc_state`, role: "state", index: -1, type: "u64" });
        const len = add({ name: `${name}_gpuc_state_len`, role: "state-length", index: -1, type: "u32" });
        const base = this.reg("rd"), length = this.reg("r");
        head.push(`ld.param.u64 ${base}, [${ptr}];`, `cvta.to.global.u64 ${base}, ${base};`, `ld.param.u32 ${length}, [${len}];`);
        this.arrays.set(f.stateParam, { space: "global", base, wide: true, elem: "i32", length });
      }
      // Shared arrays sized at launch: their lengths from the parameters, their offsets in order.
      if (this.m.shared.some((sh) => sh.size)) {
        const saved = this.lines;
        this.lines = [];
        let offset = this.reg("r");
        this.line(`mov.u32 ${offset}, 0;`);
        this.m.shared.forEach((sh, i) => {
          if (!sh.size) return;
          const length = this.sizeValue(sh.size), base = this.reg("r"), next = this.reg("r");
          this.line(`mov.u32 ${base}, ${DYNAMIC_SHARED};`);
          this.line(`add.u32 ${base}, ${base}, ${offset};`);
          this.line(`mad.lo.s32 ${next}, ${length}, ${ELEM_BYTES[sh.type.elem]}, ${offset};`);
          this.line(`add.s32 ${next}, ${next}, 15;`);
          this.line(`and.b32 ${next}, ${next}, -16;`);
          offset = next;
          this.dynamicShared.set(i, { base, length });
        });
        head.push(...this.lines.map((l) => l.trim()));
        this.lines = saved;
      }
      const bounds: string[] = [];
      const { maxThreads, requiredThreads } = this.mod.features;
      if (requiredThreads) bounds.push(`.reqntid ${requiredThreads.join(", ")}`);
      else if (maxThreads) bounds.push(`.maxntid ${maxThreads.join(", ")}`);
      signature = `.visible .entry ${name}(\n  ${params.join(",\n  ")}\n)${bounds.length ? "\n" + bounds.join("\n") : ""}`;
    } else {
      // .func: scalars as .b32/.b64/.f32/.f64 params (bools as b32), arrays as address + length.
      const params: string[] = [];
      const all = [...(f.stateParam !== null ? [f.stateParam] : []), ...f.params];
      all.forEach((p, i) => {
        const t = f.locals[p].type;
        const pn = `${name}_p${i}`;
        if (t.kind === "scalar") {
          if (t.scalar === "bool") {
            params.push(`.param .b32 ${pn}`);
            const tmp = this.reg("r");
            head.push(`ld.param.b32 ${tmp}, [${pn}];`, `setp.ne.b32 ${this.regs[p]}, ${tmp}, 0;`);
          } else {
            params.push(`.param .${paramType(t.scalar)} ${pn}`);
            head.push(`ld.param.${paramType(t.scalar)} ${this.regs[p]}, [${pn}];`);
          }
        } else if (t.kind === "array") {
          const space = spaceOf(t.space);
          const wide = space !== "shared";
          params.push(`.param .${wide ? "b64" : "b32"} ${pn}`, `.param .b32 ${pn}_len`);
          const base = this.reg(wide ? "rd" : "r"), length = this.reg("r");
          head.push(`ld.param.${wide ? "b64" : "b32"} ${base}, [${pn}];`, `ld.param.b32 ${length}, [${pn}_len];`);
          this.arrays.set(p, { space, base, wide, elem: t.elem, length });
        }
      });
      if (this.mod.needsTables.has(this.index)) {
        params.push(`.param .b64 ${name}_tables`);
        this.tablesReg = this.reg("rd");
        head.push(`ld.param.b64 ${this.tablesReg}, [${name}_tables];`);
      }
      const ret = f.returnType.kind === "scalar" ? `(.param .${paramType(f.returnType.scalar)} ${name}_ret) ` : "";
      signature = `.func ${ret}${name}(${params.join(", ")})`;
    }
    // Private arrays: .local, addressed through a register.
    f.locals.forEach((l, i) => {
      if (l.type.kind !== "array" || this.arrays.has(i) || i === f.stateParam || f.params.includes(i as never)) return;
      const sym = `gpuc_local_${i}`;
      const { bytes, align } = arrayBytes(l.type.elem, l.type.size ?? 0);
      this.localDecls.push(`.local .align ${align} .b8 ${sym}[${Math.max(bytes, 4)}];`);
      const base = this.reg("rd");
      head.push(`mov.u64 ${base}, ${sym};`);
      this.arrays.set(i, { space: "local", base, wide: true, elem: l.type.elem, length: String(l.type.size ?? 0) });
    });
    this.block(f.body);
    if (completesBlock(f.body)) this.line(this.inline ? "exit;" : "ret;");
    this.emitColdReport();
    const decls = [...this.regDecls(), ...this.coldDecls];
    if (this.inline) return { signature, lines: [...head.map((h) => "  " + h), ...this.lines], locs: [...head.map(() => -1), ...this.locs], decls };
    const headLines = [signature, "{", ...decls.map((d) => "  " + d), ...this.localDecls.map((d) => "  " + d), ...head.map((h) => "  " + h)].join("\n").split("\n");
    return {
      signature,
      lines: [...headLines, ...this.lines, "}"],
      locs: [...headLines.map(() => -1), ...this.locs, -1],
    };
  }

  // ---- registers, labels, lines ---------------------------------------------------------------

  private get prefix(): string { return this.inline?.prefix ?? ""; }
  private reg(c: RegClass): string { return `%${this.prefix}${c}${++this.counters[c]}`; }
  private label(what: string): string { return `$L${this.prefix}${this.index}_${++this.labels}_${what}`; }
  private regDecls(): string[] {
    return (Object.keys(this.counters) as RegClass[]).filter((c) => this.counters[c] > 0).map((c) => `.reg ${REG_DECL[c]} %${this.prefix}${c}<${this.counters[c] + 1}>;`);
  }
  private coldDecls: string[] = [];

  private line(text: string): void {
    this.lines.push(text.endsWith(":") ? text : "  " + text);
    this.locs.push(this.stmtLoc ? this.mod.locations.id(this.stmtLoc) : -1);
  }

  // ---- statements ----------------------------------------------------------------------------

  private block(b: Block): void {
    for (let i = 0; i < b.length; i++) {
      const s = b[i];
      // Recording an exception and ending the thread: a jump to the function's one cold block.
      if (s.k === "call" && b[i + 1]?.k === "trap" && this.m.functions[s.fn].kind === "runtime" && this.m.functions[s.fn].name === "gpuc_report_exception" && !this.inline) {
        this.stmtLoc = s.loc ?? this.stmtLoc;
        this.coldReport(s);
        i++;
        continue;
      }
      this.stmt(s);
    }
  }

  /**
   * The exception path, out of the way: every `report_exception(…); trap` of a function moves
   * its arguments into the same registers and jumps to one block at the function's end, where
   * the runtime function's body is emitted inline and the thread exits. No call (a call costs
   * registers in every kernel that has one) and one copy of the code however many checks.
   */
  private coldReport(s: Extract<Stmt, { k: "call" }>): void {
    if (!this.cold) this.cold = { label: this.label("exception"), args: [this.reg("r"), this.reg("r"), this.reg("r"), this.reg("r")], fn: s.fn };
    // args: state, code, loc, a, b; the state is the function's own.
    s.args.slice(1).forEach((a, i) => this.arith.move("i32", this.cold!.args[i], this.expr(a)));
    this.line(`bra ${this.cold.label};`);
  }

  private emitColdReport(): void {
    if (!this.cold) return;
    const callee = this.m.functions[this.cold.fn];
    const state = this.f.stateParam !== null ? this.arrays.get(this.f.stateParam)! : this.arrays.get(this.f.params[0])!;
    const sub = new PTXFunctionEmitter(this.mod, callee, this.cold.fn, this.tableSymbols, { prefix: "x", args: [state, ...this.cold.args] });
    const r = sub.emit();
    this.stmtLoc = null;
    this.line(`${this.cold.label}:`);
    for (const l of r.lines) this.line(l.trim().endsWith(":") ? l.trim() : l.trim());
    this.coldDecls = r.decls ?? [];
  }

  private stmt(s: Stmt): void {
    this.stmtLoc = s.loc ?? this.stmtLoc;
    const f = this.f;
    switch (s.k) {
      case "set": {
        const t = scalarOf(f.locals[s.local].type);
        this.arith.move(t, this.regs[s.local], this.expr(s.value));
        return;
      }
      case "store": {
        const a = this.arrayRef(s.array);
        const addr = this.address(a, s.index);
        const v = this.expr(s.value);
        this.line(`st.${a.space}.${elemMemType(a.elem)} ${addr}, ${v};`);
        return;
      }
      case "if": {
        // `if (c) break;` / `if (c) continue;`: one predicated branch.
        const only = s.then.length === 1 && !s.else.length ? s.then[0] : null;
        if (only && (only.k === "break" || only.k === "continue")) {
          const target = only.k === "break" ? this.breakTargets.at(-1) : this.continueTargets.at(-1);
          const { p, negated } = this.condition(s.cond);
          this.line(`@${negated ? "!" : ""}${p} bra ${target};`);
          return;
        }
        const { p: c, negated } = this.condition(s.cond);
        const cond = negated ? null : c;
        const elseL = this.label("else"), endL = this.label("endif");
        this.line(`@${cond === null ? "" : "!"}${cond ?? c} bra ${s.else.length ? elseL : endL};`);
        this.block(s.then);
        if (s.else.length) {
          if (completesBlock(s.then)) this.line(`bra ${endL};`);
          this.line(`${elseL}:`);
          this.block(s.else);
        }
        this.line(`${endL}:`);
        return;
      }
      case "loop": {
        const head = this.label("loop"), cont = this.label("continue"), exit = this.label("break");
        // A loop that starts with `if (c) break;` (for, while) is rotated: c is tested before the
        // first iteration and at the bottom of each (ptxas unrolls counted loops only in this form).
        const first = s.body[0];
        const test = first?.k === "if" && !first.else.length && first.then.length === 1 && first.then[0].k === "break" ? first.cond : null;
        if (test !== null) {
          const { p, negated } = this.condition(test);
          this.line(`@${negated ? "!" : ""}${p} bra ${exit};`);
        }
        this.line(`${head}:`);
        this.breakTargets.push(exit);
        this.continueTargets.push(cont);
        this.block(test !== null ? s.body.slice(1) : s.body);
        this.line(`${cont}:`);
        this.block(s.continuing);
        this.breakTargets.pop();
        this.continueTargets.pop();
        if (s.breakIf !== null) { const { p, negated } = this.condition(s.breakIf); this.line(`@${negated ? "!" : ""}${p} bra ${exit};`); }
        if (test !== null) { const { p, negated } = this.condition(test); this.line(`@${negated ? "" : "!"}${p} bra ${head};`); }
        else this.line(`bra ${head};`);
        this.line(`${exit}:`);
        return;
      }
      case "switch": return this.switchStmt(s);
      case "break": this.line(`bra ${this.breakTargets.at(-1)};`); return;
      case "continue": this.line(`bra ${this.continueTargets.at(-1)};`); return;
      case "return": {
        if (s.value !== null) {
          const t = scalarOf(f.exprs[s.value].type);
          const v = this.expr(s.value);
          const name = `${this.mod.fnNames[this.index]}_ret`;
          this.storeParam(name, t, v);
        }
        this.line(this.inline ? "exit;" : "ret;");
        return;
      }
      case "barrier": this.line("bar.sync 0;"); return;
      // The exception is recorded: this thread ends (and no longer holds up barriers).
      case "trap": this.line("exit;"); return;
      case "init": {
        const a = this.arrays.get(s.local)!;
        const t = f.locals[s.local].type;
        const words = arrayBytes(a.elem, (t.kind === "array" ? t.size : 0) ?? 0).bytes / 4;
        if (words <= 32) for (let w = 0; w < words; w++) this.line(`st.local.u32 [${a.base}+${w * 4}], 0;`);
        else {
          const i = this.reg("r"), p = this.reg("p"), addr = this.reg("rd"), off = this.reg("rd");
          const top = this.label("zero");
          this.line(`mov.u32 ${i}, 0;`);
          this.line(`${top}:`);
          this.line(`mul.wide.u32 ${off}, ${i}, 4;`);
          this.line(`add.s64 ${addr}, ${a.base}, ${off};`);
          this.line(`st.local.u32 [${addr}], 0;`);
          this.line(`add.u32 ${i}, ${i}, 1;`);
          this.line(`setp.lt.u32 ${p}, ${i}, ${words};`);
          this.line(`@${p} bra ${top};`);
        }
        return;
      }
      case "atomic": return this.atomic(s);
      case "call": return this.call(s);
      case "subgroup": return this.subgroup(s);
      case "check": throw new InternalCompilerError("a check reached the back end unlowered (legalize lowers them before emission)");
      default: assertNeverIR(s);
    }
  }

  private storeParam(name: string, t: Scalar, v: string): void {
    if (t === "bool") {
      const tmp = this.reg("r");
      this.line(`selp.b32 ${tmp}, 1, 0, ${v};`);
      this.line(`st.param.b32 [${name}], ${tmp};`);
    } else this.line(`st.param.${paramType(t)} [${name}], ${v};`);
  }

  private switchStmt(s: Extract<Stmt, { k: "switch" }>): void {
    const selT = scalarOf(this.f.exprs[s.selector].type);
    const sel = this.arith.materialize(selT, this.expr(s.selector));
    const end = this.label("endswitch");
    const caseLabels = s.cases.map(() => this.label("case"));
    const p = this.reg("p");
    s.cases.forEach((c, i) => {
      for (const v of c.values) {
        this.line(`setp.eq.${selT === "u32" ? "u32" : "s32"} ${p}, ${sel}, ${selT === "u32" ? v >>> 0 : v | 0};`);
        this.line(`@${p} bra ${caseLabels[i]};`);
      }
    });
    const def = s.cases.findIndex((c) => c.isDefault);
    this.line(`bra ${def >= 0 ? caseLabels[def] : end};`);
    this.breakTargets.push(end);
    s.cases.forEach((c, i) => {
      this.line(`${caseLabels[i]}:`);
      this.block(c.body);
      // A case that completes without `break` falls into the next one's body (JS semantics).
      if (!c.fallthrough && completesBlock(c.body) && i + 1 < s.cases.length) this.line(`bra ${end};`);
    });
    this.breakTargets.pop();
    this.line(`${end}:`);
  }

  private call(s: Extract<Stmt, { k: "call" }>): void {
    const callee = this.m.functions[s.fn];
    this.mod.called.add(s.fn);
    const name = this.mod.fnNames[s.fn];
    const lines: string[] = ["{"];
    const names: string[] = [];
    const pass = (kind: string, value: string, store: string): void => {
      const pn = `gpuc_arg${names.length}`;
      names.push(pn);
      lines.push(`.param .${kind} ${pn};`, `st.param.${store} [${pn}], ${value};`);
    };
    const argsWithState = [...(callee.stateParam !== null ? [null] : []), ...s.args];
    const calleeParams = [...(callee.stateParam !== null ? [callee.stateParam] : []), ...callee.params];
    argsWithState.forEach((a, i) => {
      const t = callee.locals[calleeParams[i]].type;
      if (t.kind === "array") {
        const ref = a === null ? this.arrays.get(this.f.stateParam!)! : this.arrayRef(a);
        if (ref.wide) pass("b64", ref.base, "b64");
        else pass("b32", ref.base, "b32");
        pass("b32", this.arith.materialize("i32", ref.length), "b32");
      } else {
        const st = scalarOf(t);
        const v = this.expr(a!);
        if (st === "bool") {
          const tmp = this.reg("r");
          this.line(`selp.b32 ${tmp}, 1, 0, ${v};`);
          pass("b32", tmp, "b32");
        } else pass(paramType(st), v, paramType(st));
      }
    });
    if (this.mod.needsTables.has(s.fn)) pass("b64", this.tablesReg!, "b64");
    const rt = callee.returnType;
    if (rt.kind === "scalar") lines.push(`.param .${paramType(rt.scalar)} gpuc_ret;`);
    lines.push(`call ${rt.kind === "scalar" ? "(gpuc_ret), " : ""}${name}, (${names.join(", ")});`);
    if (rt.kind === "scalar" && s.result !== null) {
      if (rt.scalar === "bool") {
        const tmp = this.reg("r");
        lines.push(`ld.param.b32 ${tmp}, [gpuc_ret];`, `setp.ne.b32 ${this.regs[s.result]}, ${tmp}, 0;`);
      } else lines.push(`ld.param.${paramType(rt.scalar)} ${this.regs[s.result]}, [gpuc_ret];`);
    }
    lines.push("}");
    for (const l of lines) this.line(l);
  }

  private atomic(s: Extract<Stmt, { k: "atomic" }>): void {
    const a = this.arrayRef(s.array);
    const addr = this.address(a, s.index);
    const v = s.args.map((x) => this.expr(x));
    if (isNarrow(a.elem)) return this.narrowAtomic(s, a, addr, v);
    const t = a.elem;
    const res = s.result !== null ? this.regs[s.result] : this.reg(CLASS[t]);
    const sp = a.space === "local" ? "" : `.${a.space}`;
    const it = t === "i32" ? "s32" : t === "u32" ? "u32" : "f32";
    switch (s.op) {
      case "add": this.line(`atom${sp}.add.${t === "f32" ? "f32" : "u32"} ${res}, ${addr}, ${v[0]};`); return;
      case "sub": {
        const n = this.reg("r");
        this.line(`neg.s32 ${n}, ${this.arith.materialize("i32", v[0])};`);
        this.line(`atom${sp}.add.u32 ${res}, ${addr}, ${n};`);
        return;
      }
      case "and": case "or": case "xor": this.line(`atom${sp}.${s.op}.b32 ${res}, ${addr}, ${v[0]};`); return;
      case "min": case "max": this.line(`atom${sp}.${s.op}.${it} ${res}, ${addr}, ${v[0]};`); return;
      case "exchange": this.line(`atom${sp}.exch.b32 ${res}, ${addr}, ${v[0]};`); return;
      case "compareExchange": this.line(`atom${sp}.cas.b32 ${res}, ${addr}, ${v[0]}, ${v[1]};`); return;
      case "load": this.line(`ld.volatile${sp}.${memType(t)} ${res}, ${addr};`); return;
      case "store": {
        const old = this.reg(CLASS[t]);
        this.line(`atom${sp}.exch.b32 ${old}, ${addr}, ${v[0]};`);
        if (s.result !== null) this.arith.move(t, res, v[0]);
        return;
      }
      default: assertNeverIR(s.op as never);
    }
  }

  /**
   * A subgroup operation on the warp's active lanes (`activemask`: the lanes that reached it
   * together). A shuffle reads lane j with `shfl.sync.idx` and keeps the reader's own value where
   * j is outside the warp or not active (JS's meaning, ir/module.ts SubgroupOp). Integer
   * reductions are `redux.sync` (sm_80+); the others combine the active lanes' values in lane
   * order (exactly as the CPU device does, floats included), one `shfl.sync` per lane.
   */
  private subgroup(s: Extract<Stmt, { k: "subgroup" }>): void {
    const t = scalarOf(this.f.exprs[s.args[0]].type);
    const out = this.regs[s.result];
    const x = this.arith.materialize(t, this.expr(s.args[0]));
    const m = this.reg("r");
    this.line(`activemask.b32 ${m};`);
    switch (s.op) {
      case "any": case "all": this.line(`vote.sync.${s.op}.pred ${out}, ${x}, ${m};`); return;
      case "ballot": this.line(`vote.sync.ballot.b32 ${out}, ${x}, ${m};`); return;
      case "add": case "min": case "max": return this.reduce(s.op, t, x, m, out);
      default: break;
    }
    const n = this.arith.materialize("u32", this.expr(s.args[1]));
    const lane = this.reg("r"), j = this.reg("r"), ok = this.reg("p"), bit = this.reg("r"), active = this.reg("p");
    this.line(`mov.u32 ${lane}, %laneid;`);
    switch (s.op) {
      case "shuffle": this.line(`and.b32 ${j}, ${n}, 31;`); this.line(`setp.eq.u32 ${ok}, 0, 0;`); break;
      case "shuffleDown": {
        const room = this.reg("r");
        this.line(`sub.u32 ${room}, 32, ${lane};`);
        this.line(`setp.lt.u32 ${ok}, ${n}, ${room};`);
        this.line(`add.u32 ${j}, ${lane}, ${n};`);
        break;
      }
      case "shuffleUp": this.line(`setp.le.u32 ${ok}, ${n}, ${lane};`); this.line(`sub.u32 ${j}, ${lane}, ${n};`); break;
      case "shuffleXor": this.line(`xor.b32 ${j}, ${lane}, ${n};`); this.line(`setp.lt.u32 ${ok}, ${j}, 32;`); break;
      default: assertNeverIR(s.op as never);
    }
    this.line(`and.b32 ${j}, ${j}, 31;`);
    this.line(`shr.b32 ${bit}, ${m}, ${j};`);
    this.line(`and.b32 ${bit}, ${bit}, 1;`);
    this.line(`setp.ne.and.u32 ${active}, ${bit}, 0, ${ok};`);
    const y = this.shuffleIdx(t, x, j, m);
    if (t !== "bool") { this.line(`selp.${movType(t)} ${out}, ${y}, ${x}, ${active};`); return; }
    // out = active ? y != 0 : x
    const got = this.reg("p"), own = this.reg("p");
    this.line(`setp.ne.and.u32 ${got}, ${y}, 0, ${active};`);
    this.line(`not.pred ${own}, ${active};`);
    this.line(`and.pred ${own}, ${own}, ${x};`);
    this.line(`or.pred ${out}, ${got}, ${own};`);
  }

  /** `x` of lane `j` (a register of x's class; bools as a u32 0/1). */
  private shuffleIdx(t: Scalar, x: string, j: string, m: string): string {
    if (t === "f64") {
      const lo = this.reg("r"), hi = this.reg("r"), y = this.reg("fd");
      this.line(`mov.b64 {${lo}, ${hi}}, ${x};`);
      this.line(`shfl.sync.idx.b32 ${lo}, ${lo}, ${j}, 31, ${m};`);
      this.line(`shfl.sync.idx.b32 ${hi}, ${hi}, ${j}, 31, ${m};`);
      this.line(`mov.b64 ${y}, {${lo}, ${hi}};`);
      return y;
    }
    if (t === "bool") {
      const v = this.reg("r");
      this.line(`selp.u32 ${v}, 1, 0, ${x};`);
      this.line(`shfl.sync.idx.b32 ${v}, ${v}, ${j}, 31, ${m};`);
      return v;
    }
    const y = this.reg(CLASS[t]);
    this.line(`shfl.sync.idx.b32 ${y}, ${x}, ${j}, 31, ${m};`);
    return y;
  }

  /** add/min/max over the active lanes `m` into `out`. */
  private reduce(op: "add" | "min" | "max", t: Scalar, x: string, m: string, out: string): void {
    const sm = Number(/^sm_(\d+)/.exec(this.mod.features.arch ?? "sm_75")?.[1] ?? 75);
    if ((t === "i32" || t === "u32") && sm >= 80) {
      this.line(`redux.sync.${op}.${op === "add" ? "u32" : SUFFIX[t]} ${out}, ${x}, ${m};`);
      return;
    }
    // In lane order: the lowest remaining lane of `rest` each time round.
    const rest = this.reg("r"), neg = this.reg("r"), low = this.reg("r"), j = this.reg("r"), done = this.reg("p");
    const acc = this.reg(CLASS[t]);
    const identity = op === "add" ? (t === "f32" || t === "f64" ? -0 : 0) : op === "min" ? (t === "i32" ? 0x7fffffff : t === "u32" ? 0xffffffff : Infinity) : (t === "i32" ? -0x80000000 : t === "u32" ? 0 : -Infinity);
    this.line(`mov.${movType(t)} ${acc}, ${immediate(identity, t)};`);
    this.line(`mov.b32 ${rest}, ${m};`);
    const top = this.label("sg_lane"), end = this.label("sg_end");
    this.line(`${top}:`);
    this.line(`setp.eq.u32 ${done}, ${rest}, 0;`);
    this.line(`@${done} bra.uni ${end};`);
    this.line(`neg.s32 ${neg}, ${rest};`);
    this.line(`and.b32 ${low}, ${rest}, ${neg};`);
    this.line(`xor.b32 ${rest}, ${rest}, ${low};`);
    this.line(`bfind.u32 ${j}, ${low};`);
    const y = this.shuffleIdx(t, x, j, m);
    if (op === "add") {
      if (t === "f32" || t === "f64") this.line(`add.rn.${t} ${acc}, ${acc}, ${y};`);
      else this.line(`add.u32 ${acc}, ${acc}, ${y};`);
    } else if (t === "i32" || t === "u32") this.line(`${op}.${SUFFIX[t]} ${acc}, ${acc}, ${y};`);
    else {
      // Math.min/max: NaN wins; -0 is below +0.
      const pick = this.reg("p"), eq = this.reg("p"), sign = this.reg("p"), nan = this.reg("p");
      const bits = this.reg(t === "f64" ? "rd" : "r");
      this.line(`setp.${op === "min" ? "lt" : "gt"}.${t} ${pick}, ${y}, ${acc};`);
      this.line(`setp.eq.${t} ${eq}, ${y}, ${acc};`);
      this.line(`mov.b${t === "f64" ? 64 : 32} ${bits}, ${y};`);
      this.line(`setp.${op === "min" ? "lt" : "ge"}.s${t === "f64" ? 64 : 32} ${sign}, ${bits}, 0;`);
      this.line(`and.pred ${eq}, ${eq}, ${sign};`);
      this.line(`or.pred ${pick}, ${pick}, ${eq};`);
      this.line(`setp.nan.${t} ${nan}, ${y}, ${y};`);
      this.line(`or.pred ${pick}, ${pick}, ${nan};`);
      this.line(`selp.${t} ${acc}, ${y}, ${acc}, ${pick};`);
    }
    this.line(`bra.uni ${top};`);
    this.line(`${end}:`);
    this.line(`mov.${movType(t)} ${out}, ${acc};`);
  }

  /**
   * An atomic on an 8- or 16-bit element: PTX's atom works on 32-bit words, so it is a
   * compare-and-swap loop on the word that holds the element (narrow arrays are word-aligned and
   * padded: devices allocate and shared/local declarations say so), which changes only the
   * element's bits. The old element is read as the typed array reads it (sign- or zero-extended).
   */
  private narrowAtomic(s: Extract<Stmt, { k: "atomic" }>, a: ArrayRef, addr: string, v: string[]): void {
    const sp = `.${a.space}`;
    const bits = ELEM_BYTES[a.elem] * 8, ext = a.elem === "i8" || a.elem === "i16" ? "s32" : "u32";
    const res = s.result !== null ? this.regs[s.result] : this.reg("r");
    if (s.op === "load") { this.line(`ld.volatile${sp}.${elemMemType(a.elem)} ${res}, ${addr};`); return; }
    // The element's address in a register, the word's address and the element's bit offset in it.
    const m = /^\[([^+\-\]]+)([+-]\d+)?\]$/.exec(addr);
    if (!m) throw new InternalCompilerError(`PTX address ${addr}`);
    const at = m[2] ? this.reg(a.wide ? "rd" : "r") : m[1], word = this.reg(a.wide ? "rd" : "r"), low = this.reg("r"), shift = this.reg("r");
    if (m[2]) this.line(`add.${a.wide ? "s64" : "s32"} ${at}, ${m[1]}, ${Number(m[2])};`);
    this.line(`and.b${a.wide ? 64 : 32} ${word}, ${at}, -4;`);
    this.line(a.wide ? `cvt.u32.u64 ${low}, ${at};` : `mov.b32 ${low}, ${at};`);
    this.line(`and.b32 ${low}, ${low}, 3;`);
    this.line(`shl.b32 ${shift}, ${low}, 3;`);
    const x = v.map((o) => this.arith.materialize("i32", o));
    const old = this.reg("r"), cur = this.reg("r"), next = this.reg("r"), put = this.reg("r"), seen = this.reg("r"), retry = this.reg("p");
    const loop = this.label("cas");
    this.line(`ld.volatile${sp}.u32 ${old}, [${word}];`);
    this.line(`${loop}:`);
    this.line(`bfe.${ext} ${cur}, ${old}, ${shift}, ${bits};`);
    switch (s.op) {
      case "add": this.line(`add.s32 ${next}, ${cur}, ${x[0]};`); break;
      case "sub": this.line(`sub.s32 ${next}, ${cur}, ${x[0]};`); break;
      case "and": case "or": case "xor": this.line(`${s.op}.b32 ${next}, ${cur}, ${x[0]};`); break;
      case "exchange": case "store": this.line(`mov.b32 ${next}, ${x[0]};`); break;
      case "compareExchange": {
        const hit = this.reg("p");
        this.line(`setp.eq.s32 ${hit}, ${cur}, ${x[0]};`);
        this.line(`selp.b32 ${next}, ${x[1]}, ${cur}, ${hit};`);
        break;
      }
      case "min": case "max": throw new InternalCompilerError(`atomic ${s.op} on ${a.elem} elements`);
      default: assertNeverIR(s.op as never);
    }
    this.line(`bfi.b32 ${put}, ${next}, ${old}, ${shift}, ${bits};`);
    this.line(`atom${sp}.cas.b32 ${seen}, [${word}], ${old}, ${put};`);
    this.line(`setp.ne.b32 ${retry}, ${seen}, ${old};`);
    this.line(`mov.b32 ${old}, ${seen};`);
    this.line(`@${retry} bra ${loop};`);
    this.line(`mov.b32 ${res}, ${s.op === "store" ? x[0] : cur};`);
  }

  // ---- arrays --------------------------------------------------------------------------------

  private arrayRef(h: ExprHandle): ArrayRef {
    const e = this.f.exprs[h];
    if (e.k === "local") {
      const r = this.arrays.get(e.local);
      if (!r) throw new InternalCompilerError(`PTX array local ${e.local} has no reference`);
      return r;
    }
    if (e.k === "global") {
      // The table's address is read from its patched global where it is used (a use may be
      // under a branch; ptxas merges repeated loads).
      const g = this.m.globals[e.global];
      const base = this.reg("rd");
      switch (this.mod.features.relocation ?? "patch") {
        case "patch":
          this.line(`ld.global.u64 ${base}, [${this.tableSymbols[e.global]}];`);
          this.line(`cvta.to.global.u64 ${base}, ${base};`);
          break;
        case "table":
          this.line(`ld.global.u64 ${base}, [${this.tablesReg}+${e.global * 8}];`);
          this.line(`cvta.to.global.u64 ${base}, ${base};`);
          break;
        case "bake":
          this.line(`mov.u64 ${base}, ${this.tableSymbols[e.global]};`);
          break;
      }
      return { space: "global", base, wide: true, elem: g.type.elem, length: String(g.value.length) };
    }
    if (e.k === "shared") {
      const sh = this.m.shared[e.shared];
      if (sh.size) {
        const d = this.dynamicShared.get(e.shared);
        if (!d) throw new InternalCompilerError(`shared array '${sh.name}' sized at launch used outside its kernel`);
        const base = this.reg("r");
        this.line(`mov.b32 ${base}, ${d.base};`);
        return { space: "shared", base, wide: false, elem: sh.type.elem, length: d.length };
      }
      const base = this.reg("r");
      this.line(`mov.u32 ${base}, ${sharedName(this.m, e.shared)};`);
      return { space: "shared", base, wide: false, elem: sh.type.elem, length: String(sh.type.size ?? 0) };
    }
    throw new InternalCompilerError(`array expression of kind ${e.k}`);
  }

  /** A launch-time size (ir/size.ts) in a register, with the i32 meaning the loader evaluates it with. */
  private sizeValue(e: SizeExpr): string {
    const r = this.reg("r");
    switch (e.k) {
      case "param": this.line(`mov.b32 ${r}, ${this.regs[this.f.params[e.index]]};`); return r;
      case "blockDim": this.line(`mov.u32 ${r}, %ntid.${"xyz"[e.axis]};`); return r;
      case "const": this.line(`mov.b32 ${r}, ${e.value | 0};`); return r;
      case "op": {
        const a = this.sizeValue(e.args[0]), b = this.sizeValue(e.args[1]);
        switch (e.op) {
          case "add": this.line(`add.s32 ${r}, ${a}, ${b};`); return r;
          case "sub": this.line(`sub.s32 ${r}, ${a}, ${b};`); return r;
          case "mul": this.line(`mul.lo.s32 ${r}, ${a}, ${b};`); return r;
          case "and": this.line(`and.b32 ${r}, ${a}, ${b};`); return r;
          case "or": this.line(`or.b32 ${r}, ${a}, ${b};`); return r;
          case "min": case "max": this.line(`${e.op}.s32 ${r}, ${a}, ${b};`); return r;
          case "shl": case "shr": {
            const c = this.reg("r");
            this.line(`and.b32 ${c}, ${b}, 31;`);
            this.line(e.op === "shl" ? `shl.b32 ${r}, ${a}, ${c};` : `shr.s32 ${r}, ${a}, ${c};`);
            return r;
          }
          case "div": case "rem": {
            // x / 0 is 0, and so is x % -1; -2^31 / -1 wraps (the divisor 1 stands in for 0 and -1).
            const z = this.reg("p"), m1 = this.reg("p"), bad = this.reg("p"), d = this.reg("r");
            this.line(`setp.eq.s32 ${z}, ${b}, 0;`);
            this.line(`setp.eq.s32 ${m1}, ${b}, -1;`);
            this.line(`or.pred ${bad}, ${z}, ${m1};`);
            this.line(`selp.b32 ${d}, 1, ${b}, ${bad};`);
            this.line(`${e.op}.s32 ${r}, ${a}, ${d};`);
            this.line(e.op === "div" ? `@${m1} neg.s32 ${r}, ${a};` : `@${m1} mov.b32 ${r}, 0;`);
            this.line(`@${z} mov.b32 ${r}, 0;`);
            return r;
          }
        }
      }
    }
  }

  /** The address operand `[reg]` or `[reg+offset]` of array[index]. */
  private address(a: ArrayRef, index: ExprHandle): string {
    const ie = this.f.exprs[index];
    const size = ELEM_BYTES[a.elem];
    if (ie.k === "const" && typeof ie.value === "number" && Math.abs(ie.value * size) < 2 ** 24) {
      const off = ie.value * size;
      return off === 0 ? `[${a.base}]` : `[${a.base}${off < 0 ? "" : "+"}${off}]`;
    }
    const it = scalarOf(ie.type);
    const i = this.arith.materialize(it, this.expr(index));
    if (a.wide) {
      const off = this.reg("rd"), addr = this.reg("rd");
      this.line(`mul.wide.${it === "u32" ? "u32" : "s32"} ${off}, ${i}, ${size};`);
      this.line(`add.s64 ${addr}, ${a.base}, ${off};`);
      return `[${addr}]`;
    }
    const addr = this.reg("r");
    this.line(`mad.lo.s32 ${addr}, ${i}, ${size}, ${a.base};`);
    return `[${addr}]`;
  }

  // ---- expressions ---------------------------------------------------------------------------

  /** A register or immediate holding the expression's value. */
  private expr(h: ExprHandle): string {
    const e: Expr = this.f.exprs[h];
    switch (e.k) {
      case "const": return immediate(e.value, scalarOf(e.type));
      case "local": return this.regs[e.local];
      case "builtin": {
        const r = this.reg("r");
        this.line(`mov.u32 ${r}, ${BUILTINS[e.name]};`);
        return r;
      }
      case "location": return String(this.mod.locations.id(e.site));
      case "length": return this.arrayRef(e.array).length;
      case "load": {
        const a = this.arrayRef(e.array);
        const addr = this.address(a, e.index);
        const r = this.reg(CLASS[elemScalar(a.elem)]);
        this.line(`ld.${a.space}.${elemMemType(a.elem)} ${r}, ${addr};`);
        return r;
      }
      case "select": {
        const t = scalarOf(e.type);
        const r = this.reg(CLASS[t]);
        if (!readsMemory(this.f, e.a) && !readsMemory(this.f, e.b) && t !== "bool") {
          const c = this.pred(e.cond);
          const a = this.expr(e.a), b = this.expr(e.b);
          this.line(`selp.${memType(t) === "f32" ? "f32" : t === "f64" ? "f64" : "b32"} ${r}, ${a}, ${b}, ${c};`);
          return r;
        }
        // Only the chosen operand is evaluated (it may load, guarded by the condition).
        const c = this.pred(e.cond);
        const elseL = this.label("sel_else"), endL = this.label("sel_end");
        this.line(`@!${c} bra ${elseL};`);
        this.arith.move(t, r, this.expr(e.a));
        this.line(`bra ${endL};`);
        this.line(`${elseL}:`);
        this.arith.move(t, r, this.expr(e.b));
        this.line(`${endL}:`);
        return r;
      }
      case "convert": return this.arith.convert(this.expr(e.arg), scalarOf(this.f.exprs[e.arg].type), scalarOf(e.type));
      case "op": return this.op(e);
      case "global": case "shared": throw new InternalCompilerError("an array used as a value");
      default: return assertNeverIR(e);
    }
  }

  /** A predicate for a branch condition; `!x` gives x's predicate, negated (no `not` instruction). */
  private condition(h: ExprHandle): { p: string; negated: boolean } {
    const e = this.f.exprs[h];
    if (e.k === "op" && e.op === "not") return { p: this.pred(e.args[0]), negated: true };
    return { p: this.pred(h), negated: false };
  }

  /** A predicate register holding a bool expression. */
  private pred(h: ExprHandle): string {
    const v = this.expr(h);
    if (v.startsWith("%")) return v;
    const p = this.reg("p");
    this.line(`setp.ne.u32 ${p}, ${v === "1" ? 1 : 0}, 0;`);
    return p;
  }

  private op(e: Extract<Expr, { k: "op" }>): string {
    const t = scalarOf(this.f.exprs[e.args[0]].type);
    const rt = scalarOf(e.type);
    // Short-circuit logic: the right operand is evaluated only when needed if it may load.
    if (e.op === "land" || e.op === "lor") {
      const r = this.reg("p");
      const a = this.pred(e.args[0]);
      if (!readsMemory(this.f, e.args[1])) {
        const b = this.pred(e.args[1]);
        this.line(`${e.op === "land" ? "and" : "or"}.pred ${r}, ${a}, ${b};`);
        return r;
      }
      const skip = this.label("sc");
      this.line(`mov.pred ${r}, ${a};`);
      this.line(`@${e.op === "land" ? "!" : ""}${r} bra ${skip};`);
      this.line(`mov.pred ${r}, ${this.pred(e.args[1])};`);
      this.line(`${skip}:`);
      return r;
    }
    const args = e.args.map((a) => this.expr(a));
    return this.arith.opValue(e.op, args, t, rt);
  }

}

// ---- helpers -----------------------------------------------------------------------------------

const BUILTINS: Record<Builtin, string> = {
  "threadIdx.x": "%tid.x", "threadIdx.y": "%tid.y", "threadIdx.z": "%tid.z",
  "blockIdx.x": "%ctaid.x", "blockIdx.y": "%ctaid.y", "blockIdx.z": "%ctaid.z",
  "blockDim.x": "%ntid.x", "blockDim.y": "%ntid.y", "blockDim.z": "%ntid.z",
  "gridDim.x": "%nctaid.x", "gridDim.y": "%nctaid.y", "gridDim.z": "%nctaid.z",
  subgroupSize: "WARP_SZ", subgroupLaneId: "%laneid",
};

function spaceOf(space: string): ArrayRef["space"] {
  return space === "shared" ? "shared" : space === "private" ? "local" : "global";
}

/** A constant table's data as an initialized .global array (relocation strategy `bake`). */
function bakedTable(symbol: string, elem: Scalar, value: ArrayLike<number>): string {
  const type = elem === "f32" ? "f32" : elem === "f64" ? "f64" : elem === "i32" ? "s32" : "u32";
  const items = Array.from(value, (v) => immediate(v, elem));
  if (!items.length) items.push(immediate(0, elem));   // PTX has no zero-length arrays
  const lines: string[] = [];
  for (let i = 0; i < items.length; i += 8) lines.push("  " + items.slice(i, i + 8).join(", "));
  return `.global .align ${elem === "f64" ? 8 : 4} .${type} ${symbol}[${items.length}] = {\n${lines.join(",\n")}\n};`;
}
