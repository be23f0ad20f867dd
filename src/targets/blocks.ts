// The IR's structured control flow (if, loop, switch, break, continue) as basic blocks and
// branches, for the back ends whose code is made of them (LLVM IR, SPIR-V's OpenCL flavour, which
// needs no merge instructions). Each such emitter extends this class and says how its labels,
// branches and switch are written; the blocks, their order and what jumps where are decided here
// once, so that the targets cannot drift apart on, e.g., where a `continue` goes or when a switch
// case falls through.
//
// After a jump the rest of a block is unreachable: `terminated` says so, statements after it are
// not emitted, and a label starts the next block.

import type { Block, ExprHandle, Stmt } from "../ir/module.js";
import { completesBlock } from "../ir/module-info.js";

/** The statements this class lowers. */
export type ControlStmt = Extract<Stmt, { k: "if" | "loop" | "switch" | "break" | "continue" }>;

/** L: a label as the emitter names one; V: an emitted value. */
export abstract class BlockEmitter<L, V> {
  /** Whether the current block ended with a jump (what follows is unreachable until a label). */
  protected terminated = false;
  protected breaks: L[] = [];
  protected continues: L[] = [];

  protected abstract newLabel(): L;
  /** The label's line: a new block starts. */
  protected abstract writeLabel(l: L): void;
  protected abstract writeBranch(to: L): void;
  protected abstract writeCondBranch(cond: V, then: L, els: L): void;
  /** A jump by `sel` to a case's label (`cases`: value, label), else to `otherwise`. */
  protected abstract writeSwitch(sel: V, otherwise: L, cases: [number, L][]): void;
  protected abstract expr(e: ExprHandle): V;
  protected abstract stmt(s: Stmt): void;

  /** Fresh state for a function's body. */
  protected beginBlocks(): void {
    this.terminated = false;
    this.breaks = [];
    this.continues = [];
  }

  protected block(b: Block): void {
    for (const s of b) {
      if (this.terminated) return;   // what follows a jump is unreachable
      this.stmt(s);
    }
  }

  protected label(l: L): void { this.writeLabel(l); this.terminated = false; }
  protected branch(to: L): void { if (!this.terminated) this.writeBranch(to); this.terminated = true; }
  protected condBranch(cond: V, then: L, els: L): void { this.writeCondBranch(cond, then, els); this.terminated = true; }

  protected control(s: ControlStmt): void {
    switch (s.k) {
      case "if": {
        const then = this.newLabel(), els = this.newLabel(), after = this.newLabel();
        this.condBranch(this.expr(s.cond), then, s.else.length ? els : after);
        this.label(then);
        this.block(s.then);
        this.branch(after);
        if (s.else.length) { this.label(els); this.block(s.else); this.branch(after); }
        this.label(after);
        return;
      }
      case "loop": {
        const head = this.newLabel(), cont = this.newLabel(), exit = this.newLabel();
        this.branch(head);
        this.label(head);
        this.breaks.push(exit);
        this.continues.push(cont);
        this.block(s.body);
        this.branch(cont);
        this.breaks.pop();
        this.continues.pop();
        this.label(cont);
        this.block(s.continuing);
        if (!this.terminated) {
          if (s.breakIf !== null) this.condBranch(this.expr(s.breakIf), exit, head);
          else this.branch(head);
        }
        this.label(exit);
        return;
      }
      case "switch": {
        const sel = this.expr(s.selector);
        const exit = this.newLabel();
        const labels = s.cases.map(() => this.newLabel());
        const def = s.cases.findIndex((c) => c.isDefault);
        const cases: [number, L][] = [];
        s.cases.forEach((c, i) => { for (const v of c.values) cases.push([v, labels[i]]); });
        this.writeSwitch(sel, def >= 0 ? labels[def] : exit, cases);
        this.terminated = true;
        this.breaks.push(exit);
        s.cases.forEach((c, i) => {
          this.label(labels[i]);
          this.block(c.body);
          // A case that completes without `break` falls into the next one's body (JS semantics).
          this.branch(c.fallthrough && completesBlock(c.body) && i + 1 < s.cases.length ? labels[i + 1] : exit);
        });
        this.breaks.pop();
        this.label(exit);
        return;
      }
      case "break": this.branch(this.breaks[this.breaks.length - 1]); return;
      case "continue": this.branch(this.continues[this.continues.length - 1]); return;
    }
  }
}
