// Kernels with barriers on the JS target. The kernel body is split at its barriers into
// regions; each straight run of statements becomes one loop over the block's threads, so every
// thread finishes a region before any thread starts the next (that is what a barrier means).
// Control flow that contains a barrier runs at region level: its condition must be the same
// for every thread of the block (uniform); it is evaluated per thread and checked.
//
// Locals whose values cross regions (used in two regions, or in a region inside a loop that
// contains a barrier) live in per-thread arrays; the others stay plain `let`s of one thread
// loop. A thread that returns early is marked done and skipped by later regions.
//
// Subgroup operations (subgroupShuffle, subgroupAdd, …) split regions too: each thread leaves its
// operands in a per-thread exchange array at the end of one region, and the next region starts by
// reading the lanes of its subgroup (lane order: a subgroup is $S consecutive linear thread ids).
// Control flow holding subgroup operations but no barrier runs once per subgroup (a loop over the
// subgroups around it), with thread loops over that subgroup's lanes, as a GPU runs a warp (SIMT):
// a bit mask of the subgroup's active lanes (a JS int, lane i its bit i; subgroups have at most 32)
// says which lanes each thread loop runs. An `if` whose condition is not uniform runs its then-side
// for the lanes where it holds, then its else-side for the others; a loop runs until none of its
// lanes goes on (`break` drops the lanes taking it from the loop's mask until the loop ends,
// `continue` from the iteration's; `return` from every mask). An exchange sees only the lanes
// active there: a reduction skips the others, a shuffle from one gives the reader's own value.

import type { ExprHandle, Function, Loc, Stmt } from "../../ir/module.js";
import { T, isArray, type Scalar } from "../../ir/types.js";
import { blockLevelTree, type Exchange, type Region, type RegionTree, type SubgroupStmt } from "./region-tree.js";
import { BLOCK_RANGE_DEFAULT, FunctionEmitter, GRID_PARAMS, SAN_ORDER, blockLoop, sanThreadLoops, TYPED_ARRAY, hasReturn, stripParens, zero, type ModuleNames } from "./function.js";
import type { ValueAnalysis } from "./uniformity.js";
import { InternalCompilerError } from "../../errors.js";

export function emitRegionKernel(names: ModuleNames, f: Function, index: number): string {
  return new RegionKernelEmitter(names, f, index).emitKernel();
}

class RegionKernelEmitter extends FunctionEmitter {
  private rt!: RegionTree;
  private perThread = new Set<number>();
  private currentGroup = -1;
  private regionLoops: number[] = [];
  private loopCount = 0;

  private values!: ValueAnalysis;
  private usesDone = false;

  /** The label of the loop over subgroups being emitted, if any. */
  private subgroupLoop: string | null = null;
  private subgroupLoops = 0;
  /**
   * Inside a loop over subgroups: the JS names of the active-lane masks that enclose the code
   * being emitted, outermost first (the last is the current one). A lane that returns leaves them all.
   */
  private masks: string[] = [];
  private maskCount = 0;
  /** For each enclosing region loop that runs per subgroup: where its lanes' mask is in `masks` (-1: per block). */
  private loopMasks: number[] = [];

  emitKernel(): string {
    const f = this.f;
    const { rt, tree, values } = blockLevelTree(f, this.names.sanitize);
    this.rt = rt;
    this.values = values;
    this.usesDone = hasReturn(f.body);
    // Rematerialized locals are recomputed where read; uniform ones are plain block-level variables.
    for (const [l, def] of this.values.remat) {
      let text: string | null = null;
      Object.defineProperty(this.reads, l, { get: () => (text ??= `(${stripParens(this.expr(def))})`), configurable: true });
    }
    this.perThread = rt.perThreadLocals(this.values);
    // Per-thread storage: typed arrays indexed by the thread's linear id $t.
    const setup: string[] = ["const $nt = $dx * $dy * $dz;", ...this.sharedAllocations(), ...(this.usesDone ? ["const $done = new Uint8Array($nt);"] : [])];
    // Each subgroup operation's exchange arrays: the value (and the lane operand) of every thread.
    for (const { s: x, n, half } of this.rt.exchanges.values()) {
      if (half !== "publish") continue;
      setup.push(`const $xv${n} = new ${TYPED_ARRAY[scalarOf(f, x.args[0])]}($nt)${x.args.length > 1 ? `, $xl${n} = new Uint32Array($nt)` : ""};`);
    }
    const uniformLets = [...this.values.uniform].map((l) => `${this.reads[l]} = ${zero(f.locals[l].type)}`);
    if (uniformLets.length) setup.push(`let ${uniformLets.join(", ")};`);
    // Private arrays of one region are allocated once, like in a kernel without barriers.
    setup.push(...this.declarations((l) => isArray(f.locals[l].type) && !this.perThread.has(l)));
    f.locals.forEach((l, i) => {
      if (!this.perThread.has(i)) return;
      if (isArray(l.type)) {
        setup.push(`const $P${i} = new ${TYPED_ARRAY[l.type.elem]}(${l.type.size} * $nt), $V${i} = Array.from({ length: $nt }, (_, t) => $P${i}.subarray(t * ${l.type.size}, (t + 1) * ${l.type.size}));`);
        this.reads[i] = this.writes[i] = `$V${i}[$t]`;
      } else {
        const elem = (l.type as { scalar: Scalar }).scalar;
        setup.push(`const $L${i} = new ${TYPED_ARRAY[elem]}($nt);`);
        this.writes[i] = `$L${i}[$t]`;
        this.reads[i] = elem === "bool" ? `($L${i}[$t] === 1)` : `$L${i}[$t]`;
      }
    });
    const body: string[] = [];
    this.lines = body;
    this.emitRegions(tree, 3);
    return [
      `function ${this.names.fnNames[this.index]}(${[...this.paramList(), ...GRID_PARAMS].join(", ")}) {`,
      `  ${BLOCK_RANGE_DEFAULT}`,
      ...(this.names.sanitize ? [`  ${SAN_ORDER}`] : []),
      ...setup.map((l) => "  " + l),
      ...blockLoop(1, [
        ...(this.usesDone ? ["    $done.fill(0);"] : []),
        ...rt.zeroedPerBlock(this.perThread, this.values).map((l) => `    $L${l}.fill(0);`),
        "    $block: {",
        ...body,
        "    }",
      ], this.names.sanitize),
      "}",
    ].join("\n");
  }

  // ---- emission ----------------------------------------------------------------------------

  protected override kernelReturn(): string {
    // (Per subgroup: the lane leaves every active mask around it, so no later region, loop test or exchange counts it.)
    const leave = this.masks.map((m) => ` ${m} &= ~(1 << ($t - $sgb));`).join("");
    return `{ $done[$t] = 1;${leave} continue $th${this.currentGroup}; }`;
  }

  /** Rematerialized locals are not stored: their one assignment disappears. */
  protected override stmt(s: Stmt, d: number): void {
    if (s.k === "set" && this.values.remat.has(s.local)) return;
    const x = this.rt.exchanges.get(s);
    if (x) { this.exchange(x, d); return; }
    super.stmt(s, d);
  }

  /**
   * One half of a subgroup operation: publish leaves this thread's operands in the exchange
   * arrays; collect reads the lanes of its subgroup ($b its first thread, $n its lanes, $l this
   * thread's lane). A lane that returned early takes no part.
   */
  private exchange(x: Exchange, d: number): void {
    const { s, n } = x;
    const t = scalarOf(this.f, s.args[0]);
    if (x.half === "publish") {
      const v = stripParens(this.expr(s.args[0]));
      this.line(d, `$xv${n}[$t] = ${t === "bool" ? `(${v}) ? 1 : 0` : v};`);
      if (s.args.length > 1) this.line(d, `$xl${n}[$t] = ${stripParens(this.expr(s.args[1]))};`);
      return;
    }
    const out = this.writes[s.result];
    // Per subgroup, the lanes that take part are those of the current mask (returned ones left it).
    const mask = this.masks.at(-1);
    if (this.names.sanitize) {
      // The sanitizer: the lanes passed a subgroup operation; a subgroupBarrier() must be met by
      // every lane of the subgroup still running (those of the outermost mask, less returned ones).
      this.line(d, "$san.sgop();");
      if (s.op === "barrier" && mask !== undefined && mask !== this.masks[0]) {
        this.names.sanSites.push({ name: "subgroupBarrier()", loc: this.names.locations.id(s.loc), access: "atomic" });
        this.line(d, `if (${mask} !== ${this.masks[0]}) $san.div(${this.names.sanSites.length - 1});`);
      }
    }
    const active = (j: string): string | null => (mask !== undefined ? `((${mask} >>> ${j}) & 1) !== 0` : this.usesDone ? `$done[$b + ${j}] === 0` : null);
    const part = (j: string): string => [`${j} < $n`, active(j)].filter((x) => x !== null).join(" && ");
    const read = (i: string): string => (t === "bool" ? `$xv${n}[${i}] === 1` : `$xv${n}[${i}]`);
    this.line(d, "{");
    this.line(d + 1, "const $l = $t % $S, $b = $t - $l, $n = Math.min($S, $nt - $b);");
    if (s.op.startsWith("shuffle")) {
      const lane = `$xl${n}[$t]`;
      const src: Record<string, string> = {
        shuffle: `${lane} % $S`,
        shuffleDown: `${lane} < $S - $l ? $l + ${lane} : $S`,
        shuffleUp: `${lane} <= $l ? $l - ${lane} : $S`,
        shuffleXor: `($l ^ ${lane}) >>> 0`,
      };
      this.line(d + 1, `const $j = ${src[s.op]};`);
      this.line(d + 1, `${out} = ${part("$j")} ? ${read("$b + $j")} : ${read("$t")};`);
    } else {
      // Combined once per subgroup (its first lane to get here), in lane order.
      const [init, step] = combine(s.op, t);
      this.line(d + 1, `if ($xk${n} !== $b) {`);
      this.line(d + 2, `let $acc = ${init};`);
      this.line(d + 2, `for (let $j = 0; $j < $n; $j++) if (${active("$j") ?? "true"}) { const $v = ${read("$b + $j")}; $acc = ${step}; }`);
      this.line(d + 2, `$xk${n} = $b; $xr${n} = $acc;`);
      this.line(d + 1, "}");
      this.line(d + 1, `${out} = $xr${n};`);
    }
    this.line(d, "}");
  }

  private emitRegions(regions: Region[], d: number): void {
    for (const r of regions) {
      if ((r.k === "if" || r.k === "loop") && r.sub && this.subgroupLoop === null) {
        // Control flow that runs per subgroup: once for each subgroup of the block, from the mask
        // of its lanes still running ($sgb its first thread).
        const label = `$sgl${this.subgroupLoops++}`;
        const m = `$m${this.maskCount++}`;
        if (this.names.sanitize) {
          // (The sanitizer's: the subgroups in either order.)
          this.line(d, `${label}: for (let $ig = 0, $ng = Math.ceil($nt / $S); $ig < $ng; $ig++) {`);
          this.line(d + 1, "const $sg = $rev ? $ng - 1 - $ig : $ig, $sgb = $sg * $S;");
        } else {
          this.line(d, `${label}: for (let $sg = 0; $sg * $S < $nt; $sg++) {`);
          this.line(d + 1, "const $sgb = $sg * $S;");
        }
        if (this.usesDone) {
          this.line(d + 1, `let ${m} = 0;`);
          this.line(d + 1, `for (let $j = 0, $n = Math.min($S, $nt - $sgb); $j < $n; $j++) if ($done[$sgb + $j] === 0) ${m} |= 1 << $j;`);
        } else this.line(d + 1, `let ${m} = (-1 >>> (32 - Math.min($S, $nt - $sgb))) | 0;`);
        this.line(d + 1, `if (${m} === 0) continue;`);
        this.subgroupLoop = label;
        this.masks.push(m);
        this.emitRegions([r], d + 1);
        this.masks.pop();
        this.subgroupLoop = null;
        this.line(d, "}");
        continue;
      }
      if ((r.k === "if" || r.k === "loop") && !r.sub && this.subgroupLoop !== null)
        throw new InternalCompilerError("control flow with a barrier inside control flow that runs per subgroup");
      switch (r.k) {
        case "group": {
          // A reduction's result, combined once per subgroup, is kept for the rest of its lanes.
          const first = this.rt.exchanges.get(r.stmts[0]);
          if (first?.half === "collect" && !first.s.op.startsWith("shuffle")) this.line(d, `let $xk${first.n} = -1, $xr${first.n};`);
          // Uniform assignments at the start and end of a region run once, outside the thread loop.
          const hoisted = this.values.hoisted;
          let i = 0, j = r.stmts.length;
          while (i < j && hoisted.has(r.stmts[i])) i++;
          while (j > i && hoisted.has(r.stmts[j - 1])) j--;
          this.block(r.stmts.slice(0, i), d);
          if (i < j) {
            const middle = r.stmts.slice(i, j);
            // `if (threadIdx.x < uniform) { … }` (or `=== uniform`) as the whole region: only those threads run it.
            const bound = this.subgroupLoop === null ? this.uniformXBound(middle) : null;
            if (bound) {
              if (bound.start !== null) this.line(d, `const $xStart${r.id} = Math.max(0, ${bound.start});`);
              this.line(d, `const $xEnd${r.id} = Math.min($dx, ${bound.end});`);
              this.threadLoop(r.id, d, (inner) => this.block(bound.body, inner), `$xEnd${r.id}`, bound.start !== null ? `$xStart${r.id}` : "0");
            } else this.threadLoop(r.id, d, (inner) => this.block(middle, inner));
          }
          this.block(r.stmts.slice(j), d);
          break;
        }
        case "if": {
          if (r.sub && !this.values.isUniform(r.cond)) { this.maskedIf(r, d); break; }
          const c = this.uniform(r.cond, r.group, r.loc, d);
          this.line(d, `if (${c} === 1) {`);
          this.emitRegions(r.then, d + 1);
          if (r.else.length) { this.line(d, "} else {"); this.emitRegions(r.else, d + 1); }
          this.line(d, "}");
          break;
        }
        case "loop": {
          if (r.sub) { this.maskedLoop(r, d); break; }
          const n = this.loopCount++;
          this.regionLoops.push(n);
          this.loopMasks.push(-1);
          this.line(d, `$rl${n}: for (;;) {`);
          this.line(d + 1, `$rb${n}: {`);
          this.emitRegions(r.body, d + 2);
          this.line(d + 1, "}");
          this.emitRegions(r.continuing, d + 1);
          if (r.breakIf !== null) {
            const c = this.uniform(r.breakIf, r.group, r.loc, d + 1);
            this.line(d + 1, `if (${c} === 1) break;`);
          }
          this.line(d, "}");
          this.regionLoops.pop();
          this.loopMasks.pop();
          break;
        }
        // (Only where the tree marks them: the sanitizer's count of the block's barriers.)
        case "sync": this.line(d, "$san.bar();"); break;
        case "break": case "continue": {
          const at = this.loopMasks.at(-1)!;
          if (at < 0) { this.line(d, `break $${r.k === "break" ? "rl" : "rb"}${this.regionLoops.at(-1)};`); break; }
          // Per subgroup: the current lanes leave the loop (its mask and every one inside it), or
          // this iteration (the iteration's mask and those inside it), until its end.
          const cur = this.masks.at(-1)!;
          const from = r.k === "break" ? at : at + 1;
          const leave = this.masks.slice(from, -1).map((m) => `${m} &= ~${cur};`);
          this.line(d, [...leave, `${cur} = 0;`].join(" "));
          // (The last lanes out of the loop: nothing in it is left to run.)
          if (r.k === "break") this.line(d, `if (${this.masks[at]} === 0) break $rl${this.regionLoops.at(-1)};`);
          break;
        }
      }
    }
  }

  /**
   * An `if` that runs per subgroup on a condition that may differ between its lanes: the lanes
   * where it holds run the then-side, then the others the else-side (each side only where it has
   * lanes).
   */
  private maskedIf(r: Extract<Region, { k: "if" }>, d: number): void {
    const m = this.masks.at(-1)!;
    const c = this.laneMask(r.cond, r.group, d);
    const yes = `$m${this.maskCount++}`, no = `$m${this.maskCount++}`;
    this.line(d, `let ${yes} = ${c}${r.else.length ? `, ${no} = ${m} & ~${c}` : ""};`);
    for (const [mask, side] of [[yes, r.then], [no, r.else]] as const) {
      if (!side.length) continue;
      this.line(d, `if (${mask} !== 0) {`);
      this.masks.push(mask);
      this.emitRegions(side, d + 1);
      this.masks.pop();
      this.line(d, "}");
    }
  }

  /**
   * A loop that runs per subgroup: `$lm` holds the lanes still in it, `$cm` those in this
   * iteration's body (not broken out nor continued); it ends when no lane is left in it.
   */
  private maskedLoop(r: Extract<Region, { k: "loop" }>, d: number): void {
    const n = this.loopCount++;
    const lm = `$m${this.maskCount++}`, cm = `$m${this.maskCount++}`;
    this.line(d, `let ${lm} = ${this.masks.at(-1)!};`);
    this.line(d, `$rl${n}: for (;;) {`);
    this.line(d + 1, `let ${cm} = ${lm};`);
    this.regionLoops.push(n);
    this.loopMasks.push(this.masks.length);
    this.masks.push(lm, cm);
    this.emitRegions(r.body, d + 1);
    this.masks.pop();
    this.emitRegions(r.continuing, d + 1);
    if (r.breakIf !== null) {
      if (this.values.isUniform(r.breakIf)) this.line(d + 1, `if (${stripParens(this.expr(r.breakIf))}) break;`);
      else this.line(d + 1, `${lm} &= ~${this.laneMask(r.breakIf, r.group, d + 1)};`);
    }
    this.line(d + 1, `if (${lm} === 0) break;`);
    this.masks.pop();
    this.loopMasks.pop();
    this.regionLoops.pop();
    this.line(d, "}");
  }

  /** A condition evaluated by the current lanes of a subgroup: the mask of those where it holds. */
  private laneMask(cond: ExprHandle, group: number, d: number): string {
    const v = `$c${group}`;
    this.line(d, `let ${v} = 0;`);
    this.threadLoop(group, d, (inner) => this.line(inner, `if (${stripParens(this.expr(cond))}) ${v} |= 1 << ($t - $sgb);`));
    return v;
  }

  /** One loop over the threads of the block that are still running. */
  private threadLoop(group: number, d: number, body: (depth: number) => void, xEnd = "$dx", xStart = "0"): void {
    const saved = this.currentGroup;
    this.currentGroup = group;
    if (this.subgroupLoop === null && this.names.sanitize) {
      for (const l of sanThreadLoops("  ".repeat(d), xEnd, `$th${group}: `, xStart)) this.lines.push(l);
      this.line(d + 1, "const $t = ($tz * $dy + $ty) * $dx + $tx;");
    } else if (this.subgroupLoop === null) {
      this.line(d, `for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th${group}: for (let $tx = ${xStart}; $tx < ${xEnd}; $tx++) {`);
      this.line(d + 1, "const $t = ($tz * $dy + $ty) * $dx + $tx;");
    } else if (this.names.sanitize) {
      // The lanes of subgroup $sg active here, lowest first or ($rev) highest first.
      this.line(d, `$th${group}: for (let $tm = ${this.masks.at(-1)!}, $tb = 0; $tm !== 0; $tm ^= $tb) {`);
      this.line(d + 1, "$tb = $rev ? 1 << (31 - Math.clz32($tm)) : $tm & -$tm;");
      this.line(d + 1, "const $t = $sgb + 31 - Math.clz32($tb);");
      this.line(d + 1, "const $tx = $t % $dx, $ty = (($t - $tx) / $dx) % $dy, $tz = ($t - $tx - $ty * $dx) / ($dx * $dy);");
    } else {
      // The lanes of subgroup $sg.
      // The lanes of subgroup $sg that are active here (those that returned left the mask).
      this.line(d, `$th${group}: for (let $tm = ${this.masks.at(-1)!}; $tm !== 0; $tm &= $tm - 1) {`);
      this.line(d + 1, "const $t = $sgb + 31 - Math.clz32($tm & -$tm);");
      this.line(d + 1, "const $tx = $t % $dx, $ty = (($t - $tx) / $dx) % $dy, $tz = ($t - $tx - $ty * $dx) / ($dx * $dy);");
    }
    if (this.names.sanitize) this.line(d + 1, "$san.t_($t);");
    if (this.names.builtins[this.index].includes("subgroupLaneId")) this.line(d + 1, "const $lane = $t % $S;");
    if (this.usesDone && this.subgroupLoop === null) this.line(d + 1, "if ($done[$t] === 1) continue;");
    const v = this.values;
    const inGroup = (l: number) => this.rt.groupsOf.get(l)?.has(group) ?? false;
    const plain = this.declarations((l) => inGroup(l) && !this.perThread.has(l) && !isArray(this.f.locals[l].type) && !v.remat.has(l) && !v.uniform.has(l));
    for (const decl of plain) this.line(d + 1, decl);
    // Per-thread values this region uses live in plain variables while it runs (registers, not
    // typed-array slots in its inner loops), and go back to their arrays at its end.
    const cached: { l: number; read: string; write: string }[] = [];
    for (const l of this.perThread) {
      if (!inGroup(l) || isArray(this.f.locals[l].type)) continue;
      cached.push({ l, read: this.reads[l], write: this.writes[l] });
      this.line(d + 1, `let $r${l} = ${this.reads[l]};`);
      this.reads[l] = this.writes[l] = `$r${l}`;
    }
    body(d + 1);
    for (const c of cached) {
      if (this.rt.writtenIn.get(group)?.has(c.l)) this.line(d + 1, `${c.write} = $r${c.l};`);
      this.reads[c.l] = c.read;
      this.writes[c.l] = c.write;
    }
    this.line(d, "}");
    this.currentGroup = saved;
  }

  /** For a region that is `if (threadIdx.x < U) { body }` with U uniform: the JS of U, and the body. */
  /**
   * `if (threadIdx.x < u) { … }` or `if (threadIdx.x === u) { … }` (u the same for every thread,
   * an i32) as a whole region: the threads with x in [start, end) run it, and no other does
   * anything in it (start null: 0).
   */
  private uniformXBound(stmts: Stmt[]): { start: string | null; end: string; body: Stmt[] } | null {
    if (stmts.length !== 1 || stmts[0].k !== "if" || stmts[0].else.length) return null;
    const c = this.f.exprs[stmts[0].cond];
    if (c.k !== "op" || (c.op !== "lt" && c.op !== "eq")) return null;
    const isTx = (h: ExprHandle): boolean => {
      const x = this.f.exprs[h];
      const tx = (e: typeof x): boolean => e.k === "builtin" && e.name === "threadIdx.x";
      return tx(x) || (x.k === "local" && this.values.remat.has(x.local) && tx(this.f.exprs[this.values.remat.get(x.local)!]));
    };
    const [a, b] = c.args;
    const u = isTx(a) ? b : c.op === "eq" && isTx(b) ? a : null;
    if (u === null || !this.values.isUniform(u) || this.f.exprs[u].type !== T.i32) return null;
    const text = stripParens(this.expr(u));
    return c.op === "lt" ? { start: null, end: text, body: stmts[0].then } : { start: text, end: `(${text}) + 1`, body: stmts[0].then };
  }

  /**
   * Evaluate a condition for every running thread of the block; all must agree (control flow that
   * holds a barrier). Leaves 1 or 0 in a variable. (Per subgroup, only uniform conditions come here.)
   */
  private uniform(cond: ExprHandle, group: number, loc: Loc | null, d: number): string {
    const v = `$c${group}`;
    if (this.values.isUniform(cond)) {
      // The same for every thread by construction: evaluated once.
      this.line(d, `const ${v} = ${stripParens(this.expr(cond))} ? 1 : 0;`);
      return v;
    }
    if (this.subgroupLoop !== null) throw new InternalCompilerError("a condition that may differ between lanes checked as block-uniform inside control flow that runs per subgroup");
    const locId = this.names.locations.id(loc);
    this.line(d, `let ${v} = -1;`);
    this.threadLoop(group, d, (inner) => {
      this.line(inner, `const $v = ${stripParens(this.expr(cond))} ? 1 : 0;`);
      this.line(inner, `if (${v} === -1) ${v} = $v; else if (${v} !== $v) $divergent(${locId}, $tx, $ty, $tz, $bx, $by, $bz);`);
    });
    // No thread of this block is still running: it is done.
    this.line(d, `if (${v} === -1) break $block;`);
    return v;
  }
}


function scalarOf(f: Function, h: ExprHandle): Scalar {
  return (f.exprs[h].type as { scalar: Scalar }).scalar;
}

/** A subgroup reduction in JS: the accumulator's start and its step with the lane's value `$v`, exact in the type. */
function combine(op: SubgroupStmt["op"], t: Scalar): [string, string] {
  switch (op) {
    case "add": return t === "i32" ? ["0", "($acc + $v) | 0"] : t === "u32" ? ["0", "($acc + $v) >>> 0"] : t === "f32" ? ["-0", "Math.fround($acc + $v)"] : ["-0", "$acc + $v"];
    case "min": return ["Infinity", "Math.min($acc, $v)"];
    case "max": return ["-Infinity", "Math.max($acc, $v)"];
    case "any": return ["false", "$acc || $v"];
    case "all": case "barrier": return ["true", "$acc && $v"];
    case "ballot": return ["0", "$v ? ($acc | (1 << $j)) >>> 0 : $acc"];
    default: throw new InternalCompilerError(`subgroup ${op} is not a reduction`);
  }
}
