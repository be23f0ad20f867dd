// What the parts emitting one PTX function share (function.ts builds them around it): the module
// being emitted, the function, its lines and their source locations, its registers and labels, the
// arrays it reaches, and the lowering of expressions, which the parts below it reach through it.

import type { ExprHandle, Function, Loc, Module } from "../../ir/module.js";
import type { Elem } from "../../ir/types.js";
import type { LocationTable } from "../locations.js";
import type { TargetFeatures } from "../target.js";
import { PTXArith } from "./arith.js";
import { REG_DECL, type RegClass } from "./common.js";

/** An array as the code reaches it: its state space, base address and length. */
export interface ArrayRef {
  space: "global" | "shared" | "local";
  /** A register holding the base address (b64, or b32 for shared memory), or a symbol. */
  base: string;
  /** Whether `base` is a 64-bit address. */
  wide: boolean;
  elem: Elem;
  /** A register or immediate holding the length (i32). */
  length: string;
}

/** What every function's emission shares of the module's (emit.ts). */
export interface PTXModuleState {
  readonly m: Module;
  readonly features: TargetFeatures;
  readonly locations: LocationTable;
  readonly fnNames: string[];
  /** Functions some emitted code calls (a runtime function only ever inlined into cold blocks is left out). */
  readonly called: Set<number>;
  /** Under `table`: the functions that read a table, themselves or through a callee (they take the pointer table). */
  readonly needsTables: Set<number>;
}

/** Emitting a runtime function's body inline (into a caller's cold block): register prefix and the argument values. */
export interface InlineBody { prefix: string; args: (string | ArrayRef)[] }

/** The lowering of expressions (expressions.ts), for the parts below it (arrays.ts: indices). */
export interface Lowering {
  /** A register or immediate holding the expression's value. */
  expr(h: ExprHandle): string;
}

export class FunctionContext {
  lines: string[] = [];
  locs: number[] = [];
  stmtLoc: Loc | null = null;
  private counters: Record<RegClass, number> = { p: 0, r: 0, f: 0, fd: 0, rd: 0 };
  private labels = 0;
  /** The register of each scalar local. */
  readonly regs: string[] = [];
  readonly arrays = new Map<number, ArrayRef>();
  /**
   * In the kernel, each shared array sized at launch: the local its offset is set in (once, at
   * the kernel's start: passes/launch-sizes.ts) → the register of its address, set just after.
   */
  readonly dynamicBases = new Map<number, string>();
  /** Under `table`: the register holding the pointer table's address. */
  tablesReg: string | null = null;
  readonly isKernel: boolean;
  readonly arith: PTXArith;
  /** Set by function.ts once the expressions' part exists. */
  lower!: Lowering;

  constructor(readonly mod: PTXModuleState, readonly f: Function, readonly index: number, readonly tableSymbols: string[], readonly inline: InlineBody | null) {
    this.isKernel = index === mod.m.entry && !inline;
    this.arith = new PTXArith({ line: (t) => this.line(t), reg: (c) => this.reg(c), fastMath: mod.features.fastMath === true });
  }

  get m(): Module { return this.mod.m; }

  // ---- registers, labels, lines ---------------------------------------------------------------

  get prefix(): string { return this.inline?.prefix ?? ""; }
  reg(c: RegClass): string { return `%${this.prefix}${c}${++this.counters[c]}`; }
  label(what: string): string { return `$L${this.prefix}${this.index}_${++this.labels}_${what}`; }
  regDecls(): string[] {
    return (Object.keys(this.counters) as RegClass[]).filter((c) => this.counters[c] > 0).map((c) => `.reg ${REG_DECL[c]} %${this.prefix}${c}<${this.counters[c] + 1}>;`);
  }

  line(text: string): void {
    this.lines.push(text.endsWith(":") ? text : "  " + text);
    this.locs.push(this.stmtLoc ? this.mod.locations.id(this.stmtLoc) : -1);
  }
}
