// The scalar layer of the PTX back end: one legalized IR operation or conversion on registers and
// immediates. Where PTX's instructions differ from JavaScript, ir/passes/legalize.ts has rewritten
// the op (legal.ts: integer division, shift counts, sign; float % is the overlay's fmod); and the
// f32 math sequences over the hardware approximations.

import type { OpName } from "../../ir/ops.js";
import { isFloatScalar, type Scalar } from "../../ir/types.js";
import { CLASS, SUFFIX, immediate, movType, assertNeverOp, type RegClass } from "./common.js";
import { InternalCompilerError } from "../../errors.js";

/** Where the instructions go: the function emitter's lines and registers. */
interface ArithSink {
  line(text: string): void;
  reg(c: RegClass): string;
  readonly fastMath: boolean;
}

export class PTXArith {
  constructor(private readonly sink: ArithSink) {}

  private reg(c: RegClass): string { return this.sink.reg(c); }
  private line(text: string): void { this.sink.line(text); }

  /** An immediate moved into a register (for instructions that take no immediate there). */
  materialize(t: Scalar, v: string): string {
    if (v.startsWith("%")) return v;
    const r = this.reg(CLASS[t]);
    if (t === "bool") this.line(`setp.ne.u32 ${r}, ${v === "1" ? 1 : 0}, 0;`);
    else this.line(`mov.${movType(t)} ${r}, ${v};`);
    return r;
  }

  move(t: Scalar, dst: string, v: string): void {
    if (dst === v) return;
    if (t === "bool") {
      if (v.startsWith("%")) this.line(`mov.pred ${dst}, ${v};`);
      else this.line(`setp.ne.u32 ${dst}, ${v === "1" ? 1 : 0}, 0;`);
    } else this.line(`mov.${movType(t)} ${dst}, ${v};`);
  }

  convert(x: string, from: Scalar, to: Scalar): string {
    const r = this.reg(CLASS[to]);
    if (to === "bool") {
      const v = this.materialize(from, x);
      if (isFloatScalar(from)) this.line(`setp.ne.${from} ${r}, ${v}, ${from === "f32" ? "0f00000000" : "0d0000000000000000"};`);
      else this.line(`setp.ne.b32 ${r}, ${v}, 0;`);
      return r;
    }
    if (from === "bool") {
      const p = this.materialize("bool", x);
      this.line(`selp.${to === "f32" ? "f32" : to === "f64" ? "f64" : "b32"} ${r}, ${immediate(1, to)}, ${immediate(0, to)}, ${p};`);
      return r;
    }
    const v = this.materialize(from, x);
    if ((from === "i32" || from === "u32") && (to === "i32" || to === "u32")) { this.line(`mov.b32 ${r}, ${v};`); return r; }
    if (isFloatScalar(to)) {
      if (isFloatScalar(from)) this.line(`cvt${to === "f32" ? ".rn" : ""}.${to}.${from} ${r}, ${v};`);
      else this.line(`cvt.rn.${to}.${SUFFIX[from]} ${r}, ${v};`);
      return r;
    }
    // Float → i32/u32: truncation, on inputs where it agrees with JS's ToInt32/ToUint32
    // (legalize wraps the others).
    this.line(`cvt.rzi.${SUFFIX[to]}.${from} ${r}, ${v};`);
    return r;
  }

  /** One op on operand registers/immediates of type `t`; returns the result register. */
  opValue(op: OpName, args: string[], t: Scalar, rt: Scalar): string {
    const r = this.reg(CLASS[rt]);
    const x = this.materialize(t, args[0]);
    const y = args[1];
    const s = SUFFIX[t];
    const isF = isFloatScalar(t);
    const fm = this.sink.fastMath && t === "f32";
    const emit = (text: string): string => { this.line(text); return r; };
    switch (op) {
      // `.rn` forbids contracting a multiply and an add into an FMA (whose single rounding differs
      // from the CPU's two); fastMath leaves ptxas free to contract f32 arithmetic.
      case "add": return emit(isF ? `add${fm ? "" : ".rn"}.${s} ${r}, ${x}, ${y};` : `add.${s} ${r}, ${x}, ${y};`);
      case "sub": return emit(isF ? `sub${fm ? "" : ".rn"}.${s} ${r}, ${x}, ${y};` : `sub.${s} ${r}, ${x}, ${y};`);
      case "mul": return emit(isF ? `mul${fm ? "" : ".rn"}.${s} ${r}, ${x}, ${y};` : `mul.lo.${s} ${r}, ${x}, ${y};`);
      case "div":
        if (isF) return emit(fm ? `div.approx.f32 ${r}, ${x}, ${y};` : `div.rn.${s} ${r}, ${x}, ${y};`);
        return emit(`div.${s} ${r}, ${x}, ${y};`);
      case "rem": return emit(`rem.${s} ${r}, ${x}, ${y};`);   // (float %: the overlay's fmod, legal.ts)
      // Legalize leaves min/max of floats neither a NaN nor two zeros.
      case "min": case "max": return emit(`${op}.${s} ${r}, ${x}, ${y};`);
      case "neg": return emit(`neg.${s} ${r}, ${x};`);
      case "abs": return emit(`abs.${s} ${r}, ${x};`);
      case "sign": throw new InternalCompilerError("sign reached the PTX back end (legalize lowers it)");
      case "and": case "or": case "xor":
        return emit(`${op}.b32 ${r}, ${x}, ${y};`);
      // Counts below 32 (legalize masks them: PTX clamps a count of 32 or more).
      case "shl": return emit(`shl.b32 ${r}, ${x}, ${y};`);
      case "shr": return emit(`shr.${t === "u32" ? "u32" : "s32"} ${r}, ${x}, ${y};`);
      case "bitnot": return emit(`not.b32 ${r}, ${x};`);
      case "clz32": return emit(`clz.b32 ${r}, ${x};`);
      case "eq": case "ne": case "lt": case "le": case "gt": case "ge": {
        if (t === "bool") {
          if (op === "eq" || op === "ne") {
            this.line(`xor.pred ${r}, ${x}, ${this.materialize("bool", y)};`);
            if (op === "eq") this.line(`not.pred ${r}, ${r};`);
            return r;
          }
          const a = this.convert(x, "bool", "i32"), b = this.convert(y, "bool", "i32");
          return emit(`setp.${op}.s32 ${r}, ${a}, ${b};`);
        }
        // Ordered comparisons are false with a NaN; `ne` is unordered (NaN !== NaN).
        const cmp = isF && op === "ne" ? "neu" : op;
        return emit(`setp.${cmp}.${s} ${r}, ${x}, ${y};`);
      }
      case "not": return emit(`not.pred ${r}, ${x};`);
      case "land": case "lor": throw new InternalCompilerError("short-circuit op in opValue");
      case "floor": return emit(`cvt.rmi.${s}.${s} ${r}, ${x};`);
      case "ceil": return emit(`cvt.rpi.${s}.${s} ${r}, ${x};`);
      case "trunc": return emit(`cvt.rzi.${s}.${s} ${r}, ${x};`);
      case "round": throw new InternalCompilerError("round reached the PTX back end (legalize lowers it)");
      case "sqrt":
        return emit(fm ? `sqrt.approx.f32 ${r}, ${x};` : `sqrt.rn.${s} ${r}, ${x};`);
      case "exp": case "log": case "log2": case "log10": case "sin": case "cos": case "tan":
        if (t !== "f32") throw new InternalCompilerError(`${op} on ${t} reached the PTX back end`);
        return this.mathF32(op, r, x);
      case "isnan": return emit(`testp.notanumber.${s} ${r}, ${x};`);
      case "isfinite": return emit(`testp.finite.${s} ${r}, ${x};`);
      case "f32bits": case "f32frombits": return emit(`mov.b32 ${r}, ${x};`);
      case "f64hi": case "f64lo": {
        const lo = this.reg("r"), hi = this.reg("r");
        this.line(`mov.b64 {${lo}, ${hi}}, ${x};`);
        return emit(`mov.b32 ${r}, ${op === "f64hi" ? hi : lo};`);
      }
      case "pow": case "atan2": case "hypot": case "cbrt": case "expm1": case "log1p": case "asin": case "acos": case "atan":
      case "sinh": case "cosh": case "tanh": case "asinh": case "acosh": case "atanh":
        // The PTX overlay implements these in the kernel language (math.ts); validation reports what is left.
        throw new InternalCompilerError(`${op} on ${t} reached the PTX back end`);
      default: return assertNeverOp(op);
    }
  }

  /**
   * f32 exp, log, sin, cos and tan from the hardware's approximations (ex2, lg2, sin, cos):
   * absolute error about 1e-7 of max(1, |result|) within the ranges kernels use. Sine and cosine
   * reduce their argument modulo 2π first (Cody–Waite, two parts), so large angles stay accurate.
   */
  private mathF32(op: OpName, r: string, x: string): string {
    const t = this.reg("f");
    switch (op) {
      case "exp": this.line(`mul.rn.f32 ${t}, ${x}, 0f3FB8AA3B;`); this.line(`ex2.approx.f32 ${r}, ${t};`); return r;
      case "log": this.line(`lg2.approx.f32 ${t}, ${x};`); this.line(`mul.rn.f32 ${r}, ${t}, 0f3F317218;`); return r;
      case "log2": this.line(`lg2.approx.f32 ${r}, ${x};`); return r;
      case "log10": this.line(`lg2.approx.f32 ${t}, ${x};`); this.line(`mul.rn.f32 ${r}, ${t}, 0f3E9A209B;`); return r;
      case "sin": case "cos": case "tan": {
        const k = this.reg("f"), a = this.reg("f");
        this.line(`mul.rn.f32 ${k}, ${x}, 0f3E22F983;`);
        this.line(`cvt.rni.f32.f32 ${k}, ${k};`);
        this.line(`fma.rn.f32 ${a}, ${k}, 0fC0C90FDB, ${x};`);
        this.line(`fma.rn.f32 ${a}, ${k}, 0f343BBD2E, ${a};`);
        if (op !== "tan") { this.line(`${op}.approx.f32 ${r}, ${a};`); return r; }
        const sn = this.reg("f"), cs = this.reg("f");
        this.line(`sin.approx.f32 ${sn}, ${a};`);
        this.line(`cos.approx.f32 ${cs}, ${a};`);
        this.line(`div.rn.f32 ${r}, ${sn}, ${cs};`);
        return r;
      }
      default: throw new InternalCompilerError(`no f32 sequence for ${op}`);
    }
  }
}
