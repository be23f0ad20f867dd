// One pass of abstract interpretation over a method instance: walks the untyped IR with the
// current variable types, builds typed IR, and records the types each variable and `return` is
// given. infer.ts repeats the pass until those types stop changing (a fixed point), then keeps
// the last pass's IR and diagnostics. The builder binds the parameters and hands the body to its
// parts, which share the pass's state (pass.ts): statements, expressions, places, calls, arrays
// and their declarations, intrinsics, aggregates, values; it is what the method table's methods
// build through.

import type { CompileErrorKind } from "../errors.js";
import type { Span } from "../frontend/source.js";
import { walkUBody, type UFunction, type UStmt } from "../frontend/uir.js";
import type { AtomicOp, Builtin, ExprHandle, Function, LocalHandle, SubgroupOp } from "../ir/module.js";
import type { OpName } from "../ir/ops.js";
import { T, elemBytes, isAgg, structsLeaves, type AggType, type ArrayType, type ScalarType, type Type } from "../ir/types.js";
import type { MethodBuilder, Val, ViewVal } from "./methods.js";
import { Pass, type FrameSite, type InferError, type JSFunction, type Leaves, type ModuleContext, type ParamFinal } from "./pass.js";
import { Aggregates, byRefParams, flatLeaves } from "./aggregates.js";
import { ArrayDeclarations } from "./array-declarations.js";
import { Arrays } from "./arrays.js";
import { Calls } from "./calls.js";
import { Expressions } from "./expressions.js";
import { Intrinsics } from "./intrinsics.js";
import { Places } from "./places.js";
import { Statements } from "./statements.js";
import { Values } from "./values.js";
import { maybeUnassigned } from "./unassigned.js";

interface PassResult {
  fn: Function;
  varTypes: Type[];
  returnType: Type;
  errors: InferError[];
  /** An aggregate return value's leaf locals (see ModuleContext.instanceBody), and whether it is always a new object. */
  returnLeaves: LocalHandle[] | null;
  /** Where each parameter's value is at the end, and its type there (its local, or an object's leaves; none for an array's). */
  paramFinal: (ParamFinal | undefined)[];
  returnsFresh: boolean;
  /** Reads of variables and calls whose type is still unknown: errors if they remain at the fixed point. */
  unknownReads: { v: number; span: Span }[];
  unknownCalls: { name: string; span: Span }[];
}

const STATE_TYPE = T.array("i32", "global");

export class FunctionBuilder implements MethodBuilder {
  private readonly pass: Pass;
  private readonly values: Values;
  private readonly aggregates: Aggregates;
  private readonly arrays: Arrays;
  private readonly declarations: ArrayDeclarations;
  private readonly calls: Calls;
  private readonly intrinsics: Intrinsics;
  private readonly statements: Statements;
  private readonly places: Places;
  readonly unknown: Val;

  constructor(ufn: UFunction, argTypes: Type[], varTypes: Type[], returnType: Type, kind: "kernel" | "helper" | "runtime", ctx: ModuleContext, frames: FrameSite[]) {
    const pass = (this.pass = new Pass(ufn, kind, argTypes, varTypes, returnType, ctx, frames));
    this.unknown = pass.unknown;
    // Each part is given the parts it uses, which are below it; the expressions, above the parts
    // whose operands are expressions, are reached through the pass (pass.lower).
    const values = (this.values = new Values(pass, this));
    const aggregates = (this.aggregates = new Aggregates(pass, values));
    const arrays = (this.arrays = new Arrays(pass, values));
    this.declarations = new ArrayDeclarations(pass, arrays);
    const places = (this.places = new Places(pass, values, aggregates, arrays));
    this.calls = new Calls(pass, values, aggregates, arrays, places, this);
    this.intrinsics = new Intrinsics(pass, values, arrays);
    // (A function the constructor takes, not a field of the pass set afterwards: a pass's late field
    // made every compile about a fifth slower, bench/compare-compile.mjs.)
    let statements: Statements | null = null;
    const expressions = (pass.lower = new Expressions(pass, values, aggregates, arrays, places, this.calls, (list) => statements!.stmts(list)));
    this.statements = statements = new Statements(pass, values, aggregates, this.declarations, places, expressions);
  }

  build(): PassResult {
    const pass = this.pass;
    this.bindParameters();
    // A `var` declared without a value is undefined from the function's start: its declaration
    // does nothing where it runs (in a loop, it keeps the last iteration's value).
    for (const v of maybeUnassigned(pass.ufn).vars) if (pass.ufn.vars[v].kind === "var") this.places.declareUnassigned(v, pass.ufn.vars[v].span, true);
    this.statements.stmts(pass.ufn.body);
    this.declarations.checkLaunchSizes();
    const { returnType, returnLeaves, returnsFresh } = this.statements.finishReturns();
    const paramFinal = pass.ufn.params.map((p, i): ParamFinal | undefined => {
      const leaves = pass.aggLeaves.get(p);
      if (leaves) return { leaves, type: pass.newVarTypes[p] };
      const l = pass.argTypes[i].kind === "scalar" ? pass.localOf[p] : undefined;
      return l === undefined ? undefined : { leaves: l, type: pass.fn.locals[l].type };
    });
    return { fn: pass.fn, varTypes: pass.newVarTypes, returnType, errors: pass.errors, returnLeaves, returnsFresh, paramFinal,
      unknownReads: pass.unknownReads, unknownCalls: pass.unknownCalls };
  }

  /**
   * IR parameters for a value of type `t` a function value carries (a local it captured): as an
   * argument of that type arrives — a scalar or an array one parameter, a view three, an object
   * value its leaves — and the value they make.
   */
  private receive(t: Type, name: string, names: string[]): Val {
    if (t.kind === "agg") return this.aggregates.readLeaves(t, this.leavesParam(t, name, names), null);
    if (t.kind === "array" && t.view) return this.viewParam(t, name, names);
    const l = this.pass.newLocal(name, t);
    this.pass.fn.params.push(l);
    names.push(name);
    return { k: "expr", h: this.pass.read(l), t };
  }

  /**
   * A view arrives as its base array, an offset and a length (through a bit cast, the base array of
   * its own elements: a private array of constant size).
   */
  private viewParam(t: ArrayType, name: string, names: string[]): ViewVal {
    const pass = this.pass;
    const baseType = t.bits ? T.array(t.bits, t.space, t.size! * elemBytes(t.elem) / elemBytes(t.bits)) : T.array(t.elem, t.space, t.size);
    const base = pass.newLocal(name, baseType), offset = pass.newLocal(`${name}_offset`, T.i32), length = pass.newLocal(`${name}_length`, T.i32);
    pass.fn.params.push(base, offset, length);
    names.push(name, `${name}_offset`, `${name}_length`);
    return { k: "view", base: pass.read(base), t: T.array(t.elem, t.space, t.size), offset: pass.read(offset), length: pass.read(length), name, ...(t.bits ? { bits: t.bits } : {}) };
  }

  /** An object value arrives as its leaves, one parameter each. */
  private leavesParam(t: AggType, name: string, names: string[]): Leaves {
    const leaves = this.aggregates.makeLeaves(t, name);
    for (const l of flatLeaves(leaves)) { this.pass.fn.params.push(l); names.push(this.pass.fn.locals[l].name); }
    return leaves;
  }

  /** The IR function's parameters for the arguments' types, the kernel state's, and body locals for parameters assigned wider types. */
  private bindParameters(): void {
    const pass = this.pass, u = pass.ufn, fn = pass.fn;
    const names: string[] = [];
    u.params.forEach((p, i) => {
      const t = pass.argTypes[i];
      const name = u.vars[p].name;
      // An absent optional array is known from its type: it has no IR parameter; nor has a function,
      // but for the locals it captured.
      if (t.kind === "null") return;
      if (t.kind === "fn") {
        if (t.env) pass.fnEnvs.set(p, t.env.map((et, j) => this.receive(et, `${name}_${j}`, names)));
        return;
      }
      if (t.kind === "structs") {
        // An array of objects arrives as its leaves' arrays, one parameter each.
        const locals = structsLeaves(t.of).map((l) => pass.newLocal(`${name}.${l.path}`, T.array(l.elem, "global")));
        for (const l of locals) { fn.params.push(l); names.push(fn.locals[l].name); }
        pass.structVars.set(p, { t, leaves: () => locals.map((l) => pass.read(l)) });
        return;
      }
      if (t.kind === "array" && t.view) { pass.viewAliases.set(p, this.viewParam(t, name, names)); return; }
      if (t.kind === "agg") {
        // A kernel's object argument is one object every thread shares (and the host's after the
        // launch): a field stored into it would be seen by them all in JavaScript. Refused.
        if (pass.kind === "kernel" && byRefParams(u).has(i))
          pass.err("invalid-assignment", `kernel parameter '${name}' is an object every thread shares (in JavaScript a field stored into it is seen by every thread and by the host): its fields are read-only in the kernel`, u.vars[p].span,
            `copy what you change into a local (\`let ${t.fields[0].name} = ${name}.${t.fields[0].name};\`), or pass an array to write results into`);
        pass.aggLeaves.set(p, this.leavesParam(t, name, names));
        return;
      }
      // A multi-dimensional shared array arrives as its flat array; the parameter keeps the shape.
      const param = pass.newLocal(name, t.kind === "array" && t.dims ? T.array(t.elem, t.space, t.size) : t);
      if (t.kind === "array" && t.dims) this.arrays.setParamShape(param, { name, dims: t.dims });
      fn.params.push(param);
      names.push(name);
      pass.localOf[p] = param;
    });
    // Array parameters the body rebinds (`a = a.subarray(k)`): views of themselves from the start.
    const rebound = (pass.rebound = reboundVars(u.body));
    u.params.forEach((p, i) => {
      const t = pass.argTypes[i];
      if (!rebound.has(p) || t.kind !== "array" || t.dims) return;
      const view = pass.viewAliases.get(p);
      const base = view ? view.base : pass.read(pass.localOf[p]);
      const offset = view ? view.offset : pass.constant(0, T.i32, null);
      const length = view ? view.length : t.size !== null ? pass.constant(t.size, T.i32, null) : pass.add({ k: "length", array: pass.read(pass.localOf[p]), type: T.i32, loc: null });
      this.arrays.makeRebindable(p, { k: "view", base, t: T.array(t.elem, t.space, t.size), offset, length, name: u.vars[p].name }, u.vars[p].span);
    });
    fn.paramNames = names;
    if (pass.kind === "kernel" || (pass.kind === "helper" && pass.ctx.usesState(u))) fn.stateParam = pass.newLocal("$state", STATE_TYPE);
    u.vars.forEach((v, i) => {
      if (v.kind === "param") {
        const t = pass.varTypes[i];
        const argT = pass.argTypes[u.params.indexOf(i)];
        if (t !== argT && isAgg(t) && isAgg(argT)) {
          // An object parameter whose fields are assigned values of wider types: copied to leaves of those.
          const leaves = this.aggregates.makeLeaves(t, v.name);
          this.aggregates.writeLeaves(t, leaves, this.aggregates.readLeaves(argT, pass.aggLeaves.get(i)!, v.span), v.span);
          pass.aggLeaves.set(i, leaves);
          return;
        }
        // A parameter assigned values of a wider type than its argument: copy it to a local of that type.
        if (t !== pass.argTypes[u.params.indexOf(i)] && t.kind === "scalar") {
          const l = pass.newLocal(v.name, t);
          pass.emit({ k: "set", local: l, value: this.values.convertH(pass.read(pass.localOf[i]), t, v.span), loc: pass.loc(v.span) });
          pass.localOf[i] = l;
        }
        return;
      }
    });
  }

  // ---- what the method table's methods build through (methods.ts, MethodBuilder) -------------


  barrier(span: Span): Val { return this.intrinsics.barrier(span); }
  fence(scope: "device" | "block", span: Span): Val { return this.intrinsics.fence(scope, span); }
  atomic(op: AtomicOp, args: Val[], span: Span, name: string): Val { return this.intrinsics.atomic(op, args, span, name); }
  builtin(name: Builtin, span: Span): Val { return this.intrinsics.builtin(name, span); }
  subgroup(op: SubgroupOp, args: Val[], span: Span, name: string): Val { return this.intrinsics.subgroup(op, args, span, name); }
  print(args: Val[], span: Span): Val { return this.intrinsics.print(args, span); }
  callImplementation(impl: JSFunction, args: Val[], span: Span, name: string): Val { return this.calls.callImplementation(impl, args, span, name); }
  scalarType(v: Val, span: Span): ScalarType | null { return this.values.scalarType(v, span); }
  convert(v: Val, t: ScalarType, span: Span): ExprHandle { return this.values.convert(v, t, span); }
  op(op: OpName, args: ExprHandle[], t: Type, span: Span): Val { return this.values.op(op, args, t, span); }
  reusable(h: ExprHandle, span: Span): () => ExprHandle { return this.values.reusable(h, span); }
  minMaxMixed(op: "min" | "max", a: Val, ta: ScalarType, b: Val, tb: ScalarType, span: Span): Val { return this.values.minMaxMixed(op, a, ta, b, tb, span); }
  error(kind: CompileErrorKind, message: string, span: Span, hint?: string): Val { return this.pass.error(kind, message, span, hint); }
}

/** The variables a function body assigns with `=` (array variables among them are rebound views); once per function (inference builds it once per pass). */
function reboundVars(body: UStmt[]): Set<number> {
  let out = reboundCache.get(body);
  if (!out) {
    const found = new Set<number>();
    walkUBody(body, (e) => { if (e.k === "assign" && e.op === "=" && e.target.k === "var") found.add(e.target.v); });
    reboundCache.set(body, (out = found));
  }
  return out;
}
const reboundCache = new WeakMap<UStmt[], Set<number>>();
