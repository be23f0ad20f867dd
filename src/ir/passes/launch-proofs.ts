// Checks a launch decides (ARCHITECTURE.md, "Checks a launch proves"). Outside its loops, a
// kernel's bounds checks and the tests of its versioned loops (hoist-checks.ts) mostly compute
// from what a launch fixes: `row = blockIdx.y * blockDim.y + threadIdx.y`, then `c[row * n + col]`
// under `if (row < n && col < n)`. This pass writes each such check or test, with the tests of the
// ifs on the way to it, as data over the launch (ir/launch-proof.ts), which the host evaluates on
// a launch's values; where every one is decided for every thread, the launch runs the variant
// compiled with `features.provenChecks`, in which this pass has removed them — a shader with
// fewer checks and exception sites for the driver to compile, and no scan before a versioned loop.
//
// Why the variant is right wherever the host runs it: it runs only where every obligation is
// proven for the launch (launch-proof.ts says why a proven obligation holds for every thread), and
// an obligation is made for each statement it leaves out, exactly:
//  - a bounds check `if (u32(i) >= u32(len)) fail` becomes nothing: its condition is proven
//    false for every thread that reaches it, so it would never have fired;
//  - a loop's test (hoist-checks.ts) keeps its fast arm: `if (!(test)) { scan }` is left out
//    (its condition proven false: the scan never runs), `if (test) { fast } else { checked }`
//    becomes its fast arm (its condition proven true).
// What the obligations read is written so that its value where the statement stands is the value
// the data gives: a local only where the kernel assigns it exactly once in the whole function, by
// a statement outside every loop that every path to here has executed (so it still holds that
// value), from values that are the same (params that are never assigned, lengths of parameter
// arrays, builtins, constants, such locals); anything else — a load, a float, a local assigned in
// a loop or twice, an object's leaf (what a launch gives for it is not its code parameter) — makes
// its check or test no obligation (it stays in the variant). The path
// conditions are the tests of the enclosing ifs (their arm's sense) and of earlier ifs in the
// same or an enclosing block whose arm does not complete (control got past them the other way);
// a test that reads anything else is left out, which only weakens the proof. Inside loops nothing
// is an obligation.
//
// The variant and the kernel it stands for must make the same obligations: both run this pass on
// the same module (the job differs only in `provenChecks`, which nothing before this pass reads);
// the variant records what it assumed (`assumed: true`), and the host evaluates the variant's own
// record before running it.

import type { Block, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import { stmtResult, walkStmts } from "../module.js";
import { completesBlock } from "../module-info.js";
import { T, codeParameterCounts } from "../types.js";
import { PROOF_BUILTINS, PROOF_OPS, type LaunchProof, type ProofBuiltin, type Obligation, type ProofExpr, type ProofOp, type ProofType } from "../launch-proof.js";

/**
 * The kernel's launch proof (null where nothing is left to decide at launch). With `assume`, the
 * module loses the checks and tests it names (the variant), and the proof says so.
 */
export function launchProofs(m: Module, versioned: ReadonlyMap<Function, ReadonlySet<Stmt>>, assume: boolean, types: readonly string[]): LaunchProof | null {
  const f = m.functions[m.entry];
  const tests = versioned.get(f) ?? new Set<Stmt>();
  // How often each local is assigned, anywhere in the function (a result of a call, an atomic or a
  // subgroup operation, and a private array's init, count as many).
  const assigned = new Map<LocalHandle, number>();
  walkStmts(f.body, (s) => {
    if (s.k === "set") assigned.set(s.local, (assigned.get(s.local) ?? 0) + 1);
    else if (s.k === "init") assigned.set(s.local, 2);
    const r = stmtResult(s);
    if (r !== null) assigned.set(r, 2);
  });
  // Parameters a launch gives no value of its own for: objects' leaves (codeParameterCounts).
  const opaque = new Set<number>();
  let at = 0;
  for (const c of codeParameterCounts(types)) for (let j = 0; j < Math.abs(c); j++, at++) if (c < 0) opaque.add(at);
  const p = new Prover(f, assigned, opaque);
  const body = p.block(f.body, { loops: 0, when: [], vars: new Map() }, tests, assume);
  if (!p.obligations.length) return null;
  if (assume) f.body = body;
  return { assumed: assume, vars: p.vars, obligations: p.obligations };
}

interface Scope {
  /** Loops around the statement. */
  loops: number;
  /** The path conditions that hold here, as data. */
  when: ProofExpr[];
  /** The once-assigned locals defined on every path to here: their var's index. */
  vars: Map<LocalHandle, number>;
}

class Prover {
  readonly vars: ProofExpr[] = [];
  readonly obligations: Obligation[] = [];
  constructor(private readonly f: Function, private readonly assigned: ReadonlyMap<LocalHandle, number>, private readonly opaque: ReadonlySet<number>) {}

  /** The block with the statements the variant leaves out gone (where `assume`); obligations for each, in order. */
  block(b: Block, outer: Scope, tests: ReadonlySet<Stmt>, assume: boolean): Block {
    const scope: Scope = { loops: outer.loops, when: [...outer.when], vars: new Map(outer.vars) };
    const out: Stmt[] = [];
    for (const s of b) {
      const kept = this.stmt(s, scope, tests, assume);
      out.push(...kept);
      if (s.k === "set" && scope.loops === 0 && this.assigned.get(s.local) === 1) {
        const v = this.data(s.value, scope);
        if (v) { scope.vars.set(s.local, this.vars.length); this.vars.push(v); }
      }
      // Past an if whose one arm does not complete, its test had the other arm's sense.
      if (s.k === "if" && completesBlock(s.then) !== completesBlock(s.else)) {
        const c = this.data(s.cond, scope);
        if (c) scope.when.push(completesBlock(s.then) ? not(c) : c);
      }
    }
    return out;
  }

  private stmt(s: Stmt, scope: Scope, tests: ReadonlySet<Stmt>, assume: boolean): Stmt[] {
    const inLoop = scope.loops > 0;
    switch (s.k) {
      case "check": {
        if (inLoop || s.kind !== "bounds" || s.cond === null) return [s];
        const never = this.data(s.cond, scope);
        if (!never) return [s];
        this.obligations.push({ when: [...scope.when], never });
        return assume ? [] : [s];
      }
      case "if": {
        const c = this.data(s.cond, scope);
        if (!inLoop && tests.has(s)) {
          // (hoist-checks.ts's two shapes: a scan with no else, or a fast and a checked arm.)
          if (c) {
            const scan = s.else.length === 0;
            this.obligations.push({ when: [...scope.when], never: scan ? c : not(c) });
            if (assume) return scan ? [] : this.block(s.then, { ...scope, when: [...scope.when, c] }, tests, assume);
          }
        }
        const arm = (b: Block, sense: boolean): Block => this.block(b, c ? { ...scope, when: [...scope.when, sense ? c : not(c)] } : scope, tests, assume);
        const then = arm(s.then, true), els = arm(s.else, false);
        return [sameBlock(then, s.then) && sameBlock(els, s.else) ? s : { ...s, then, else: els }];
      }
      case "loop": {
        const inner: Scope = { ...scope, loops: scope.loops + 1 };
        const body = this.block(s.body, inner, tests, assume), continuing = this.block(s.continuing, inner, tests, assume);
        return [sameBlock(body, s.body) && sameBlock(continuing, s.continuing) ? s : { ...s, body, continuing }];
      }
      case "switch": {
        const cases = s.cases.map((c) => { const body = this.block(c.body, scope, tests, assume); return sameBlock(body, c.body) ? c : { ...c, body }; });
        return [cases.every((c, i) => c === s.cases[i]) ? s : { ...s, cases }];
      }
      default: return [s];
    }
  }

  /** The value of `h` here as data over the launch, or null where it reads anything else. */
  private data(h: ExprHandle, scope: Scope, depth = 0): ProofExpr | null {
    if (depth > 48) return null;
    const e = this.f.exprs[h];
    const type = proofType(e.type);
    switch (e.k) {
      case "const":
        if (typeof e.value === "boolean") return { k: "const", value: e.value };
        return type && type !== "bool" && Number.isInteger(e.value) ? { k: "const", value: e.value } : null;
      case "local": {
        const at = this.f.params.indexOf(e.local);
        if (at >= 0 && !this.assigned.has(e.local)) return (type === "i32" || type === "u32") && !this.opaque.has(at) ? { k: "param", index: at, type } : null;
        const v = scope.vars.get(e.local);
        return v === undefined ? null : { k: "var", index: v };
      }
      case "builtin": return (PROOF_BUILTINS as readonly string[]).includes(e.name) ? { k: "builtin", name: e.name as ProofBuiltin } : null;
      case "length": {
        const a = this.f.exprs[e.array];
        if (a.k !== "local" || this.assigned.has(a.local)) return null;
        const at = this.f.params.indexOf(a.local);
        return at >= 0 && a.type.kind === "array" && !a.type.view && !this.opaque.has(at) ? { k: "length", index: at } : null;
      }
      case "op": {
        if (!Object.hasOwn(PROOF_OPS, e.op)) return null;
        const operand = proofType(this.f.exprs[e.args[0]].type);
        if (!operand) return null;
        const args: ProofExpr[] = [];
        for (const a of e.args) { const x = this.data(a, scope, depth + 1); if (!x) return null; args.push(x); }
        return { k: "op", op: e.op as ProofOp, type: operand, args };
      }
      case "convert": {
        const from = proofType(this.f.exprs[e.arg].type), arg = from && this.data(e.arg, scope, depth + 1);
        return type && from && arg ? { k: "convert", from, to: type, arg } : null;
      }
      case "select": {
        if (!type) return null;
        const cond = this.data(e.cond, scope, depth + 1), a = cond && this.data(e.a, scope, depth + 1), b = a && this.data(e.b, scope, depth + 1);
        return cond && a && b ? { k: "select", type, cond, a, b } : null;
      }
      default: return null;
    }
  }
}

function proofType(t: unknown): ProofType | null {
  return t === T.i32 ? "i32" : t === T.u32 ? "u32" : t === T.bool ? "bool" : null;
}

function not(e: ProofExpr): ProofExpr { return { k: "op", op: "not", type: "bool", args: [e] }; }

/** Whether a rewritten block has the same statements (the pass rebuilds only what it changes). */
function sameBlock(a: Block, b: Block): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
