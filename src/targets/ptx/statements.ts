// One PTX function's statements: structured control flow as labels and predicated branches (loops
// rotated), stores, .func calls and returns, barriers, zero-fills of private arrays, and the
// function's one cold block where every `report_exception(…); trap` goes.

import type { Block, Stmt } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import { completesBlock } from "../../ir/module-info.js";
import { scalarOf, type Scalar } from "../../ir/types.js";
import { InternalCompilerError } from "../../errors.js";
import { arrayBytes, elemMemType, paramType } from "./common.js";
import type { FunctionContext, InlineBody } from "./context.js";
import { DYNAMIC_SHARED, type Arrays } from "./arrays.js";
import type { Atomics } from "./atomics.js";
import type { Expressions } from "./expressions.js";
import type { Subgroups } from "./subgroups.js";

/** A runtime function's body emitted inline with a register prefix (function.ts): its lines and register declarations. */
export type InlineEmitter = (fn: number, inline: InlineBody) => { lines: string[]; decls?: string[] };

export class Statements {
  private breakTargets: string[] = [];
  private continueTargets: string[] = [];
  /** The shared cold block that records an exception (see `coldReport`), once used. */
  private cold: { label: string; args: string[]; fn: number } | null = null;

  constructor(private readonly ctx: FunctionContext, private readonly expressions: Expressions, private readonly arrays: Arrays,
    private readonly atomics: Atomics, private readonly subgroups: Subgroups, private readonly emitInline: InlineEmitter) {}

  block(b: Block): void {
    const ctx = this.ctx;
    for (let i = 0; i < b.length; i++) {
      const s = b[i];
      // Recording an exception and ending the thread: a jump to the function's one cold block.
      if (s.k === "call" && b[i + 1]?.k === "trap" && ctx.m.functions[s.fn].kind === "runtime" && ctx.m.functions[s.fn].name === "gpuc_report_exception" && !ctx.inline) {
        ctx.stmtLoc = s.loc ?? ctx.stmtLoc;
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
    const ctx = this.ctx;
    if (!this.cold) this.cold = { label: ctx.label("exception"), args: [ctx.reg("r"), ctx.reg("r"), ctx.reg("r"), ctx.reg("r")], fn: s.fn };
    // args: state, code, loc, a, b; the state is the function's own.
    s.args.slice(1).forEach((a, i) => ctx.arith.move("i32", this.cold!.args[i], this.expressions.expr(a)));
    ctx.line(`bra ${this.cold.label};`);
  }

  /** The cold block at the function's end, where some check jumps to it; its register declarations. */
  emitColdReport(): string[] {
    if (!this.cold) return [];
    const ctx = this.ctx;
    const f = ctx.f;
    const state = f.stateParam !== null ? ctx.arrays.get(f.stateParam)! : ctx.arrays.get(f.params[0])!;
    const r = this.emitInline(this.cold.fn, { prefix: "x", args: [state, ...this.cold.args] });
    ctx.stmtLoc = null;
    ctx.line(`${this.cold.label}:`);
    for (const l of r.lines) ctx.line(l.trim());
    return r.decls ?? [];
  }

  private stmt(s: Stmt): void {
    const ctx = this.ctx;
    const { expressions } = this;
    ctx.stmtLoc = s.loc ?? ctx.stmtLoc;
    const f = ctx.f;
    switch (s.k) {
      case "set": {
        const t = scalarOf(f.locals[s.local].type);
        ctx.arith.move(t, ctx.regs[s.local], expressions.expr(s.value));
        // A shared array's offset in the dynamic block: its address, once.
        const base = ctx.dynamicBases.get(s.local);
        if (base) { ctx.line(`mov.u32 ${base}, ${DYNAMIC_SHARED};`); ctx.line(`add.u32 ${base}, ${base}, ${ctx.regs[s.local]};`); }
        return;
      }
      case "store": {
        const a = this.arrays.arrayRef(s.array);
        const addr = this.arrays.address(a, s.index);
        const v = expressions.expr(s.value);
        ctx.line(`st.${a.space}.${elemMemType(a.elem)} ${addr}, ${v};`);
        return;
      }
      case "if": {
        // `if (c) break;` / `if (c) continue;`: one predicated branch.
        const only = s.then.length === 1 && !s.else.length ? s.then[0] : null;
        if (only && (only.k === "break" || only.k === "continue")) {
          const target = only.k === "break" ? this.breakTargets.at(-1) : this.continueTargets.at(-1);
          const { p, negated } = expressions.condition(s.cond);
          ctx.line(`@${negated ? "!" : ""}${p} bra ${target};`);
          return;
        }
        const { p: c, negated } = expressions.condition(s.cond);
        const cond = negated ? null : c;
        const elseL = ctx.label("else"), endL = ctx.label("endif");
        ctx.line(`@${cond === null ? "" : "!"}${cond ?? c} bra ${s.else.length ? elseL : endL};`);
        this.block(s.then);
        if (s.else.length) {
          if (completesBlock(s.then)) ctx.line(`bra ${endL};`);
          ctx.line(`${elseL}:`);
          this.block(s.else);
        }
        ctx.line(`${endL}:`);
        return;
      }
      case "loop": {
        const head = ctx.label("loop"), cont = ctx.label("continue"), exit = ctx.label("break");
        // A loop that starts with `if (c) break;` (for, while) is rotated: c is tested before the
        // first iteration and at the bottom of each (ptxas unrolls counted loops only in this form).
        const first = s.body[0];
        const test = first?.k === "if" && !first.else.length && first.then.length === 1 && first.then[0].k === "break" ? first.cond : null;
        if (test !== null) {
          const { p, negated } = expressions.condition(test);
          ctx.line(`@${negated ? "!" : ""}${p} bra ${exit};`);
        }
        ctx.line(`${head}:`);
        this.breakTargets.push(exit);
        this.continueTargets.push(cont);
        this.block(test !== null ? s.body.slice(1) : s.body);
        ctx.line(`${cont}:`);
        this.block(s.continuing);
        this.breakTargets.pop();
        this.continueTargets.pop();
        if (s.breakIf !== null) { const { p, negated } = expressions.condition(s.breakIf); ctx.line(`@${negated ? "!" : ""}${p} bra ${exit};`); }
        if (test !== null) { const { p, negated } = expressions.condition(test); ctx.line(`@${negated ? "" : "!"}${p} bra ${head};`); }
        else ctx.line(`bra ${head};`);
        ctx.line(`${exit}:`);
        return;
      }
      case "switch": return this.switchStmt(s);
      case "break": ctx.line(`bra ${this.breakTargets.at(-1)};`); return;
      case "continue": ctx.line(`bra ${this.continueTargets.at(-1)};`); return;
      case "return": {
        if (s.value !== null) {
          const t = scalarOf(f.exprs[s.value].type);
          const v = expressions.expr(s.value);
          const name = `${ctx.mod.fnNames[ctx.index]}_ret`;
          this.storeParam(name, t, v);
        }
        ctx.line(ctx.inline ? "exit;" : "ret;");
        return;
      }
      case "barrier": ctx.line("bar.sync 0;"); return;
      case "fence": ctx.line(s.scope === "device" ? "membar.gl;" : "membar.cta;"); return;
      // The exception is recorded: this thread ends (and no longer holds up barriers).
      case "trap": ctx.line("exit;"); return;
      case "init": {
        const a = ctx.arrays.get(s.local)!;
        const t = f.locals[s.local].type;
        const words = arrayBytes(a.elem, (t.kind === "array" ? t.size : 0) ?? 0).bytes / 4;
        if (words <= 32) for (let w = 0; w < words; w++) ctx.line(`st.local.u32 [${a.base}+${w * 4}], 0;`);
        else {
          const i = ctx.reg("r"), p = ctx.reg("p"), addr = ctx.reg("rd"), off = ctx.reg("rd");
          const top = ctx.label("zero");
          ctx.line(`mov.u32 ${i}, 0;`);
          ctx.line(`${top}:`);
          ctx.line(`mul.wide.u32 ${off}, ${i}, 4;`);
          ctx.line(`add.s64 ${addr}, ${a.base}, ${off};`);
          ctx.line(`st.local.u32 [${addr}], 0;`);
          ctx.line(`add.u32 ${i}, ${i}, 1;`);
          ctx.line(`setp.lt.u32 ${p}, ${i}, ${words};`);
          ctx.line(`@${p} bra ${top};`);
        }
        return;
      }
      case "atomic": return this.atomics.atomic(s);
      case "call": return this.call(s);
      case "subgroup": return this.subgroups.subgroup(s);
      case "check": throw new InternalCompilerError("a check reached the back end unlowered (legalize lowers them before emission)");
      default: assertNeverIR(s);
    }
  }

  private storeParam(name: string, t: Scalar, v: string): void {
    const ctx = this.ctx;
    if (t === "bool") {
      const tmp = ctx.reg("r");
      ctx.line(`selp.b32 ${tmp}, 1, 0, ${v};`);
      ctx.line(`st.param.b32 [${name}], ${tmp};`);
    } else ctx.line(`st.param.${paramType(t)} [${name}], ${v};`);
  }

  private switchStmt(s: Extract<Stmt, { k: "switch" }>): void {
    const ctx = this.ctx;
    const selT = scalarOf(ctx.f.exprs[s.selector].type);
    const sel = ctx.arith.materialize(selT, this.expressions.expr(s.selector));
    const end = ctx.label("endswitch");
    const caseLabels = s.cases.map(() => ctx.label("case"));
    const p = ctx.reg("p");
    s.cases.forEach((c, i) => {
      for (const v of c.values) {
        ctx.line(`setp.eq.${selT === "u32" ? "u32" : "s32"} ${p}, ${sel}, ${selT === "u32" ? v >>> 0 : v | 0};`);
        ctx.line(`@${p} bra ${caseLabels[i]};`);
      }
    });
    const def = s.cases.findIndex((c) => c.isDefault);
    ctx.line(`bra ${def >= 0 ? caseLabels[def] : end};`);
    this.breakTargets.push(end);
    s.cases.forEach((c, i) => {
      ctx.line(`${caseLabels[i]}:`);
      this.block(c.body);
      // A case that completes without `break` falls into the next one's body (JS semantics).
      if (!c.fallthrough && completesBlock(c.body) && i + 1 < s.cases.length) ctx.line(`bra ${end};`);
    });
    this.breakTargets.pop();
    ctx.line(`${end}:`);
  }

  private call(s: Extract<Stmt, { k: "call" }>): void {
    const ctx = this.ctx;
    const callee = ctx.m.functions[s.fn];
    ctx.mod.called.add(s.fn);
    const name = ctx.mod.fnNames[s.fn];
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
        const ref = a === null ? ctx.arrays.get(ctx.f.stateParam!)! : this.arrays.arrayRef(a);
        if (ref.wide) pass("b64", ref.base, "b64");
        else pass("b32", ref.base, "b32");
        pass("b32", ctx.arith.materialize("i32", ref.length), "b32");
      } else {
        const st = scalarOf(t);
        const v = this.expressions.expr(a!);
        if (st === "bool") {
          const tmp = ctx.reg("r");
          ctx.line(`selp.b32 ${tmp}, 1, 0, ${v};`);
          pass("b32", tmp, "b32");
        } else pass(paramType(st), v, paramType(st));
      }
    });
    if (ctx.mod.needsTables.has(s.fn)) pass("b64", ctx.tablesReg!, "b64");
    const rt = callee.returnType;
    if (rt.kind === "scalar") lines.push(`.param .${paramType(rt.scalar)} gpuc_ret;`);
    lines.push(`call ${rt.kind === "scalar" ? "(gpuc_ret), " : ""}${name}, (${names.join(", ")});`);
    if (rt.kind === "scalar" && s.result !== null) {
      if (rt.scalar === "bool") {
        const tmp = ctx.reg("r");
        lines.push(`ld.param.b32 ${tmp}, [gpuc_ret];`, `setp.ne.b32 ${ctx.regs[s.result]}, ${tmp}, 0;`);
      } else lines.push(`ld.param.${paramType(rt.scalar)} ${ctx.regs[s.result]}, [gpuc_ret];`);
    }
    lines.push("}");
    for (const l of lines) ctx.line(l);
  }
}
