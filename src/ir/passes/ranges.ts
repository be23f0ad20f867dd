// Bounds checks proven by value ranges: a bounds check (`u32(index) >= u32(length)`)
// whose index lies in [0, length - 1] for every value it can take is dropped. Ranges come from
// constants, the thread indices (below the block size: the launch bounds when the kernel has
// them, else the largest block any launch may have), array sizes known at compile time, and
// locals — flow-insensitively: a local's range covers every value any of its assignments can
// give it, so it holds wherever the local is read. Arithmetic that could wrap gives no range.
// Typical result: `s[threadIdx.x]` into a shared array sized for the block needs no check.
//
// Checks: only checks that can never fire are dropped (their index's range, over every value it
// can take at any point of the kernel, lies inside [0, length - 1]); so the first failure plain
// JavaScript would report is still reported, by a check that stays. The ranges are sound only if
// every launch keeps the block within `threads` (devices reject larger blocks, device.ts) and a
// local's every assignment is seen (calls and atomics make their result locals unknown).

import type { Block, Expr, ExprHandle, Function, Module, Stmt } from "../module.js";
import { rewriteBlock, stmtResult, walkStmts } from "../module.js";
import { T } from "../types.js";

/** An inclusive integer interval; null: anything. */
type Range = readonly [number, number] | null;

const I32_MIN = -2147483648, I32_MAX = 2147483647, U32_MAX = 4294967295;

/** Drop the bounds checks of every kernel that ranges prove; `threads`: the most threads per block per dimension. */
export function dropProvenChecks(m: Module, threads: readonly number[]): void {
  for (const f of m.functions) {
    if (f.kind !== "kernel") continue;
    const locals = localRanges(f, threads);
    f.body = strip(f, f.body, (h) => range(f, h, threads, locals));
  }
}

function strip(f: Function, block: Block, rangeOf: (h: ExprHandle) => Range): Block {
  return rewriteBlock(block, (s) => (isProven(f, s, rangeOf) ? [] : s));
}

/** A bounds check (index >= length as u32) that can never fire. */
function isProven(f: Function, s: Stmt, rangeOf: (h: ExprHandle) => Range): boolean {
  if (s.k !== "check" || s.kind !== "bounds" || s.cond === null) return false;
  const c = f.exprs[s.cond];
  if (c.k !== "op" || c.op !== "ge" || f.exprs[c.args[0]].type !== T.u32) return false;
  const idx = rangeOf(c.args[0]), len = rangeOf(c.args[1]);
  return idx !== null && len !== null && idx[0] >= 0 && idx[1] < len[0];
}

/** Every local's range over all its assignments, to a fixed point (none if it does not settle). */
function localRanges(f: Function, threads: readonly number[]): Map<number, Range> {
  const sets: { local: number; value: ExprHandle }[] = [];
  const opaque = new Set<number>(f.params);
  if (f.stateParam !== null) opaque.add(f.stateParam);
  walkStmts(f.body, (s) => {
    if (s.k === "set") sets.push({ local: s.local, value: s.value });
    const r = stmtResult(s);
    if (r !== null) opaque.add(r);
    if (s.k === "init") opaque.add(s.local);
  });
  const map = new Map<number, Range>();
  for (const l of opaque) map.set(l, null);
  // Rounds until nothing changes; a local still growing after a dozen rounds (a counter) has no
  // range, and the rounds start again with it as such (each restart adds one: this ends).
  for (;;) {
    let changed = new Set<number>();
    for (let round = 0; round < 12; round++) {
      changed = new Set();
      for (const { local, value } of sets) {
        const prev = map.get(local);
        if (prev === null) continue;
        const r = range(f, value, threads, map);
        const next: Range = prev === undefined ? r : r === null ? null : [Math.min(prev[0], r[0]), Math.max(prev[1], r[1])];
        if (prev === undefined || next === null || next[0] !== prev[0] || next[1] !== prev[1]) { map.set(local, next); changed.add(local); }
      }
      if (!changed.size) return map;
    }
    for (const l of changed) map.set(l, null);
  }
}

function range(f: Function, h: ExprHandle, threads: readonly number[], locals: Map<number, Range>): Range {
  const e: Expr = f.exprs[h];
  const r = (x: ExprHandle) => range(f, x, threads, locals);
  const fits = (lo: number, hi: number, unsigned: boolean): Range =>
    (unsigned ? lo >= 0 && hi <= U32_MAX : lo >= I32_MIN && hi <= I32_MAX) ? [lo, hi] : null;
  switch (e.k) {
    case "const": return typeof e.value === "number" && Number.isInteger(e.value) ? [e.value, e.value] : null;
    // A local not yet assigned in this round of the fixed point reads as nothing, which is sound
    // only inside localRanges' iteration; elsewhere every local has an entry.
    case "local": return locals.has(e.local) ? locals.get(e.local)! : null;
    case "builtin": {
      // Subgroups have at most 128 lanes on any target gpuc runs.
      if (e.name === "subgroupSize") return [1, 128];
      if (e.name === "subgroupLaneId") return [0, 127];
      const axis = e.name.endsWith(".x") ? 0 : e.name.endsWith(".y") ? 1 : 2;
      if (e.name.startsWith("threadIdx")) return [0, threads[axis] - 1];
      if (e.name.startsWith("blockDim")) return [1, threads[axis]];
      return e.name.startsWith("blockIdx") ? [0, I32_MAX] : [1, I32_MAX];
    }
    case "length": {
      const t = f.exprs[e.array].type;
      return t.kind === "array" && t.size !== null ? [t.size, t.size] : null;
    }
    case "convert": {
      const from = f.exprs[e.arg].type, a = r(e.arg);
      if (a === null || (from !== T.i32 && from !== T.u32) || (e.type !== T.i32 && e.type !== T.u32)) return null;
      return a[0] >= 0 && a[1] <= I32_MAX ? a : null;
    }
    case "select": {
      const a = r(e.a), b = r(e.b);
      return a === null || b === null ? null : [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
    }
    case "op": {
      if (e.type !== T.i32 && e.type !== T.u32) return null;
      const unsigned = e.type === T.u32;
      const [a, b] = e.args.map(r);
      if (a === null || (e.args.length > 1 && b === null)) return null;
      switch (e.op) {
        case "add": return fits(a[0] + b![0], a[1] + b![1], unsigned);
        case "sub": return fits(a[0] - b![1], a[1] - b![0], unsigned);
        case "mul": return a[0] >= 0 && b![0] >= 0 ? fits(a[0] * b![0], a[1] * b![1], unsigned) : null;
        case "shl": return b![0] === b![1] && b![0] >= 0 && b![0] < 31 && a[0] >= 0 ? fits(a[0] * 2 ** b![0], a[1] * 2 ** b![0], unsigned) : null;
        case "shr": return b![0] === b![1] && b![0] >= 0 && b![0] < 32 && a[0] >= 0 ? [Math.floor(a[0] / 2 ** b![0]), Math.floor(a[1] / 2 ** b![0])] : null;
        case "and": return a[0] >= 0 && b![0] >= 0 ? [0, Math.min(a[1], b![1])] : null;
        case "rem": return a[0] >= 0 && b![0] > 0 ? [0, Math.min(a[1], b![1] - 1)] : null;
        case "min": return [Math.min(a[0], b![0]), Math.min(a[1], b![1])];
        case "max": return [Math.max(a[0], b![0]), Math.max(a[1], b![1])];
        default: return null;
      }
    }
    default: return null;
  }
}
