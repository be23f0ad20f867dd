// Legalizing: JavaScript's meaning written out for one target, as plain IR.
//
// Every IR op means what it means in JavaScript (ops.ts: `eval`). A target's instruction for an
// op often agrees with JavaScript on most inputs but not all (an integer divided by zero, a shift
// by 32 or more, a NaN). Each target says, per op and operand type, in its table
// (targets/<name>/legal.ts), one of:
//   - native: its instruction has the op's meaning on every input (the default);
//   - a lowering named below: this pass rewrites the op into IR that gives the same value on
//     every input and in which the op itself only ever receives inputs where the target's
//     instruction agrees with JavaScript (its `domain`);
//   - helper: the target spells the op with a helper of its own that has the op's meaning (a
//     prelude function or an instruction sequence that needs bits the IR cannot name); the table
//     says so, for the reader and the tests, and this pass leaves the op alone.
// After this pass a back end spells every op it sees with its plain instruction, except those
// its table marks `helper`: the semantics live here, once, and the back ends only spell.
// The pass also lowers checks for targets that want them as branches (lower-checks.ts).
//
// Why it is sound: each lowering below is an identity of JavaScript arithmetic on every input of
// its operand type (stated beside it and tested exhaustively on edge values in
// test/legalize.test.ts, which also checks that the rewritten op only sees its domain). An operand
// a lowering needs more than once is read again, never re-evaluated with a different result:
// expressions are pure, so a copy of the subtree has the same value; where the operand is
// computed unconditionally by its statement and is more than a constant or a local read, it is
// computed once into a fresh local just before the statement (the statement would have computed
// it at that point anyway, after its checks). Nothing is reordered across an effect.

import type { Block, Expr, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import { rewriteBlock } from "../module.js";
import { OPS, acceptsOperand, type OpName } from "../ops.js";
import { T, wrapValue, type Scalar } from "../types.js";
import { lowerCheck } from "./lower-checks.js";
import { InternalCompilerError } from "../../errors.js";
import type { DoneGuards } from "./done-guards.js";
import type { PartialShuffles } from "./partial-shuffles.js";

export type Lowering = keyof typeof LOWERINGS;
/**
 * "native": the instruction means the op; "helper": the emitter spells it with code of its own;
 * "overlay": the target's method table replaced it before the IR (float `%` through the method
 * "%", softmath), so one reaching legalize is a compiler bug; else a lowering.
 */
type Legality = "native" | "helper" | "overlay" | Lowering;

/** A target's legality table. */
export interface LegalTable {
  /** The target it is for (recorded on the module: back ends refuse a module legalized for another). */
  target: string;
  /** Per op, per operand type, what the target's instruction does; ops and types not named are native. */
  ops: { readonly [op in OpName]?: { readonly [t in Scalar]?: Legality } };
  /** Per conversion ("f32>i32": from f32 to i32), the same; conversions not named are native. */
  converts?: { readonly [k in `${Scalar}>${Scalar}`]?: "native" | "helper" | ConvertLowering };
  /**
   * Whether a lowering that relies on a comparison being false for a NaN must test the NaN by its
   * bits first (`isnan`): true where the target's compiler may assume that floats are never NaN.
   */
  nanTestsByBits: boolean;
  /** Checks become `if (cond) { report; trap }` here ("lower"), or stay for the back end to spell ("keep"). */
  checks: "lower" | "keep";
  /**
   * Where a thread cannot leave a kernel with barriers early (WGSL, OpenCL C, SPIR-V): what one
   * that returned or trapped must skip as it goes on through the barriers (passes/done-guards.ts:
   * its effects, or its effects and memory reads). Absent where a thread may end (JS's regions,
   * PTX's exit).
   */
  doneGuards?: DoneGuards;
  /** Which atomics (and narrow stores) are compare-and-swap loops on the element's word (passes/cas-loops.ts); absent: none. */
  atomics?: CasPolicy;
  /**
   * Where a shuffle from a lane that does not take part gives an undefined value (WGSL): how a
   * shuffle that part of a subgroup may reach learns which lanes are there (passes/partial-shuffles.ts).
   * Absent where the back end or the device already gives the reader's own value (JS's subgroups
   * run lane by lane, PTX tests the lane against `activemask`, OpenCL C and SPIR-V have one lane).
   */
  partialShuffles?: PartialShuffles;
  /**
   * Whether the target's select, `&&` and `||` compute both operands: then one whose lazy side
   * reads memory becomes branches (passes/lazy-reads.ts). Absent where they are lazy (OpenCL C,
   * JS) or a load cannot fault (WGSL).
   */
  eagerSelects?: true;
  /** Whether a private array's zero fill (`init`) becomes a counted loop of stores (passes/zero-fill.ts: SPIR-V, LLVM IR, OpenCL C); absent where the back end spells it. */
  zeroFill?: "loop";
  /**
   * Whether a scalar parameter the kernel assigns becomes a local of its own, set from it at the
   * kernel's start (passes/param-copies.ts): where a block's threads share one call of the kernel's
   * function (the JS target) or the parameters are read-only (WGSL's uniform block). Absent where
   * each thread's parameters are its own variables (PTX, OpenCL C, SPIR-V, LLVM IR).
   */
  paramCopies?: "assigned";
  /** Whether the kernel computes the lengths and offsets of its shared arrays sized at launch (passes/launch-sizes.ts: PTX, one block of dynamic shared memory); absent where the loader passes them. */
  launchSizes?: "kernel";
  /** Whether barrier regions are closed and barriers anchored as PoCL's kernel compiler needs (passes/barrier-regions.ts: OpenCL C). */
  barrierRegions?: "pocl";
  /** Whether a subgroup is one thread (passes/one-lane.ts: OpenCL C, SPIR-V, LLVM IR, OpenCL 1.2's model having none). */
  subgroups?: "one-lane";
}

type Args = readonly (number | boolean)[];

/** One lowering: which ops and types it serves, the inputs the op still receives afterwards, the rewrite. */
interface LoweringRule {
  ops: readonly OpName[];
  /** What the operands are (names of the temporaries that hold them). */
  operands: readonly string[];
  /**
   * Whether the rewrite reads its operands under a `select` (or a `&&`/`||`): there they are
   * computed once into temporaries when the statement computes them anyway, so that what a
   * target evaluates eagerly (PTX's selp) stays a register read, never a guarded load.
   */
  selects: boolean;
  types: readonly Scalar[];
  /** The inputs on which the target's instruction must agree with JavaScript after the rewrite (tests check the rewrite keeps to them). */
  domain(args: Args, t: Scalar): boolean;
  /**
   * The inputs the instruction may be given at all, also where its value is then not used (a
   * target may compute both sides of a select and pick one, as PTX's selp does): absent when any
   * input is harmless (the instruction has a value, if not JavaScript's, and never traps).
   */
  speculable?(args: Args, t: Scalar): boolean;
  rewrite(b: Builder, op: OpName, args: Operand[], t: Scalar): ExprHandle;
}

/**
 * The lowerings. Each comment says the identity it relies on (x, y: the operands).
 */
export const LOWERINGS = {
  /**
   * Integer x / y and x % y with the divisor as written, and 0 where y is 0 (JS: (x / 0) | 0 and
   * x % 0 | 0 are 0): `y == 0 ? 0 : op(x, y)`. For targets whose instruction is defined for every
   * divisor (WGSL: x / 0 is x, and -2^31 / -1 is -2^31, as JS's wrap gives), the zero case only
   * needs its value replaced.
   */
  "divisor-zero": {
    ops: ["div", "rem"], types: ["i32", "u32"], operands: ["dividend", "divisor"], selects: true,
    domain: () => true,
    rewrite(b, op, [x, y], t) {
      return b.select(b.op("eq", [y.read(), b.const(0, t)]), b.const(0, t), b.op(op, [x.read(), y.read()]));
    },
  },
  /**
   * Integer x / y and x % y where the instruction sees neither a zero divisor nor (i32) the
   * divisor -1, whose one overflow (-2^31 / -1) is left unspecified: y == 0 gives 0; y == -1
   * gives -x (wrapping: -(-2^31) is -2^31, as JS's `| 0` gives) for `/`, and 0 for `%` (every
   * integer is a multiple of -1); otherwise op(x, y). The instruction divides by
   * `y ∈ {0, -1} ? 1 : y` (u32: `y == 0 ? 1 : y`), whose result is discarded in those cases.
   */
  "divisor-safe": {
    ops: ["div", "rem"], types: ["i32", "u32"], operands: ["dividend", "divisor"], selects: true,
    domain: (a, t) => a[1] !== 0 && !(t === "i32" && a[1] === -1),
    speculable: (a, t) => a[1] !== 0 && !(t === "i32" && a[1] === -1),
    rewrite(b, op, [x, y], t) {
      if (t === "u32") {
        return b.select(b.op("eq", [y.read(), b.const(0, t)]), b.const(0, t), b.op(op, [x.read(), b.select(b.op("eq", [y.read(), b.const(0, t)]), b.const(1, t), y.read())]));
      }
      const zero = () => b.op("eq", [y.read(), b.const(0, t)]), minusOne = () => b.op("eq", [y.read(), b.const(-1, t)]);
      const divisor = b.select(b.op("lor", [zero(), minusOne()]), b.const(1, t), y.read());
      const byMinusOne = op === "div" ? b.op("neg", [x.read()]) : b.const(0, t);
      return b.select(zero(), b.const(0, t), b.select(minusOne(), byMinusOne, b.op(op, [x.read(), divisor])));
    },
  },
  /** Shifts: JS takes the count modulo 32 (`x << (y & 31)`); the instruction sees counts 0…31. */
  "shift-mod-32": {
    ops: ["shl", "shr"], types: ["i32", "u32"], operands: ["shifted", "count"], selects: false,
    domain: (a) => (a[1] as number) >= 0 && (a[1] as number) < 32,
    rewrite(b, op, [x, y], t) {
      const c = y.constant();
      return b.op(op, [x.read(), c !== null ? b.const((c as number) & 31, t) : b.op("and", [y.read(), b.const(31, t)])]);
    },
  },
  /**
   * Math.sign: 1 above zero, -1 below, and otherwise the input itself (±0, and NaN, which
   * compares false both ways): `x > 0 ? 1 : x < 0 ? -1 : x`. Where the target's compiler may assume
   * no NaNs (`nanTestsByBits`), a NaN is tested first by its bits: `isnan(x) ? x : …`. On u32 nothing
   * is below zero: `x > 0 ? 1 : x`. The instruction is not used at all (its domain is empty).
   */
  "sign-by-compare": {
    ops: ["sign"], types: ["i32", "u32", "f32", "f64"], operands: ["x"], selects: true,
    domain: () => false,
    rewrite(b, _op, [x], t) {
      const gt = () => b.op("gt", [x.read(), b.const(0, t)]);
      if (t === "u32") return b.select(gt(), b.const(1, t), x.read());
      const body = b.select(gt(), b.const(1, t), b.select(b.op("lt", [x.read(), b.const(0, t)]), b.const(-1, t), x.read()));
      return (t === "f32" || t === "f64") && b.nanTestsByBits ? b.select(b.op("isnan", [x.read()]), x.read(), body) : body;
    },
  },
  /**
   * Math.min and Math.max of floats: NaN if either is NaN; of two equal values the one with the
   * sign bit for min (min(0, -0) is -0) and the one without for max (they differ at most in the
   * sign of a zero); otherwise the instruction's min/max, which then sees neither a NaN nor two
   * zeros: `isnan(x) || isnan(y) ? NaN : x == y ? (signbit(x) ? x : y) : min(x, y)` (max: `? y :
   * x`). The sign bit is read as bits (`f32bits`, or an f64's high word), never by comparing.
   * Against a constant other than a zero or NaN, `isnan(x) ? NaN : min(x, c)`.
   */
  "minmax-nan": {
    ops: ["min", "max"], types: ["f32", "f64"], operands: ["x", "y"], selects: true,
    domain: (a) => a[0] === a[0] && a[1] === a[1] && !(a[0] === 0 && a[1] === 0),
    rewrite(b, op, [x, y], t) {
      // Against a constant that is neither zero nor NaN, equal operands are the same value.
      const k = x.constant() ?? y.constant();
      if (typeof k === "number" && k === k && k !== 0) {
        const nan = b.op("isnan", [(x.constant() === null ? x : y).read()]);
        return b.select(nan, b.const(NaN, t), b.op(op, [x.read(), y.read()]));
      }
      const negative = b.op("lt", [b.op(t === "f32" ? "f32bits" : "f64hi", [x.read()]), b.const(0, "i32")]);
      const equal = op === "min" ? b.select(negative, x.read(), y.read()) : b.select(negative, y.read(), x.read());
      const nan = b.op("lor", [b.op("isnan", [x.read()]), b.op("isnan", [y.read()])]);
      return b.select(nan, b.const(NaN, t), b.select(b.op("eq", [x.read(), y.read()]), equal, b.op(op, [x.read(), y.read()])));
    },
  },
  /**
   * Math.round: halves up, toward +∞ (an instruction that rounds to even, or half away from
   * zero, differs on 2.5 or -2.5): with f = floor(x), `x - f >= 0.5 ? f + 1 : f` — exact, as
   * x - floor(x) is (a fraction of x's own precision) and so is f + 1 wherever x has a fraction.
   * Where that gives +0 for x in [-0.5, 0), JS gives -0: `x < 0 && x >= -0.5 ? -0 : …`. A NaN
   * stays NaN (floor's NaN, and the comparisons are false), an infinity stays itself; where the
   * target's compiler may assume no NaNs, `isnan(x) ? x : …` first. The round instruction is not
   * used.
   */
  "round-half-up": {
    ops: ["round"], types: ["f32", "f64"], operands: ["x"], selects: true,
    domain: () => false,
    rewrite(b, _op, [x], t) {
      const f = b.share(b.op("floor", [x.read()]), "floor");
      const up = b.op("ge", [b.op("sub", [x.read(), f.read()]), b.const(0.5, t)]);
      const rounded = b.select(up, b.op("add", [f.read(), b.const(1, t)]), f.read());
      const minusZero = b.op("land", [b.op("lt", [x.read(), b.const(0, t)]), b.op("ge", [x.read(), b.const(-0.5, t)])]);
      const body = b.select(minusZero, b.const(-0, t), rounded);
      return b.nanTestsByBits ? b.select(b.op("isnan", [x.read()]), x.read(), body) : body;
    },
  },
  /** Math.abs of a u32 is the u32 itself (it is never negative). */
  "abs-unsigned": {
    ops: ["abs"], types: ["u32"], operands: ["x"], selects: false,
    domain: () => false,
    rewrite(_b, _op, [x]) { return x.read(); },
  },
  /**
   * `x === x` and `x !== x` on floats are NaN tests (a compiler that assumes no NaNs folds them
   * to constants): `!isnan(x)` and `isnan(x)` when both operands are the same value (the same
   * local, the same constant or the same pure expression). Other comparisons stay as they are:
   * the target's ordered comparisons (==, <, <=, >, >=: false where an operand is NaN, as JS's
   * are) are taken to be IEEE 754's; its `!=`, which JS makes true there, needs ne-nan-bits.
   */
  "nan-self-test": {
    ops: ["eq", "ne"], types: ["f32", "f64"], operands: ["x", "y"], selects: false,
    domain: () => true,
    rewrite(b, op, [x, y]) {
      if (!b.sameValue(x.handle, y.handle)) return b.op(op, [x.read(), y.read()]);
      const nan = b.op("isnan", [x.read()]);
      return op === "ne" ? nan : b.op("not", [nan]);
    },
  },
  /**
   * Float `x != y` where the target's `!=` may be ordered (false where an operand is NaN; JS's
   * `!==` is true there): WGSL's, which Dawn on lavapipe compiles so (`NaN != 3` is false), WGSL
   * allowing an implementation to assume no NaNs. `isnan(x) || isnan(y) || x != y`, each NaN
   * tested by its bits (the target's isnan helper: `nanTestsByBits`), so the `!=` that is left
   * sees no NaN; the same value on both sides is `isnan(x)` alone, as nan-self-test makes it.
   */
  "ne-nan-bits": {
    ops: ["ne"], types: ["f32", "f64"], operands: ["x", "y"], selects: true,
    domain: (a) => !Number.isNaN(a[0]) && !Number.isNaN(a[1]),
    rewrite(b, op, [x, y]) {
      const nan = b.op("isnan", [x.read()]);
      if (b.sameValue(x.handle, y.handle)) return nan;
      return b.op("lor", [b.op("lor", [nan, b.op("isnan", [y.read()])]), b.op(op, [x.read(), y.read()])]);
    },
  },
} satisfies Record<string, LoweringRule>;

export type ConvertLowering = keyof typeof CONVERT_LOWERINGS;

/** One lowering of a conversion: which conversions it serves, the inputs the instruction must agree on afterwards, the rewrite. */
interface ConvertRule {
  converts: readonly `${Scalar}>${Scalar}`[];
  /** Per conversion the lowering leaves in the code: the inputs on which the target's instruction must agree with JavaScript. */
  domain(x: number, from: Scalar, to: Scalar): boolean;
  rewrite(b: Builder, x: Operand, from: Scalar, to: Scalar): ExprHandle;
}

const TWO_31 = 2147483648, TWO_32 = 4294967296;

export const CONVERT_LOWERINGS = {
  /**
   * Float → i32/u32 as JS's ToInt32/ToUint32: truncate, then wrap modulo 2^32; NaN and the
   * infinities give 0. An instruction that saturates (or is undefined out of range) agrees where
   * |x| < 2^31 (to i32), and on [0, 2^32) integers (to u32). So: `|x| < 2^31 ? i32(x) :
   * isfinite(x) ? i32(u32(t - floor(t * 2^-32) * 2^32)) : 0` with t = trunc(x), where every step
   * is exact (t's value mod 2^32 has at most the float's own significant bits, and the scalings
   * are by powers of two). ToUint32 is ToInt32's bits (`u32(i32)` reinterprets). Where the
   * statement computes the conversion anyway, the rare wide case is a branch, not a select that
   * computes both: `if (|x| < 2^31) { c = i32(x) } else { c = … }`.
   */
  "wrap-to-int32": {
    converts: ["f32>i32", "f32>u32", "f64>i32", "f64>u32"],
    domain: (x, _from, to) => (to === "i32" ? Math.abs(x) < TWO_31 : Number.isInteger(x) && x >= 0 && x < TWO_32),
    rewrite(b, x, from, to) {
      const i32 = (v: ExprHandle) => b.convert(v, "i32");
      const inRange = () => b.op("lt", [b.op("abs", [x.read()]), b.const(TWO_31, from)]);
      const wide = (): ExprHandle => {
        const t = b.share(b.op("trunc", [x.read()]), "trunc");
        const wrapped = b.op("sub", [t.read(), b.op("mul", [b.op("floor", [b.op("mul", [t.read(), b.const(1 / TWO_32, from)])]), b.const(TWO_32, from)])]);
        return b.select(b.op("isfinite", [x.read()]), i32(b.convert(wrapped, "u32")), b.const(0, "i32"));
      };
      let r: ExprHandle;
      if (b.unconditional) {
        const c = b.local("i32", "int");
        const saved = b.before.splice(0);
        const w = wide();
        const slow: Stmt[] = [...b.before.splice(0), { k: "set", local: c, value: w, loc: null }];
        b.before.push(...saved, { k: "if", cond: inRange(), then: [{ k: "set", local: c, value: i32(x.read()), loc: null }], else: slow, loc: null });
        r = b.read(c);
      } else {
        r = b.select(inRange(), i32(x.read()), wide());
      }
      return to === "u32" ? b.convert(r, "u32") : r;
    },
  },
} satisfies Record<string, ConvertRule>;

/** An operand of an op being lowered: read as often as the lowering needs (see the pass's note). */
interface Operand {
  readonly handle: ExprHandle;
  /** A handle with the operand's value, fresh on each call (the first call may reuse the original). */
  read(): ExprHandle;
  /** The operand's constant value, if it is one. */
  constant(): number | boolean | null;
}

/** What a target's atomics need written out as loops (the table's `atomics`; passes/cas-loops.ts). */
export interface CasPolicy {
  /** Atomics on 8- and 16-bit elements (but loads). */
  narrow: "native" | "cas";
  /**
   * Atomic loads of 8- and 16-bit elements: the target's own (a volatile narrow load: PTX, OpenCL
   * C; WGSL's packed load), or the atomic load of the word that holds the element, the element's
   * bits taken from it in the IR (`word`: SPIR-V, LLVM IR, whose atomic loads are of words).
   */
  narrowLoads?: "word";
  /** Plain stores to 8- and 16-bit elements of global or shared arrays. */
  narrowStores: "native" | "cas";
  /** Atomic add on f32 elements. */
  f32Add: "native" | "cas";
  /** CUDA's atomicInc and atomicDec on 32-bit integers. */
  incDec: "native" | "cas";
}

/** Builds expressions in one function while one statement is being legalized (passes/cas-loops.ts builds its loops with it too). */
export class Builder {
  /** Temporaries computed just before the statement (operands of unconditional positions). */
  before: Stmt[] = [];
  constructor(readonly f: Function, readonly nanTestsByBits: boolean) {}

  add(e: Expr): ExprHandle { this.f.exprs.push(e); return (this.f.exprs.length - 1) as ExprHandle; }
  const(value: number | boolean, t: Scalar): ExprHandle { return this.add({ k: "const", value, type: T.scalar(t), loc: null }); }
  /**
   * An op, folded where its operands are constants (with the op table's exact semantics, as
   * passes/fold.ts does): a guard of a constant divisor or shift count goes here, not in a second
   * folding pass. `&&` and `||` fold on a constant side (the other side is pure).
   */
  op(op: OpName, args: ExprHandle[]): ExprHandle {
    const t = (this.f.exprs[args[0]].type as { scalar: Scalar }).scalar;
    const r = OPS[op].result;
    const rt = r === "same" ? t : r;
    const k = args.map((a) => this.f.exprs[a]).map((e) => (e.k === "const" ? e.value : null));
    if (k.every((v) => v !== null)) return this.const(wrapValue(rt, OPS[op].eval(k as (number | boolean)[], t)), rt);
    if ((op === "land" || op === "lor") && k.some((v) => v !== null)) {
      const side = k[0] !== null ? 0 : 1, v = k[side] as boolean;
      return (op === "land") === v ? args[1 - side] : this.const(v, "bool");
    }
    return this.add({ k: "op", op, args, type: T.scalar(rt), loc: null });
  }
  convert(arg: ExprHandle, to: Scalar): ExprHandle { return this.add({ k: "convert", arg, type: T.scalar(to), loc: null }); }
  read(local: LocalHandle): ExprHandle { return this.add({ k: "local", local, type: this.f.locals[local].type, loc: null }); }
  /** A fresh local (for statements the rewrite puts before the statement). */
  local(t: Scalar, name: string): LocalHandle {
    const local = this.f.locals.length as LocalHandle;
    this.f.locals.push({ name: `${this.current}_${name}`, type: T.scalar(t) });
    return local;
  }
  select(cond: ExprHandle, a: ExprHandle, b: ExprHandle): ExprHandle {
    const c = this.f.exprs[cond];
    if (c.k === "const") return c.value ? a : b;
    return this.add({ k: "select", cond, a, b, type: this.f.exprs[a].type, loc: null });
  }

  /** A deep copy of a (pure) expression tree. */
  copy(h: ExprHandle): ExprHandle {
    const e = this.f.exprs[h];
    switch (e.k) {
      case "op": return this.add({ ...e, args: e.args.map((a) => this.copy(a)) });
      case "convert": return this.add({ ...e, arg: this.copy(e.arg) });
      case "select": return this.add({ ...e, cond: this.copy(e.cond), a: this.copy(e.a), b: this.copy(e.b) });
      case "load": return this.add({ ...e, array: this.copy(e.array), index: this.copy(e.index) });
      case "length": return this.add({ ...e, array: this.copy(e.array) });
      default: return this.add({ ...e });
    }
  }

  /** Whether two expression trees are the same pure computation (so they have the same value). */
  sameValue(a: ExprHandle, b: ExprHandle): boolean {
    const x = this.f.exprs[a], y = this.f.exprs[b];
    if (x.k !== y.k || x.type !== y.type) return false;
    switch (x.k) {
      case "const": return Object.is(x.value, (y as typeof x).value);
      case "local": return x.local === (y as typeof x).local;
      case "global": return x.global === (y as typeof x).global;
      case "builtin": return x.name === (y as typeof x).name;
      case "op": { const o = y as typeof x; return x.op === o.op && x.args.every((h, i) => this.sameValue(h, o.args[i])); }
      case "convert": return this.sameValue(x.arg, (y as typeof x).arg);
      default: return false;
    }
  }

  /** Whether the op being lowered is computed whenever its statement runs (not under a select's side, or a && / ||'s right). */
  unconditional = true;
  /** The op being lowered, or the pass building (temporaries are named after it). */
  current: string = "add";

  /** A value the rewrite builds and reads more than once (as `operand` does). */
  share(h: ExprHandle, name: string): Operand {
    return this.operand(h, this.unconditional, name, true);
  }

  /**
   * An operand: its own tree on the first read; on later reads a copy, or — when the statement
   * computes it unconditionally and it is more than a constant or a local read — a fresh local
   * computed just before the statement, which the first read's handle then reads too (at once
   * when `eager`: the rewrite reads it under a select).
   */
  operand(h: ExprHandle, unconditional: boolean, name: string, eager: boolean): Operand {
    const e = this.f.exprs[h];
    const trivial = e.k === "const" || e.k === "local" || e.k === "builtin" || e.k === "location" || e.k === "length";
    const bindable = unconditional && !trivial;
    let reads = 0, temp: LocalHandle | null = null;
    const bind = (): LocalHandle => {
      if (temp === null) {
        temp = this.f.locals.length as LocalHandle;
        this.f.locals.push({ name: `${this.current}_${name}`, type: e.type });
        this.before.push({ k: "set", local: temp, value: this.add({ ...this.f.exprs[h] }), loc: e.loc });
        this.f.exprs[h] = { k: "local", local: temp, type: e.type, loc: e.loc };
      }
      return temp;
    };
    if (eager && bindable) bind();
    return {
      handle: h,
      read: () => {
        if (reads++ === 0) return h;
        if (!bindable) return this.copy(h);
        return this.add({ k: "local", local: bind(), type: e.type, loc: e.loc });
      },
      constant: () => (e.k === "const" ? e.value : null),
    };
  }
}

/**
 * Rewrite a module for the target of `table`: every op its table lowers, and its checks if
 * asked.
 */
export function legalize(m: Module, table: LegalTable): void {
  checkTable(table);
  m.legalizedFor = table.target;
  // A target whose instructions are JavaScript's (the JS target) has nothing to rewrite.
  if (!Object.keys(table.ops).length && !Object.keys(table.converts ?? {}).length && table.checks === "keep") return;
  for (const f of m.functions) f.body = legalizeBlock(f, f.body, table);
}

function legalizeBlock(f: Function, block: Block, table: LegalTable): Block {
  // One builder for the function; its `before` list is taken and emptied after each statement.
  const b = new Builder(f, table.nanTestsByBits);
  const visit = (h: ExprHandle, unconditional: boolean): void => legalizeExpr(b, table, h, unconditional);
  return rewriteBlock(block, (s) => {
    if (b.before.length) b.before = [];
    switch (s.k) {
      case "set": visit(s.value, true); break;
      case "store": visit(s.array, true); visit(s.index, true); visit(s.value, true); break;
      case "call": for (const a of s.args) visit(a, true); break;
      case "if": visit(s.cond, true); break;
      case "switch": visit(s.selector, true); break;
      case "return": if (s.value !== null) visit(s.value, true); break;
      case "atomic": visit(s.array, true); visit(s.index, true); for (const a of s.args) visit(a, true); break;
      case "subgroup": for (const a of s.args) visit(a, true); break;
      // A check's condition is evaluated where it stands; what it reports only when it fires.
      case "check": {
        if (s.cond !== null) visit(s.cond, true);
        for (const h of [s.state, s.code, s.site, s.a, s.b]) visit(h, false);
        const lowered = table.checks === "lower" ? lowerCheck(s) : [s];
        return b.before.length ? [...b.before, ...lowered] : lowered;
      }
      // The exit test is evaluated after `continuing`: its temporaries are computed at its end.
      case "loop":
        if (s.breakIf === null) return s;
        visit(s.breakIf, true);
        return b.before.length ? { ...s, continuing: [...s.continuing, ...b.before] } : s;
      default: return s;
    }
    return b.before.length ? [...b.before, s] : s;
  });
}

/** Legalize one expression tree (operands first), rewriting in place: the handle keeps its parent. */
function legalizeExpr(b: Builder, table: LegalTable, h: ExprHandle, unconditional: boolean): void {
  const e = b.f.exprs[h];
  switch (e.k) {
    case "op": {
      const conditionalRight = e.op === "land" || e.op === "lor";
      e.args.forEach((a, i) => legalizeExpr(b, table, a, unconditional && !(conditionalRight && i === 1)));
      const t = (b.f.exprs[e.args[0]].type as { scalar: Scalar }).scalar;
      const how = table.ops[e.op]?.[t] ?? "native";
      if (how === "native" || how === "helper") return;
      if (how === "overlay") throw new InternalCompilerError(`${e.op} on ${t} reached legalize for '${table.target}', whose method table replaces it`);
      // The original node moves to a fresh handle; the rewritten tree takes its place.
      const moved = b.add({ ...e, args: [...e.args] });
      const rule: LoweringRule = LOWERINGS[how];
      b.unconditional = unconditional;
      b.current = e.op;
      const operands = (b.f.exprs[moved] as typeof e).args.map((a, i) => b.operand(a, unconditional, rule.operands[i], rule.selects));
      const root = rule.rewrite(b, e.op, operands, t);
      b.f.exprs[h] = { ...b.f.exprs[root], loc: e.loc };
      return;
    }
    case "convert": {
      legalizeExpr(b, table, e.arg, unconditional);
      const from = (b.f.exprs[e.arg].type as { scalar: Scalar }).scalar, to = (e.type as { scalar: Scalar }).scalar;
      const how = table.converts?.[`${from}>${to}`] ?? "native";
      if (how === "native" || how === "helper") return;
      const moved = b.add({ ...e });
      b.unconditional = unconditional;
      b.current = "convert";
      const x = b.operand((b.f.exprs[moved] as typeof e).arg, unconditional, "x", true);
      const rule: ConvertRule = CONVERT_LOWERINGS[how];
      const root = rule.rewrite(b, x, from, to);
      b.f.exprs[h] = { ...b.f.exprs[root], loc: e.loc };
      return;
    }
    case "select": legalizeExpr(b, table, e.cond, unconditional); legalizeExpr(b, table, e.a, false); legalizeExpr(b, table, e.b, false); return;
    case "load": legalizeExpr(b, table, e.array, unconditional); legalizeExpr(b, table, e.index, unconditional); return;
    case "length": legalizeExpr(b, table, e.array, unconditional); return;
    default: return;
  }
}

/** Tables found sound (each target's is checked once a process, not on every compile). */
const checkedTables = new WeakSet<LegalTable>();

/** A table may only name a lowering for the ops and types it serves. */
function checkTable(table: LegalTable): void {
  if (checkedTables.has(table)) return;
  for (const [k, how] of Object.entries(table.converts ?? {})) {
    if (how === "native" || how === "helper") continue;
    if (!(CONVERT_LOWERINGS[how as ConvertLowering].converts as readonly string[]).includes(k)) throw new InternalCompilerError(`legality table of '${table.target}': lowering '${how}' does not serve the conversion ${k}`);
  }
  for (const [op, byType] of Object.entries(table.ops) as [OpName, Record<Scalar, Legality>][]) {
    for (const [t, how] of Object.entries(byType) as [Scalar, Legality][]) {
      if (!acceptsOperand(OPS[op].operands, t)) throw new InternalCompilerError(`legality table of '${table.target}': ${op} takes no ${t} operands`);
      if (how === "native" || how === "helper" || how === "overlay") continue;
      const rule: LoweringRule = LOWERINGS[how];
      if (!rule.ops.includes(op) || !rule.types.includes(t)) throw new InternalCompilerError(`legality table of '${table.target}': lowering '${how}' does not serve ${op} on ${t}`);
    }
  }
  checkedTables.add(table);
}

/** A back end's guard: the module was legalized for this target (its ops mean what their spellings do). */
export function assertLegalized(m: Module, target: string): void {
  if (m.legalizedFor !== target) throw new InternalCompilerError(`the ${target} back end got a module ${m.legalizedFor ? `legalized for '${m.legalizedFor}'` : "that was not legalized"} (ir/passes/legalize.ts runs before emission)`);
}
