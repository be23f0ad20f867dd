// Compare-and-swap loops: where a target has no instruction for an atomic step, the step is a
// loop of compare-exchanges on the 32-bit word that holds the element. One implementation for
// every target (the table's `atomics`), after legalize and the done guards, just before emission:
//
//  - an atomic on an 8- or 16-bit element (but a load) where `narrow` is "cas" (WGSL, PTX,
//    OpenCL C, SPIR-V: none has 8- or 16-bit atomics), and a plain store to a packed narrow array
//    where `narrowStores` is "cas" (WGSL, whose narrow arrays are u32 words: a plain
//    read-modify-write of the word would undo a neighbour's store made by another thread);
//  - an f32 atomic add where `f32Add` is "cas" (OpenCL C 1.2 and SPIR-V's OpenCL environment, and
//    WGSL, which has no float atomics);
//  - CUDA's atomicInc/atomicDec (a wrapping counter) where `incDec` is "cas" (all but PTX);
//  - and no loop: an atomic load of an 8- or 16-bit element where `narrowLoads` is "word" (SPIR-V,
//    LLVM IR): the word's atomic load, and the element taken from it as the loop takes `cur`.
//
// The loop, with `word` atomics on the element's word (module.ts):
//
//     old = atomic.word.load a[i]
//     loop {
//       prev = old
//       cur  = the element in prev (sign- or zero-extended from its bits; the f32 of the bits)
//       put  = prev with the element's bits replaced by op(cur, x)'s
//       old  = atomic.word.compareExchange a[i], prev, put
//     } breakIf old == prev
//     result = cur (store: x)
//
// Why it is sound: the compare-exchange writes `put` only where the word still holds `prev`, the
// value `cur` was read from, so the element goes from `cur` to op(cur, x) in one indivisible step,
// as the atomic would, and the other bits of the word (neighbouring elements) are written back as
// they were. Where another thread changed the word between, the exchange fails and the loop
// retries from the word it saw; a word atomic's exchange never fails spuriously (module.ts), so
// `old == prev` means it took place. Each operand and the index are evaluated once, before the
// loop, in the order the atomic evaluated them (index, then operands). Shift counts are the bit
// offset (0-24) and 8-32 minus it: in range on every target, so no legalization is needed. An f32
// add compares the word's bits, so a NaN in memory does not make the loop spin (a float compare
// would: NaN != NaN).

import type { Block, Expr, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import type { OpName } from "../ops.js";
import { Builder, type CasPolicy } from "./legalize.js";
import { someStmt } from "../module-info.js";
import { InternalCompilerError } from "../../errors.js";
import { T, elemBytes, isArray, isNarrow, type Elem, type Narrow, type Type } from "../types.js";

/** Write out the module's atomics that the policy says are loops. */
export function expandCasLoops(m: Module, policy: CasPolicy): void {
  for (const f of m.functions) {
    // (Most functions have no atomic and no store to a narrow array: nothing to rebuild.)
    if (f.kind === "runtime" || !someStmt(f.body, (s) => s.k === "atomic" || (s.k === "store" && policy.narrowStores === "cas" && isNarrowArray(f, s.array)))) continue;
    const x = new Expander(f, policy);
    f.body = x.block(f.body);
  }
}

/** Whether an array expression's elements are narrow (a store to one may be a loop). */
function isNarrowArray(f: Function, array: ExprHandle): boolean {
  const t = f.exprs[array].type;
  return isArray(t) && isNarrow(t.elem);
}

type Atomic = Extract<Stmt, { k: "atomic" }>;
/** An operand evaluated once: the local that holds it, or a constant. */
type Value = LocalHandle | { constant: Expr };

class Expander {
  /** Expressions built as legalize builds them (constants folded by the op table). */
  private readonly b: Builder;
  constructor(private readonly f: Function, private readonly policy: CasPolicy) { this.b = new Builder(f, false); }

  block(b: Block): Block {
    return b.flatMap((s) => this.stmt(s));
  }

  private stmt(s: Stmt): Stmt[] {
    switch (s.k) {
      case "if": return [{ ...s, then: this.block(s.then), else: this.block(s.else) }];
      case "loop": return [{ ...s, body: this.block(s.body), continuing: this.block(s.continuing) }];
      case "switch": return [{ ...s, cases: s.cases.map((c) => ({ ...c, body: this.block(c.body) })) }];
      case "atomic": {
        const elem = this.elemOf(s.array);
        if (s.op === "load" && !s.word && isNarrow(elem) && this.policy.narrowLoads === "word") return this.wordLoad(s, elem);
        if (s.word || s.op === "load") return [s];
        if (isNarrow(elem) && this.policy.narrow === "cas") return this.loop(s, elem);
        if (elem === "f32" && s.op === "add" && this.policy.f32Add === "cas") return this.loop(s, elem);
        if ((s.op === "inc" || s.op === "dec") && (elem === "i32" || elem === "u32") && this.policy.incDec === "cas") return this.loop(s, elem);
        return [s];
      }
      case "store": {
        const elem = this.elemOf(s.array);
        const space = (this.f.exprs[s.array].type as { space?: string }).space;
        if (isNarrow(elem) && this.policy.narrowStores === "cas" && (space === "global" || space === "shared"))
          return this.loop({ k: "atomic", op: "store", array: s.array, index: s.index, args: [s.value], result: null, loc: s.loc }, elem);
        return [s];
      }
      default: return [s];
    }
  }

  private elemOf(array: ExprHandle): Elem {
    const t = this.f.exprs[array].type;
    if (!isArray(t)) throw new InternalCompilerError("an atomic or store on a non-array");
    return t.elem;
  }

  private loop(s: Atomic, elem: Narrow | "f32" | "i32" | "u32"): Stmt[] {
    const loc = s.loc;
    const out: Stmt[] = [];
    // The index and the operands, once, in the atomic's order.
    const index = this.keep(out, s.index, "cas_i", loc);
    const args = s.args.map((a, i) => this.keep(out, a, `cas_x${i}`, loc));
    const old = this.local(T.i32, "cas_old"), prev = this.local(T.i32, "cas_prev");
    out.push({ k: "atomic", op: "load", word: true, array: this.array(s.array), index: this.value(index), args: [], result: old, loc });
    const body: Stmt[] = [{ k: "set", local: prev, value: this.read(old), loc }];
    let cur: LocalHandle, put: ExprHandle;
    if (elem === "f32") {
      cur = this.local(T.f32, "cas_cur");
      body.push({ k: "set", local: cur, value: this.op("f32frombits", [this.read(prev)]), loc });
      put = this.op("f32bits", [this.op("add", [this.read(cur), this.value(args[0])])]);
    } else if (elem === "i32" || elem === "u32") {
      // inc and dec, compared as unsigned (the element is its word).
      cur = this.local(T.scalar(elem), "cas_cur");
      body.push({ k: "set", local: cur, value: elem === "i32" ? this.read(prev) : this.convert(this.read(prev), "u32"), loc });
      const u = (h: ExprHandle) => (elem === "u32" ? h : this.convert(h, "u32"));
      const c = () => u(this.read(cur)), limit = () => u(this.value(args[0])), one = () => this.add({ k: "const", value: 1, type: T.u32, loc: null });
      const next = s.op === "inc"
        ? this.select(this.op("ge", [c(), limit()]), this.add({ k: "const", value: 0, type: T.u32, loc: null }), this.op("add", [c(), one()]))
        : this.select(this.op("lor", [this.op("eq", [c(), this.add({ k: "const", value: 0, type: T.u32, loc: null })]), this.op("gt", [c(), limit()])]), limit(), this.op("sub", [c(), one()]));
      put = this.convert(next, "i32");
    } else {
      const mask = (1 << (elemBytes(elem) * 8)) - 1;
      const shift = this.shift(out, s, index);
      cur = this.local(T.i32, "cas_cur");
      // (A store needs no old element: the new one is its operand.)
      if (s.op !== "store") body.push({ k: "set", local: cur, value: this.element(prev, shift, elem), loc });
      const next = this.next(s, cur, args);
      const kept = this.op("and", [this.read(prev), this.op("bitnot", [this.op("shl", [this.int(mask), this.read(shift)])])]);
      put = this.op("or", [kept, this.op("shl", [this.op("and", [next, this.int(mask)]), this.read(shift)])]);
    }
    body.push({ k: "atomic", op: "compareExchange", word: true, array: this.array(s.array), index: this.value(index), args: [this.read(prev), put], result: old, loc });
    out.push({ k: "loop", body, continuing: [], breakIf: this.op("eq", [this.read(old), this.read(prev)]), loc });
    if (s.result !== null) out.push({ k: "set", local: s.result, value: s.op === "store" ? this.value(args[0]) : this.read(cur), loc });
    return out;
  }

  /** An atomic load of a narrow element: its word's, the element's bits taken from it. */
  private wordLoad(s: Atomic, elem: Narrow): Stmt[] {
    const out: Stmt[] = [];
    const index = this.keep(out, s.index, "cas_i", s.loc);
    const word = this.local(T.i32, "cas_word");
    out.push({ k: "atomic", op: "load", word: true, array: this.array(s.array), index: this.value(index), args: [], result: word, loc: s.loc });
    const shift = this.shift(out, s, index);
    out.push({ k: "set", local: s.result ?? this.local(T.i32, "cas_unused"), value: this.element(word, shift, elem), loc: s.loc });
    return out;
  }

  /** Where the element sits in its word (its lowest bit), into a local. */
  private shift(out: Stmt[], s: Atomic, index: Value): LocalHandle {
    const shift = this.local(T.i32, "cas_shift");
    out.push({ k: "set", local: shift, value: this.add({ k: "bitOffset", array: this.array(s.array), index: this.value(index), type: T.i32, loc: s.loc }), loc: s.loc });
    return shift;
  }

  /** The element in a word, as the typed array reads it: sign-extended from its top bit, or masked. */
  private element(word: LocalHandle, shift: LocalHandle, elem: Narrow): ExprHandle {
    const bits = elemBytes(elem) * 8;
    return elem === "i8" || elem === "i16"
      ? this.op("shr", [this.op("shl", [this.read(word), this.op("sub", [this.int(32 - bits), this.read(shift)])]), this.int(32 - bits)])
      : this.op("and", [this.op("shr", [this.read(word), this.read(shift)]), this.int((1 << bits) - 1)]);
  }

  /** The element's new value from its old one (`cur`) and the operands (i32, as narrow atomics take them). */
  private next(s: Atomic, cur: LocalHandle, args: Value[]): ExprHandle {
    switch (s.op) {
      case "add": case "sub": case "and": case "or": case "xor": return this.op(s.op, [this.read(cur), this.value(args[0])]);
      case "exchange": case "store": return this.value(args[0]);
      case "compareExchange":
        return this.add({ k: "select", cond: this.op("eq", [this.read(cur), this.value(args[0])]), a: this.value(args[1]), b: this.read(cur), type: T.i32, loc: null });
      default: throw new InternalCompilerError(`atomic ${s.op} on narrow elements`);
    }
  }

  /** A value evaluated once: a new local set to it, or a constant (copied where it is used). */
  private keep(out: Stmt[], h: ExprHandle, name: string, loc: Stmt["loc"]): Value {
    const e = this.f.exprs[h];
    if (e.k === "const") return { constant: e };
    const local = this.local(e.type, name);
    out.push({ k: "set", local, value: h, loc });
    return local;
  }

  /** A copy of the array operand (a parameter, shared or global array: a leaf). */
  private array(h: ExprHandle): ExprHandle {
    const e = this.f.exprs[h];
    if (e.k !== "local" && e.k !== "shared" && e.k !== "global") throw new InternalCompilerError(`an atomic's array is a ${e.k} expression`);
    return this.add({ ...e });
  }

  private local(type: Type, name: string): LocalHandle {
    this.f.locals.push({ name, type });
    return (this.f.locals.length - 1) as LocalHandle;
  }
  private add(e: Expr): ExprHandle { return this.b.add(e); }
  private convert(h: ExprHandle, to: "i32" | "u32"): ExprHandle { return this.b.convert(h, to); }
  private select(cond: ExprHandle, a: ExprHandle, b: ExprHandle): ExprHandle { return this.b.select(cond, a, b); }
  private value(v: Value): ExprHandle { return typeof v === "number" ? this.read(v) : this.add({ ...v.constant }); }
  private read(local: LocalHandle): ExprHandle { return this.b.read(local); }
  private int(value: number): ExprHandle { return this.b.const(value, "i32"); }
  /** An op, folded where its operands are constants (a store's masked value, a constant shift's mask). */
  private op(op: OpName, args: ExprHandle[]): ExprHandle { return this.b.op(op, args); }
}
