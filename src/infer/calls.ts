// Calls during a pass: of the method table's intrinsics, of helpers (specialized on their
// arguments' types: infer.ts makes the instance), of generated functions (their generators run
// on the arguments' types) and of overlays' kernel-language implementations; a helper returning
// an object value is inlined here.

import { fnCallee } from "./function-values.js";
import type { Span } from "../frontend/source.js";
import type { UExpr, UFunction } from "../frontend/uir.js";
import { walkUBody } from "../frontend/uir.js";
import { ARRAY_METHODS } from "../frontend/lower.js";
import type { ExprHandle, FunctionHandle, LocalHandle } from "../ir/module.js";
import { inlineCall } from "../ir/passes/inline.js";
import { T, isAgg, isArray, parseTypeName, typeName, type ScalarType, type Type } from "../ir/types.js";
import type { AggVal, MethodBuilder, Val } from "./methods.js";
import { arrayWhat } from "./methods.js";
import type { ArgType } from "./overlays.js";
import type { FrameSite, JSFunction, Leaves, Pass } from "./pass.js";
import { byRefParams, chainOf, type Aggregates } from "./aggregates.js";
import type { Places } from "./places.js";
import type { Arrays } from "./arrays.js";
import type { Values } from "./values.js";

export class Calls {
  /** (`builder`: what the method table's methods build through, given an intrinsic's arguments.) */
  constructor(private readonly pass: Pass, private readonly values: Values, private readonly aggregates: Aggregates, private readonly arrays: Arrays,
    private readonly places: Places, private readonly builder: MethodBuilder) {}

  /** A call: of an intrinsic (the method table's), a generated function or a helper, its arguments evaluated left to right. */
  call(e: Extract<UExpr, { k: "call" }>, used: boolean): Val {
    const span = e.span;
    let c = e.callee;
    // A call through a variable holding a function (a helper's parameter given one): that function,
    // passed the locals it captured after the arguments, as a call by its name passes them.
    let env: Val[] = [];
    if (c.k === "var") {
      const f = this.pass.lower.expr({ k: "var", v: c.v, span: e.calleeSpan });
      if (f.k === "fn") { c = fnCallee(f.t); env = f.env ?? []; }
      else if (f.k !== "expr" || f.t.kind !== "unknown") c = { k: "dynamic", name: c.name };
      else { e.args.forEach((a) => this.pass.lower.expr(a)); return this.pass.unknown; }
    }
    if (c.k === "dynamic") {
      e.args.forEach((a) => this.pass.lower.expr(a));
      if (c.reported) return this.pass.unknown;
      const method = /\.(\w+)$/.exec(c.name)?.[1];
      return this.pass.error("dynamic-call", `unsupported dynamic function invocation (call to '${c.name}')`, e.calleeSpan,
        method === "at" ? "at() is read on an array's name in kernels: bind the array to a const first (`const v = a.subarray(1); v.at(-1)`)"
        : method !== undefined && ARRAY_METHODS.has(method)
          ? `'${method}' is a method of arrays that kernels do not have (they have subarray, at, forEach, reduce, reduceRight, some, every, findIndex, findLastIndex, indexOf, lastIndexOf, includes and fill): write it as a loop`
          : "kernels can call helper functions (declared in the kernel or passed in `scope`) and gpuc's intrinsics");
    }
    let args: Val[] = [];
    for (const a of e.args) args.push(args.length ? this.pass.lower.operandAfterAll(args, a) : this.pass.lower.expr(a));
    let argSpans = e.args.map((a) => a.span);
    let argExprs: UExpr[] = e.args;
    // `f(...t)`: a tuple's elements, each an argument (written as `t[k]`, where a helper that
    // assigns an element's fields copies them back to).
    if (e.spread) {
      const spread = this.spreadArgs(args, argSpans, e);
      if (!spread) return this.pass.unknown;
      ({ args, argSpans, argExprs } = spread);
    }
    if (env.length && c.k === "function") {
      const callee = c.fn(), declared = callee.params.length - (callee.captures?.length ?? 0);
      if ([...byRefParams(callee).keys()].some((i) => i >= declared))
        return this.pass.error("unsupported-syntax", `'${callee.name}' assigns what it captures of the function it is declared in (${callee.writtenCaptures?.map((n) => `'${n}'`).join(", ") || "the fields of an object"}): called through a value, it cannot give them back there`, e.calleeSpan,
          "call it by its name where it is declared, or return what it computes");
      // (Missing arguments are padded before the captures: callUFunction.)
      args = [...args, ...env];
      argSpans = [...argSpans, ...env.map(() => e.calleeSpan)];
      argExprs = [...argExprs, ...env.map((): UExpr => ({ k: "null", undef: true, span: e.calleeSpan }))];
    }
    if (c.k === "intrinsic") {
      const m = this.pass.ctx.methods.method(c.name);
      if (!m) return this.pass.error("undefined-name", `'${c.name}' has no implementation for target '${this.pass.ctx.target}'`, e.calleeSpan,
        `define one with overlay("${this.pass.ctx.target}", "${c.name}", fn) or deviceFunction("${c.name}", { ${this.pass.ctx.target}: fn })`);
      this.pass.ctx.noteMethod(c.name);
      return m(this.builder, args, span, c.name);
    }
    if (c.k === "generated") {
      const ufn = this.generate(c.gen, c.name, args, e.calleeSpan);
      return ufn ? this.callUFunction(ufn, args, argSpans, span, used) : this.pass.unknown;
    }
    return this.callUFunction(c.fn(), args, argSpans, span, used, argExprs);
  }

  /** The arguments with each spread one (a tuple) replaced by its elements; null after reporting why not. */
  private spreadArgs(args: Val[], argSpans: Span[], e: Extract<UExpr, { k: "call" }>): { args: Val[]; argSpans: Span[]; argExprs: UExpr[] } | null {
    const out: Val[] = [], spans: Span[] = [], exprs: UExpr[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (!e.spread![i]) { out.push(a); spans.push(argSpans[i]); exprs.push(e.args[i]); continue; }
      if (a.k !== "agg" || !a.tuple) {
        this.pass.err("unsupported-syntax", `a spread argument is a fixed-length array value (a tuple, \`[a, b, c]\`) in kernels, whose elements are known when the kernel is compiled; got ${a.k === "agg" ? "an object value" : "an array, whose length is not"}`, argSpans[i],
          "pass the array and its length, and loop over it in the function");
        return null;
      }
      for (const f of a.fields) {
        out.push(this.aggregates.partOf(a, f.name, f.v));
        spans.push(argSpans[i]);
        exprs.push({ k: "field", object: e.args[i], name: f.name, element: true, span: e.args[i].span });
      }
    }
    return { args: out, argSpans: spans, argExprs: exprs };
  }

  /** Call an overlay's kernel-language implementation like a helper. */
  callImplementation(impl: JSFunction, args: Val[], span: Span, name: string): Val {
    const ufn = this.pass.ctx.lowerImplementation(impl, name);
    return this.callUFunction(ufn, args, args.map(() => span), span, true);
  }

  /** Run a generator on the call's argument types; its errors are CompileErrors of kind generator-error. */
  private generate(gen: JSFunction, name: string, args: Val[], span: Span): UFunction | null {
    const types: ArgType[] = [];
    for (const a of args) {
      const t = this.values.typeOf(a);
      if (t.kind === "unknown") return null;
      if (a.k === "str") { this.pass.err("type", "strings cannot be passed to generated functions", span); return null; }
      if (a.k === "agg") { this.pass.err("unsupported-type", "object values cannot be passed to generated functions (their generators see scalar and array types)", span, "pass the fields"); return null; }
      if (a.k === "structs") { this.pass.err("unsupported-type", "an array of objects cannot be passed to generated functions (their generators see scalar and array types)", span, "pass its elements' fields"); return null; }
      if (a.k === "null") { this.pass.err("unsupported-type", `${a.undef ? "undefined" : "null"} cannot be passed to generated functions (their generators see scalar and array types)`, span, "test the optional array before the call"); return null; }
      types.push(argTypeOf(t));
    }
    const r = this.pass.ctx.generate(gen, name, types);
    if ("error" in r) {
      const err = r.error as Error;
      this.pass.errors.push({
        kind: "generator-error", span, cause: r.error,
        message: `the generator of '${name}' threw ${err?.name ?? "an error"} for (${types.map((t) => t.name).join(", ")}): ${err?.message ?? String(r.error)}`,
        hint: err instanceof ReferenceError ? "a binding the generator uses may not be initialized yet (temporal dead zone): define it before the first compile" : undefined,
      });
      return null;
    }
    return r.fn;
  }

  /** A call of a helper; `argExprs`, the arguments as written (where what the callee hands back is copied to). */
  private callUFunction(callee: UFunction, args: Val[], argSpans: Span[], span: Span, used: boolean, argExprs?: UExpr[]): Val {
    // Fewer arguments than declared parameters (before a rest parameter): the rest are undefined,
    // as in JavaScript (a parameter's default then applies: frontend/lower.ts). Captured locals
    // follow them. `...rest`: the arguments from its position on, as one tuple (of none where
    // none are passed).
    const captured = callee.captures?.length ?? 0, declared = callee.params.length - captured;
    const positional = callee.rest ? declared - 1 : declared;
    const passedNow = args.length - captured;
    // More arguments than parameters (and no rest parameter): evaluated (they are), then dropped,
    // as JavaScript ignores them (an array's method passes its callback (element, index, array)).
    if (passedNow > positional && !callee.rest) {
      args = [...args.slice(0, positional), ...args.slice(passedNow)];
      argSpans = [...argSpans.slice(0, positional), ...argSpans.slice(passedNow)];
      if (argExprs) argExprs = [...argExprs.slice(0, positional), ...argExprs.slice(passedNow)];
    } else if (passedNow < positional && passedNow >= 0) {
      const missing = positional - passedNow;
      args = [...args.slice(0, passedNow), ...Array.from({ length: missing }, (): Val => ({ k: "null", undef: true })), ...args.slice(passedNow)];
      argSpans = [...argSpans.slice(0, passedNow), ...Array.from({ length: missing }, () => span), ...argSpans.slice(passedNow)];
      if (argExprs) argExprs = [...argExprs.slice(0, passedNow), ...Array.from({ length: missing }, (): UExpr => ({ k: "null", undef: true, span })), ...argExprs.slice(passedNow)];
    }
    if (callee.rest) {
      const r = positional, passed = args.length - captured;
      for (let i = r; i < passed; i++) {
        const a = args[i];
        if (a.k === "str" || (a.k !== "expr" && a.k !== "weak" && a.k !== "agg") || (a.k === "expr" && isArray(a.t)))
          return this.pass.error("type", `'${callee.name}' gathers its arguments from the ${r + 1}${["st", "nd", "rd"][r] ?? "th"} on into a tuple, which holds numbers, booleans and object values, not ${a.k === "str" ? "strings" : "arrays"}`, argSpans[i]);
      }
      const tuple: Val = { k: "agg", tuple: true, fields: args.slice(r, passed).map((v, i) => ({ name: String(i), v })), fresh: true };
      args = [...args.slice(0, r), tuple, ...args.slice(passed)];
      argSpans = [...argSpans.slice(0, r), argSpans[r] ?? span, ...argSpans.slice(passed)];
      // (As the tuple literal of those arguments: a helper that assigns the fields of one that is
      // not new is refused, as for any object it cannot copy back.)
      if (argExprs) argExprs = [...argExprs.slice(0, r), { k: "tuple", elems: argExprs.slice(r, passed).map((value) => ({ value, spread: false, span: value.span })), span }, ...argExprs.slice(passed)];
    }
    const argTypes: Type[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a.k === "str") return this.pass.error("type", "strings cannot be passed to helper functions", argSpans[i]);
      // A row of a multi-dimensional shared array's last dimension goes as a view.
      if (a.k === "row" && a.indices.length + 1 === a.shape.dims.length) { args[i] = this.arrays.rowToView({ h: a.array, t: a.t, row: { shape: a.shape, indices: a.indices } }, argSpans[i]); i--; continue; }
      const shape = a.k === "row" ? a.shape : a.k === "expr" ? this.arrays.shapeOf(a.h) : undefined;
      if (a.k === "row" && shape) return this.pass.error("unsupported-type", `a row of ${arrayWhat(shape)} that is not of its last dimension cannot be passed to a helper function; the array, or a row of its last dimension, can`, argSpans[i],
        "pass the whole array (t) or a row of the last dimension (t[z][y])");
      // A multi-dimensional shared array goes whole: the helper indexes it as the kernel does.
      if (shape && a.k === "expr" && isArray(a.t)) {
        if (shape.dims.some((d) => typeof d !== "number")) return this.pass.error("unsupported-type", `${arrayWhat(shape)} has dimensions sized at launch: it cannot be passed whole to a helper function (a row of its last dimension can)`, argSpans[i]);
        argTypes.push(T.shaped(a.t, shape.dims as number[]));
        continue;
      }
      if (a.k === "expr" && a.t.kind === "unknown") return this.pass.unknown;
      if (a.k === "structs" && a.at) return this.pass.error("unsupported-type", `'${a.name}', an array of objects inside an object, cannot be passed to a helper`, argSpans[i], `pass '${a.name.split("[")[0]}' and the index, and read the array there`);
      // An object value specializes on its shape and field types (and goes as its leaves).
      if (a.k === "agg") {
        const t = this.values.typeOf(a);
        if (t.kind === "unknown") return this.pass.unknown;
        argTypes.push(t);
        continue;
      }
      // A parameter with a declared type takes arguments converted to it; the others specialize.
      const declared = callee.vars[callee.params[i]]?.declared;
      const dt = declared ? parseTypeName(declared) : null;
      argTypes.push(dt && dt.kind === "scalar" && !(a.k === "expr" && isArray(a.t)) ? dt : this.values.typeOf(a));
    }
    if (args.length !== callee.params.length)
      return this.pass.error("type", `'${callee.name}' takes ${callee.params.length} argument${callee.params.length === 1 ? "" : "s"}, got ${args.length}`, span);
    const frames: FrameSite[] = [{ function: this.pass.ufn.name, src: this.pass.ufn.source, at: span.start }, ...this.pass.frames];
    const inst = this.pass.ctx.instance(callee, argTypes, frames);
    if (!inst) return this.pass.unknown;
    const argH = args.flatMap((a, i) => this.flatten(a, argTypes[i], argSpans[i]));
    const rt = inst.returnType;
    if (rt.kind === "unknown") {
      // Pending (recursion in progress) is settled by the fixed point; a finished instance already reported why.
      if (inst.pending) this.pass.unknownCalls.push({ name: callee.name, span });
      return this.pass.unknown;
    }
    if (inst.usesState && this.pass.fn.stateParam === null) return this.pass.error("type", `internal: '${callee.name}' needs the kernel state but '${this.pass.ufn.name}' has none`, span);
    const back = argExprs ? this.handedBack(callee, args, argExprs, argTypes, span) : [];
    if (!back) return this.pass.unknown;
    if (isAgg(rt) || back.length) return this.inlined(callee, inst, args, argH, rt, back, span, argExprs);
    const result = rt === T.void ? null : this.pass.temp(rt);
    const frame = this.pass.ctx.options.debugLevel >= 2 ? this.pass.loc(span) ?? undefined : undefined;
    this.pass.emit({ k: "call", fn: inst.handle as never, args: argH, result, loc: this.pass.loc(span), ...(frame !== undefined ? { frame } : {}) });
    if (!result) return used ? this.pass.error("type", `'${callee.name}' does not return a value`, span) : this.pass.unknown;
    return { k: "expr", h: this.pass.read(result, span), t: rt };
  }

  /** An argument of type `t` as the IR parameters that receive it (none for an absent array; a function value's captured locals). */
  private flatten(a: Val, t: Type, span: Span): ExprHandle[] {
    if (t.kind === "null") return [];
    if (t.kind === "fn") return (a.k === "fn" ? a.env ?? [] : []).flatMap((v, j) => this.flatten(v, t.env![j], span));
    if (a.k === "structs") return a.leaves.map((h) => this.pass.add({ ...this.pass.fn.exprs[h] }));
    if (t.kind === "scalar") return [this.values.convert(a, t, span)];
    if (t.kind === "agg") return this.aggregates.flattenArg(a, t, span);
    if (a.k === "view") return [a.base, this.pass.add({ ...this.pass.fn.exprs[a.offset] }), this.pass.add({ ...this.pass.fn.exprs[a.length] })];
    return [(a as { h: ExprHandle }).h];
  }

  /**
   * The arguments a call hands back to (byRefParams): an object whose fields the callee assigns,
   * a captured local it assigns — each passed as a variable or a field of one, copied back there
   * when the call returns (copy-in/copy-out: JavaScript's meaning where nothing else holds the
   * object; a new object passed any other way is the call's alone, and nothing is copied back).
   * An object handed back that is passed twice would be shared by the parameters in JavaScript,
   * and one that is not new but has no place to come back to (`t[i]`, `c ? p : q`, a helper's
   * result that is its argument) would change its holder there: errors. Null after reporting one.
   */
  private handedBack(callee: UFunction, args: Val[], argExprs: UExpr[], argTypes: Type[], span: Span): { i: number; target: UExpr }[] | null {
    const out: { i: number; target: UExpr }[] = [];
    const declared = callee.params.length - (callee.captures?.length ?? 0);
    for (const i of byRefParams(callee).keys()) {
      const t = argTypes[i], target = argExprs[i];
      // A captured local (a number or an object), or an object passed; a number passed is the
      // callee's own copy, and an array is passed by reference already.
      if (t?.kind === "array" && i >= declared) {
        this.pass.err("unsupported-syntax", `'${callee.name}' rebinds '${callee.captures![i - declared]}', an array of the function it is declared in: a local function may assign the numbers and objects it captures, not rebind an array`, span,
          "rebind it where it is declared, or pass the view as an argument and return what it computes");
        return null;
      }
      if (!t || !(t.kind === "agg" || (t.kind === "scalar" && i >= declared))) continue;
      const root = placeRoot(target);
      if (root === null) {
        if (this.aggregates.allFresh(args[i])) continue;
        this.pass.err("type", `'${callee.name}' assigns the fields of its parameter '${callee.vars[callee.params[i]].name}', and the object passed for it is held elsewhere but is not a variable or a field of one (a tuple element picked by a variable index, a choice between objects, a helper's result that is its argument): JavaScript would change that object, and gpuc has no place to copy it back to`, span,
          "pass a variable or a chain of fields and constant indices (`p`, `s.vel`, `t[0]`), choosing with if/else: `if (i === 0) f(t[0]); else f(t[1]);`");
        return null;
      }
      // (A number read from the object is a copy: only another object argument could share it.)
      if (t.kind === "agg" && argExprs.some((a, j) => j !== i && argTypes[j]?.kind === "agg" && mentions(a, root))) {
        this.pass.err("type", `'${this.pass.ufn.vars[root].name}' is passed to '${callee.name}' more than once (or with a part of it), and '${callee.name}' assigns the fields of its parameter '${callee.vars[callee.params[i]].name}': JavaScript would share one object between those parameters, and gpuc copies object values`, span,
          `pass a copy, e.g. \`{ ...${this.pass.ufn.vars[root].name} }\`, for the parameter only read`);
        return null;
      }
      out.push({ i, target });
    }
    return out;
  }

  /**
   * A call inlined here: of a helper that returns an object value (its IR, a void function that
   * sets its result leaves, inlined with those leaves becoming temporaries of this function), or
   * one that hands values back (`back`: each parameter's value where the callee leaves it, copied
   * into the argument's place after the body). A recursive one cannot be (it is still being
   * inferred).
   */
  private inlined(callee: UFunction, inst: { handle: number; pending: boolean }, args: Val[], argH: ExprHandle[], rt: Type, back: { i: number; target: UExpr }[], span: Span, argExprs?: UExpr[]): Val {
    const body = inst.pending ? null : this.pass.ctx.instanceBody(inst.handle);
    if (!body) return isAgg(rt)
      ? this.pass.error("recursion", `'${callee.name}' returns an object value and is called recursively: a function returning an object value is inlined at each call, so it cannot recurse`, span, "return a number, or rewrite the recursion as a loop")
      : this.pass.error("recursion", `'${callee.name}' assigns what its caller passed (the fields of an object, or a local it captures) and is called recursively: such a call is inlined, so it cannot recurse`, span, "return the new values instead");
    // The result is the object of the parameter it returns (handed back too), or a new one, or else
    // it may share an argument's object: one whose fields are assigned must not be given then.
    const returned = isAgg(rt) && !body.fresh ? returnedParam(callee, false) : null;
    const returnedBack = returned !== null ? back.find((b) => b.i === returned) : undefined;
    // A helper that returns parts of one parameter's object (`return result.x`, idxToElem's):
    // the result is a part of that argument's object, shared only where those parts' fields are assigned.
    const part = isAgg(rt) && !body.fresh && !returnedBack ? returnedParam(callee, true) : null;
    const partArg = part !== null && argExprs ? chainOfPlace(argExprs[part]) : null;
    if (isAgg(rt) && !body.fresh && !returnedBack)
      for (const [j, a] of args.entries()) if (!(partArg && j === part) && this.aggregates.sharesChanged(a)) { this.aggregates.shared(a as AggVal, `be passed to '${callee.name}', whose result may be that same object`, span); return this.pass.unknown; }
    const bound = new Map<number, LocalHandle>();
    const fresh = (l: LocalHandle, name: string): LocalHandle => { const n = this.pass.newLocal(`${callee.name}.${name}`, body.fn.locals[l].type); bound.set(l, n); return n; };
    const results = isAgg(rt) ? body.leaves!.map((l) => fresh(l, body.fn.locals[l].name.slice(body.fn.name.length + 1))) : [];
    const result = !isAgg(rt) && rt !== T.void ? this.pass.temp(rt) : null;
    const remap = (ls: Leaves): Leaves => (Array.isArray(ls) ? ls.map(remap) : fresh(ls, body.fn.locals[ls].name));
    const finals = back.map(({ i }) => { const f = body.paramFinal[i]!; return { type: f.type, leaves: remap(f.leaves) }; });
    for (const st of inlineCall(this.pass.fn, body.fn, { k: "call", fn: inst.handle as FunctionHandle, args: argH, result, loc: this.pass.loc(span) }, bound)) this.pass.emit(st);
    // (The object comes back: the caller's own, so holding it again shares nothing.)
    back.forEach(({ target }, j) => this.places.assignTo(target, this.aggregates.markFresh(this.aggregates.readLeaves(finals[j].type, finals[j].leaves, span), true), span));
    if (!isAgg(rt)) return result === null ? this.pass.unknown : { k: "expr", h: this.pass.read(result, span), t: rt };
    let k = 0;
    const nest = (t: Type): Leaves => (t.kind === "agg" ? t.fields.map((f) => nest(f.type)) : results[k++]);
    const value = this.aggregates.markFresh(this.aggregates.readLeaves(rt, nest(rt), span), body.fresh) as AggVal;
    // The parameter's object returned (n-body's `ai = bodyBodyInteraction(ai, …)`): the argument's, held where it is.
    const at = returnedBack ? chainOfPlace(returnedBack.target) : partArg ? { v: partArg.v, path: [...partArg.path, "*"] } : null;
    return at ? { ...value, root: at.v, path: at.path } : value;
  }
}

/** The variable a place names (`p`, `s.vel`, `t[0]`: a chain of fields and constant indices) and the path to it, or null for any other expression. */
function chainOfPlace(x: UExpr): { v: number; path: string[] } | null {
  const r = chainOf(x, []);
  return r && !r.path.includes("*") ? r : null;
}

function placeRoot(x: UExpr): number | null {
  return chainOfPlace(x)?.v ?? null;
}

/** Whether an expression reads variable `v`. */
function mentions(e: UExpr, v: number): boolean {
  let found = false;
  walkUBody([{ k: "expr", e, span: e.span }], (x) => { if (x.k === "var" && x.v === v) found = true; });
  return found;
}

/**
 * The parameter (by position) that every `return` of a function returns as it is (`return ai`),
 * or with `parts`, a part of (`return result.x`, a chain of at least one field; a new object
 * returned too) — a parameter the function never binds to another object; else null, and the
 * result may be any argument's object.
 */
function returnedParam(fn: UFunction, parts: boolean): number | null {
  let param: number | null = null, other = false;
  walkUBody(fn.body, () => {}, (s) => {
    if (s.k !== "return") return;
    if (parts && (s.e?.k === "object" || s.e?.k === "tuple")) return;
    const c = s.e ? chainOfPlace(s.e) : null;
    const i = c && (parts ? c.path.length > 0 : c.path.length === 0) ? fn.params.indexOf(c.v) : -1;
    if (i < 0 || (param !== null && param !== i)) other = true;
    else param = i;
  });
  let rebound = false;
  walkUBody(fn.body, (e) => { if (param !== null && e.k === "assign" && e.target.k === "var" && e.target.v === fn.params[param]) rebound = true; });
  return other || rebound ? null : param;
}

function argTypeOf(t: Type): ArgType {
  if (t.kind === "array") return Object.freeze({ name: typeName(t), kind: "array", elem: t.elem, length: t.size });
  const elem = (t as ScalarType).scalar;
  return Object.freeze({ name: elem, kind: "scalar", elem, length: null });
}
