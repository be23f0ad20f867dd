// Calls during a pass: of the method table's intrinsics, of helpers (specialized on their
// arguments' types: infer.ts makes the instance), of generated functions (their generators run
// on the arguments' types) and of overlays' kernel-language implementations; a helper returning
// an object value is inlined here.

import type { Span } from "../frontend/source.js";
import type { UExpr, UFunction } from "../frontend/uir.js";
import type { ExprHandle, FunctionHandle } from "../ir/module.js";
import { inlineCall } from "../ir/passes/inline.js";
import { T, isAgg, isArray, parseTypeName, typeName, type AggType, type ScalarType, type Type } from "../ir/types.js";
import type { AggVal, MethodBuilder, Val } from "./methods.js";
import { arrayWhat } from "./methods.js";
import type { ArgType } from "./overlays.js";
import type { FrameSite, JSFunction, Leaves, Pass } from "./pass.js";
import type { Aggregates } from "./aggregates.js";
import type { Arrays } from "./arrays.js";
import type { Values } from "./values.js";

export class Calls {
  /** (`builder`: what the method table's methods build through, given an intrinsic's arguments.) */
  constructor(private readonly pass: Pass, private readonly values: Values, private readonly aggregates: Aggregates, private readonly arrays: Arrays,
    private readonly builder: MethodBuilder) {}

  /** A call: of an intrinsic (the method table's), a generated function or a helper, its arguments evaluated left to right. */
  call(e: Extract<UExpr, { k: "call" }>, used: boolean): Val {
    const span = e.span;
    const c = e.callee;
    if (c.k === "dynamic") {
      e.args.forEach((a) => this.pass.lower.expr(a));
      if (c.reported) return this.pass.unknown;
      return this.pass.error("dynamic-call", `unsupported dynamic function invocation (call to '${c.name}')`, e.calleeSpan,
        "kernels can call helper functions (declared in the kernel or passed in `scope`) and gpuc's intrinsics");
    }
    const args: Val[] = [];
    for (const a of e.args) args.push(args.length ? this.pass.lower.operandAfterAll(args, a) : this.pass.lower.expr(a));
    if (c.k === "intrinsic") {
      const m = this.pass.ctx.methods.method(c.name);
      if (!m) return this.pass.error("undefined-name", `'${c.name}' has no implementation for target '${this.pass.ctx.target}'`, e.calleeSpan,
        `define one with overlay("${this.pass.ctx.target}", "${c.name}", fn) or deviceFunction("${c.name}", { ${this.pass.ctx.target}: fn })`);
      this.pass.ctx.noteMethod(c.name);
      return m(this.builder, args, span, c.name);
    }
    if (c.k === "generated") {
      const ufn = this.generate(c.gen, c.name, args, e.calleeSpan);
      return ufn ? this.callUFunction(ufn, args, e.args.map((a) => a.span), span, used) : this.pass.unknown;
    }
    return this.callUFunction(c.fn(), args, e.args.map((a) => a.span), span, used);
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

  private callUFunction(callee: UFunction, args: Val[], argSpans: Span[], span: Span, used: boolean): Val {
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
      if (a.k === "view" && a.bits) return this.pass.error("unsupported-syntax", `a typed array over the buffer of '${a.name}' cannot be passed to a helper; pass '${a.name}' itself`, argSpans[i]);
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
    const argH = args.flatMap((a, i) => (argTypes[i].kind === "null" ? [] : argTypes[i].kind === "scalar" ? [this.values.convert(a, argTypes[i] as ScalarType, argSpans[i])]
      : argTypes[i].kind === "agg" ? this.aggregates.flattenArg(a, argTypes[i], argSpans[i])
      : a.k === "view" ? [a.base, this.pass.add({ ...this.pass.fn.exprs[a.offset] }), this.pass.add({ ...this.pass.fn.exprs[a.length] })] : [(a as { h: ExprHandle }).h]));
    const rt = inst.returnType;
    if (rt.kind === "unknown") {
      // Pending (recursion in progress) is settled by the fixed point; a finished instance already reported why.
      if (inst.pending) this.pass.unknownCalls.push({ name: callee.name, span });
      return this.pass.unknown;
    }
    if (inst.usesState && this.pass.fn.stateParam === null) return this.pass.error("type", `internal: '${callee.name}' needs the kernel state but '${this.pass.ufn.name}' has none`, span);
    if (isAgg(rt)) return this.inlineAggregateCall(callee, inst, args, argH, rt, span);
    const result = rt === T.void ? null : this.pass.temp(rt);
    const frame = this.pass.ctx.options.debugLevel >= 2 ? this.pass.loc(span) ?? undefined : undefined;
    this.pass.emit({ k: "call", fn: inst.handle as never, args: argH, result, loc: this.pass.loc(span), ...(frame !== undefined ? { frame } : {}) });
    if (!result) return used ? this.pass.error("type", `'${callee.name}' does not return a value`, span) : this.pass.unknown;
    return { k: "expr", h: this.pass.read(result, span), t: rt };
  }

  /**
   * A call of a helper that returns an object value: its IR (a void function that sets its result
   * leaves) is inlined here, its result leaves becoming temporaries of this function. A recursive
   * one cannot be (it is still being inferred).
   */
  private inlineAggregateCall(callee: UFunction, inst: { handle: number; pending: boolean }, args: Val[], argH: ExprHandle[], rt: AggType, span: Span): Val {
    const agg = inst.pending ? null : this.pass.ctx.aggregateReturn(inst.handle);
    if (!agg) return this.pass.error("recursion", `'${callee.name}' returns an object value and is called recursively: a function returning an object value is inlined at each call, so it cannot recurse`, span,
      "return a number, or rewrite the recursion as a loop");
    // A helper whose result may share an argument's object must not be given one whose fields are assigned.
    if (!agg.fresh) for (const a of args) if (this.aggregates.sharesChanged(a)) { this.aggregates.shared(a as AggVal, `be passed to '${callee.name}', whose result may be that same object`, span); return this.pass.unknown; }
    const results = agg.leaves.map((l) => this.pass.newLocal(`${callee.name}.${agg.fn.locals[l].name.slice(agg.fn.name.length + 1)}`, agg.fn.locals[l].type));
    const body = inlineCall(this.pass.fn, agg.fn, { k: "call", fn: inst.handle as FunctionHandle, args: argH, result: null, loc: this.pass.loc(span) }, new Map(agg.leaves.map((l, i) => [l, results[i]])));
    for (const st of body) this.pass.emit(st);
    let k = 0;
    const nest = (t: Type): Leaves => (t.kind === "agg" ? t.fields.map((f) => nest(f.type)) : results[k++]);
    return this.aggregates.markFresh(this.aggregates.readLeaves(rt, nest(rt), span), agg.fresh);
  }
}

function argTypeOf(t: Type): ArgType {
  if (t.kind === "array") return Object.freeze({ name: typeName(t), kind: "array", elem: t.elem, length: t.size });
  const elem = (t as ScalarType).scalar;
  return Object.freeze({ name: elem, kind: "scalar", elem, length: null });
}
