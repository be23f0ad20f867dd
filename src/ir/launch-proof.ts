// Checks a launch decides (ARCHITECTURE.md, "Checks a launch proves"): what a kernel's bounds
// checks and versioned loops' tests outside its loops compute, as data over what a launch fixes —
// the scalar parameters, the arrays' lengths, the block and grid sizes, the thread and block
// indices (each within its launch's range) — which the host evaluates on each launch's values
// with intervals. Where every obligation holds for every thread of the launch (no check can fire,
// every versioned loop takes its fast copy), the launch runs the kernel's variant compiled without
// them (ir/passes/launch-proofs.ts, `features.provenChecks`).
//
// Why an obligation that evaluates to false is false for every thread: each value is given an
// interval that holds every value it takes in any thread of the launch, computed over the
// mathematical integers from the intervals of its operands; where an operation's interval leaves
// its type's range (the device's i32/u32 arithmetic could wrap there), the interval is the type's
// whole range, which holds whatever the device computes. So every interval holds the value the
// device computes, and a comparison whose two intervals do not overlap is decided for all of them.
// `var`s are locals the kernel assigns once, outside loops, before the obligation (the pass only
// makes such): in one thread each is one value, so a path condition that holds there (`row < n`
// on the way to the check) narrows that value's interval, and the intervals of the vars computed
// from it. Every path condition holds where its obligation stands (the pass records only the
// tests of enclosing ifs and of earlier ifs whose other arm leaves), so the narrowed intervals
// still hold every value a thread that reaches the obligation has.

/** An integer or boolean value a launch decides. */
export type ProofExpr =
  | { k: "const"; value: number | boolean }
  | { k: "param"; index: number; type: ProofInt }
  | { k: "length"; index: number }
  | { k: "builtin"; name: ProofBuiltin }
  | { k: "var"; index: number }
  /** `type`: the operands' type (a comparison's result is a bool). */
  | { k: "op"; op: ProofOp; type: ProofType; args: ProofExpr[] }
  | { k: "convert"; from: ProofType; to: ProofType; arg: ProofExpr }
  | { k: "select"; type: ProofType; cond: ProofExpr; a: ProofExpr; b: ProofExpr };

type ProofInt = "i32" | "u32";
export type ProofType = ProofInt | "bool";
export type ProofBuiltin = (typeof PROOF_BUILTINS)[number];
export const PROOF_BUILTINS = [
  "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y", "blockIdx.z",
  "blockDim.x", "blockDim.y", "blockDim.z", "gridDim.x", "gridDim.y", "gridDim.z",
] as const;
/** Ops and their arities (the IR's names and meaning: ir/ops.ts). */
export const PROOF_OPS = {
  add: 2, sub: 2, mul: 2, div: 2, rem: 2, min: 2, max: 2, neg: 1, shl: 2, shr: 2, and: 2,
  eq: 2, ne: 2, lt: 2, le: 2, gt: 2, ge: 2, land: 2, lor: 2, not: 1,
} as const;
export type ProofOp = keyof typeof PROOF_OPS;

/** `never` is false for every thread of a launch that reaches it with every `when` true. */
export interface Obligation { when: ProofExpr[]; never: ProofExpr }

export interface LaunchProof {
  /**
   * false: the kernel's code as compiled, whose variant without these checks a launch that proves
   * them may run; true: that variant, which runs only where every obligation is proven.
   */
  assumed: boolean;
  /** Values of locals assigned once; each reads only the vars before it. */
  vars: ProofExpr[];
  obligations: Obligation[];
}

/** What a launch fixes: scalar arguments and array lengths by parameter, block and grid sizes. */
interface LaunchValues {
  args: readonly unknown[];
  threads: readonly number[];
  blocks: readonly number[];
}

type Interval = readonly [number, number];
const I32: Interval = [-0x80000000, 0x7fffffff];
const U32: Interval = [0, 0xffffffff];
const BOOL: Interval = [0, 1];
const whole = (t: ProofType): Interval => (t === "i32" ? I32 : t === "u32" ? U32 : BOOL);

/** What a proof reads of a launch's arguments, and its verdicts by those values (launches repeat them). */
const reads = new WeakMap<LaunchProof, { params: number[]; lengths: number[]; verdicts: Map<string, boolean> }>();

/**
 * Whether every obligation holds for every thread of this launch (false where one is not proven,
 * or the values are not what the proof reads). Verdicts are kept by the values the proof reads.
 */
export function provesLaunch(p: LaunchProof, at: LaunchValues): boolean {
  let r = reads.get(p);
  if (!r) {
    const params = new Set<number>(), lengths = new Set<number>();
    const visit = (e: ProofExpr): void => {
      if (e.k === "param") params.add(e.index);
      else if (e.k === "length") lengths.add(e.index);
      else if (e.k === "op") e.args.forEach(visit);
      else if (e.k === "convert") visit(e.arg);
      else if (e.k === "select") { visit(e.cond); visit(e.a); visit(e.b); }
    };
    p.vars.forEach(visit);
    for (const o of p.obligations) { o.when.forEach(visit); visit(o.never); }
    reads.set(p, (r = { params: [...params], lengths: [...lengths], verdicts: new Map() }));
  }
  let key = `${at.threads.join(",")};${at.blocks.join(",")}`;
  for (const i of r.params) key += `;${typeof at.args[i]}:${String(at.args[i])}`;
  for (const i of r.lengths) key += `;${String((at.args[i] as { length?: unknown } | null)?.length)}`;
  let verdict = r.verdicts.get(key);
  if (verdict === undefined) {
    verdict = decide(p, at);
    if (r.verdicts.size >= 64) r.verdicts.clear();
    r.verdicts.set(key, verdict);
  }
  return verdict;
}

function decide(p: LaunchProof, at: LaunchValues): boolean {
  const ev = new Evaluator(p, at);
  const base = p.vars.map((_, i) => ev.varBase(i));
  if (base.includes(null)) return false;
  return p.obligations.every((o) => ev.holds(o, base as Interval[]));
}

class Evaluator {
  /** The vars' intervals as the obligation being decided narrows them. */
  private vars: Interval[] = [];
  constructor(private readonly p: LaunchProof, private readonly at: LaunchValues) {}

  varBase(i: number): Interval | null {
    const v = this.eval(this.p.vars[i]);
    if (v) this.vars[i] = v;
    return v;
  }

  /** Whether `o.never` is false wherever every `when` holds. */
  holds(o: Obligation, base: readonly Interval[]): boolean {
    this.vars = [...base];
    // Twice: a narrowed var narrows the vars computed from it, and the bounds the tests compare with.
    for (let round = 0; round < 2; round++) {
      for (const w of o.when) {
        const c = this.eval(w);
        if (!c) continue;
        if (c[1] === 0) return true;   // no thread gets here
        this.narrow(w);
      }
      for (let i = 0; i < this.vars.length; i++) { const v = this.eval(this.p.vars[i]); if (v) this.vars[i] = meet(this.vars[i], v); }
    }
    const never = this.eval(o.never);
    return never !== null && never[1] === 0;
  }

  /** Narrow the vars that a true test `e` compares (through &&) with a bound. */
  private narrow(e: ProofExpr): void {
    if (e.k !== "op") return;
    if (e.op === "land") { this.narrow(e.args[0]); this.narrow(e.args[1]); return; }
    if (e.op === "not") { const x = e.args[0]; if (x.k === "op" && x.op === "lor") { this.narrow(negate(x.args[0])); this.narrow(negate(x.args[1])); } else this.narrow(negate(x)); return; }
    if (!(e.op === "lt" || e.op === "le" || e.op === "gt" || e.op === "ge")) return;
    const [a, b] = e.args;
    const ia = this.eval(a), ib = this.eval(b);
    // (u32 comparisons compare as the integers only where both sides are non-negative i32s or u32s.)
    if (!ia || !ib || (e.type === "u32" && (ia[0] < 0 || ib[0] < 0))) return;
    const bound = (v: ProofExpr, op: "lt" | "le" | "gt" | "ge", by: Interval): void => {
      if (v.k !== "var") return;
      const cur = this.vars[v.index];
      const next: Interval = op === "lt" ? [cur[0], Math.min(cur[1], by[1] - 1)] : op === "le" ? [cur[0], Math.min(cur[1], by[1])]
        : op === "gt" ? [Math.max(cur[0], by[0] + 1), cur[1]] : [Math.max(cur[0], by[0]), cur[1]];
      this.vars[v.index] = next;
    };
    const flip = { lt: "gt", le: "ge", gt: "lt", ge: "le" } as const;
    bound(a, e.op, ib);
    bound(b, flip[e.op], ia);
  }

  /** An interval holding every value `e` takes, or null where the launch's values are not what it reads. */
  eval(e: ProofExpr): Interval | null {
    switch (e.k) {
      case "const": return typeof e.value === "boolean" ? (e.value ? [1, 1] : [0, 0]) : [e.value, e.value];
      case "param": {
        const x = this.at.args[e.index];
        if (typeof x !== "number") return null;
        const v = e.type === "i32" ? x | 0 : x >>> 0;
        return [v, v];
      }
      case "length": {
        const a = this.at.args[e.index] as { length?: unknown } | null;
        const n = typeof a === "object" && a !== null ? a.length : undefined;
        return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 0x7fffffff ? [n, n] : null;
      }
      case "builtin": {
        const axis = "xyz".indexOf(e.name[e.name.length - 1]);
        const t = this.at.threads[axis], b = this.at.blocks[axis];
        if (!(t >= 1 && b >= 1)) return null;
        if (e.name.startsWith("threadIdx")) return [0, t - 1];
        if (e.name.startsWith("blockIdx")) return [0, b - 1];
        return e.name.startsWith("blockDim") ? [t, t] : [b, b];
      }
      case "var": return this.vars[e.index] ?? null;
      case "convert": {
        const v = this.eval(e.arg);
        if (!v) return null;
        if (e.to === "bool") return v[0] > 0 || v[1] < 0 ? [1, 1] : v[0] === 0 && v[1] === 0 ? [0, 0] : BOOL;
        return fits(v, e.to) ? v : whole(e.to);
      }
      case "select": {
        const c = this.eval(e.cond), a = this.eval(e.a), b = this.eval(e.b);
        if (!c || !a || !b) return null;
        return c[0] === 1 ? a : c[1] === 0 ? b : [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
      }
      case "op": {
        const args: Interval[] = [];
        for (const x of e.args) { const v = this.eval(x); if (!v) return null; args.push(v); }
        return op(e.op, e.type, args);
      }
    }
  }
}

function op(name: ProofOp, t: ProofType, [a, b]: Interval[]): Interval {
  const int = (lo: number, hi: number): Interval => (fits([lo, hi], t) ? [lo, hi] : whole(t));
  const yes: Interval = [1, 1], no: Interval = [0, 0];
  const decide = (sure: boolean, never: boolean): Interval => (sure ? yes : never ? no : BOOL);
  switch (name) {
    case "add": return int(a[0] + b[0], a[1] + b[1]);
    case "sub": return int(a[0] - b[1], a[1] - b[0]);
    case "mul": { const p = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]; return int(Math.min(...p), Math.max(...p)); }
    // Truncating division is monotone in each operand where the divisor keeps its sign.
    case "div": {
      if (!(b[0] > 0 || b[1] < 0)) return whole(t);
      const q = [a[0] / b[0], a[0] / b[1], a[1] / b[0], a[1] / b[1]].map(Math.trunc);
      return int(Math.min(...q), Math.max(...q));
    }
    case "rem": return a[0] >= 0 && b[0] > 0 ? int(0, Math.min(a[1], b[1] - 1)) : whole(t);
    case "min": return int(Math.min(a[0], b[0]), Math.min(a[1], b[1]));
    case "max": return int(Math.max(a[0], b[0]), Math.max(a[1], b[1]));
    case "neg": return int(-a[1], -a[0]);
    // Shifts by a constant count (taken mod 32, as JavaScript does): a product, a floor division.
    case "shl": return b[0] === b[1] ? int(a[0] * 2 ** (b[0] & 31), a[1] * 2 ** (b[0] & 31)) : whole(t);
    case "shr": return b[0] === b[1] ? int(Math.floor(a[0] / 2 ** (b[0] & 31)), Math.floor(a[1] / 2 ** (b[0] & 31))) : whole(t);
    case "and": return a[0] >= 0 && b[0] >= 0 ? int(0, Math.min(a[1], b[1])) : whole(t);
    case "eq": return decide(a[0] === a[1] && b[0] === b[1] && a[0] === b[0], a[1] < b[0] || b[1] < a[0]);
    case "ne": return decide(a[1] < b[0] || b[1] < a[0], a[0] === a[1] && b[0] === b[1] && a[0] === b[0]);
    case "lt": return decide(a[1] < b[0], a[0] >= b[1]);
    case "le": return decide(a[1] <= b[0], a[0] > b[1]);
    case "gt": return decide(a[0] > b[1], a[1] <= b[0]);
    case "ge": return decide(a[0] >= b[1], a[1] < b[0]);
    case "land": return decide(a[0] === 1 && b[0] === 1, a[1] === 0 || b[1] === 0);
    case "lor": return decide(a[0] === 1 || b[0] === 1, a[1] === 0 && b[1] === 0);
    case "not": return [1 - a[1], 1 - a[0]];
  }
}

/** Whether every integer of `v` is a value of type `t` (bounds beyond 2^53 are not exact: never). */
function fits(v: Interval, t: ProofType): boolean {
  const w = whole(t);
  return v[0] >= w[0] && v[1] <= w[1];
}

function meet(a: Interval, b: Interval): Interval { return [Math.max(a[0], b[0]), Math.min(a[1], b[1])]; }

/** The test that holds where `e` (a comparison) does not; anything else is left as it is (narrowing then finds nothing in it). */
function negate(e: ProofExpr): ProofExpr {
  if (e.k !== "op") return e;
  const opposite = { lt: "ge", le: "gt", gt: "le", ge: "lt" } as const;
  if (e.op === "lt" || e.op === "le" || e.op === "gt" || e.op === "ge") return { ...e, op: opposite[e.op] };
  if (e.op === "not") return e.args[0];
  return { k: "const", value: true };
}

/**
 * The first problem of a proof read back from disk or an image (null where there is none): its
 * shape, indices within the kernel's parameters and earlier vars, types as `params` declares
 * them, and its size bounded, so that evaluating it can neither throw nor run long.
 */
export function launchProofProblem(p: unknown, params: readonly { type: string }[]): string | null {
  if (typeof p !== "object" || p === null) return "not an object";
  const { assumed, vars, obligations } = p as Partial<LaunchProof>;
  if (typeof assumed !== "boolean" || !Array.isArray(vars) || !Array.isArray(obligations)) return "assumed, vars or obligations missing";
  let nodes = 0;
  const expr = (e: unknown, varsBefore: number, depth: number): string | null => {
    if (++nodes > 20000 || depth > 64) return "too large";
    if (typeof e !== "object" || e === null) return "an expression is not an object";
    const x = e as Record<string, unknown>;
    const type = (t: unknown): boolean => t === "i32" || t === "u32" || t === "bool";
    const index = (i: unknown, n: number): boolean => Number.isInteger(i) && (i as number) >= 0 && (i as number) < n;
    switch (x.k) {
      case "const": return typeof x.value === "boolean" || (Number.isInteger(x.value) && Math.abs(x.value as number) <= 0xffffffff) ? null : "a bad constant";
      case "param": return index(x.index, params.length) && params[x.index as number].type === x.type && (x.type === "i32" || x.type === "u32") ? null : "a bad parameter";
      case "length": return index(x.index, params.length) && params[x.index as number].type.endsWith("[]") ? null : "a bad length";
      case "builtin": return (PROOF_BUILTINS as readonly unknown[]).includes(x.name) ? null : "a bad builtin";
      case "var": return index(x.index, varsBefore) ? null : "a var read before it is made";
      case "convert": return type(x.from) && type(x.to) ? expr(x.arg, varsBefore, depth + 1) : "a bad conversion";
      case "select": return type(x.type) ? expr(x.cond, varsBefore, depth + 1) ?? expr(x.a, varsBefore, depth + 1) ?? expr(x.b, varsBefore, depth + 1) : "a bad select";
      case "op": {
        if (!Object.hasOwn(PROOF_OPS, x.op as string) || !type(x.type) || !Array.isArray(x.args) || x.args.length !== PROOF_OPS[x.op as ProofOp]) return "a bad op";
        for (const a of x.args) { const why = expr(a, varsBefore, depth + 1); if (why) return why; }
        return null;
      }
      default: return "an unknown expression";
    }
  };
  for (let i = 0; i < vars.length; i++) { const why = expr(vars[i], i, 0); if (why) return `var ${i}: ${why}`; }
  for (const o of obligations as unknown[]) {
    const { when, never } = (o ?? {}) as Partial<Obligation>;
    if (!Array.isArray(when)) return "an obligation without its conditions";
    for (const w of when) { const why = expr(w, vars.length, 0); if (why) return why; }
    const why = expr(never, vars.length, 0);
    if (why) return why;
  }
  return obligations.length ? null : "no obligations";
}
