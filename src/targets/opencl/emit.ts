// The OpenCL C back end: validated IR (every helper inlined) → one OpenCL C 1.2 program with one
// `__kernel` function.
//
// Lowering, in short:
//  - structured control flow stays structured C (`for (;;)`, `if`, `switch`); a loop with a
//    `continuing` block reaches it from a `continue` by a forward `goto` to its label;
//  - the kernel's arguments (the artifact's layout says which is which): per array parameter its
//    buffer, the element offset of its first element in that buffer and its length; per scalar
//    its value (a bool as an int); the kernel state and its length; per constant table its buffer
//    (relocation `table`; under `bake` the data is a `__constant` array in the code); per shared
//    array sized at launch its `__local` memory and its length. Static shared arrays are
//    `__local` arrays of the kernel, private arrays C arrays;
//  - the runtime library's functions stay functions taking the state as a pointer and a length;
//  - arithmetic with C's undefined cases written out: i32 addition, subtraction, multiplication,
//    negation and left shifts are done on uint and reinterpreted (they wrap, as JavaScript's do;
//    C's signed overflow is undefined), everything else that differs is legalized (legal.ts);
//  - floats: `#pragma OPENCL FP_CONTRACT OFF` (no fused multiply-adds: results equal the CPU's)
//    and `-cl-fp32-correctly-rounded-divide-sqrt`, both unless fastMath;
//  - `trap` ends the thread with `return`; in a kernel with barriers, where every thread must reach
//    every barrier (OpenCL leaves a barrier some threads skip undefined), the IR marks a thread
//    that returned or trapped done instead (ir/passes/done-guards.ts): no return or trap is left
//    there for this emitter;
//  - barriers as PoCL's kernel compiler needs them: regions closed, anchors marked
//    (ir/passes/barrier-regions.ts).

import type { Block, Builtin, Expr, ExprHandle, Function, Loc, Module, Stmt } from "../../ir/module.js";
import { assertNeverIR, walkStmts } from "../../ir/module.js";
import { barrierUnderBranch, completesBlock, someStmt } from "../../ir/module-info.js";
import type { OpName } from "../../ir/ops.js";
import { elemBytes, isFloatScalar, isNarrow, scalarOf, wordBytes, type Elem, type Scalar, type Type } from "../../ir/types.js";
import { LineWriter } from "../locations.js";
import { assertLegalized } from "../../ir/passes/legalize.js";
import { Namer, legalName, numbered, type NameRules } from "../names.js";
import { InternalCompilerError, quoteName } from "../../errors.js";
import { helperClosure } from "../helpers.js";
import { C_FAMILY_OPS, call, infix, initializer, lowered, type OpSpelling } from "../c-family.js";
import type { TargetFeatures } from "../target.js";
import { OPENCL_HELPERS } from "./helpers.js";
import type { OpenCLArg, OpenCLLayout } from "./layout.js";

export interface OpenCLCode { code: string; entry: string; layout: OpenCLLayout; locations: Loc[] }

/** C and OpenCL C keywords, the built-in names gpuc's code calls, and gpuc's own fixed names. */
const RESERVED = new Set(`auto break case char const continue default do double else enum extern float for goto if inline int long register
  restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool uchar ushort uint ulong half
  size_t ptrdiff_t intptr_t uintptr_t event_t image2d_t image3d_t sampler_t true false kernel global local constant private read_only
  write_only read_write NAN INFINITY main`.split(/\s+/));

const SCALAR: Record<Scalar, string> = { bool: "bool", i32: "int", u32: "uint", f32: "float", f64: "double" };
const ELEM: Record<Elem, string> = { bool: "int", i32: "int", u32: "uint", f32: "float", f64: "double", i8: "char", u8: "uchar", u8c: "uchar", i16: "short", u16: "ushort" };

/** C names: letters, digits and `_`, no run of `__` (reserved for the implementation), a letter first. */
const C_NAMES: NameRules = { invalid: /[^A-Za-z0-9_]/g, collapseUnderscores: true, badStart: (n) => /^[0-9_]/.test(n) || n === "", prefix: "v", reserved: RESERVED };

export function sanitize(name: string): string { return legalName(name, C_NAMES); }

export const CORRECTLY_ROUNDED = "-cl-fp32-correctly-rounded-divide-sqrt";

export function emitOpenCL(m: Module, features: TargetFeatures): OpenCLCode {
  assertLegalized(m, "opencl");
  return new OpenCLEmitter(m, features).emit();
}

/** An array as the code reaches it: its C name, length, element type and address space. */
interface ArrayRef { name: string; length: string; elem: Elem; space: "__global" | "__local" | "__constant" | "" }

class OpenCLEmitter extends LineWriter {
  private f: Function;
  private names: string[] = [];
  /** Whether a barrier was given its anchor (barrier()). */
  private anchored = false;
  /** Helpers of helpers.ts the code uses. */
  private helpers = new Set<string>();
  private usesF64 = false;
  private storesNarrow = false;
  /** Loops being emitted, innermost last: the label of each one's `continuing` block (if it has one) and whether a `continue` jumps to it. */
  private loops: { label: string | null; used: boolean }[] = [];
  private labels = 0;

  constructor(private m: Module, private features: TargetFeatures) {
    super();
    this.f = m.functions[m.entry];
  }

  emit(): OpenCLCode {
    const f = this.f, m = this.m;
    const relocation = this.features.relocation ?? "table";
    const names = new Namer(numbered);
    // The entry is named after the kernel, apart from the runtime functions and helpers (`gpuc_…` too).
    const fixed = new Set([...m.functions.filter((g) => g.kind === "runtime").map((g) => g.name), ...Object.keys(OPENCL_HELPERS)]);
    let entry = `gpuc_${sanitize(f.name)}`.replace(/__+/g, "_");
    while (fixed.has(entry)) entry += "_kernel";
    names.reserve(entry);
    f.locals.forEach((l, i) => { this.names[i] = i === f.stateParam ? names.reserve("gpuc_state") : names.take(`v_${sanitize(l.name)}`); });
    walkStmts(f.body, (s) => {
      if (s.k === "store" || s.k === "atomic") { const t = f.exprs[s.array].type; if (t.kind === "array" && isNarrow(t.elem)) this.storesNarrow = true; }
    });
    this.usesF64 = m.functions.some((g) => g.locals.some((l) => mentionsF64(l.type)) || g.exprs.some((e) => mentionsF64(e.type))) || m.globals.some((g) => g.type.elem === "f64");

    // The kernel's arguments, and what the body starts with.
    const args: OpenCLArg[] = [];
    const sig: string[] = [];
    const head: string[] = [];
    const arg = (a: OpenCLArg, decl: string): void => { args.push(a); sig.push(decl); };
    f.params.forEach((p, i) => {
      const t = f.locals[p].type, n = this.names[p];
      if (t.kind === "array") {
        arg({ name: `gpuc_base_${n}`, role: "buffer", index: i, type: "pointer" }, `__global ${ELEM[t.elem]}* gpuc_base_${n}`);
        arg({ name: `gpuc_off_${n}`, role: "offset", index: i, type: "uint" }, `uint gpuc_off_${n}`);
        arg({ name: lengthOf(n), role: "length", index: i, type: "int" }, `int ${lengthOf(n)}`);
        head.push(`__global ${ELEM[t.elem]}* ${n} = gpuc_base_${n} + gpuc_off_${n};`);
      } else if (t.kind === "scalar") {
        if (t.scalar === "bool") {
          arg({ name: `gpuc_arg_${n}`, role: "value", index: i, type: "int" }, `int gpuc_arg_${n}`);
          head.push(`bool ${n} = gpuc_arg_${n} != 0;`);
        } else arg({ name: n, role: "value", index: i, type: SCALAR[t.scalar] as OpenCLArg["type"] }, `${SCALAR[t.scalar]} ${n}`);
      }
    });
    if (f.stateParam !== null) {
      arg({ name: "gpuc_state", role: "state", index: -1, type: "pointer" }, "__global int* gpuc_state");
      arg({ name: lengthOf("gpuc_state"), role: "state-length", index: -1, type: "int" }, `int ${lengthOf("gpuc_state")}`);
    }
    const decls: string[] = [];
    const tables = m.globals.map((g, i) => {
      if (relocation === "bake") { decls.push(bakedTable(this.global(i), g.type.elem as Scalar, g.value)); return { symbol: this.global(i), index: i }; }
      arg({ name: this.global(i), role: "table", index: i, type: "pointer" }, `__global const ${ELEM[g.type.elem]}* ${this.global(i)}`);
      return { symbol: `arg ${args.length - 1}`, index: i };
    });
    let localBytes = 0, dynamic = 0;
    m.shared.forEach((sh, i) => {
      const t = ELEM[sh.type.elem], n = this.shared(i);
      if (sh.size) {
        arg({ name: n, role: "local", index: dynamic, type: "local" }, `__local ${t}* ${n}`);
        arg({ name: lengthOf(n), role: "local-length", index: dynamic++, type: "int" }, `int ${lengthOf(n)}`);
        return;
      }
      const bytes = wordBytes(sh.type.elem, sh.type.size ?? 0);
      localBytes += bytes;
      head.push(`__local ${t} ${n}[${bytes / elemBytes(sh.type.elem)}] __attribute__((aligned(${Math.max(4, elemBytes(sh.type.elem))})));`);
    });
    f.locals.forEach((l, i) => {
      if (f.params.includes(i as never) || i === f.stateParam) return;
      head.push(this.declare(this.names[i], l.type));
    });

    this.block(f.body, 1);
    if (this.anchored) head.push("volatile int gpuc_anchor;");   // see the barrier statement
    const runtime = m.functions.filter((g) => g.kind === "runtime").map((g) => this.runtimeFunction(g));
    const helpers = helperClosure(OPENCL_HELPERS, this.helpers).map((n) => OPENCL_HELPERS[n].text);
    const fastMath = this.features.fastMath === true;
    const top = [
      // (Any name a function property holds: quoted on one line, as the layout counts lines.)
      `// gpuc: kernel ${quoteName(f.name)}`,
      ...(fastMath ? [] : ["#pragma OPENCL FP_CONTRACT OFF"]),
      ...(this.usesF64 ? ["#pragma OPENCL EXTENSION cl_khr_fp64 : enable"] : []),
      ...(this.storesNarrow ? ["#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable"] : []),
      ...decls,
      ...helpers,
      ...runtime,
      "",
    ];
    const bounds = this.features.requiredThreads ? ` __attribute__((reqd_work_group_size(${this.features.requiredThreads.join(", ")})))` : "";
    const start = [...top, `__kernel${bounds} void ${entry}(${sig.join(", ")}) {`, ...head.map((h) => "  " + h)].join("\n").split("\n");
    const layout: OpenCLLayout = {
      args, relocation, tables, localBytes,
      buildOptions: fastMath ? "" : CORRECTLY_ROUNDED,
      conditionalBarriers: barrierUnderBranch(this.f.body),
      lines: [...start.map(() => -1), ...this.lineLocs, -1],
    };
    const code = [...start, ...this.lines, "}", ""].join("\n");
    return { code, entry, layout, locations: this.locations.list };
  }

  /** A runtime-library function as an OpenCL C function (arrays as a pointer and a length). */
  private runtimeFunction(g: Function): string {
    const saved = { f: this.f, names: this.names };
    this.f = g;
    this.names = g.locals.map((l, i) => `v_${sanitize(l.name)}_${i}`);
    const body = this.apart(() => this.block(g.body, 1));
    const params = g.params.map((p) => {
      const t = g.locals[p].type;
      return t.kind === "array" ? `__global ${ELEM[t.elem]}* ${this.names[p]}, int ${lengthOf(this.names[p])}` : `${SCALAR[scalarOf(t)]} ${this.names[p]}`;
    });
    const vars = g.locals.map((l, i) => ({ l, i })).filter(({ i }) => !g.params.includes(i as never)).map(({ l, i }) => `  ${this.declare(this.names[i], l.type)}`);
    const ret = g.returnType.kind === "scalar" ? SCALAR[g.returnType.scalar] : "void";
    const text = [`${ret} ${g.name}(${params.join(", ")}) {`, ...vars, ...body, "}"].join("\n");
    Object.assign(this, saved);
    return text;
  }

  // ---- names and types ---------------------------------------------------------------------

  private global(i: number): string { return `g_${sanitize(this.m.globals[i].name)}_${i}`; }
  private shared(i: number): string { return `s_${sanitize(this.m.shared[i].name)}_${i}`; }

  private declare(name: string, t: Type): string {
    if (t.kind === "scalar") return `${SCALAR[t.scalar]} ${name} = ${t.scalar === "bool" ? "false" : t.scalar === "f32" ? "0.0f" : t.scalar === "f64" ? "0.0" : "0"};`;
    if (t.kind === "array" && t.size !== null) return `${ELEM[t.elem]} ${name}[${Math.max(1, t.size)}];`;
    throw new InternalCompilerError(`OpenCL C local of type ${JSON.stringify(t)}`);
  }

  private arrayRef(h: ExprHandle): ArrayRef {
    const e = this.f.exprs[h];
    if (e.k === "local") {
      const t = this.f.locals[e.local].type;
      if (t.kind !== "array") throw new InternalCompilerError("an array local of a scalar type");
      const n = this.names[e.local];
      const param = this.f.params.includes(e.local) || e.local === this.f.stateParam;
      return { name: n, length: param ? lengthOf(n) : String(t.size ?? 0), elem: t.elem, space: param ? "__global" : "" };
    }
    if (e.k === "global") {
      const g = this.m.globals[e.global];
      return { name: this.global(e.global), length: String(g.value.length), elem: g.type.elem, space: (this.features.relocation ?? "table") === "bake" ? "__constant" : "__global" };
    }
    if (e.k === "shared") {
      const sh = this.m.shared[e.shared], n = this.shared(e.shared);
      return { name: n, length: sh.size ? lengthOf(n) : String(sh.type.size ?? 0), elem: sh.type.elem, space: "__local" };
    }
    throw new InternalCompilerError(`array expression of kind ${e.k}`);
  }

  // ---- statements --------------------------------------------------------------------------

  private block(b: Block, d: number): void {
    for (const s of b) this.stmt(s, d);
  }

  private stmt(s: Stmt, d: number): void {
    this.stmtLoc = s.loc ?? this.stmtLoc;
    switch (s.k) {
      case "set": this.line(d, `${this.names[s.local]} = ${this.expr(s.value)};`); return;
      case "store": {
        const a = this.arrayRef(s.array);
        const v = this.expr(s.value);
        // A narrow element keeps the value's low 8 or 16 bits (integer conversions wrap in OpenCL C).
        this.line(d, `${a.name}[${this.expr(s.index)}] = ${isNarrow(a.elem) ? `(${ELEM[a.elem]})(${v})` : v};`);
        return;
      }
      case "if":
        this.line(d, `if (${this.expr(s.cond)}) {`);
        this.block(s.then, d + 1);
        if (s.else.length) { this.line(d, "} else {"); this.block(s.else, d + 1); }
        this.line(d, "}");
        return;
      case "loop": {
        // `continue` reaches the continuing block (where a body with barriers has its closing
        // one: ir/passes/barrier-regions.ts) and the `break if` test through its label.
        const next = s.continuing.length || s.breakIf !== null || someStmt(s.body, (x) => x.k === "barrier") ? `gpuc_next_${++this.labels}` : null;
        this.line(d, "for (;;) {");
        const loop = { label: next, used: false };
        this.loops.push(loop);
        this.block(s.body, d + 1);
        this.loops.pop();
        if (next && loop.used) this.line(d + 1, `${next}: ;`);
        this.block(s.continuing, d + 1);
        if (s.breakIf !== null) this.line(d + 1, `if (${this.expr(s.breakIf)}) break;`);
        this.line(d, "}");
        return;
      }
      case "switch": return this.switchStmt(s, d);
      case "break": this.line(d, "break;"); return;
      case "continue": {
        const loop = this.loops[this.loops.length - 1];
        if (loop?.label) loop.used = true;
        this.line(d, loop?.label ? `goto ${loop.label};` : "continue;");
        return;
      }
      case "return":
        this.line(d, s.value !== null ? `return ${this.expr(s.value)};` : "return;");
        return;
      // The exception is recorded: the thread ends (in a kernel with barriers the IR has made it
      // done instead: ir/passes/done-guards.ts).
      case "trap":
        this.line(d, "return;");
        return;
      // syncthreads() orders shared and global memory. An anchored one (ir/passes/barrier-regions.ts)
      // is followed by a store to a volatile private variable nothing reads (`volatile`: the
      // compiler keeps it in the barrier's block), so PoCL 3.1 keeps the region after it one
      // entry. (Declared, not initialized: a store at the kernel's start would be one more in its
      // first region.)
      case "barrier":
        this.line(d, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);");
        if (s.anchor) { this.line(d, "gpuc_anchor = 0;"); this.anchored = true; }
        return;
      // OpenCL C 1.2's fence orders this work-item's loads and stores to both spaces (PoCL: the CPU's coherent memory makes them visible to every work-group).
      case "fence": this.line(d, "mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);"); return;
      case "init": throw new InternalCompilerError("a zero fill reached the OpenCL C back end (ir/passes/zero-fill.ts writes it out)");
      case "atomic": return this.atomic(s, d);
      case "call": {
        // Only runtime functions stay out of line; arrays pass as a pointer and a length.
        const callee = this.m.functions[s.fn];
        const args = s.args.map((a, i) => (callee.locals[callee.params[i]].type.kind === "array" ? (() => { const r = this.arrayRef(a); return `${r.name}, ${r.length}`; })() : this.expr(a)));
        const call = `${callee.name}(${args.join(", ")})`;
        this.line(d, s.result !== null ? `${this.names[s.result]} = ${call};` : `${call};`);
        return;
      }
      case "subgroup": throw new InternalCompilerError("a subgroup operation reached the OpenCL C back end (ir/passes/one-lane.ts makes it a value)");
      case "check": throw new InternalCompilerError("a check reached the back end unlowered (ir/passes/lower-checks.ts runs before emission)");
      default: assertNeverIR(s);
    }
  }

  /** C's cases fall through as JavaScript's do; a case that completes without falling through ends in `break`. */
  private switchStmt(s: Extract<Stmt, { k: "switch" }>, d: number): void {
    const t = scalarOf(this.f.exprs[s.selector].type);
    this.line(d, `switch (${this.expr(s.selector)}) {`);
    s.cases.forEach((c) => {
      const labels = [...c.values.map((v) => `case ${constant(v, t)}:`), ...(c.isDefault ? ["default:"] : [])];
      this.line(d + 1, `${labels.join(" ")} {`);
      this.block(c.body, d + 2);
      if (!c.fallthrough && completesBlock(c.body)) this.line(d + 2, "break;");
      this.line(d + 1, "}");
    });
    this.line(d, "}");
  }

  /**
   * An atomic: OpenCL C 1.2's int32 atomics on i32/u32 elements, volatile reads and exchanges of
   * f32 and narrow elements, and the word steps of the loops passes/cas-loops.ts wrote for the
   * rest (f32 add, 8- and 16-bit read-modify-writes): narrow arrays are word-aligned and padded
   * (the device allocates whole words, `__local` arrays are declared so).
   */
  private atomic(s: Extract<Stmt, { k: "atomic" }>, d: number): void {
    const a = this.arrayRef(s.array);
    const at = `&${a.name}[${this.expr(s.index)}]`;
    const v = s.args.map((x) => this.expr(x));
    const res = s.result !== null ? this.names[s.result] : null;
    const set = (x: string): string => (res !== null ? `${res} = ${x};` : `${x};`);
    const space = a.space;
    if (s.word) {
      const w = isNarrow(a.elem) ? `(volatile ${space} uint*)((ulong)${at} & ~(ulong)3)` : `(volatile ${space} uint*)${at}`;
      if (s.op === "load") this.line(d, set(`as_int(*${w})`));
      else if (s.op === "compareExchange") this.line(d, set(`as_int(atomic_cmpxchg(${w}, as_uint(${v[0]}), as_uint(${v[1]})))`));
      else throw new InternalCompilerError(`word atomic ${s.op}`);
      return;
    }
    const t = a.elem;
    const volatilePtr = `(volatile ${space} ${ELEM[t]}*)${at}`;
    if (s.op === "load") { this.line(d, set(isNarrow(t) ? `(int)*${volatilePtr}` : `*${volatilePtr}`)); return; }
    if (isNarrow(t) || t === "f64" || (t === "f32" && s.op !== "exchange" && s.op !== "store") || s.op === "inc" || s.op === "dec")
      throw new InternalCompilerError(`atomic ${s.op} on ${t} elements reached the OpenCL C back end (passes/cas-loops.ts writes it out)`);
    const fn: Record<string, string> = { add: "atomic_add", sub: "atomic_sub", and: "atomic_and", or: "atomic_or", xor: "atomic_xor", min: "atomic_min", max: "atomic_max", exchange: "atomic_xchg" };
    switch (s.op) {
      case "store":
        this.line(d, `atomic_xchg(${at}, ${v[0]});`);
        if (res !== null) this.line(d, `${res} = ${v[0]};`);
        return;
      case "compareExchange": this.line(d, set(`atomic_cmpxchg(${at}, ${v[0]}, ${v[1]})`)); return;
      default: this.line(d, set(`${fn[s.op]}(${at}, ${v[0]})`));
    }
  }

  // ---- expressions -------------------------------------------------------------------------

  private expr(h: ExprHandle): string {
    const e: Expr = this.f.exprs[h];
    switch (e.k) {
      case "const": return constant(e.value, scalarOf(e.type));
      case "local": return this.names[e.local];
      case "global": case "shared": return this.arrayRef(h).name;
      case "builtin": return BUILTINS[e.name];
      case "location": return String(this.locations.id(e.site));
      case "length": return this.arrayRef(e.array).length;
      case "bitOffset": return `((int)(((uint)(ulong)&${this.arrayRef(e.array).name}[${this.expr(e.index)}] & 3u) * 8u))`;
      case "load": {
        const a = this.arrayRef(e.array);
        const v = `${a.name}[${this.expr(e.index)}]`;
        return isNarrow(a.elem) ? `((int)${v})` : v;
      }
      case "select": return `(${this.expr(e.cond)} ? ${this.expr(e.a)} : ${this.expr(e.b)})`;
      case "convert": {
        const from = scalarOf(this.f.exprs[e.arg].type), to = scalarOf(e.type);
        return convert(this.expr(e.arg), from, to);
      }
      case "op": return this.op(e.op, e.args.map((a) => this.expr(a)), scalarOf(this.f.exprs[e.args[0]].type));
      default: return assertNeverIR(e);
    }
  }

  /** One op, legalized (legal.ts: what OpenCL C spells natively, and with gpuc_pow). */
  private op(op: OpName, a: string[], t: Scalar): string {
    return OPENCL_OPS[op](a, t, (name, text) => { this.helpers.add(name); return text; });
  }
}

/** i32 arithmetic wraps as uint (C's signed overflow is undefined). */
const wrapping = (o: string): OpSpelling => ([x, y], t) => (t === "i32" ? `as_int(${asUint(x)} ${o} ${asUint(y)})` : `(${x} ${o} ${y})`);
/** The float function where the type is a float, the integer one (C's name) otherwise. */
const byType = (float: string, int: string): OpSpelling => (a, t) => `${isFloatScalar(t) ? float : int}(${a.join(", ")})`;

/** How OpenCL C spells each op: the C family's, and its own where it differs. */
const OPENCL_OPS: Record<OpName, OpSpelling> = {
  ...C_FAMILY_OPS,
  add: wrapping("+"), sub: wrapping("-"), mul: wrapping("*"),
  rem: ([x, y], t) => (isFloatScalar(t) ? `fmod(${x}, ${y})` : `(${x} % ${y})`),
  min: byType("fmin", "min"), max: byType("fmax", "max"),
  pow: ([x, y], t, use) => { const n = t === "f64" ? "gpuc_pow_d" : "gpuc_pow"; return use(n, `${n}(${x}, ${y})`); },
  atan2: call("atan2"), hypot: call("hypot"),
  neg: ([x], t) => (t === "i32" ? `as_int(0u - ${asUint(x)})` : `(-${x})`),
  abs: ([x], t) => (isFloatScalar(t) ? `fabs(${x})` : `as_int(abs(${x}))`),
  sign: lowered("OpenCL C", "sign"), round: lowered("OpenCL C", "round"),
  // OpenCL C takes the count modulo 32; a negative i32 is shifted left as uint (C leaves it undefined).
  shl: ([x, y], t) => (t === "i32" ? `as_int(${asUint(x)} << ${y})` : `(${x} << ${y})`),
  shr: infix(">>"),
  clz32: ([x]) => `((int)clz(${x}))`,
  log10: call("log10"), cbrt: call("cbrt"), expm1: call("expm1"), log1p: call("log1p"),
  isnan: ([x]) => `(isnan(${x}) != 0)`,
  isfinite: ([x]) => `(isfinite(${x}) != 0)`,
  f32bits: ([x]) => `as_int(${x})`,
  f32frombits: ([x]) => `as_float(${x})`,
  f64hi: ([x]) => `as_int((uint)(as_ulong(${x}) >> 32))`,
  f64lo: ([x]) => `as_int((uint)as_ulong(${x}))`,
};

const BUILTINS: Record<Builtin, string> = {
  "threadIdx.x": "((int)get_local_id(0))", "threadIdx.y": "((int)get_local_id(1))", "threadIdx.z": "((int)get_local_id(2))",
  "blockIdx.x": "((int)get_group_id(0))", "blockIdx.y": "((int)get_group_id(1))", "blockIdx.z": "((int)get_group_id(2))",
  "blockDim.x": "((int)get_local_size(0))", "blockDim.y": "((int)get_local_size(1))", "blockDim.z": "((int)get_local_size(2))",
  "gridDim.x": "((int)get_num_groups(0))", "gridDim.y": "((int)get_num_groups(1))", "gridDim.z": "((int)get_num_groups(2))",
  // (Subgroups of one thread: constants by now, ir/passes/one-lane.ts.)
  subgroupSize: "1", subgroupLaneId: "0",
};

/** An i32 operand as uint (a non-negative literal written as one). */
function asUint(x: string): string { return /^\d+$/.test(x) ? `${x}u` : `as_uint(${x})`; }

function convert(x: string, from: Scalar, to: Scalar): string {
  // Truthiness: NaN and ±0 are false (a NaN compares false both ways).
  if (to === "bool") return from === "f32" ? `(fabs(${x}) > 0.0f)` : from === "f64" ? `(fabs(${x}) > 0.0)` : `(${x} != 0)`;
  if (from === "bool") return `(${x} ? ${constant(1, to)} : ${constant(0, to)})`;
  // i32 ↔ u32 reinterpret the bits; to a float rounds to nearest; a float to an integer truncates
  // (legalize gives it only inputs in range).
  if (from === "i32" && to === "u32") return `as_uint(${x})`;
  if (from === "u32" && to === "i32") return `as_int(${x})`;
  return `((${SCALAR[to]})${x})`;
}

function constant(v: number | boolean, t: Scalar): string {
  if (typeof v === "boolean") return String(v);
  if (t === "i32") return v === -2147483648 ? "(-2147483647 - 1)" : v < 0 ? `(${v})` : String(v);
  if (t === "u32") return `${v >>> 0}u`;
  if (t === "bool") return v ? "true" : "false";
  const f = t === "f32" ? "f" : "";
  if (v !== v) return t === "f32" ? "NAN" : "((double)NAN)";
  if (v === Infinity) return t === "f32" ? "INFINITY" : "((double)INFINITY)";
  if (v === -Infinity) return t === "f32" ? "(-INFINITY)" : "(-(double)INFINITY)";
  if (Object.is(v, -0)) return `(-0.0${f})`;
  // The shortest decimal of the value: it reads back as the same f64, and as the same f32 for an
  // f32 value (that decimal lies within half an f64 ulp of it).
  const text = String(v);
  const literal = `${text}${/[.e]/.test(text) ? "" : ".0"}${f}`;
  return v < 0 ? `(${literal})` : literal;
}

/** A constant table's data as a `__constant` array (relocation strategy `bake`). */
function bakedTable(name: string, elem: Scalar, value: ArrayLike<number>): string {
  const { length, text } = initializer(value, (v) => constant(v, elem));
  return `__constant ${SCALAR[elem]} ${name}[${length}] = ${text};`;
}

/** The C name of an array's length (gpuc's own names start with `gpuc_`; the code's never do). */
function lengthOf(array: string): string { return `gpuc_len_${array}`; }

function mentionsF64(t: Type): boolean {
  return (t.kind === "scalar" && t.scalar === "f64") || (t.kind === "array" && t.elem === "f64");
}
