// The WGSL back end: validated IR (every helper inlined) → one compute shader.
//
// Layout of the shader's bindings (group 0), which the artifact describes for the loader:
//   0      uniform `params`: the scalar parameters, then the length of every array parameter,
//          then where each narrow array parameter starts in its binding (`<name>_off`, elements),
//          then `gpuc_zero` (always 0) where a loop has an opaque exit test (see exitTest)
//   1      storage `state`: the kernel state (exception record, print area), atomic i32
//   2…     storage, one per array parameter (read-only unless the kernel writes it); a narrow
//          one (8- or 16-bit elements) is packed in u32 words, atomic<u32> when written
//   then   storage, read-only, one per constant table (relocation strategy `table`)
// The workgroup size is three override constants, so one shader serves every block size.

import type { Block, Builtin, Expr, ExprHandle, Function, Loc, Module, Stmt } from "../../ir/module.js";
import { assertNeverIR, exprOperands, stmtOperands, walkStmts } from "../../ir/module.js";
import { completesBlock, someStmt, usesExpr } from "../../ir/module-info.js";
import type { OpName } from "../../ir/ops.js";
import { T, elemBytes, elemScalar, isNarrow, type Elem, type Narrow, type Scalar, type Type } from "../../ir/types.js";
import { LocationTable } from "../locations.js";
import { assertLegalized } from "../../ir/passes/legalize.js";
import { Namer, legalName, numbered, type NameRules } from "../names.js";
import { InternalCompilerError, quoteName } from "../../errors.js";
import { helperClosure } from "../helpers.js";
import { C_FAMILY_OPS, call, infix, lowered, prefix, type OpSpelling } from "../c-family.js";
import { WGSL_HELPERS } from "./helpers.js";
import { dynamicLength, type WGSLLayout } from "./layout.js";
import { markAccess, markDeclaration, markMention, takeSites } from "./sites.js";

interface WGSLCode { code: string; entry: string; layout: WGSLLayout; locations: Loc[] }

const RESERVED = new Set(`alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if let
  loop override requires return struct switch true var while array atomic bool f16 f32 i32 u32 mat2x2 mat3x3 mat4x4 ptr sampler texture_2d vec2 vec3 vec4
  bitcast select main params state lid wid nwg wgx wgy wgz`.split(/\s+/));

const REPORT = "gpuc_report_exception";

/**
 * Where a kernel raises an exception (a check that fired, a throw), it keeps the first one it
 * raised in a private vector, and main writes it to the kernel state once, after the body: one
 * copy of the record's claim and atomic stores per shader, not one per check. (Mesa inlines every
 * function, and compiling each copy of the record costs lavapipe milliseconds: BENCHMARKS §m.)
 * The same record is written as if each site reported at once: the first exception of the thread
 * (a thread stops at its trap; in a kernel with barriers it goes on, and a later one is not kept),
 * claimed by whichever thread's compare-exchange comes first, as between sites before.
 */
const RAISE = `fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}`;

const SCALAR: Record<Scalar, string> = { bool: "bool", i32: "i32", u32: "u32", f32: "f32", f64: "f64" };

export function emitWGSL(m: Module): WGSLCode {
  assertLegalized(m, "wgsl");
  return new WGSLEmitter(m).emit();
}

class WGSLEmitter {
  private f: Function;
  private names: string[] = [];
  private lines: string[] = [];
  private lineLocs: number[] = [];
  private stmtLoc: Loc | null = null;
  private hasBarrier = false;
  /** Whether the kernel uses subgroup operations or builtins (the `subgroups` feature). */
  private usesSubgroups = false;
  /** Whether threads may communicate through storage buffers (an array written and read, or atomic). */
  private storageShared = false;
  /** Helper functions of the prelude the code uses (emitted before main). */
  private prelude = new Set<string>();
  private use(name: string, text: string): string { this.prelude.add(name); return text; }
  /** Depth of `continuing` blocks being emitted (WGSL forbids `return` in them). */
  private inContinuing = 0;
  /** Depth of `if`/`switch` bodies being emitted (a workgroupUniformLoad must not be under one). */
  private branchDepth = 0;
  private trapsInContinuing = false;
  /** Whether the kernel raises exceptions (calls the runtime's report): then they go through gpuc_raise. */
  private raises = false;
  private atomicArrays = new Set<string>(); // keys: "p3" (param local), "g1", "s0", "state"
  private written = new Set<string>();
  private locations = new LocationTable();
  /**
   * Loops being emitted, innermost last: each one's own exit test (its head `if`), and whether it
   * repeats at all (an inlined helper's body is a loop that always ends in `break`: a block).
   */
  private loops: { head: Stmt | null; repeats: boolean }[] = [];
  /** Whether some exit test was made opaque (then the params block has the `gpuc_zero` field). */
  private opaqueExits = false;
  /** The binding of each array parameter of the kernel, by local: where its variable is named is marked (sites.ts). */
  private paramBindings = new Map<number, number>();

  constructor(private m: Module) {
    this.f = m.functions[m.entry];
    const left = m.functions.filter((f, i) => i !== m.entry && f.kind !== "runtime");
    if (left.length) throw new InternalCompilerError(`WGSL needs every helper inlined ('${left[0].name}' is not)`);
  }

  emit(): WGSLCode {
    const f = this.f;
    const report = this.m.functions.findIndex((g) => g.kind === "runtime" && g.name === REPORT);
    walkStmts(f.body, (s) => { if (s.k === "call" && s.fn === report) this.raises = true; });
    const names = new Namer(numbered);
    f.locals.forEach((l, i) => { this.names[i] = i === f.stateParam ? names.reserve("state") : names.take(`v_${sanitize(l.name)}`); });
    // Which arrays are used atomically (then every access is atomic), written, read.
    const read = new Set<string>();
    const visitRead = (h: ExprHandle): void => {
      const e = f.exprs[h];
      if (e.k === "load") read.add(this.arrayKey(e.array));
      for (const o of exprOperands(e)) visitRead(o);
    };
    walkStmts(f.body, (s) => {
      for (const h of stmtOperands(s)) visitRead(h);
      if (s.k === "barrier") this.hasBarrier = true;
      if (s.k === "atomic") { this.atomicArrays.add(this.arrayKey(s.array)); this.written.add(this.arrayKey(s.array)); }
      if (s.k === "store") this.written.add(this.arrayKey(s.array));
    });
    this.atomicArrays.add("state");
    this.storageShared = [...this.written].some((k) => (k.startsWith("p") || k.startsWith("g")) && (read.has(k) || this.atomicArrays.has(k)));
    const layout: WGSLLayout = { bindings: [], fields: [], workgroupSize: ["wgx", "wgy", "wgz"], lines: [], sites: [] };
    const decls: string[] = [];
    // The params block.
    f.params.forEach((p, i) => {
      const t = f.locals[p].type;
      if (t.kind === "scalar") layout.fields.push({ name: this.names[p], type: t.scalar === "bool" ? "u32" : (t.scalar as "i32" | "u32" | "f32"), source: { param: i, length: false } });
    });
    f.params.forEach((p, i) => {
      if (f.locals[p].type.kind === "array") layout.fields.push({ name: `${this.names[p]}_len`, type: "i32", source: { param: i, length: true } });
    });
    f.params.forEach((p, i) => {
      const t = f.locals[p].type;
      if (t.kind === "array" && isNarrow(t.elem)) layout.fields.push({ name: `${this.names[p]}_off`, type: "u32", source: { param: i, length: false, offset: true } });
    });
    const paramsDecl = decls.push("") - 1; // written after the body: an opaque exit test adds a field
    decls.push("@group(0) @binding(0) var<uniform> params: Params;");
    layout.bindings.push({ binding: 0, kind: "uniform", readOnly: true, role: "params", index: 0 });
    // The kernel state, only where the code records something in it (a check that can still fire,
    // a throw, a print, …): a kernel whose checks were all proven away (or turned off) carries no
    // exception machinery at all, and its launches read nothing back (binding 1 stays unused).
    if (this.usesState()) {
      decls.push("@group(0) @binding(1) var<storage, read_write> state: array<atomic<i32>>;");
      layout.bindings.push({ binding: 1, kind: "storage", readOnly: false, role: "state", index: 0 });
    }
    let b = 2;
    f.params.forEach((p, i) => {
      const t = f.locals[p].type;
      if (t.kind !== "array") return;
      const key = `p${p}`;
      const ro = !this.written.has(key);
      decls.push(markDeclaration(b, `@group(0) @binding(${b}) var<storage, ${ro ? "read" : "read_write"}> ${this.names[p]}: array<${this.elemType(key, t.elem)}>;`));
      this.paramBindings.set(p, b);
      layout.bindings.push({ binding: b++, kind: "storage", readOnly: ro, role: "param", index: i });
    });
    this.m.globals.forEach((g, i) => {
      decls.push(`@group(0) @binding(${b}) var<storage, read> ${this.global(i)}: array<${SCALAR[g.type.elem as Scalar]}>;`);
      layout.bindings.push({ binding: b++, kind: "storage", readOnly: true, role: "table", index: i });
    });
    // A shared array sized at launch: its length is a pipeline-overridable constant (one pipeline per size).
    let dynamic = 0;
    // A narrow shared array is packed in u32 words (its word count another override where sized at launch).
    this.m.shared.forEach((sh, i) => {
      const per = isNarrow(sh.type.elem) ? 4 / elemBytes(sh.type.elem) : 1;
      let count = String(sh.type.size !== null ? Math.ceil(sh.type.size / per) : 0);
      if (sh.size) {
        const n = dynamicLength(dynamic++);
        decls.push(`override ${n}: i32;`);
        if (per > 1) decls.push(`override ${n}_words: i32 = (${n} + ${per - 1}) / ${per};`);
        count = per > 1 ? `${n}_words` : n;
      }
      decls.push(`var<workgroup> ${this.shared(i)}: array<${this.elemType(`s${i}`, sh.type.elem)}, ${count}>;`);
    });
    decls.push("override wgx: u32 = 1u;", "override wgy: u32 = 1u;", "override wgz: u32 = 1u;");

    const vars: string[] = [];
    // Scalar parameters come from the params block into locals (a kernel may assign its parameters).
    for (const p of f.params) {
      const t = f.locals[p].type;
      if (t.kind !== "scalar") continue;
      vars.push(`  var ${this.names[p]}: ${SCALAR[t.scalar]} = ${t.scalar === "bool" ? `params.${this.names[p]} != 0u` : `params.${this.names[p]}`};`);
    }
    f.locals.forEach((l, i) => {
      if (f.params.includes(i as never) || i === f.stateParam) return;
      vars.push(`  var ${this.names[i]}: ${this.typeText(l.type)};`);
    });
    this.block(f.body, 1);
    if (this.trapsInContinuing) vars.push("  var gpuc_trapped: bool = false;");
    const runtime = this.m.functions.filter((g) => g.kind === "runtime");
    for (const g of runtime) decls.push("", this.runtimeFunction(g));
    if (this.raises) decls.push("", "var<private> gpuc_exc: vec4<i32>;", RAISE);
    if (this.opaqueExits) layout.fields.push({ name: "gpuc_zero", type: "u32", source: { param: -1, length: false } });
    if (!layout.fields.length) layout.fields.push({ name: "unused", type: "i32", source: { param: -1, length: false } });
    decls[paramsDecl] = `struct Params {\n${layout.fields.map((x) => `  ${x.name}: ${x.type},`).join("\n")}\n}`;
    const helpers = helperClosure(WGSL_HELPERS, this.prelude);
    if (helpers.length) decls.push("", ...helpers.map((n) => WGSL_HELPERS[n].text));
    // Subgroups: the feature, and no uniformity diagnostic (the kernel language's rule is that a
    // subgroup's threads agree on the control flow around a subgroup operation; WGSL's analysis
    // would reject any after a bounds check).
    const subgroups = this.usesSubgroups ? ["enable subgroups;", "diagnostic(off, subgroup_uniformity);"] : [];
    const subgroupParams = this.usesSubgroups ? ", @builtin(subgroup_invocation_id) sgl: u32, @builtin(subgroup_size) sgs: u32" : "";
    const builtins = `@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>${subgroupParams}`;
    const entry = ["@compute @workgroup_size(wgx, wgy, wgz)", `fn main(${builtins}) {`];
    // A kernel that raises: its body is a function of its own, and main reports what it raised
    // (the one place the exception record is written; see RAISE).
    const [open, close] = !this.raises ? [[...entry, ...vars], ["}"]] : [
      [`fn gpuc_kernel(${builtins.replace(/@builtin\(\w+\) /g, "")}) {`, ...vars],
      ["}", "", ...entry, `  gpuc_kernel(lid, wid, nwg${this.usesSubgroups ? ", sgl, sgs" : ""});`,
        `  if (gpuc_exc.x != 0i) { ${REPORT}(lid, wid, gpuc_exc.x, gpuc_exc.y, gpuc_exc.z, gpuc_exc.w); }`, "}"],
    ];
    const head = [
      ...subgroups,
      // (Any name a function property holds: quoted on one line of printable ASCII, as WGSL
      // ends a comment at any line break, U+2028 included, and the layout counts lines.)
      `// gpuc: kernel ${quoteName(f.name)}`,
      ...decls,
      "",
      ...open,
    ].join("\n").split("\n");
    layout.lines = [...head.map(() => -1), ...this.lineLocs, ...close.map(() => -1)];
    const { code, sites } = takeSites([...head, ...this.lines, ...close, ""].join("\n"));
    layout.sites = sites;
    return { code, entry: "main", layout, locations: this.locations.list };
  }

  /** Whether the module reads or writes the kernel state: a runtime function, or the kernel's state parameter read. */
  private usesState(): boolean {
    if (this.m.functions.some((g) => g.kind === "runtime")) return true;
    const f = this.f;
    return f.stateParam !== null && usesExpr(f, (e) => e.k === "local" && e.local === f.stateParam);
  }

  /** A runtime-library function as a WGSL function (its state parameter becomes the `state` binding). */
  private runtimeFunction(g: Function): string {
    const saved = { f: this.f, names: this.names, lines: this.lines, lineLocs: this.lineLocs, stmtLoc: this.stmtLoc };
    this.f = g;
    this.names = g.locals.map((l, i) => (i === g.params[0] ? "state" : `v_${sanitize(l.name)}_${i}`));
    this.lines = [];
    this.lineLocs = [];
    this.block(g.body, 1);
    // The thread's and block's indices are parameters: runtime functions are called only where
    // main's builtins are at hand (the entry and main; helpers are inlined), so no private copies.
    const params = ["lid: vec3<u32>", "wid: vec3<u32>", ...g.params.slice(1).map((p) => `${this.names[p]}: ${this.typeText(g.locals[p].type)}`)];
    const vars = g.locals.map((l, i) => ({ l, i })).filter(({ i }) => !g.params.includes(i as never)).map(({ l, i }) => `  var ${this.names[i]}: ${this.typeText(l.type)};`);
    const ret = g.returnType.kind === "scalar" ? ` -> ${SCALAR[g.returnType.scalar]}` : "";
    const text = [`fn ${g.name}(${params.join(", ")})${ret} {`, ...vars, ...this.lines, "}"].join("\n");
    Object.assign(this, saved);
    return text;
  }

  // ---- names and types ---------------------------------------------------------------------

  private global(i: number): string { return `g_${sanitize(this.m.globals[i].name)}`; }
  private shared(i: number): string { return `s_${sanitize(this.m.shared[i].name)}_${i}`; }

  /** A storage or workgroup array's element type in WGSL: narrow elements are packed in u32 words, atomic when written (see packedStore). */
  private elemType(key: string, elem: Elem): string {
    if (isNarrow(elem)) return this.written.has(key) ? "atomic<u32>" : "u32";
    return this.atomicArrays.has(key) ? `atomic<${SCALAR[elem]}>` : SCALAR[elem];
  }

  /** Private arrays: narrow elements are i32s, each holding its element's value (stores narrow it). */
  private typeText(t: Type): string {
    if (t.kind === "scalar") return SCALAR[t.scalar];
    if (t.kind === "array" && t.size !== null) return `array<${SCALAR[elemScalar(t.elem)]}, ${t.size}>`;
    throw new InternalCompilerError(`WGSL local of type ${JSON.stringify(t)}`);
  }

  /** "p<local>", "g<global>", "s<shared>", "state" or "l<private local>" for an array expression. */
  private arrayKey(h: ExprHandle): string {
    const e = this.f.exprs[h];
    if (e.k === "local") {
      // The kernel's state, or a runtime function's state parameter (the module binding).
      if (e.local === this.f.stateParam || (this.f.kind === "runtime" && e.local === this.f.params[0])) return "state";
      return this.f.params.includes(e.local) ? `p${e.local}` : `l${e.local}`;
    }
    if (e.k === "global") return `g${e.global}`;
    if (e.k === "shared") return `s${e.shared}`;
    throw new InternalCompilerError(`array expression of kind ${e.k}`);
  }

  private locationId(l: Loc): number { return this.locations.id(l); }

  // ---- statements --------------------------------------------------------------------------

  private line(d: number, text: string): void {
    this.lines.push("  ".repeat(d) + text);
    this.lineLocs.push(this.stmtLoc ? this.locationId(this.stmtLoc) : -1);
  }

  // (In a kernel with barriers a thread that returns or traps goes on through them, done: the
  // done guards are the IR's by now, ir/passes/done-guards.ts; such a kernel has no return or
  // trap left.)
  private block(b: Block, d: number): void {
    for (const s of b) this.stmt(s, d);
  }

  private element(array: ExprHandle, index: ExprHandle): string {
    // A constant index into a shared array sized at launch: WGSL checks a constant index against
    // the override-sized array when the pipeline is made, even where a bounds check guards the
    // access; through a function's result the index is a run-time value.
    const a = this.f.exprs[array], i = this.f.exprs[index];
    if (a.k === "shared" && this.m.shared[a.shared].size && i.k === "const") {
      const at = this.use("gpuc_index", i.type === T.u32 ? `u32(gpuc_index(bitcast<i32>(${this.expr(index)})))` : `gpuc_index(${this.expr(index)})`);
      return `${this.expr(array)}[${at}]`;
    }
    return this.indexed(array, this.expr(index));
  }

  /** `array[index]`, marked where the array is a parameter of the kernel (see sites.ts). */
  private indexed(array: ExprHandle, index: string): string {
    const binding = this.paramBinding(array);
    return binding === undefined ? `${this.expr(array)}[${index}]` : markAccess(binding, this.names[(this.f.exprs[array] as { local: number }).local], index);
  }

  /** The binding of an array parameter of the kernel, or undefined (any other array, or a runtime function's). */
  private paramBinding(array: ExprHandle): number | undefined {
    const e = this.f.exprs[array];
    return e.k === "local" && this.f === this.m.functions[this.m.entry] ? this.paramBindings.get(e.local) : undefined;
  }

  private stmt(s: Stmt, d: number): void {
    this.stmtLoc = s.loc ?? this.stmtLoc;
    switch (s.k) {
      case "set": {
        // A workgroup value read at a constant index where every thread of the block reads it
        // (not under any branch) is uniform: workgroupUniformLoad says so to WGSL's uniformity
        // analysis (a barrier that depends on it is then in uniform control flow). It is itself a
        // barrier, which every thread reaches here.
        const v = this.f.exprs[s.value];
        if (this.hasBarrier && this.branchDepth === 0 && this.inContinuing === 0 && this.f === this.m.functions[this.m.entry] && v.k === "load") {
          const key = this.arrayKey(v.array), idx = this.f.exprs[v.index];
          if (key.startsWith("s") && !this.atomicArrays.has(key) && !this.narrowOf(v.array) && idx.k === "const") {
            this.line(d, `${this.names[s.local]} = workgroupUniformLoad(&${this.element(v.array, v.index)});`);
            return;
          }
        }
        this.line(d, `${this.names[s.local]} = ${this.expr(s.value)};`);
        return;
      }
      case "store": {
        const narrow = this.narrowOf(s.array);
        if (narrow && this.arrayKey(s.array).startsWith("l")) this.line(d, `${this.element(s.array, s.index)} = ${narrowValue(this.expr(s.value), narrow)};`);
        else if (narrow) this.packedUpdate(d, s.array, s.index, narrow, "store", [s.value], null);
        else if (this.atomicArrays.has(this.arrayKey(s.array))) this.line(d, `atomicStore(&${this.element(s.array, s.index)}, ${this.expr(s.value)});`);
        else this.line(d, `${this.element(s.array, s.index)} = ${this.expr(s.value)};`);
        return;
      }
      case "if":
        this.line(d, `if (${this.exitTest(s, this.expr(s.cond))}) {`);
        this.branchDepth++;
        this.block(s.then, d + 1);
        if (s.else.length) { this.line(d, "} else {"); this.block(s.else, d + 1); }
        this.branchDepth--;
        this.line(d, "}");
        return;
      case "loop": {
        this.line(d, "loop {");
        const head = s.body[0]?.k === "if" && isBreak(s.body[0]) ? s.body[0] : null;
        this.loops.push({ head, repeats: repeats(s) });
        this.block(s.body, d + 1);
        const traps = someStmt(s.continuing, isTrap);
        if (s.continuing.length || s.breakIf !== null) {
          this.line(d + 1, "continuing {");
          this.inContinuing++;
          this.block(s.continuing, d + 2);
          this.inContinuing--;
          // A loop with a head test exits at `break if` too: then that one is a second exit test.
          const breakIf = s.breakIf === null ? [] : [head ? this.opaque(this.expr(s.breakIf)) : this.expr(s.breakIf)];
          const exit = [...(traps ? ["gpuc_trapped"] : []), ...breakIf];
          if (exit.length) this.line(d + 2, `break if ${exit.join(" || ")};`);
          this.line(d + 1, "}");
        }
        this.loops.pop();
        this.line(d, "}");
        if (traps && !this.hasBarrier && this.inContinuing === 0) this.line(d, "if (gpuc_trapped) { return; }");
        return;
      }
      case "switch": return this.switchStmt(s, d);
      case "break": this.line(d, "break;"); return;
      case "continue": this.line(d, "continue;"); return;
      case "return":
        this.line(d, s.value !== null ? `return ${this.expr(s.value)};` : "return;");
        return;
      // A trapping thread stops (in a kernel with barriers it is done instead: the IR's guards).
      case "trap":
        // WGSL forbids `return` in a continuing block: flag it, end the loop, return after it.
        if (this.inContinuing > 0) { this.trapsInContinuing = true; this.line(d, "gpuc_trapped = true;"); return; }
        this.line(d, "return;");
        return;
      // syncthreads() orders shared memory, and global memory too: storageBarrier() (a second full
      // barrier in WGSL) only when some storage array is both written and read by the kernel.
      case "barrier": this.line(d, "workgroupBarrier();"); if (this.storageShared) this.line(d, "storageBarrier();"); return;
      case "init": this.line(d, `${this.names[s.local]} = ${this.typeText(this.f.locals[s.local].type)}();`); return;
      case "atomic": return this.atomic(s, d);
      case "call": {
        // Only runtime functions stay out of line; their state parameter is the module's binding.
        const callee = this.m.functions[s.fn];
        if (callee.name === REPORT && this.f === this.m.functions[this.m.entry]) {
          this.line(d, `gpuc_raise(${s.args.slice(1).map((a) => this.expr(a)).join(", ")});`);
          return;
        }
        const call = `${callee.name}(${["lid", "wid", ...s.args.slice(1).map((a) => this.expr(a))].join(", ")})`;
        this.line(d, s.result !== null ? `${this.names[s.result]} = ${call};` : `${call};`);
        return;
      }
      case "subgroup": return this.subgroup(s, d);
      case "check": throw new InternalCompilerError("a check reached the back end unlowered (legalize lowers them before emission)");
      default: assertNeverIR(s);
    }
  }

  /**
   * The condition of an `if` that can leave the loop around it (a `break`, a `return`),
   * other than the loop's own head test, made opaque to the driver's loop analysis.
   *
   * Why: Mesa's NIR loop analysis (lavapipe, RADV, ANV — every Vulkan driver built on Mesa,
   * measured on Mesa 25.0.7) skips an exit test that compares an induction variable whose start or
   * step is not a constant (`r = n - 1; … r = r + 1; if (r > 8) break;`) without marking it as
   * of unknown trip count (`find_trip_count` in nir_loop_analyze.c `continue`s before setting
   * `exact_trip_count_unknown`), so when another exit test of the same loop has a constant trip
   * count (`q < 4`) the loop is treated as running exactly that many times: the `break` is never
   * taken (or the shader compiler crashes). The SPIR-V Dawn hands over is right; SwiftShader runs
   * it right. An exit test that is `(select(0u, 1u, c) ^ params.gpuc_zero) != 0u` compares no
   * induction variable, so the analysis marks it unknown as it should; `gpuc_zero` is a params
   * field the device always fills with 0, so the test is `c`. The head test stays as it is (the
   * loop can still be unrolled by its trip count); with every other test opaque, no loop has both
   * a counted test and a skipped one. Cost: a select and a xor per exit test taken.
   */
  private exitTest(s: Extract<Stmt, { k: "if" }>, cond: string): string {
    const inner = this.loops[this.loops.length - 1];
    if (!inner || inner.head === s || !this.loops.some((l) => l.repeats)) return cond;
    // In a block (no back edge, nothing to analyse) only a return leaves a loop around it.
    return leavesLoop(s, inner.repeats) ? this.opaque(cond) : cond;
  }

  private opaque(cond: string): string {
    this.opaqueExits = true;
    return `((select(0u, 1u, ${cond}) ^ params.gpuc_zero) != 0u)`;
  }

  /** WGSL cases do not fall through: a case that would falls into a copy of the next case's body. */
  private switchStmt(s: Extract<Stmt, { k: "switch" }>, d: number): void {
    this.branchDepth++;
    try { this.switchCases(s, d); } finally { this.branchDepth--; }
  }

  private switchCases(s: Extract<Stmt, { k: "switch" }>, d: number): void {
    const sel = this.expr(s.selector);
    const t = this.f.exprs[s.selector].type;
    const suffix = t === T.u32 ? "u" : "i";
    this.line(d, `switch (${sel}) {`);
    let sawDefault = false;
    s.cases.forEach((c, i) => {
      const labels = [...c.values.map((v) => `${v}${suffix}`), ...(c.isDefault ? ["default"] : [])];
      sawDefault ||= c.isDefault;
      this.line(d + 1, `case ${labels.join(", ")}: {`);
      let j = i;
      for (;;) {
        const body = s.cases[j].body;
        this.block(body, d + 2);
        if (!s.cases[j].fallthrough || j + 1 >= s.cases.length || !completesBlock(body)) break;
        j++;
      }
      this.line(d + 1, "}");
    });
    if (!sawDefault) this.line(d + 1, "default: {}");
    this.line(d, "}");
  }

  /**
   * Element `index` of a packed narrow array as a u32 index of elements in its binding (a
   * parameter's view starts `params.<name>_off` elements in), and the index of its word.
   */
  private packedIndex(array: ExprHandle, index: ExprHandle, narrow: Narrow): { element: string; word: (element: string) => string } {
    const a = this.f.exprs[array], i = this.f.exprs[index];
    let at = this.expr(index);
    // A constant index into a shared array sized at launch: a run-time value (see element()).
    if (a.k === "shared" && this.m.shared[a.shared].size && i.k === "const")
      at = this.use("gpuc_index", i.type === T.u32 ? `u32(gpuc_index(bitcast<i32>(${at})))` : `gpuc_index(${at})`);
    let element = i.type === T.u32 ? at : `u32(${at})`;
    if (a.k === "local" && this.f.params.includes(a.local)) element = `(${element} + params.${this.names[a.local]}_off)`;
    return { element, word: (e) => this.indexed(array, `${e} >> ${elemBytes(narrow) === 1 ? 2 : 1}u`) };
  }

  private packedLoad(array: ExprHandle, index: ExprHandle, narrow: Narrow): string {
    const { element, word } = this.packedIndex(array, index, narrow);
    const fn = `gpuc_ld_${narrow === "u8c" ? "u8" : narrow}`;
    return this.use(fn, `${fn}(${this.written.has(this.arrayKey(array)) ? `atomicLoad(&${word(element)})` : word(element)}, ${element})`);
  }

  /**
   * A store or atomic on an element of a packed narrow array (storage or workgroup): WGSL has no
   * 8- or 16-bit memory, and a plain read-modify-write of the word would undo a neighbour's store
   * made by another thread meanwhile, so every write is a compare-exchange loop on the word that
   * changes only this element's bits (a store is never seen half done, and racing stores to one
   * element leave one of their values, as in JavaScript). `result` gets the old element, or the
   * stored value for `store`.
   */
  private packedUpdate(d: number, array: ExprHandle, index: ExprHandle, narrow: Narrow, op: Extract<Stmt, { k: "atomic" }>["op"], args: ExprHandle[], result: number | null): void {
    const { element, word } = this.packedIndex(array, index, narrow);
    const ld = this.use(`gpuc_ld_${narrow === "u8c" ? "u8" : narrow}`, `gpuc_ld_${narrow === "u8c" ? "u8" : narrow}`);
    const put = this.use(elemBytes(narrow) === 1 ? "gpuc_put8" : "gpuc_put16", elemBytes(narrow) === 1 ? "gpuc_put8" : "gpuc_put16");
    const x = args.map((a) => this.expr(a));
    this.line(d, "{");
    this.line(d + 1, `let gpuc_e = ${element};`);
    this.line(d + 1, `let gpuc_w = &${word("gpuc_e")};`);
    x.forEach((v, i) => this.line(d + 1, `let gpuc_x${i} = ${v};`));
    if (op === "load") {
      if (result !== null) this.line(d + 1, `${this.names[result]} = ${ld}(atomicLoad(gpuc_w), gpuc_e);`);
      this.line(d, "}");
      return;
    }
    const next: Record<string, string> = {
      add: "gpuc_c + gpuc_x0", sub: "gpuc_c - gpuc_x0", and: "gpuc_c & gpuc_x0", or: "gpuc_c | gpuc_x0", xor: "gpuc_c ^ gpuc_x0",
      exchange: "gpuc_x0", store: "gpuc_x0", compareExchange: "select(gpuc_c, gpuc_x1, gpuc_c == gpuc_x0)",
    };
    if (!(op in next)) throw new InternalCompilerError(`atomic ${op} on ${narrow} elements`);
    this.line(d + 1, "var gpuc_o = atomicLoad(gpuc_w);");
    this.line(d + 1, "var gpuc_c: i32;");
    this.line(d + 1, "loop {");
    this.line(d + 2, `gpuc_c = ${ld}(gpuc_o, gpuc_e);`);
    this.line(d + 2, `let r = atomicCompareExchangeWeak(gpuc_w, gpuc_o, ${put}(gpuc_o, gpuc_e, ${next[op]}));`);
    this.line(d + 2, "if (r.exchanged) { break; }");
    this.line(d + 2, "gpuc_o = r.old_value;");
    this.line(d + 1, "}");
    if (result !== null) this.line(d + 1, `${this.names[result]} = ${op === "store" ? "gpuc_x0" : "gpuc_c"};`);
    this.line(d, "}");
  }

  /** The narrow element type of an array expression, or null. */
  private narrowOf(array: ExprHandle): Narrow | null {
    const t = this.f.exprs[array].type;
    return t.kind === "array" && isNarrow(t.elem) ? t.elem : null;
  }

  private atomic(s: Extract<Stmt, { k: "atomic" }>, d: number): void {
    const narrow = this.narrowOf(s.array);
    if (narrow) return this.packedUpdate(d, s.array, s.index, narrow, s.op, s.args, s.result);
    const ptr = `&${this.element(s.array, s.index)}`;
    const v = s.args.map((a) => this.expr(a));
    const set = (x: string): string => (s.result !== null ? `${this.names[s.result]} = ${x};` : `_ = ${x};`);
    const fn: Record<string, string> = { add: "atomicAdd", sub: "atomicSub", and: "atomicAnd", or: "atomicOr", xor: "atomicXor", min: "atomicMin", max: "atomicMax", exchange: "atomicExchange" };
    switch (s.op) {
      case "load": this.line(d, set(`atomicLoad(${ptr})`)); return;
      case "store":
        this.line(d, `atomicStore(${ptr}, ${v[0]});`);
        if (s.result !== null) this.line(d, `${this.names[s.result]} = ${v[0]};`);
        return;
      case "compareExchange":
        // WGSL's exchange may fail spuriously: retry until it succeeds or sees another value.
        this.line(d, "loop {");
        this.line(d + 1, `let r = atomicCompareExchangeWeak(${ptr}, ${v[0]}, ${v[1]});`);
        this.line(d + 1, `if (r.exchanged || r.old_value != ${v[0]}) { ${s.result !== null ? `${this.names[s.result]} = r.old_value; ` : ""}break; }`);
        this.line(d, "}");
        return;
      default: this.line(d, set(`${fn[s.op]}(${ptr}, ${v[0]})`));
    }
  }

  /**
   * A subgroup operation with the `subgroups` feature's builtins. WGSL leaves a shuffle from a lane
   * past the subgroup undefined: the lane is computed in range and the reader's own value chosen
   * where JS's meaning (ir/module.ts SubgroupOp) says so; every lane still takes part in the one
   * subgroupShuffle. bool values travel as u32.
   */
  private subgroup(s: Extract<Stmt, { k: "subgroup" }>, d: number): void {
    this.usesSubgroups = true;
    const out = this.names[s.result];
    const t = (this.f.exprs[s.args[0]].type as { scalar: Scalar }).scalar;
    const v = this.expr(s.args[0]);
    const reduce: Record<string, string> = { add: "subgroupAdd", min: "subgroupMin", max: "subgroupMax", any: "subgroupAny", all: "subgroupAll" };
    if (s.op in reduce) { this.line(d, `${out} = ${reduce[s.op]}(${v});`); return; }
    if (s.op === "ballot") { this.line(d, `${out} = subgroupBallot(${v}).x;`); return; }
    const n = this.expr(s.args[1]);
    this.line(d, "{");
    this.line(d + 1, `let gpuc_v = ${t === "bool" ? `select(0u, 1u, ${v})` : v};`);
    this.line(d + 1, `let gpuc_n = ${n};`);
    // [lane read, whether it is in the subgroup]
    const [lane, inside] = {
      shuffle: ["gpuc_n % sgs", "true"],
      shuffleDown: ["min(sgl + gpuc_n, sgs - 1u)", "gpuc_n < sgs - sgl"],
      shuffleUp: ["select(0u, sgl - gpuc_n, gpuc_n <= sgl)", "gpuc_n <= sgl"],
      shuffleXor: ["min(sgl ^ gpuc_n, sgs - 1u)", "(sgl ^ gpuc_n) < sgs"],
    }[s.op as "shuffle"];
    const shuffled = `subgroupShuffle(gpuc_v, ${lane})`;
    const r = inside === "true" ? shuffled : `select(gpuc_v, ${shuffled}, ${inside})`;
    this.line(d + 1, `${out} = ${t === "bool" ? `(${r}) != 0u` : r};`);
    this.line(d, "}");
  }

  // ---- expressions -------------------------------------------------------------------------

  private expr(h: ExprHandle): string {
    const e: Expr = this.f.exprs[h];
    switch (e.k) {
      case "const": return constant(e.value, e.type, (n, t) => this.use(n, t));
      case "local": {
        const binding = this.paramBinding(h);
        return binding === undefined ? this.names[e.local] : markMention(binding, this.names[e.local]);
      }
      case "global": return this.global(e.global);
      case "shared": return this.shared(e.shared);
      case "builtin":
        if (e.name.startsWith("subgroup")) this.usesSubgroups = true;
        // (A runtime function has lid and wid as parameters: see runtimeFunction.)
        if (this.f !== this.m.functions[this.m.entry] && !/^(threadIdx|blockIdx|blockDim)\./.test(e.name))
          throw new InternalCompilerError(`the WGSL runtime function ${this.f.name} reads ${e.name}`);
        return BUILTINS[e.name];
      case "location": return `${this.locationId(e.site)}i`;
      case "length": {
        const a = this.f.exprs[e.array];
        if (this.arrayKey(e.array) === "state") return "i32(arrayLength(&state))";
        if (a.k === "local" && this.f.params.includes(a.local)) return `params.${this.names[a.local]}_len`;
        if (a.k === "global") return `${this.m.globals[a.global].value.length}i`;
        if (a.k === "shared" && this.m.shared[a.shared].size) return dynamicLength(this.m.shared.slice(0, a.shared).filter((s) => s.size).length);
        if (a.k === "local" && a.local === this.f.stateParam) return "i32(arrayLength(&state))";
        throw new InternalCompilerError("length of an array of constant size survived folding");
      }
      case "load": {
        const narrow = this.narrowOf(e.array);
        if (narrow && !this.arrayKey(e.array).startsWith("l")) return this.packedLoad(e.array, e.index, narrow);
        if (this.atomicArrays.has(this.arrayKey(e.array))) return `atomicLoad(&${this.element(e.array, e.index)})`;
        return this.element(e.array, e.index);
      }
      case "select": return `select(${this.expr(e.b)}, ${this.expr(e.a)}, ${this.expr(e.cond)})`;
      case "convert": {
        // f32 → i32/u32 gets inputs WGSL's conversion agrees on (legalize wraps the others as JS does).
        const from = (this.f.exprs[e.arg].type as { scalar: Scalar }).scalar, to = (e.type as { scalar: Scalar }).scalar;
        return convert(this.expr(e.arg), from, to);
      }
      case "op": return this.op(e.op, e.args.map((a) => this.expr(a)), (this.f.exprs[e.args[0]].type as { scalar: Scalar }).scalar);
      default: return assertNeverIR(e);
    }
  }

  /**
   * One op, legalized (legal.ts says which ops WGSL spells natively and which with a helper of
   * the prelude; ir/passes/legalize.ts has rewritten the others).
   */
  private op(op: OpName, a: string[], t: Scalar): string {
    return WGSL_OPS[op](a, t, (name, text) => this.use(name, text));
  }
}

/** How WGSL spells each op: the C family's, and its own where it differs. */
const WGSL_OPS: Record<OpName, OpSpelling> = {
  ...C_FAMILY_OPS,
  add: infix("+"), sub: infix("-"), mul: infix("*"),
  // Floats: JS's % is exact (fmod); WGSL's is x - y * trunc(x / y), wrong for large quotients.
  rem: ([x, y], t, use) => (t === "f32" ? use("gpuc_fmodf", `gpuc_fmodf(${x}, ${y})`) : `(${x} % ${y})`),
  min: call("min"), max: call("max"),
  // JS's pow and atan2 at the inputs WGSL leaves undefined (negative bases, zeros).
  pow: ([x, y], _t, use) => use("gpuc_pow", `gpuc_pow(${x}, ${y})`),
  atan2: ([x, y], _t, use) => use("gpuc_atan2", `gpuc_atan2(${x}, ${y})`),
  hypot: ([x, y]) => `length(vec2<f32>(${x}, ${y}))`,
  neg: prefix("-"), abs: call("abs"), sign: call("sign"),
  // The count is u32 in WGSL (and already below 32).
  shl: ([x, y], t) => `(${x} << ${shiftCount(y, t)})`,
  shr: ([x, y], t) => `(${x} >> ${shiftCount(y, t)})`,
  clz32: ([x]) => `i32(countLeadingZeros(${x}))`,
  round: lowered("WGSL", "round"),
  cbrt: ([x], _t, use) => `(${use("gpuc_signf", `gpuc_signf(${x})`)} * pow(abs(${x}), 1.0 / 3.0))`,
  expm1: ([x]) => `(exp(${x}) - 1.0)`,
  log10: ([x]) => `(log2(${x}) * 0.30102999566398120)`,
  log1p: ([x]) => `log(1.0 + ${x})`,
  // By bits: WGSL compilers may assume floats are never NaN or infinite.
  isnan: ([x], _t, use) => use("gpuc_isnan", `gpuc_isnan(${x})`),
  isfinite: ([x]) => `((bitcast<u32>(${x}) & 0x7f800000u) != 0x7f800000u)`,
  f32bits: ([x]) => `bitcast<i32>(${x})`,
  f64hi: lowered("WGSL", "f64hi", "WGSL has no f64"), f64lo: lowered("WGSL", "f64lo", "WGSL has no f64"),
};

const BUILTINS: Record<Builtin, string> = {
  "threadIdx.x": "i32(lid.x)", "threadIdx.y": "i32(lid.y)", "threadIdx.z": "i32(lid.z)",
  "blockIdx.x": "i32(wid.x)", "blockIdx.y": "i32(wid.y)", "blockIdx.z": "i32(wid.z)",
  "blockDim.x": "i32(wgx)", "blockDim.y": "i32(wgy)", "blockDim.z": "i32(wgz)",
  "gridDim.x": "i32(nwg.x)", "gridDim.y": "i32(nwg.y)", "gridDim.z": "i32(nwg.z)",
  subgroupSize: "i32(sgs)", subgroupLaneId: "i32(sgl)",
};

/** A shift count as WGSL wants it: u32 (a constant written as one). */
function shiftCount(y: string, t: Scalar): string {
  const c = /^(\d+)[iu]$/.exec(y);
  return c ? `${c[1]}u` : t === "u32" ? y : `u32(${y})`;
}

function convert(x: string, from: Scalar, to: Scalar): string {
  if (to === "bool") return from === "f32" ? `(${x} != 0.0)` : `(${x} != ${from === "u32" ? "0u" : "0i"})`;
  if (from === "bool") return `select(${to === "f32" ? "0.0, 1.0" : to === "u32" ? "0u, 1u" : "0i, 1i"}, ${x})`;
  // i32 ↔ u32 reinterpret the bits; f32 → i32/u32 truncates (legalize gives it only inputs in range).
  return `${SCALAR[to]}(${x})`;
}

function constant(v: number | boolean, t: Type, use: (name: string, text: string) => string): string {
  if (typeof v === "boolean") return String(v);
  const s = (t as { scalar: Scalar }).scalar;
  if (s === "i32") return v === -2147483648 ? "i32(-2147483648)" : `${v}i`;
  if (s === "u32") return `${v}u`;
  // f32: the shortest decimal of the f32's exact value. WGSL has no NaN or infinity literals, and
  // a constant bitcast to one is rejected; they come from bits held in a private variable.
  if (v !== v) return use("gpuc_nan", "gpuc_nan()");
  if (v === Infinity) return use("gpuc_inf", "gpuc_inf()");
  if (v === -Infinity) return use("gpuc_inf", "(-gpuc_inf())");
  if (Object.is(v, -0)) return "-0.0f";
  const text = String(v);
  return `${text}${/[.e]/.test(text) ? "" : ".0"}f`;
}

/** WGSL names: no "__" (reserved), a letter first. */
const WGSL_NAMES: NameRules = { invalid: /[^A-Za-z0-9_]/g, collapseUnderscores: true, badStart: (n) => /^[0-9_]/.test(n), prefix: "v", reserved: RESERVED };

function sanitize(name: string): string {
  return legalName(name, WGSL_NAMES);
}


/** A loop's head test: `if (c) { break; }` (or its else form) as the first statement of its body. */
function isBreak(s: Extract<Stmt, { k: "if" }>): boolean {
  const only = (b: Block) => b.length === 1 && b[0].k === "break";
  return (only(s.then) && !s.else.length) || (!s.then.length && only(s.else));
}

/**
 * Whether an `if` holds a plain way out of the loop around it: a break (not of an inner loop) or a
 * return. A trap is not one: its branch records the exception with atomics first, and Mesa analyses
 * no loop with an exit branch that does anything but leave (`nir_is_trivial_loop_if`).
 */
function leavesLoop(s: Stmt, breaks: boolean): boolean {
  const visit = (b: Block, inner: boolean): boolean => b.some((x) => {
    if (x.k === "return" || (x.k === "break" && breaks && !inner)) return true;
    if (x.k === "if") return visit(x.then, inner) || visit(x.else, inner);
    if (x.k === "switch") return x.cases.some((c) => visit(c.body, inner));
    if (x.k === "loop") return visit(x.body, true) || visit(x.continuing, true);
    return false;
  });
  return visit([s], false);
}

/** Whether a loop can run its body again: not a block that always ends in `break` with no `continue` to it. */
function repeats(s: Extract<Stmt, { k: "loop" }>): boolean {
  if (s.breakIf !== null || s.continuing.length || s.body[s.body.length - 1]?.k !== "break") return true;
  const visit = (b: Block): boolean => b.some((x) =>
    x.k === "continue" || (x.k === "if" && (visit(x.then) || visit(x.else))) || (x.k === "switch" && x.cases.some((c) => visit(c.body))));
  return visit(s.body);
}



/** An i32 as a private narrow array keeps it: its low 8 or 16 bits, sign- or zero-extended. */
function narrowValue(v: string, e: Narrow): string {
  switch (e) {
    case "i8": return `((${v} << 24u) >> 24u)`;
    case "i16": return `((${v} << 16u) >> 16u)`;
    case "u8": case "u8c": return `(${v} & 0xff)`;
    case "u16": return `(${v} & 0xffff)`;
  }
}

const isTrap = (s: Stmt): boolean => s.k === "trap";
