// The WGSL back end: validated IR (every helper inlined) → one compute shader.
//
// Layout of the shader's bindings (group 0), which the artifact describes for the loader:
//   0      uniform `params`: the scalar parameters, then the length of every array parameter,
//          then where each narrow array parameter starts in its binding (`<name>_off`, elements),
//          then `gpuc_zero` (always 0) where a loop has an opaque exit test (statements.ts, exitTest)
//   1      storage `state`: the kernel state (exception record, print area), atomic i32
//   2…     storage, one per array parameter (read-only unless the kernel writes it); a narrow
//          one (8- or 16-bit elements) is packed in u32 words, atomic<u32> when written
//   then   storage, read-only, one per constant table (relocation strategy `table`)
//   last   where the kernel raises exceptions: `gpuc_record`, a write-only rgba32sint storage
//          texture of two texels, the exception record's words (see RECORD)
// The workgroup size is three override constants, so one shader serves every block size.
//
// This file assembles the shader: the analysis of the kernel (barriers, arrays used atomically,
// written, read), the bindings and the params block, workgroup arrays, the runtime functions and
// main. The code of functions is the parts' (each file's first line says its share):
// statements.ts, expressions.ts, arrays.ts and subgroups.ts, which share one context (context.ts).

import type { ExprHandle, Function, Loc, Module } from "../../ir/module.js";
import { exprOperands, stmtOperands, walkStmts } from "../../ir/module.js";
import { usesExpr } from "../../ir/module-info.js";
import { elemBytes, isNarrow, type Scalar } from "../../ir/types.js";
import { assertLegalized } from "../../ir/passes/legalize.js";
import { Namer, numbered } from "../names.js";
import { STATE } from "../../runtime/state.js";
import { quoteName } from "../../errors.js";
import { helperClosure } from "../helpers.js";
import { WGSL_HELPERS } from "./helpers.js";
import { RECORD_FORMAT, dynamicLength, type WGSLLayout } from "./layout.js";
import { markDeclaration, takeSites } from "./sites.js";
import { REPORT, SCALAR, ShaderContext, sanitize } from "./context.js";
import { Arrays } from "./arrays.js";
import { Expressions } from "./expressions.js";
import { Subgroups } from "./subgroups.js";
import { Statements } from "./statements.js";

interface WGSLCode { code: string; entry: string; layout: WGSLLayout; locations: Loc[] }

/**
 * Where a kernel raises an exception (a check that fired, a throw), it keeps the first one it
 * raised in a private vector, and main writes it once, after the body: one copy of the record's
 * claim and store per shader, not one per check (Mesa inlines every function, and compiling each
 * copy of the record costs lavapipe milliseconds: BENCHMARKS §m). The same record is written as
 * if each site reported at once: the first exception of the thread (a thread stops at its trap;
 * in a kernel with barriers it goes on, and a later one is not kept), claimed by whichever
 * thread's atomic add on the claim word (`STATE.CLAIM`) comes first, as on every target.
 */
const RAISE = `fn gpuc_raise(code: i32, loc: i32, a: i32, b: i32) {
  if (gpuc_exc.x == 0i) { gpuc_exc = vec4<i32>(code, loc, a, b); }
}`;

/**
 * The record's words on WGSL are the WGSL back end's to write, not the runtime library's report
 * function's (which WGSL code never calls): the claim's winner stores them as two texels of a
 * storage texture, `(code, location, a, b)` and `(threadIdx packed as in state.ts, blockIdx)`,
 * which the WebGPU device copies out beside the state's header and puts in its record's words.
 * Why a texture: lavapipe compiles each store to a storage buffer into a loop over the shader's
 * lanes, a compile cost of its own per word (eight words, by eight stores or by one store in a
 * loop, were most of what a small kernel's shader cost it beyond a hand-written one's), while a
 * texel store of four words costs it about one store (BENCHMARKS §m).
 */
const RECORD = (binding: number): string => `@group(0) @binding(${binding}) var gpuc_record: texture_storage_1d<${RECORD_FORMAT}, write>;`;
const RECORD_STORE = [
  `  if (gpuc_exc.x != 0i && atomicAdd(&state[${STATE.CLAIM}i], 1i) == 0i) {`,
  "    textureStore(gpuc_record, 0i, gpuc_exc);",
  "    textureStore(gpuc_record, 1i, vec4<i32>(i32(lid.x | (lid.y << 10u) | (lid.z << 20u)), vec3<i32>(wid)));",
  "  }",
];

export function emitWGSL(m: Module): WGSLCode {
  assertLegalized(m, "wgsl");
  return new WGSLEmitter(m).emit();
}

class WGSLEmitter {
  private readonly ctx: ShaderContext;
  private readonly statements: Statements;
  /** Whether the kernel raises exceptions (calls the runtime's report): then they go through gpuc_raise. */
  private raises = false;

  constructor(private m: Module) {
    const ctx = (this.ctx = new ShaderContext(m));
    // Each part is given the parts it uses; the arrays, below the expressions, lower their indices
    // and values through the context (ctx.lower).
    const arrays = new Arrays(ctx);
    const expressions = (ctx.lower = new Expressions(ctx, arrays));
    this.statements = new Statements(ctx, expressions, arrays, new Subgroups(ctx, expressions));
  }

  emit(): WGSLCode {
    const ctx = this.ctx;
    const f = ctx.f;
    const report = this.m.functions.findIndex((g) => g.kind === "runtime" && g.name === REPORT);
    walkStmts(f.body, (s) => { if (s.k === "call" && s.fn === report) this.raises = true; });
    const names = new Namer(numbered);
    f.locals.forEach((l, i) => { ctx.names[i] = i === f.stateParam ? names.reserve("state") : names.take(`v_${sanitize(l.name)}`); });
    // Which arrays are used atomically (then every access is atomic), written, read.
    const read = new Set<string>();
    const visitRead = (h: ExprHandle): void => {
      const e = f.exprs[h];
      if (e.k === "load") read.add(ctx.arrayKey(e.array));
      for (const o of exprOperands(e)) visitRead(o);
    };
    walkStmts(f.body, (s) => {
      for (const h of stmtOperands(s)) visitRead(h);
      if (s.k === "barrier") ctx.hasBarrier = true;
      if (s.k === "atomic") { ctx.atomicArrays.add(ctx.arrayKey(s.array)); ctx.written.add(ctx.arrayKey(s.array)); }
      if (s.k === "store") ctx.written.add(ctx.arrayKey(s.array));
    });
    ctx.atomicArrays.add("state");
    ctx.storageShared = [...ctx.written].some((k) => (k.startsWith("p") || k.startsWith("g")) && (read.has(k) || ctx.atomicArrays.has(k)));
    const layout: WGSLLayout = { bindings: [], fields: [], workgroupSize: ["wgx", "wgy", "wgz"], lines: [], sites: [] };
    const decls: string[] = [];
    // The params block.
    f.params.forEach((p, i) => {
      const t = f.locals[p].type;
      if (t.kind === "scalar") layout.fields.push({ name: ctx.names[p], type: t.scalar === "bool" ? "u32" : (t.scalar as "i32" | "u32" | "f32"), source: { param: i, length: false } });
    });
    f.params.forEach((p, i) => {
      if (f.locals[p].type.kind === "array") layout.fields.push({ name: `${ctx.names[p]}_len`, type: "i32", source: { param: i, length: true } });
    });
    f.params.forEach((p, i) => {
      const t = f.locals[p].type;
      if (t.kind === "array" && isNarrow(t.elem)) layout.fields.push({ name: `${ctx.names[p]}_off`, type: "u32", source: { param: i, length: false, offset: true } });
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
      const ro = !ctx.written.has(key);
      decls.push(markDeclaration(b, `@group(0) @binding(${b}) var<storage, ${ro ? "read" : "read_write"}> ${ctx.names[p]}: array<${ctx.elemType(key, t.elem)}>;`));
      ctx.paramBindings.set(p, b);
      layout.bindings.push({ binding: b++, kind: "storage", readOnly: ro, role: "param", index: i });
    });
    this.m.globals.forEach((g, i) => {
      decls.push(`@group(0) @binding(${b}) var<storage, read> ${ctx.global(i)}: array<${SCALAR[g.type.elem as Scalar]}>;`);
      layout.bindings.push({ binding: b++, kind: "storage", readOnly: true, role: "table", index: i });
    });
    if (this.raises) {
      decls.push(RECORD(b));
      layout.bindings.push({ binding: b++, kind: "texture", readOnly: false, role: "record", index: 0 });
    }
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
      decls.push(`var<workgroup> ${ctx.shared(i)}: array<${ctx.elemType(`s${i}`, sh.type.elem)}, ${count}>;`);
    });
    decls.push("override wgx: u32 = 1u;", "override wgy: u32 = 1u;", "override wgz: u32 = 1u;");

    const vars: string[] = [];
    // (Scalar parameters are read from the params block where the kernel reads them: one it
    // assigns is a local by now, ir/passes/param-copies.ts.)
    f.locals.forEach((l, i) => {
      if (f.params.includes(i as never) || i === f.stateParam) return;
      vars.push(`  var ${ctx.names[i]}: ${ctx.typeText(l.type)};`);
    });
    this.statements.block(f.body, 1);
    if (this.statements.trapsInContinuing) vars.push("  var gpuc_trapped: bool = false;");
    // (The report function is not among them: the entry raises through gpuc_raise, and main writes the record.)
    const runtime = this.m.functions.filter((g) => g.kind === "runtime" && g.name !== REPORT);
    for (const g of runtime) decls.push("", this.runtimeFunction(g));
    if (this.raises) decls.push("", "var<private> gpuc_exc: vec4<i32>;", RAISE);
    if (this.statements.opaqueExits) layout.fields.push({ name: "gpuc_zero", type: "u32", source: { param: -1, length: false } });
    if (!layout.fields.length) layout.fields.push({ name: "unused", type: "i32", source: { param: -1, length: false } });
    decls[paramsDecl] = `struct Params {\n${layout.fields.map((x) => `  ${x.name}: ${x.type},`).join("\n")}\n}`;
    const helpers = helperClosure(WGSL_HELPERS, ctx.prelude);
    if (helpers.length) decls.push("", ...helpers.map((n) => WGSL_HELPERS[n].text));
    // Subgroups: the feature, and no uniformity diagnostic (the kernel language's rule is that a
    // subgroup's threads agree on the control flow around a subgroup operation; WGSL's analysis
    // would reject any after a bounds check).
    const subgroups = ctx.usesSubgroups ? ["enable subgroups;", "diagnostic(off, subgroup_uniformity);"] : [];
    const subgroupParams = ctx.usesSubgroups ? ", @builtin(subgroup_invocation_id) sgl: u32, @builtin(subgroup_size) sgs: u32" : "";
    const builtins = `@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>${subgroupParams}`;
    const entry = ["@compute @workgroup_size(wgx, wgy, wgz)", `fn main(${builtins}) {`];
    // A kernel that raises: its body is a function of its own, and main reports what it raised
    // (the one place the exception record is written; see RAISE).
    const [open, close] = !this.raises ? [[...entry, ...vars], ["}"]] : [
      [`fn gpuc_kernel(${builtins.replace(/@builtin\(\w+\) /g, "")}) {`, ...vars],
      ["}", "", ...entry, `  gpuc_kernel(lid, wid, nwg${ctx.usesSubgroups ? ", sgl, sgs" : ""});`,
        ...RECORD_STORE, "}"],
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
    layout.lines = [...head.map(() => -1), ...ctx.lineLocs, ...close.map(() => -1)];
    const { code, sites } = takeSites([...head, ...ctx.lines, ...close, ""].join("\n"));
    layout.sites = sites;
    return { code, entry: "main", layout, locations: ctx.locations.list };
  }

  /** Whether the module reads or writes the kernel state: a runtime function, or the kernel's state parameter read. */
  private usesState(): boolean {
    if (this.m.functions.some((g) => g.kind === "runtime")) return true;
    const f = this.ctx.f;
    return f.stateParam !== null && usesExpr(f, (e) => e.k === "local" && e.local === f.stateParam);
  }

  /** A runtime-library function as a WGSL function (its state parameter becomes the `state` binding). */
  private runtimeFunction(g: Function): string {
    const ctx = this.ctx;
    const saved = { f: ctx.f, names: ctx.names };
    ctx.f = g;
    ctx.names = g.locals.map((l, i) => (i === g.params[0] ? "state" : `v_${sanitize(l.name)}_${i}`));
    const body = ctx.apart(() => this.statements.block(g.body, 1));
    // The thread's and block's indices are parameters: runtime functions are called only where
    // main's builtins are at hand (the entry and main; helpers are inlined), so no private copies.
    const params = ["lid: vec3<u32>", "wid: vec3<u32>", ...g.params.slice(1).map((p) => `${ctx.names[p]}: ${ctx.typeText(g.locals[p].type)}`)];
    const vars = g.locals.map((l, i) => ({ l, i })).filter(({ i }) => !g.params.includes(i as never)).map(({ l, i }) => `  var ${ctx.names[i]}: ${ctx.typeText(l.type)};`);
    const ret = g.returnType.kind === "scalar" ? ` -> ${SCALAR[g.returnType.scalar]}` : "";
    const text = [`fn ${g.name}(${params.join(", ")})${ret} {`, ...vars, ...body, "}"].join("\n");
    Object.assign(ctx, saved);
    return text;
  }
}
