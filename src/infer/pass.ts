// The state of one inference pass over a method instance, which every part of the builder
// (build.ts) shares: the typed IR function being built and the block statements go to, each
// variable's binding and type, the diagnostics, the module being built; and the primitives every
// part builds with (expressions, locals, statements, captured blocks, checks).

import { InternalCompilerError, type CompileErrorKind } from "../errors.js";
import type { SourceText, Span } from "../frontend/source.js";
import type { UExpr, UFunction, UTable } from "../frontend/uir.js";
import type { Block, CheckKind, Expr, ExprHandle, Function, FunctionHandle, LocalHandle, Loc, PrintFormat, Stmt } from "../ir/module.js";
import { stmtResult } from "../ir/module.js";
import type { SizeExpr } from "../ir/size.js";
import { T, wrapValue, type ArrayType, type ScalarType, type StructsType, type Type } from "../ir/types.js";
import type { MethodTable, SharedShape, Val, ViewVal } from "./methods.js";
import type { ArgType } from "./overlays.js";

/** A JavaScript function object (the IR's `Function` type shadows the global name here). */
export type JSFunction = globalThis.Function;

/** A call-chain entry not yet resolved to file:line:col (resolution happens only for errors). */
export interface FrameSite { function: string; src: SourceText; at: number }

/** The IR locals of an aggregate's leaves, nested as its type's fields are (aggregates.ts). */
export type Leaves = LocalHandle | Leaves[];

/** A helper instance's IR as a call that inlines it sees it (ModuleContext.instanceBody). */
export interface InstanceBody { fn: Function; leaves: LocalHandle[] | null; fresh: boolean; paramFinal: (ParamFinal | undefined)[] }

/** Where a parameter's value is when a function returns: its local or an object's leaves, and its type there. */
export interface ParamFinal { leaves: Leaves; type: Type }

/** A user error found while building a function's typed IR (reported as a CompileError diagnostic). */
export interface InferError { kind: CompileErrorKind; message: string; span: Span; hint?: string; cause?: unknown }

/** What a function builder needs from the module being built (infer.ts). */
export interface ModuleContext {
  methods: MethodTable;
  /** The name of the target being compiled for. */
  target: string;
  /** Record that the kernel used a global name (overlays redefining it invalidate the code). */
  noteMethod(name: string): void;
  /** An overlay's implementation lowered to untyped IR (once per function object). */
  lowerImplementation(impl: JSFunction, name: string): UFunction;
  /** Run a generator (memoized per generator and argument types); never caches a failure. */
  generate(gen: JSFunction, name: string, types: ArgType[]): { fn: UFunction } | { error: unknown };
  options: { boundsCheck: boolean; debugLevel: 0 | 1 | 2 };
  /**
   * A helper instance's IR, for a call that inlines it (null while it is being inferred:
   * recursion): one that returns an aggregate is a void function setting the leaf locals
   * `leaves` before each return (every call inlines it), `fresh` whether that is always a new
   * object; `paramFinal`, where each parameter's value is when it returns (a call copying
   * parameters back reads them there).
   */
  instanceBody(handle: number): InstanceBody | null;
  /** The typed IR function handle and current return type of a callee specialized on `argTypes`. */
  instance(fn: UFunction, argTypes: Type[], frames: FrameSite[]): { handle: number; returnType: Type; pending: boolean; usesState: boolean } | null;
  /** The module's global for a scope table, or the other table already linked under its name. */
  table(t: UTable): { handle: number; type: Type } | { conflict: UTable };
  /** A shared array, one per declaration site (`key`) and specialization. */
  sharedArray(key: string, name: string, type: ArrayType, size?: SizeExpr): number;
  /** The shape of a global that is a table of tables (undefined for a flat one). */
  tableShape(global: number): SharedShape | undefined;
  /** A runtime-library function, linked into the module. */
  runtime(name: string): { handle: number; returnType: Type };
  /** Whether a function takes the kernel state (decided from its source, before inference). */
  usesState(fn: UFunction): boolean;
  message(text: string, kind?: "bounds" | "exception"): number;
  format(f: PrintFormat): number;
  /** The source name of a global or shared array, for messages. */
  arrayName(e: Expr): string;
}

/**
 * The lowering of expressions (expressions.ts): the parts below it (places, calls, arrays) lower
 * the operands they hold through it, which keeps JS's left-to-right order for them too.
 */
export interface Lowering {
  /** Lower an expression; `used` is false in statement position (the value is discarded). */
  expr(e: UExpr, used?: boolean): Val;
  /** Lower `right` after `left`, spilling `left` where `right` emits statements that could change it. */
  operandAfter(left: Val, right: UExpr): Val;
  /** Lower one more operand, keeping every earlier one's evaluation before it. */
  operandAfterAll(earlier: Val[], next: UExpr): Val;
}

export class Pass {
  readonly fn: Function;
  /** The block statements are emitted to (a nested one while `capture` runs). */
  out: Block;
  readonly errors: InferError[] = [];
  /** Handles of runtime-library functions this function calls (they touch only the kernel state). */
  readonly runtimeCalls = new Set<number>();
  /** The value of what is not known (yet, or after an error): an `unknown` constant, handle 0. */
  readonly unknown: { k: "expr"; h: ExprHandle; t: Type };
  /** The expression lowering, set once the builder has made its parts. */
  lower!: Lowering;

  // Each untyped variable's binding in this pass.
  /** The variables' types after this pass (widened by each assignment; `varTypes` are the previous pass's). */
  readonly newVarTypes: Type[];
  /** IR local of each untyped variable (a parameter whose type widens gets a separate body local). */
  readonly localOf: LocalHandle[] = [];
  readonly aliases = new Map<number, ExprHandle>(); // const array aliases: var → array expression
  /** Views bound to const variables or received as parameters: var → the view (its offset and length are constants or local reads). */
  readonly viewAliases = new Map<number, ViewVal>();
  /**
   * Array variables the function assigns (`a = a.subarray(k)`: CUDA's pointer bump): each is a
   * view of its array whose offset and length are locals, set by each assignment.
   */
  readonly rebindable = new Map<number, { off: LocalHandle; len: LocalHandle; base: ExprHandle }>();
  /** The variables the function's body assigns with `=` (set before the body is built). */
  rebound = new Set<number>();
  /** What each const scalar local was declared with (the sizes of shared arrays may be computed through one). */
  readonly constInits = new Map<LocalHandle, Val>();
  /** Rows bound to const variables (`const row = t[y]`): var → the row. */
  readonly rowAliases = new Map<number, Extract<Val, { k: "row" }>>();
  /**
   * Arrays of objects (parameters, shared and private ones): var → their fields' arrays (in field
   * order), each read anew at each use.
   */
  readonly structVars = new Map<number, { t: StructsType; leaves: () => ExprHandle[] }>();
  /** `shared(Array, n)` and `new Array(n)` whose objects' shape this pass learns from the stores (the previous pass's type is unknown). */
  readonly pendingStructs = new Set<number>();
  /** Leaf locals of variables holding aggregates (of their types of this pass). */
  readonly aggLeaves = new Map<number, Leaves>();
  /** A variable holding a function value that captured locals: their values (re-read at each use: Places.readVar). */
  readonly fnEnvs = new Map<number, Val[]>();
  /** Variables whose declaration failed (already reported): their uses report nothing more. */
  readonly poisoned = new Set<number>();
  /** Variables declared without a value that a read may find unassigned: the local saying whether each holds one (statements.ts, decl). */
  readonly definedFlags = new Map<number, LocalHandle>();

  /** Reads of variables and calls whose type is still unknown: errors if they remain at the fixed point. */
  readonly unknownReads: { v: number; span: Span }[] = [];
  readonly unknownCalls: { name: string; span: Span }[] = [];
  /** Inside a switch's case (barriers and subgroup operations are refused there). */
  switchDepth = 0;

  constructor(
    readonly ufn: UFunction,
    readonly kind: "kernel" | "helper" | "runtime",
    readonly argTypes: Type[],
    readonly varTypes: Type[],
    /** The return type the previous pass found (`unknown` at first). */
    readonly returnType: Type,
    readonly ctx: ModuleContext,
    readonly frames: FrameSite[],
  ) {
    this.fn = {
      name: ufn.name, kind, params: [], locals: [], exprs: [], body: [], returnType: T.void,
      loc: this.loc(ufn.span), paramNames: ufn.params.map((p) => ufn.vars[p].name), stateParam: null,
    };
    this.out = this.fn.body;
    this.unknown = { k: "expr", h: this.add({ k: "const", value: 0, type: T.unknown, loc: null }), t: T.unknown };
    this.newVarTypes = varTypes.slice();
  }

  // ---- arenas --------------------------------------------------------------------------------

  add(e: Expr): ExprHandle {
    this.fn.exprs.push(e);
    return (this.fn.exprs.length - 1) as ExprHandle;
  }
  newLocal(name: string, type: Type): LocalHandle {
    this.fn.locals.push({ name, type });
    return (this.fn.locals.length - 1) as LocalHandle;
  }
  temp(type: Type): LocalHandle { return this.newLocal("tmp", type); }
  emit(s: Stmt): void {
    this.out.push(s);
    if (s.k === "set") this.invalidateChecks(s.local);
    else if (stmtResult(s) !== null) this.invalidateChecks(stmtResult(s)!);
  }
  loc(span: Span | null): Loc | null { return span ? { src: this.ufn.source, at: span.start, fn: this.ufn.name } : null; }
  read(l: LocalHandle, span: Span | null = null): ExprHandle {
    return this.add({ k: "local", local: l, type: this.fn.locals[l].type, loc: this.loc(span) });
  }
  constant(value: number | boolean, t: ScalarType, span: Span | null): ExprHandle {
    return this.add({ k: "const", value: wrapValue(t.scalar, value), type: t, loc: this.loc(span) });
  }
  /** Capture the statements a nested lowering emits. */
  capture(f: () => void, loop = false): Block {
    const saved = this.out;
    const block: Block = [];
    this.out = block;
    this.checks.push({ keys: new Set(), byIndex: new Map(), loop });
    try { f(); } finally { this.out = saved; this.checks.pop(); }
    return block;
  }
  /**
   * Lower code that never runs (a branch whose condition is a constant): what it reports is
   * dropped, as JavaScript never evaluates it. Returns f's result and whether it reported any.
   */
  quietly<R>(f: () => R): [R, boolean] {
    const errors = this.errors.length, reads = this.unknownReads.length, calls = this.unknownCalls.length;
    const r = f();
    const failed = this.errors.length > errors || this.unknownReads.length > reads || this.unknownCalls.length > calls;
    this.errors.length = errors; this.unknownReads.length = reads; this.unknownCalls.length = calls;
    return [r, failed];
  }
  captureVal(f: () => Val): [Block, Val] {
    let v: Val = this.unknown;
    const block = this.capture(() => { v = f(); });
    return [block, v as Val];
  }

  // ---- checks --------------------------------------------------------------------------------

  /**
   * Bounds checks already done on the way here, per nested block: an access of the same array
   * at the same index local (or constant) needs no second check until that local is assigned.
   * A loop body starts afresh (its next iteration may follow an assignment later in the body).
   */
  private checks: { keys: Set<string>; byIndex: Map<number, string[]>; loop: boolean }[] = [{ keys: new Set(), byIndex: new Map(), loop: false }];

  /** A check done in the current block (its key from checkKey), until its index local is assigned. */
  noteChecked(key: string): void {
    const scope = this.checks[this.checks.length - 1];
    scope.keys.add(key);
    const m = /\|l(\d+)$/.exec(key);
    if (!m) return;
    const local = Number(m[1]), list = scope.byIndex.get(local);
    if (list) list.push(key); else scope.byIndex.set(local, [key]);
  }

  alreadyChecked(key: string): boolean {
    for (let i = this.checks.length - 1; i >= 0; i--) {
      if (this.checks[i].keys.has(key)) return true;
      if (this.checks[i].loop) return false;
    }
    return false;
  }

  /** (Keys by index local: an assignment costs what it invalidates, not every check made so far.) */
  private invalidateChecks(local: number): void {
    for (const c of this.checks) {
      const keys = c.byIndex.get(local);
      if (!keys) continue;
      for (const k of keys) c.keys.delete(k);
      c.byIndex.delete(local);
    }
  }

  /** "array|index" for an access whose array and index are plain (a local, global, shared array; a local or constant index). */
  checkKey(array: ExprHandle, index: ExprHandle): string | null {
    const a = this.fn.exprs[array], i = this.fn.exprs[index];
    const ak = a.k === "local" ? `L${a.local}` : a.k === "global" ? `G${a.global}` : a.k === "shared" ? `S${a.shared}` : null;
    const ik = i.k === "local" ? `l${i.local}` : i.k === "const" ? `c${String(i.value)}` : null;
    return ak && ik ? `${ak}|${ik}` : null;
  }

  /**
   * A check (ir/module.ts): where `cond` holds (always, when null), record exception `code` with
   * the operands `a`, `b` through the runtime library and end the thread. The report's message
   * and location follow the debug level (0: one message, no location).
   */
  raise(kind: CheckKind, cond: ExprHandle | null, code: number, span: Span, a: ExprHandle | null, b: ExprHandle | null): void {
    const level = this.ctx.options.debugLevel;
    const rt = this.ctx.runtime("gpuc_report_exception");
    const state = this.stateExpr();
    const codeH = this.constant(level === 0 ? this.ctx.message("an exception occurred in the kernel", kind === "bounds" ? "bounds" : "exception") : code, T.i32, span);
    const site = level === 0 ? this.constant(-1, T.i32, span) : this.add({ k: "location", site: this.loc(span)!, type: T.i32, loc: null });
    const aH = a ?? this.constant(0, T.i32, span), bH = b ?? this.constant(0, T.i32, span);
    if (level >= 2) this.ctx.runtime("gpuc_report_exception_frame");
    this.runtimeCalls.add(rt.handle);
    this.emit({ k: "check", kind, cond, report: rt.handle as FunctionHandle, state, code: codeH, site, a: aH, b: bH, loc: this.loc(span) });
  }

  stateExpr(): ExprHandle {
    if (this.fn.stateParam === null) throw new InternalCompilerError(`'${this.ufn.name}' uses the kernel state but was not given it`);
    return this.read(this.fn.stateParam);
  }

  // ---- errors --------------------------------------------------------------------------------

  err(kind: CompileErrorKind, message: string, span: Span, hint?: string): void {
    this.errors.push({ kind, message, span, hint });
  }
  error(kind: CompileErrorKind, message: string, span: Span, hint?: string): Val {
    this.err(kind, message, span, hint);
    return this.unknown;
  }
}
