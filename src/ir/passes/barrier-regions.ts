// Barrier regions as PoCL's kernel compiler needs them (legal.ts `barrierRegions`: OpenCL C). PoCL
// 3.1 cuts a kernel into parallel regions between barriers and runs each region as a loop over the
// work-group's threads; two shapes of code break that, and this pass writes each kernel so that
// neither occurs. Its IR is the same program: it adds barriers only where every thread of the
// block arrives together, and marks barriers for the back end (`anchor`), which changes no value.
//
// 1. A block of uniform control flow that holds a barrier (an `if` on a value the block's threads
//    share, a loop's body, a case) ends with one: PoCL 3.1 otherwise miscompiles per-thread
//    branches after the block's last barrier (every thread of a block got the value a variable had
//    before the `if`: test/opencl.test.ts, found by the fuzzer). A loop body's closing barrier goes
//    at the target of the body's `continue`s — the start of its `continuing` block — (after a body
//    that ends with a barrier too, where it has a `continue`): a `continue` that skipped it made
//    PoCL 3.1 abort, or, with its default work-group method, give wrong values (fuzz.mjs --barriers
//    --seed 1, test/opencl-pocl.test.ts). Sound: every thread of the block reaches the end of such a
//    block together, by its end or by a `continue` (a barrier in divergent control flow is a kernel
//    error), and a barrier where all threads meet only orders what the kernel's barriers allow.
//
// 2. A barrier is `anchor`ed where what follows it (up to the next barrier) holds a loop or a
//    statement holding a barrier: the back end writes after it a store to a volatile private
//    variable nothing reads (`gpuc_anchor`), which keeps PoCL 3.1 from aborting the process or
//    miscompiling. Its kernel compiler asserts that each parallel region has one entry block
//    (ParallelRegion::Verify, "Incoming edges to non-entry block!"). Where the barrier's block
//    holds nothing else (the statements before it are done-guarded or otherwise conditional, and
//    LLVM hoists a loop-invariant `if` test out of the enclosing loop),
//    ImplicitConditionalBarriers puts an implicit barrier on the next branch; CanonicalizeBarriers
//    lets a barrier block end in that branch (its successors are meant to start separate regions);
//    and where one arm holds barriers that a path skips — an inner counted loop with a test-first
//    guard, to which ImplicitLoopBarriers adds barriers (the loops hoist-checks versions are such),
//    or a barrier of the kernel's under a test — tail replication leaves that path and the other
//    arm meeting before the next barrier: one region with two entries, an abort at the launch
//    (test/opencl-pocl.test.ts: the n-body port; pocl/pocl#2281 describes the same shape), or,
//    with a thread returning in the loop, wrong values. With the store, the barrier's block is
//    never only a barrier, so no barrier is added on the branch, and the region after the barrier
//    starts at the store (one entry). Where what follows holds no loop and no barrier (straight
//    code, `if`s), nothing in it gets barriers, PoCL's second IsolateRegions gives the branch a
//    block of its own again, and the store is left out: in the work-item loop PoCL makes of that
//    region it would keep LLVM from vectorizing (a tree reduction's steps were 1.3–1.5× slower).
//    Sound: the variable is never read, so the store changes no value the kernel computes.
//
// What follows a barrier is decided on the kernel as it was before (1) added barriers, and a loop
// body's closing barrier looks on into the `continuing` block it stands in front of.

import type { Block, Module, Stmt } from "../module.js";
import { continues, someStmt } from "../module-info.js";

/** Whether the code that runs next holds what a barrier needs its anchor for. */
type Ahead = () => boolean;
/** The same after a `break` (of the innermost loop or switch) and after a `continue` (of the innermost loop). */
interface Jumps { brk: Ahead; cont: Ahead }
type Barrier = Extract<Stmt, { k: "barrier" }>;

export function closeBarrierRegions(m: Module): void {
  const kernel = m.functions[m.entry];
  if (!someStmt(kernel.body, (s) => s.k === "barrier")) return;
  // First what to add and anchor, on the kernel as it is; then the additions.
  const edits: (() => void)[] = [];
  const barrier = (after: Ahead): Barrier => (after() ? { k: "barrier", anchor: true, loc: null } : { k: "barrier", loc: null });
  const close = (b: Block, after: Ahead): void => {
    if (b.length && b[b.length - 1].k !== "barrier" && someStmt(b, (x) => x.k === "barrier")) { const x = barrier(after); edits.push(() => b.push(x)); }
  };
  const block = (b: Block, next: Ahead, jumps: Jumps): void => b.forEach((s, i) => stmt(s, () => ahead(b, i + 1, next, jumps), jumps));
  const stmt = (s: Stmt, after: Ahead, jumps: Jumps): void => {
    switch (s.k) {
      case "barrier": if (after()) s.anchor = true; return;
      case "if":
        block(s.then, after, jumps);
        close(s.then, after);
        if (s.else.length) { block(s.else, after, jumps); close(s.else, after); }
        return;
      case "loop": {
        // After the body (and a `continue`): the next iteration — the continuing block, the body
        // again (a `continue` there comes back here: scanned already) — or the loop's exit (a
        // `break`, the test of the loop's head or its `break if`).
        const again: Jumps = { brk: after, cont: () => false };
        const top: Ahead = () => ahead(s.body, 0, () => false, again) || after();
        const iterate: Ahead = () => ahead(s.continuing, 0, top, again);
        block(s.body, iterate, { brk: after, cont: iterate });
        if (someStmt(s.body, (x) => x.k === "barrier") && (s.body[s.body.length - 1].k !== "barrier" || s.body.some(continues))) {
          const x = barrier(iterate);
          edits.push(() => s.continuing.unshift(x));
        }
        block(s.continuing, top, again);
        return;
      }
      case "switch":
        s.cases.forEach((c, j) => {
          // (A case may fall through into the next ones; a `break` in it leaves the switch.)
          const inCase: Jumps = { brk: after, cont: jumps.cont };
          const next: Ahead = () => s.cases.slice(j + 1).some((later) => ahead(later.body, 0, () => false, inCase)) || after();
          block(c.body, next, inCase);
          close(c.body, next);
        });
        return;
      default: return;
    }
  };
  block(kernel.body, () => false, { brk: () => false, cont: () => false });
  for (const e of edits) e();
}

/**
 * Whether the code a barrier's threads run next — `b` from statement `i`, then what `next` says
 * of the code after `b`, and where a `break` or `continue` on the way goes (`jumps`) — holds a
 * loop or a statement holding a barrier before it meets a barrier of its own (one every path
 * through it meets).
 */
function ahead(b: Block, i: number, next: Ahead, jumps: Jumps): boolean {
  for (; i < b.length; i++) {
    const x = b[i];
    if (x.k === "barrier") return false;
    if (someStmt([x], (y) => y.k === "loop" || y.k === "barrier")) return true;
    // (A break or continue in x is the innermost loop's or switch's: x holds no loop.)
    if (someStmt([x], (y) => y.k === "break") && jumps.brk()) return true;
    if (someStmt([x], (y) => y.k === "continue") && jumps.cont()) return true;
  }
  return next();
}
