// The IR validator: checks exactly the invariants written at the top of module.ts. It runs
// between pipeline stages; a failure is a bug in the stage before it, never a user error.

import type { Block, Expr, ExprHandle, Function, Module, Stmt } from "./module.js";
import { InvalidIRError, assertNeverIR, exprOperands, stmtOperands } from "./module.js";
import { completesBlock } from "./module-info.js";
import { OPS, acceptsOperand, resultScalar } from "./ops.js";
import { T, elemScalar, isArray, isInt, isNarrow, typeName, type Type } from "./types.js";

interface ValidateOptions {
  /** Whether recursive call cycles are allowed (targets with a call stack). */
  allowRecursion: boolean;
  /** Whether helpers may still contain barriers (before the inliner moved them into the kernel). */
  helperBarriers?: boolean;
}

export function validateModule(m: Module, opts: ValidateOptions = { allowRecursion: true }): void {
  const problems: string[] = [];
  if (!m.functions[m.entry]) problems.push(`entry #${m.entry} does not exist`);
  else if (m.functions[m.entry].kind !== "kernel") problems.push("the entry is not a kernel");
  m.functions.forEach((f, i) => new FunctionValidator(m, f, i, opts, problems).run());
  if (problems.length) throw new InvalidIRError(problems);
}

class FunctionValidator {
  private uses: number[];
  constructor(private m: Module, private f: Function, private index: number, private opts: ValidateOptions, private problems: string[]) {
    this.uses = new Array(f.exprs.length).fill(0);
  }

  private bad(msg: string): void { this.problems.push(`@${this.f.name}: ${msg}`); }

  run(): void {
    const f = this.f;
    if (f.kind === "kernel" && f.returnType !== T.void) this.bad("a kernel returns a value");
    for (const l of f.locals) if (l.type.kind === "unknown" || l.type.kind === "void" || l.type.kind === "agg") this.bad(`local '${l.name}' has type ${typeName(l.type)}`);
    for (const p of f.params) if (!f.locals[p]) this.bad(`parameter local %${p} does not exist`);
    this.block(f.body, 0, 0);
    if (f.returnType !== T.void && completesBlock(f.body)) this.bad("a function returning a value can reach its end");
  }

  private block(b: Block, loops: number, switches: number): void {
    for (const s of b) this.stmt(s, loops, switches);
  }

  private use(h: ExprHandle, where: string): Type {
    if (!(h >= 0 && h < this.f.exprs.length)) { this.bad(`${where}: expression ${h} does not exist`); return T.unknown; }
    if (++this.uses[h] > 1) this.bad(`${where}: expression ${h} is used twice (expressions are trees)`);
    return this.expr(h);
  }

  private expr(h: ExprHandle): Type {
    const e: Expr = this.f.exprs[h];
    const where = `expr ${h} (${e.k})`;
    const operandTypes = exprOperands(e).map((o) => this.use(o, where));
    if (e.type.kind === "unknown") this.bad(`${where} has unknown type`);
    switch (e.k) {
      case "const":
        if (e.type.kind !== "scalar") this.bad(`${where}: a constant of type ${typeName(e.type)}`);
        else if ((e.type === T.bool) !== (typeof e.value === "boolean")) this.bad(`${where}: value ${e.value} does not fit ${typeName(e.type)}`);
        break;
      case "local": {
        const l = this.f.locals[e.local];
        if (!l) this.bad(`${where}: local %${e.local} does not exist`);
        else if (l.type !== e.type) this.bad(`${where}: type ${typeName(e.type)} but local is ${typeName(l.type)}`);
        break;
      }
      case "global": {
        const g = this.m.globals[e.global];
        if (!g) this.bad(`${where}: global ${e.global} does not exist`);
        else if (g.type !== e.type) this.bad(`${where}: type differs from the global's`);
        break;
      }
      case "builtin": if (e.type !== T.i32) this.bad(`${where}: builtins are i32`); break;
      case "op": {
        const row = OPS[e.op];
        if (!row) { this.bad(`${where}: unknown op '${e.op}'`); break; }
        if (e.args.length !== row.arity) this.bad(`${where}: ${e.op} takes ${row.arity} operands, got ${e.args.length}`);
        const t0 = operandTypes[0];
        if (t0?.kind !== "scalar") { this.bad(`${where}: ${e.op} on ${typeName(t0 ?? T.unknown)}`); break; }
        if (!acceptsOperand(row.operands, t0.scalar)) this.bad(`${where}: ${e.op} does not accept ${typeName(t0)}`);
        if (operandTypes.some((t) => t !== t0)) this.bad(`${where}: ${e.op} operands differ (${operandTypes.map(typeName).join(", ")})`);
        if (e.type !== T.scalar(resultScalar(e.op, t0.scalar))) this.bad(`${where}: ${e.op}.${typeName(t0)} gives ${resultScalar(e.op, t0.scalar)}, not ${typeName(e.type)}`);
        break;
      }
      case "convert":
        if (e.type.kind !== "scalar" || operandTypes[0]?.kind !== "scalar") this.bad(`${where}: converts between non-scalars`);
        else if (e.type === operandTypes[0]) this.bad(`${where}: converts ${typeName(e.type)} to itself`);
        break;
      case "select":
        if (operandTypes[0] !== T.bool) this.bad(`${where}: condition is ${typeName(operandTypes[0])}`);
        if (operandTypes[1] !== e.type || operandTypes[2] !== e.type) this.bad(`${where}: arms are not ${typeName(e.type)}`);
        break;
      case "load": {
        const a = operandTypes[0];
        if (!a || !isArray(a)) { this.bad(`${where}: loads from ${typeName(a ?? T.unknown)}`); break; }
        if (!isInt(operandTypes[1])) this.bad(`${where}: index is ${typeName(operandTypes[1])}`);
        if (e.type !== T.scalar(elemScalar(a.elem))) this.bad(`${where}: type ${typeName(e.type)} but elements are ${a.elem}`);
        break;
      }
      case "length":
        if (!isArray(operandTypes[0])) this.bad(`${where}: length of a non-array`);
        if (e.type !== T.i32) this.bad(`${where}: length is i32`);
        break;
      case "bitOffset": {
        const a = operandTypes[0];
        if (!a || !isArray(a) || !isNarrow(a.elem)) this.bad(`${where}: bit offset in a word of ${typeName(a ?? T.unknown)}`);
        if (!isInt(operandTypes[1])) this.bad(`${where}: index is ${typeName(operandTypes[1])}`);
        if (e.type !== T.i32) this.bad(`${where}: a bit offset is i32`);
        break;
      }
      case "location": if (e.type !== T.i32) this.bad(`${where}: a location id is i32`); break;
      case "shared": {
        const sh = this.m.shared[e.shared];
        if (!sh) this.bad(`${where}: shared array ${e.shared} does not exist`);
        else if (sh.type !== e.type) this.bad(`${where}: type differs from the shared array's`);
        break;
      }
      default: assertNeverIR(e);
    }
    return e.type;
  }

  private stmt(s: Stmt, loops: number, switches: number): void {
    const where = `statement ${s.k}`;
    const types = stmtOperands(s).map((h) => this.use(h, where));
    switch (s.k) {
      case "set": {
        const l = this.f.locals[s.local];
        if (!l) { this.bad(`${where}: local %${s.local} does not exist`); break; }
        if (isArray(l.type)) this.bad(`${where}: assigns array local '${l.name}'`);
        if (types[0] !== l.type) this.bad(`${where}: ${typeName(types[0])} value into '${l.name}' of type ${typeName(l.type)}`);
        break;
      }
      case "store": {
        const a = types[0];
        if (!isArray(a)) { this.bad(`${where}: stores into ${typeName(a)}`); break; }
        if (a.space === "constant") this.bad(`${where}: stores into a constant array`);
        if (!isInt(types[1])) this.bad(`${where}: index is ${typeName(types[1])}`);
        if (types[2] !== T.scalar(elemScalar(a.elem))) this.bad(`${where}: ${typeName(types[2])} value into ${a.elem} elements`);
        break;
      }
      case "call": {
        const callee = this.m.functions[s.fn];
        if (!callee) { this.bad(`${where}: function #${s.fn} does not exist`); break; }
        if (callee.kind === "kernel") this.bad(`${where}: calls kernel '${callee.name}'`);
        if (callee.stateParam !== null && this.f.stateParam === null) this.bad(`${where}: '${callee.name}' takes the kernel state, which '${this.f.name}' does not have`);
        if (s.fn >= this.index && !this.opts.allowRecursion) this.bad(`${where}: callee '${callee.name}' does not precede its caller (recursion)`);
        if (s.args.length !== callee.params.length) this.bad(`${where}: '${callee.name}' takes ${callee.params.length} arguments, got ${s.args.length}`);
        callee.params.forEach((p, i) => {
          if (types[i] && types[i] !== callee.locals[p].type) this.bad(`${where}: argument ${i} is ${typeName(types[i])}, '${callee.name}' takes ${typeName(callee.locals[p].type)}`);
        });
        if ((s.result === null) !== (callee.returnType === T.void)) this.bad(`${where}: result local does not match '${callee.name}' returning ${typeName(callee.returnType)}`);
        else if (s.result !== null && this.f.locals[s.result]?.type !== callee.returnType) this.bad(`${where}: result local's type differs from ${typeName(callee.returnType)}`);
        break;
      }
      case "if":
        if (types[0] !== T.bool) this.bad(`${where}: condition is ${typeName(types[0])}`);
        this.block(s.then, loops, switches);
        this.block(s.else, loops, switches);
        break;
      case "loop":
        if (s.breakIf !== null && types[0] !== T.bool) this.bad(`${where}: break-if condition is ${typeName(types[0])}`);
        this.block(s.body, loops + 1, 0);
        this.block(s.continuing, loops + 1, 0);
        break;
      case "switch":
        if (!isInt(types[0])) this.bad(`${where}: selector is ${typeName(types[0])}`);
        if (s.cases.filter((c) => c.isDefault).length > 1) this.bad(`${where}: two default cases`);
        for (const c of s.cases) this.block(c.body, loops, switches + 1);
        break;
      case "break": if (loops === 0 && switches === 0) this.bad("break outside a loop or switch"); break;
      case "continue": if (loops === 0) this.bad("continue outside a loop"); break;
      case "return":
        if (this.f.returnType === T.void ? s.value !== null : types[0] !== this.f.returnType)
          this.bad(`${where}: returns ${s.value === null ? "nothing" : typeName(types[0])} from a function returning ${typeName(this.f.returnType)}`);
        break;
      case "fence": break;
      case "barrier":
        if (this.f.kind !== "kernel" && !this.opts.helperBarriers) this.bad(`${where}: a barrier outside the kernel (helpers with barriers are inlined)`);
        if (switches > 0) this.bad(`${where}: a barrier inside a switch`);
        break;
      case "subgroup": {
        if (this.f.kind !== "kernel" && !this.opts.helperBarriers) this.bad(`${where}: a subgroup operation outside the kernel (helpers with one are inlined)`);
        if (switches > 0) this.bad(`${where}: a subgroup operation inside a switch`);
        const [v, n] = types;
        const shuffle = s.op.startsWith("shuffle");
        if (s.args.length !== (shuffle ? 2 : 1)) { this.bad(`${where}: subgroup ${s.op} takes ${shuffle ? 2 : 1} operands, got ${s.args.length}`); break; }
        const vote = s.op === "any" || s.op === "all" || s.op === "ballot" || s.op === "barrier";
        if (v.kind !== "scalar" || (vote ? v !== T.bool : !shuffle && v === T.bool)) this.bad(`${where}: subgroup ${s.op} of ${typeName(v)}`);
        if (shuffle && n !== T.u32) this.bad(`${where}: subgroup ${s.op} lane operand is ${typeName(n)}, not u32`);
        const result = s.op === "ballot" ? T.u32 : vote ? T.bool : v;
        if (this.f.locals[s.result]?.type !== result) this.bad(`${where}: result local is not ${typeName(result)}`);
        break;
      }
      case "atomic": {
        const a = types[0];
        if (!isArray(a)) { this.bad(`${where}: on ${typeName(a)}`); break; }
        if (a.space !== "global" && a.space !== "shared") this.bad(`${where}: on a ${a.space} array`);
        const int = s.op !== "inc" && s.op !== "dec";
        const elemOk = a.elem === "i32" || a.elem === "u32" || (isNarrow(a.elem) && a.elem !== "u8c" && s.op !== "min" && s.op !== "max" && int) || (a.elem === "f32" && (s.op === "add" || s.op === "load" || s.op === "store" || s.op === "exchange"));
        if (!elemOk && !s.word) this.bad(`${where}: atomic ${s.op} on ${a.elem} elements`);
        if (!isInt(types[1])) this.bad(`${where}: index is ${typeName(types[1])}`);
        const want = s.op === "compareExchange" ? 2 : s.op === "load" ? 0 : 1;
        if (s.args.length !== want) this.bad(`${where}: ${s.op} takes ${want} operands, got ${s.args.length}`);
        // On the element's word: its bits as an i32, a load or a compare-exchange.
        const value = s.word ? T.i32 : T.scalar(elemScalar(a.elem));
        if (s.word && (s.op !== "load" && s.op !== "compareExchange")) this.bad(`${where}: word ${s.op} on ${a.elem} elements`);
        types.slice(2).forEach((t, i) => { if (t !== value) this.bad(`${where}: operand ${i} is ${typeName(t)}, elements are ${a.elem}`); });
        if (s.result !== null && this.f.locals[s.result]?.type !== value) this.bad(`${where}: result local is not ${typeName(value)}`);
        break;
      }
      case "init": {
        const l = this.f.locals[s.local];
        if (!l || !isArray(l.type) || l.type.space !== "private") this.bad(`${where}: init of a non-private-array local`);
        break;
      }
      case "trap": break;
      case "check": {
        const report = this.m.functions[s.report];
        if (!report || report.kind !== "runtime") { this.bad(`${where}: its report function #${s.report} is not a runtime function`); break; }
        if (this.f.kind === "runtime") this.bad(`${where}: a check in runtime function '${this.f.name}'`);
        if (this.f.stateParam === null) this.bad(`${where}: in '${this.f.name}', which has no kernel state`);
        const [cond, ...report5] = s.cond === null ? [T.bool, ...types] : types;
        if (cond !== T.bool) this.bad(`${where}: condition is ${typeName(cond)}`);
        const [state, ...ints] = report5;
        if (!isArray(state) || state.elem !== "i32") this.bad(`${where}: the kernel state is ${typeName(state)}`);
        ints.forEach((t, i) => { if (t !== T.i32) this.bad(`${where}: report operand ${i} is ${typeName(t)}, not i32`); });
        if (s.kind === "throw" && s.cond !== null) this.bad(`${where}: a throw check has a condition`);
        break;
      }
      default: assertNeverIR(s);
    }
  }
}
