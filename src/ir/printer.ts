// The IR's text form, for `--dump`, golden files and test failures. Expressions print inline as
// the trees they are; locals print as %N:name; each statement ends with its source line:col.

import { assertNeverIR } from "./module.js";
import type { Block, Expr, ExprHandle, Function, Loc, Module, Stmt } from "./module.js";
import { typeName } from "./types.js";

export function printModule(m: Module): string {
  const parts: string[] = [];
  for (const g of m.globals) parts.push(`global @${g.name}: ${typeName(g.type)}`);
  for (const sh of m.shared) parts.push(`shared @${sh.name}: ${typeName(sh.type)}`);
  m.functions.forEach((f, i) => parts.push(printFunction(m, f, i)));
  return parts.join("\n\n") + "\n";
}

function printFunction(m: Module, f: Function, index?: number): string {
  const p = new Printer(m, f);
  const params = f.params.map((l) => `${p.local(l)}: ${typeName(f.locals[l].type)}`).join(", ") + (f.stateParam !== null ? `; state ${p.local(f.stateParam)}` : "");
  const head = `${f.kind} ${index !== undefined ? `#${index} ` : ""}@${f.name}(${params}) -> ${typeName(f.returnType)}`;
  const locals = f.locals
    .map((l, i) => ({ l, i }))
    .filter(({ i }) => !f.params.includes(i as never) && i !== f.stateParam)
    .map(({ l, i }) => `${p.local(i)}: ${typeName(l.type)}`);
  const lines = [head + " {"];
  if (locals.length) lines.push(`  locals ${locals.join(", ")}`);
  p.block(f.body, 1, lines);
  lines.push("}");
  return lines.join("\n");
}

class Printer {
  constructor(private m: Module, private f: Function) {}

  local(l: number): string { return `%${l}:${this.f.locals[l]?.name ?? "?"}`; }

  expr(h: ExprHandle): string {
    const e: Expr | undefined = this.f.exprs[h];
    if (!e) return `<bad expr ${h}>`;
    const t = typeName(e.type);
    switch (e.k) {
      case "const": return typeof e.value === "boolean" ? String(e.value) : `${formatNumber(e.value)}:${t}`;
      case "local": return this.local(e.local);
      case "global": return `@${this.m.globals[e.global]?.name ?? e.global}`;
      case "builtin": return e.name;
      case "op": return `${e.op}.${typeName(this.f.exprs[e.args[0]]?.type ?? e.type)}(${e.args.map((a) => this.expr(a)).join(", ")})`;
      case "convert": return `${t}(${this.expr(e.arg)})`;
      case "select": return `select(${this.expr(e.cond)}, ${this.expr(e.a)}, ${this.expr(e.b)})`;
      case "load": return `${this.expr(e.array)}[${this.expr(e.index)}]`;
      case "length": return `length(${this.expr(e.array)})`;
      case "bitOffset": return `bitOffset(${this.expr(e.array)}[${this.expr(e.index)}])`;
      case "shared": return `shared @${this.m.shared[e.shared]?.name ?? e.shared}`;
      case "location": return `location(${siteText(e.site)})`;
      default: return assertNeverIR(e);
    }
  }

  block(b: Block, depth: number, out: string[]): void {
    for (const s of b) this.stmt(s, depth, out);
  }

  private stmt(s: Stmt, depth: number, out: string[]): void {
    const pad = "  ".repeat(depth);
    const at = s.loc ? `  ; ${lineCol(s.loc)}` : "";
    switch (s.k) {
      case "set": out.push(`${pad}${this.local(s.local)} = ${this.expr(s.value)}${at}`); return;
      case "store": out.push(`${pad}${this.expr(s.array)}[${this.expr(s.index)}] = ${this.expr(s.value)}${at}`); return;
      case "call": {
        const callee = this.m.functions[s.fn]?.name ?? "?";
        out.push(`${pad}${s.result !== null ? this.local(s.result) + " = " : ""}call #${s.fn} @${callee}(${s.args.map((a) => this.expr(a)).join(", ")})${at}`);
        return;
      }
      case "if":
        out.push(`${pad}if ${this.expr(s.cond)} {${at}`);
        this.block(s.then, depth + 1, out);
        if (s.else.length) { out.push(`${pad}} else {`); this.block(s.else, depth + 1, out); }
        out.push(`${pad}}`);
        return;
      case "loop":
        out.push(`${pad}loop {${at}`);
        this.block(s.body, depth + 1, out);
        if (s.continuing.length || s.breakIf !== null) {
          out.push(`${pad}} continuing {`);
          this.block(s.continuing, depth + 1, out);
          if (s.breakIf !== null) out.push(`${pad}  break if ${this.expr(s.breakIf)}`);
        }
        out.push(`${pad}}`);
        return;
      case "switch":
        out.push(`${pad}switch ${this.expr(s.selector)} {${at}`);
        for (const c of s.cases) {
          const labels = [...c.values.map(String), ...(c.isDefault ? ["default"] : [])].join(", ");
          out.push(`${pad}  case ${labels}:${c.fallthrough ? " (falls through)" : ""}`);
          this.block(c.body, depth + 2, out);
        }
        out.push(`${pad}}`);
        return;
      case "break": out.push(`${pad}break${at}`); return;
      case "continue": out.push(`${pad}continue${at}`); return;
      case "return": out.push(`${pad}return${s.value !== null ? " " + this.expr(s.value) : ""}${at}`); return;
      case "barrier": out.push(`${pad}barrier${at}`); return;
      case "fence": out.push(`${pad}fence.${s.scope}${at}`); return;
      case "atomic": {
        const args = s.args.map((a) => this.expr(a)).join(", ");
        out.push(`${pad}${s.result !== null ? this.local(s.result) + " = " : ""}atomic${s.word ? ".word" : ""}.${s.op} ${this.expr(s.array)}[${this.expr(s.index)}]${args ? ", " + args : ""}${at}`);
        return;
      }
      case "subgroup": out.push(`${pad}${this.local(s.result)} = subgroup.${s.op} ${s.args.map((a) => this.expr(a)).join(", ")}${at}`); return;
      case "init": out.push(`${pad}init ${this.local(s.local)}${at}`); return;
      case "trap": out.push(`${pad}trap${at}`); return;
      case "check": {
        const report = `@${this.m.functions[s.report]?.name ?? "?"}(${[s.code, s.site, s.a, s.b].map((h) => this.expr(h)).join(", ")})`;
        out.push(`${pad}check.${s.kind}${s.cond !== null ? ` ${this.expr(s.cond)}` : ""} ${report}${at}`);
        return;
      }
      default: assertNeverIR(s);
    }
  }
}

function siteText(l: Loc): string {
  return `${lineCol(l)}${l.inlinedAt ? " inlined at " + siteText(l.inlinedAt) : ""}`;
}

function lineCol(loc: { src: { locate(o: number): { line: number; column: number } }; at: number }): string {
  const l = loc.src.locate(loc.at);
  return `${l.line}:${l.column}`;
}

export function formatNumber(v: number): string {
  if (Object.is(v, -0)) return "-0";
  if (v === Infinity) return "inf";
  if (v === -Infinity) return "-inf";
  return String(v);
}
