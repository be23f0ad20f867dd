// WGSL expressions and ops: each expression as WGSL text (constants, builtins, lengths, loads
// through arrays.ts, selects, conversions), and every op spelled through WGSL_OPS.

import type { Builtin, Expr, ExprHandle } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import type { OpName } from "../../ir/ops.js";
import { scalarOf, type Scalar, type Type } from "../../ir/types.js";
import { InternalCompilerError } from "../../errors.js";
import { C_FAMILY_OPS, call, infix, lowered, prefix, type OpSpelling } from "../c-family.js";
import { dynamicLength } from "./layout.js";
import { markMention } from "./sites.js";
import { SCALAR, type Lowering, type ShaderContext } from "./context.js";
import type { Arrays } from "./arrays.js";

export class Expressions implements Lowering {
  constructor(private readonly ctx: ShaderContext, private readonly arrays: Arrays) {}

  expr(h: ExprHandle): string {
    const ctx = this.ctx;
    const e: Expr = ctx.f.exprs[h];
    switch (e.k) {
      case "const": return constant(e.value, e.type, (n, t) => ctx.use(n, t));
      case "local": {
        const binding = ctx.paramBinding(h);
        if (binding !== undefined) return markMention(binding, ctx.names[e.local]);
        // A scalar parameter of the kernel: its field of the params block (a bool is a u32 there).
        if (ctx.f === ctx.m.functions[ctx.m.entry] && e.type.kind === "scalar" && ctx.f.params.includes(e.local))
          return e.type.scalar === "bool" ? `(params.${ctx.names[e.local]} != 0u)` : `params.${ctx.names[e.local]}`;
        return ctx.names[e.local];
      }
      case "global": return ctx.global(e.global);
      case "shared": return ctx.shared(e.shared);
      case "builtin":
        if (e.name.startsWith("subgroup")) ctx.usesSubgroups = true;
        // (A runtime function has lid and wid as parameters: see emit.ts, runtimeFunction.)
        if (ctx.f !== ctx.m.functions[ctx.m.entry] && !/^(threadIdx|blockIdx|blockDim)\./.test(e.name))
          throw new InternalCompilerError(`the WGSL runtime function ${ctx.f.name} reads ${e.name}`);
        return BUILTINS[e.name];
      case "location": return `${ctx.locations.id(e.site)}i`;
      case "length": {
        const a = ctx.f.exprs[e.array];
        if (ctx.arrayKey(e.array) === "state") return "i32(arrayLength(&state))";
        if (a.k === "local" && ctx.f.params.includes(a.local)) return `params.${ctx.names[a.local]}_len`;
        if (a.k === "global") return `${ctx.m.globals[a.global].value.length}i`;
        if (a.k === "shared" && ctx.m.shared[a.shared].size) return dynamicLength(ctx.m.shared.slice(0, a.shared).filter((s) => s.size).length);
        if (a.k === "local" && a.local === ctx.f.stateParam) return "i32(arrayLength(&state))";
        throw new InternalCompilerError("length of an array of constant size survived folding");
      }
      case "load": return ctx.uniformLoads.get(h) ?? this.arrays.load(e);
      case "bitOffset": return this.arrays.bitOffset(e.array, e.index);
      case "select": return `select(${this.expr(e.b)}, ${this.expr(e.a)}, ${this.expr(e.cond)})`;
      case "convert": {
        // f32 → i32/u32 gets inputs WGSL's conversion agrees on (legalize wraps the others as JS does).
        const from = scalarOf(ctx.f.exprs[e.arg].type), to = scalarOf(e.type);
        return convert(this.expr(e.arg), from, to);
      }
      case "op": return this.op(e.op, e.args.map((a) => this.expr(a)), scalarOf(ctx.f.exprs[e.args[0]].type));
      default: return assertNeverIR(e);
    }
  }

  /**
   * One op, legalized (legal.ts says which ops WGSL spells natively and which with a helper of
   * the prelude; ir/passes/legalize.ts has rewritten the others).
   */
  private op(op: OpName, a: string[], t: Scalar): string {
    return WGSL_OPS[op](a, t, (name, text) => this.ctx.use(name, text));
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
  f32frombits: ([x]) => `bitcast<f32>(${x})`,
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
  const s = scalarOf(t);
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
