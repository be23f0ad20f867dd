// Done guards: in a kernel with barriers, on a target whose threads cannot leave early (WGSL wants
// barriers in uniform control flow; OpenCL C and SPIR-V leave a barrier that some work-items skip
// undefined), a thread that returns or traps is marked done instead of ending, goes on through
// the barriers with the others, and does nothing else. The pass writes that out in the IR, once
// for every such target, after legalize (checks are `if (cond) { report; trap }` by then):
//
//  - `return` and `trap` in the kernel become `done = true` (a new bool local, false at first);
//  - a statement that could act for a thread that is done — it has an effect (store, atomic,
//    call, trap, zero-fill, subgroup operation) or, where the target's table says so, reads
//    memory — is wrapped in `if (!done) { … }`, unless it holds a barrier, a break, a continue or
//    a return (every thread must take the same path through those: their contents are guarded
//    instead);
//  - only where a thread may be done: after the first statement that can set it, in a block, and
//    anywhere in a loop that can set it (the next iteration may start done). Inside a guard a
//    thread is not done until a statement there sets it, after which the rest is guarded again —
//    a trap in the middle of a statement stops what follows it without a jump.
//
// Why it is sound: a done thread's only remaining actions are the barriers and the control flow
// around them (whose conditions are the same for every thread of the block: a kernel error
// otherwise), and local assignments; what JavaScript would have done after its return or trap —
// nothing — is what it does to memory. Threads that are not done execute exactly the statements
// they did, in order (a guard on a false `done` changes nothing). The exception a trapping thread
// recorded before it is unchanged. The policy per target (legal.ts `doneGuards`): WGSL guards
// effects only (robust buffer access keeps a done thread's reads in bounds, and a shared value
// read outside any branch stays uniform for workgroupUniformLoad), OpenCL C and SPIR-V effects
// and reads (nothing keeps a read in bounds there).

import type { Block, Expr, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import { holdsControl, readsMemory, someStmt } from "../module-info.js";
import { stmtOperands } from "../module.js";
import { T } from "../types.js";

/** What a thread that is done must skip: its effects, or its effects and memory reads. */
export type DoneGuards = "effects" | "effects-and-reads";

/** Add done guards to the module's kernel if it has barriers and returns or traps. */
export function addDoneGuards(m: Module, policy: DoneGuards): void {
  const f = m.functions[m.entry];
  if (!someStmt(f.body, (s) => s.k === "barrier") || !someStmt(f.body, setsDone)) return;
  const done = f.locals.length as LocalHandle;
  f.locals.push({ name: "done", type: T.bool });
  const g = new Guards(f, done, policy);
  f.body = g.block(f.body, false);
}

const setsDone = (s: Stmt): boolean => s.k === "return" || s.k === "trap";

class Guards {
  constructor(private readonly f: Function, private readonly done: LocalHandle, private readonly policy: DoneGuards) {}

  /** A block where a thread may be done at its start (`mayBeDone`) or not. */
  block(b: Block, mayBeDone: boolean): Block {
    const out: Block = [];
    for (const s of b) {
      if (mayBeDone && this.skipped(s) && !holdsControl(s)) out.push({ k: "if", cond: this.notDone(s), then: this.stmt(s, false), else: [], loc: s.loc });
      else out.push(...this.stmt(s, mayBeDone));
      if (someStmt([s], setsDone)) mayBeDone = true;
    }
    return out;
  }

  private stmt(s: Stmt, mayBeDone: boolean): Stmt[] {
    switch (s.k) {
      case "return":
      case "trap":
        return [{ k: "set", local: this.done, value: this.expr({ k: "const", value: true, type: T.bool, loc: s.loc }), loc: s.loc }];
      case "if":
        return [{ ...s, then: this.block(s.then, mayBeDone), else: this.block(s.else, mayBeDone) }];
      case "loop": {
        // (A loop that can set done may start an iteration done.)
        const inside = mayBeDone || someStmt([s], setsDone);
        return [{ ...s, body: this.block(s.body, inside), continuing: this.block(s.continuing, inside) }];
      }
      case "switch": {
        // (A case may be entered by falling through from one that set done.)
        const inside = mayBeDone || someStmt([s], setsDone);
        return [{ ...s, cases: s.cases.map((c) => ({ ...c, body: this.block(c.body, inside) })) }];
      }
      default:
        return [s];
    }
  }

  /** Whether a done thread must skip the statement: it acts (or, by the policy, reads memory). */
  private skipped(s: Stmt): boolean {
    return someStmt([s], (x) => x.k === "store" || x.k === "atomic" || x.k === "call" || x.k === "trap" || x.k === "init" || x.k === "subgroup" || x.k === "fence" ||
      (this.policy === "effects-and-reads" && stmtOperands(x).some((h) => readsMemory(this.f, h))));
  }

  /** `!done` for one guard (expressions are trees: each statement its own). */
  private notDone(s: Stmt): ExprHandle {
    const read = this.expr({ k: "local", local: this.done, type: T.bool, loc: s.loc });
    return this.expr({ k: "op", op: "not", args: [read], type: T.bool, loc: s.loc });
  }

  private expr(e: Expr): ExprHandle {
    this.f.exprs.push(e);
    return (this.f.exprs.length - 1) as ExprHandle;
  }
}
