// The JavaScript back end: validated IR → one JS function per kernel that runs every thread of
// the grid in a tight loop (no closure call per thread), with the kernel language's exact
// semantics (Math.fround for f32, |0 and >>>0 for i32/u32 wrap-around).

import type { Block, Builtin, Expr, ExprHandle, Function, Module, Stmt } from "../../ir/module.js";
import { walkStmts, exprOperands, stmtOperands } from "../../ir/module.js";
import { OPS } from "../../ir/ops.js";
import { formatNumber } from "../../ir/printer.js";
import { T, typeName, type Scalar, type Type } from "../../ir/types.js";
import { assertNeverIR, completesBlock } from "../../ir/validate.js";

export interface JSArtifactCode {
  code: string;
  entry: string;
  /** Names the code expects bound when it is loaded, in order: one per module global. */
  globals: string[];
}

const RESERVED = new Set(`break case catch class const continue debugger default delete do else enum export extends false finally
  for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static
  implements interface package private protected public await arguments eval undefined NaN Infinity Math Number Object globalThis`.split(/\s+/));

/** JS variable names of the builtins inside generated code. */
const BUILTIN_VARS: Record<Builtin, string> = {
  "threadIdx.x": "$tx", "threadIdx.y": "$ty", "threadIdx.z": "$tz",
  "blockIdx.x": "$bx", "blockIdx.y": "$by", "blockIdx.z": "$bz",
  "blockDim.x": "$dx", "blockDim.y": "$dy", "blockDim.z": "$dz",
  "gridDim.x": "$gx", "gridDim.y": "$gy", "gridDim.z": "$gz",
};
const GRID_PARAMS = ["$gx", "$gy", "$gz", "$dx", "$dy", "$dz"];

export function emitJS(m: Module): JSArtifactCode {
  const fnNames = m.functions.map((f, i) => (i === m.entry ? sanitize(f.name) : `${sanitize(f.name)}$${i}`));
  const globals = m.globals.map((g, i) => `$g${i}_${sanitize(g.name)}`);
  const builtinsUsed = builtinsPerFunction(m);
  const parts = m.functions.map((f, i) => new FunctionEmitter(m, f, i, fnNames, globals, builtinsUsed).emit());
  return { code: `"use strict";\n${parts.join("\n\n")}\n`, entry: fnNames[m.entry], globals };
}

/** The builtins each function reads, directly or through its callees (helpers receive them as parameters). */
function builtinsPerFunction(m: Module): Builtin[][] {
  const sets = m.functions.map(() => new Set<Builtin>());
  for (let changed = true; changed;) {
    changed = false;
    m.functions.forEach((f, i) => {
      const before = sets[i].size;
      const visit = (h: ExprHandle): void => {
        const e = f.exprs[h];
        if (e.k === "builtin") sets[i].add(e.name);
        exprOperands(e).forEach(visit);
      };
      walkStmts(f.body, (s) => {
        stmtOperands(s).forEach(visit);
        if (s.k === "call") for (const b of sets[s.fn]) sets[i].add(b);
      });
      if (sets[i].size !== before) changed = true;
    });
  }
  return sets.map((s) => [...s].sort());
}

function sanitize(name: string): string {
  let n = name.replace(/[^A-Za-z0-9_$]/g, "_");
  if (/^[0-9]/.test(n)) n = "_" + n;
  if (n.startsWith("$")) n = "_" + n;
  return RESERVED.has(n) ? n + "_" : n;
}

class FunctionEmitter {
  private names: string[] = [];
  private lines: string[] = [];
  private loopLabels = 0;
  /** For each enclosing loop: the label to `break` for an IR `continue`, or null when JS `continue` is right. */
  private continueTargets: (string | null)[] = [];
  private isKernel: boolean;

  constructor(private m: Module, private f: Function, private index: number, private fnNames: string[],
              private globals: string[], private builtins: Builtin[][]) {
    this.isKernel = index === m.entry;
    const used = new Set<string>();
    f.locals.forEach((l, i) => {
      let n = sanitize(l.name);
      if (used.has(n)) { let k = 1; while (used.has(`${n}_${k}`)) k++; n = `${n}_${k}`; }
      used.add(n);
      this.names[i] = n;
    });
  }

  emit(): string {
    const f = this.f;
    const params = f.params.map((p) => this.names[p]);
    const extra = this.isKernel ? GRID_PARAMS : this.builtins[this.index].map((b) => BUILTIN_VARS[b]);
    const head = `function ${this.fnNames[this.index]}(${[...params, ...extra].join(", ")}) {`;
    const locals = f.locals.map((l, i) => ({ l, i })).filter(({ i }) => !f.params.includes(i as never));
    const decl = locals.length ? `let ${locals.map(({ l, i }) => `${this.names[i]} = ${zero(l.type)}`).join(", ")};` : "";
    if (!this.isKernel) {
      if (decl) this.lines.push("  " + decl);
      this.block(f.body, 1);
      return [head, ...this.lines, "}"].join("\n");
    }
    // The kernel: every thread of every block, in order, in one loop nest.
    const usesReturn = hasReturn(f.body);
    const body: string[] = [];
    const saved = this.lines;
    this.lines = body;
    this.block(f.body, 2);
    this.lines = saved;
    return [
      head,
      "  for (let $bz = 0; $bz < $gz; $bz++)",
      "  for (let $by = 0; $by < $gy; $by++)",
      "  for (let $bx = 0; $bx < $gx; $bx++)",
      "  for (let $tz = 0; $tz < $dz; $tz++)",
      "  for (let $ty = 0; $ty < $dy; $ty++)",
      `  ${usesReturn ? "$thread: " : ""}for (let $tx = 0; $tx < $dx; $tx++) {`,
      ...(decl ? ["    " + decl] : []),
      ...body,
      "  }",
      "}",
    ].join("\n");
  }

  private line(depth: number, text: string): void { this.lines.push("  ".repeat(depth) + text); }

  private block(b: Block, depth: number): void {
    for (const s of b) this.stmt(s, depth);
  }

  private stmt(s: Stmt, d: number): void {
    switch (s.k) {
      case "set": this.line(d, `${this.names[s.local]} = ${this.expr(s.value)};`); return;
      case "store": this.line(d, `${this.expr(s.array)}[${this.expr(s.index)}] = ${this.expr(s.value)};`); return;
      case "call": {
        const extra = this.builtins[s.fn].map((b) => BUILTIN_VARS[b]);
        const call = `${this.fnNames[s.fn]}(${[...s.args.map((a) => this.expr(a)), ...extra].join(", ")})`;
        this.line(d, s.result !== null ? `${this.names[s.result]} = ${call};` : `${call};`);
        return;
      }
      case "if":
        this.line(d, `if (${stripParens(this.expr(s.cond))}) {`);
        this.block(s.then, d + 1);
        if (s.else.length) { this.line(d, "} else {"); this.block(s.else, d + 1); }
        this.line(d, "}");
        return;
      case "loop": return this.loop(s, d);
      case "switch": {
        this.line(d, `switch (${stripParens(this.expr(s.selector))}) {`);
        for (const c of s.cases) {
          for (const v of c.values) this.line(d + 1, `case ${v}:`);
          if (c.isDefault) this.line(d + 1, "default:");
          this.line(d + 1, "{");
          this.continueTargets.push(this.continueTargets.at(-1) ?? null);
          this.block(c.body, d + 2);
          this.continueTargets.pop();
          if (!c.fallthrough && completesBlock(c.body)) this.line(d + 2, "break;");
          this.line(d + 1, "}");
        }
        this.line(d, "}");
        return;
      }
      case "break": this.line(d, "break;"); return;
      case "continue": {
        const target = this.continueTargets.at(-1);
        this.line(d, target ? `break ${target};` : "continue;");
        return;
      }
      case "return":
        if (this.isKernel) this.line(d, "continue $thread;");
        else this.line(d, s.value !== null ? `return ${stripParens(this.expr(s.value))};` : "return;");
        return;
      default: assertNeverIR(s);
    }
  }

  /**
   * A loop. When its continuing block is plain assignments and it has no break-if, it becomes
   * `for (; test; update)`, where JS's `continue` already runs the update. Otherwise the body
   * is a labeled block that an IR `continue` leaves with `break`.
   */
  private loop(s: Extract<Stmt, { k: "loop" }>, d: number): void {
    let body = s.body;
    let test = "";
    const first = body[0];
    if (first?.k === "if" && first.else.length === 0 && first.then.length === 1 && first.then[0].k === "break") {
      const c = this.f.exprs[first.cond];
      if (c.k === "op" && c.op === "not") { test = stripParens(this.expr(c.args[0])); body = body.slice(1); }
    }
    const simpleUpdate = s.breakIf === null && s.continuing.every((c) => c.k === "set");
    if (simpleUpdate) {
      const update = s.continuing.map((c) => (c.k === "set" ? `${this.names[c.local]} = ${stripParens(this.expr(c.value))}` : "")).join(", ");
      this.line(d, `for (; ${test}; ${update}) {`);
      this.continueTargets.push(null);
      this.block(body, d + 1);
      this.continueTargets.pop();
      this.line(d, "}");
      return;
    }
    const label = `$body${this.loopLabels++}`;
    this.line(d, `for (; ${test};) {`);
    this.line(d + 1, `${label}: {`);
    this.continueTargets.push(label);
    this.block(body, d + 2);
    this.continueTargets.pop();
    this.line(d + 1, "}");
    this.block(s.continuing, d + 1);
    if (s.breakIf !== null) this.line(d + 1, `if (${stripParens(this.expr(s.breakIf))}) break;`);
    this.line(d, "}");
  }

  private expr(h: ExprHandle): string {
    const e: Expr = this.f.exprs[h];
    switch (e.k) {
      case "const": return constant(e.value, e.type);
      case "local": return this.names[e.local];
      case "global": return this.globals[e.global];
      case "builtin": return BUILTIN_VARS[e.name];
      case "op": {
        const row = OPS[e.op];
        const operand = (this.f.exprs[e.args[0]].type as { scalar: Scalar }).scalar;
        const raw = row.js(e.args.map((a) => this.expr(a)), operand);
        const result = row.result === "same" ? operand : row.result;
        return row.jsExact.includes(operand) ? raw : wrap(raw, result);
      }
      case "convert": return this.convert(this.expr(e.arg), (this.f.exprs[e.arg].type as { scalar: Scalar }).scalar, (e.type as { scalar: Scalar }).scalar);
      case "select": return `(${this.expr(e.cond)} ? ${this.expr(e.a)} : ${this.expr(e.b)})`;
      case "load": return `${this.expr(e.array)}[${this.expr(e.index)}]`;
      case "length": return `${this.expr(e.array)}.length`;
      default: return assertNeverIR(e);
    }
  }

  private convert(x: string, from: Scalar, to: Scalar): string {
    if (from === "bool") return to === "bool" ? x : `(${x} ? 1 : 0)`;
    switch (to) {
      case "bool": return `!!${x}`;
      case "i32": return `(${x} | 0)`;
      case "u32": return `(${x} >>> 0)`;
      case "f32": return `Math.fround(${stripParens(x)})`;
      case "f64": return x;
    }
  }
}

function wrap(raw: string, t: Scalar): string {
  switch (t) {
    case "i32": return `(${raw} | 0)`;
    case "u32": return `(${raw} >>> 0)`;
    case "f32": return `Math.fround(${stripParens(raw)})`;
    default: return raw;
  }
}

function constant(v: number | boolean, t: Type): string {
  if (typeof v === "boolean") return String(v);
  if (v !== v) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "(-Infinity)";
  if (Object.is(v, -0)) return "(-0)";
  const s = formatNumber(v);
  return v < 0 ? `(${s})` : s;
}

function zero(t: Type): string {
  if (t === T.bool) return "false";
  if (t.kind === "scalar") return "0";
  throw new Error(`no zero value for ${typeName(t)}`);
}

function stripParens(s: string): string {
  if (!s.startsWith("(") || !s.endsWith(")")) return s;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") depth++;
    else if (s[i] === ")") { depth--; if (depth === 0 && i < s.length - 1) return s; }
  }
  return s.slice(1, -1);
}

function hasReturn(b: Block): boolean {
  let found = false;
  walkStmts(b, (s) => { if (s.k === "return") found = true; });
  return found;
}
