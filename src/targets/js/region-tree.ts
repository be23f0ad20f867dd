// A kernel with barriers split into regions (regions.ts's top says what they are and why), and
// what its region emitters decide from that alone: which group each local is used in, which
// locals keep a value per thread, the halves of each subgroup operation. The JavaScript's region
// emitter (regions.ts) and the WebAssembly one (wasm-regions.ts) read one analysis, so the two
// run a kernel's threads alike.

import type { Block, ExprHandle, Function, Loc, Stmt } from "../../ir/module.js";
import { exprOperands, stmtOperands, stmtResult, walkStmts } from "../../ir/module.js";
import { exposedReads, leavesStmt } from "../../ir/module-info.js";
import { containsBarrier } from "../../ir/passes/inline.js";
import { analyzeValues, type ValueAnalysis } from "./uniformity.js";
import { InternalCompilerError } from "../../errors.js";

/**
 * `sub`: control flow with subgroup operations but no barrier (nor a way out of a loop with one):
 * it runs once per subgroup, its conditions evaluated per lane into masks of the active lanes —
 * unless it runs alike in every subgroup and nothing in it is seen by another (blockLevelTree).
 */
export type Region =
  | { k: "group"; id: number; stmts: Stmt[] }
  | { k: "if"; cond: ExprHandle; group: number; then: Region[]; else: Region[]; loc: Loc | null; sub: boolean }
  | { k: "loop"; body: Region[]; continuing: Region[]; breakIf: ExprHandle | null; group: number; loc: Loc | null; sub: boolean }
  | { k: "break" } | { k: "continue" }
  /** A barrier, where the tree was asked to mark them (the sanitizer counts them); else barriers only end regions. */
  | { k: "sync" };

export type SubgroupStmt = Extract<Stmt, { k: "subgroup" }>;

/** The two halves of a subgroup operation, either side of its region boundary. */
export interface Exchange { s: SubgroupStmt; n: number; half: "publish" | "collect" }

export class RegionTree {
  private nextGroup = 0;
  /** Groups that run inside a loop containing a barrier (their locals must persist across iterations). */
  readonly inLoop = new Set<number>();
  /** The groups each local is used in. */
  readonly groupsOf = new Map<number, Set<number>>();
  /** For each group: the locals it assigns. */
  readonly writtenIn = new Map<number, Set<number>>();
  /** For each group: the locals it may read before assigning them (their value flows in). */
  readonly exposed = new Map<number, Set<number>>();
  /**
   * For each group: the locals whose value never flows in (not exposed) and that every way through
   * the group to its end assigns — a thread's value kept per thread need not be loaded for it.
   */
  readonly defines = new Map<number, Set<number>>();
  /** The halves of the kernel's subgroup operations (the statements standing for them in groups). */
  readonly exchanges = new Map<Stmt, Exchange>();
  /** Locals assigned inside control flow that runs once per subgroup (never block-uniform). */
  readonly perSubgroup = new Set<number>();

  /** The region of each statement that runs at block level although it holds subgroup operations (blockLevelTree). */
  readonly regionOf = new Map<Stmt, Region>();

  /**
   * @param blockLevel control flow with subgroup operations to run at block level (blockLevelTree)
   * @param marks whether each barrier also stands in the tree (a `sync` region)
   */
  constructor(private readonly f: Function, private readonly blockLevel: ReadonlySet<Stmt> = new Set(), private readonly marks = false) {}

  /** @param loopSub whether the innermost enclosing region loop runs per subgroup (null: no such loop) */
  regions(block: Block, inRegionLoop: boolean, loopSub: boolean | null): Region[] {
    const out: Region[] = [];
    let run: Stmt[] = [];
    const flush = (): void => {
      if (run.length) out.push(this.group(run, inRegionLoop));
      run = [];
    };
    for (const s of block) {
      if (s.k === "barrier") { flush(); if (this.marks) out.push({ k: "sync" }); continue; }
      if (s.k === "subgroup") {
        // The operands leave this region; the result starts the next one.
        const n = this.exchanges.size / 2;
        const publish: Stmt = { ...s, result: null as never };
        const collect: Stmt = { ...s, args: [] };
        this.exchanges.set(publish, { s, n, half: "publish" });
        this.exchanges.set(collect, { s, n, half: "collect" });
        run.push(publish);
        flush();
        run.push(collect);
        continue;
      }
      const leaves = inRegionLoop && leavesStmt(s, false);
      const regionLevel = containsBarrier([s]) || leaves;
      if (!regionLevel) { run.push(s); continue; }
      flush();
      // Per subgroup unless it holds a barrier or leaves a loop that runs per block.
      const sub = !this.blockLevel.has(s) && !containsBarrier([s], true) && !(leaves && loopSub === false);
      if (sub) walkStmts([s], (x) => { if (x.k === "set" || x.k === "init") this.perSubgroup.add(x.local); const r = stmtResult(x); if (r !== null) this.perSubgroup.add(r); });
      switch (s.k) {
        case "if":
          out.push({ k: "if", cond: s.cond, group: this.useGroup([s.cond], inRegionLoop), then: this.regions(s.then, inRegionLoop, loopSub), else: this.regions(s.else, inRegionLoop, loopSub), loc: s.loc, sub });
          if (this.blockLevel.has(s)) this.regionOf.set(s, out.at(-1)!);
          break;
        case "loop":
          out.push({
            k: "loop", body: this.regions(s.body, true, sub), continuing: this.regions(s.continuing, true, sub), breakIf: s.breakIf,
            group: s.breakIf === null ? -1 : this.useGroup([s.breakIf], true), loc: s.loc, sub,
          });
          if (this.blockLevel.has(s)) this.regionOf.set(s, out.at(-1)!);
          break;
        case "break": out.push({ k: "break" }); break;
        case "continue": out.push({ k: "continue" }); break;
        default: throw new InternalCompilerError(`${s.k} cannot hold a barrier (the validator rejects it)`);
      }
    }
    flush();
    return out;
  }

  private group(stmts: Stmt[], inRegionLoop: boolean): Region {
    const id = this.nextGroup++;
    if (inRegionLoop) this.inLoop.add(id);
    const visit = (h: ExprHandle): void => {
      const e = this.f.exprs[h];
      if (e.k === "local") this.note(e.local, id);
      exprOperands(e).forEach(visit);
    };
    const writes = new Set<number>();
    walkStmts(stmts, (s) => {
      stmtOperands(s).forEach(visit);
      if (s.k === "set" || s.k === "init") { this.note(s.local, id); writes.add(s.local); }
      const r = stmtResult(s);
      if (r !== null) { this.note(r, id); writes.add(r); }
    });
    this.writtenIn.set(id, writes);
    const { exposed, defined } = exposedReads(this.f, stmts);
    this.exposed.set(id, exposed);
    this.defines.set(id, new Set([...defined].filter((l) => !exposed.has(l))));
    return { k: "group", id, stmts };
  }

  /** A group that only evaluates expressions (a uniform condition). */
  private useGroup(exprs: ExprHandle[], inRegionLoop: boolean): number {
    const g = this.group([], inRegionLoop) as { id: number };
    const visit = (h: ExprHandle): void => {
      const e = this.f.exprs[h];
      if (e.k === "local") this.note(e.local, g.id);
      exprOperands(e).forEach(visit);
    };
    exprs.forEach(visit);
    return g.id;
  }

  private note(local: number, group: number): void {
    let s = this.groupsOf.get(local);
    if (!s) { s = new Set(); this.groupsOf.set(local, s); }
    s.add(group);
  }

  /** The statement lists of a tree's groups, in order. */
  groupStatements(regions: Region[]): Stmt[][] {
    const out: Stmt[][] = [];
    const visit = (rs: Region[]): void => {
      for (const r of rs) {
        if (r.k === "group") out.push(r.stmts);
        else if (r.k === "if") { visit(r.then); visit(r.else); }
        else if (r.k === "loop") { visit(r.body); visit(r.continuing); }
      }
    };
    visit(regions);
    return out;
  }

  /**
   * Of the locals kept per thread, those a thread may read before it assigns them: they read 0
   * there (JavaScript's `let x = 0`), so their storage is zeroed for every block, not only per launch.
   */
  zeroedPerBlock(perThread: ReadonlySet<number>, values: ValueAnalysis): number[] {
    return [...perThread].filter((l) => values.early.has(l) && this.f.locals[l].type.kind === "scalar");
  }

  /**
   * The locals kept per thread: those of two groups or more, and those a group inside a loop with a
   * barrier may read before it assigns them (their value flows in from the thread's last
   * iteration) — not parameters, nor what `values` recomputes or keeps once per block.
   */
  perThreadLocals(values: ValueAnalysis): Set<number> {
    const f = this.f, out = new Set<number>();
    for (const [l, groups] of this.groupsOf) {
      if (f.params.includes(l as never) || l === f.stateParam || values.remat.has(l) || values.uniform.has(l)) continue;
      // A local of one region whose value never flows in from an earlier run of that region
      // (assigned before it is read) stays a plain local even inside a loop with barriers.
      const [g] = groups;
      if (groups.size > 1 || (this.inLoop.has(g) && (this.exposed.get(g)?.has(l) ?? true))) out.add(l);
    }
    return out;
  }
}

/**
 * A kernel's region tree and value analysis, where control flow holding subgroup operations but
 * no barrier runs at block level (every thread of the block through each of its regions, as a
 * loop with a barrier does) instead of once per subgroup, where that computes what once per
 * subgroup computes: nothing in it writes memory, prints, raises or returns (so no thread sees
 * what another did in it, nor which ran first), and every condition of its own that runs at block
 * level is the same for all threads of the block (uniform) — so it iterates alike in every
 * subgroup. A warp reduction's `for (let d = subgroupSize() >> 1; d > 0; d >>= 1) v +=
 * subgroupShuffleDown(v, d)` then keeps `d` once per block and runs each step's halves for the
 * whole block, not its loop test lane by lane in every subgroup. (Outermost such statements only;
 * one whose conditions turn out not uniform is dropped and the tree built again.)
 */
export function blockLevelTree(f: Function, marks = false): { rt: RegionTree; tree: Region[]; values: ValueAnalysis } {
  const level = new Set<Stmt>();
  const visit = (b: Block): void => {
    for (const s of b) {
      // (Only where the statement would run at block level anyway: inside one that runs per subgroup, nothing runs per block.)
      if (!containsBarrier([s], true)) {
        if (!(s.k === "if" || s.k === "loop") || !containsBarrier([s])) continue;
        let quiet = true;
        walkStmts([s], (x) => { if (x.k === "store" || x.k === "atomic" || x.k === "call" || x.k === "check" || x.k === "trap" || x.k === "return") quiet = false; });
        if (quiet) level.add(s);
        continue;
      }
      if (s.k === "if") { visit(s.then); visit(s.else); }
      else if (s.k === "loop") { visit(s.body); visit(s.continuing); }
      else if (s.k === "switch") for (const c of s.cases) visit(c.body);
    }
  };
  visit(f.body);
  for (;;) {
    const rt = new RegionTree(f, level, marks);
    const tree = rt.regions(f.body, false, null);
    const values = analyzeValues(f, rt.groupStatements(tree), rt.perSubgroup);
    const uniform = (r: Region): boolean => {
      if (r.k !== "if" && r.k !== "loop") return true;
      const own = r.sub || (r.k === "if" ? values.isUniform(r.cond) : r.breakIf === null || values.isUniform(r.breakIf));
      return own && (r.k === "if" ? [...r.then, ...r.else] : [...r.body, ...r.continuing]).every(uniform);
    };
    const dropped = [...level].filter((s) => !uniform(rt.regionOf.get(s)!));
    if (!dropped.length) return { rt, tree, values };
    for (const s of dropped) level.delete(s);
  }
}
