// The typed IR: a module of functions, each with arenas of locals and expressions, and a body of
// structured statements.
//
// Invariants (checked by validate.ts, relied on by every pass and back end):
//  1. Expressions are side-effect free and form trees: each expression handle is used by exactly
//     one parent (a statement or another expression) and is evaluated where that parent is.
//     Side effects (assignments, stores, calls) are statements.
//  2. Every expression's `type` is the type its kind and operands give (see ops.ts); no type is
//     `unknown`; `convert` goes between two different scalar types.
//  3. A `set` writes a value of the local's type; a `store` writes a value of the array's element
//     type to a writable array (global, private or shared, never constant), at an i32/u32 index.
//     Narrow elements (i8, u8, u8c, i16, u16) are loaded and stored as i32: a load sign- or
//     zero-extends, a store keeps the value's low 8 or 16 bits (inference has clamped a u8c value).
//  4. `break` and `continue` appear only inside a loop (break also inside a switch); a loop's
//     `breakIf`, evaluated after `continuing`, ends the loop when true.
//  5. `return` carries a value exactly when the function's return type is not void; kernels
//     return void. A function whose return type is not void never falls off its end.
//  6. A call passes arguments of the callee's parameter types and stores a non-void result in a
//     local of the callee's return type. A callee precedes its callers in `functions`, except
//     along a recursive cycle (which only targets with a call stack accept).
//  7. Array-typed locals are parameters or private arrays; they are never assigned. A private
//     array (a local of a `private` array type) is zero-filled by an `init` statement where it
//     is declared. Shared arrays are module-level (`Module.shared`), one per block.
//  8. `select` evaluates only the chosen operand; `land`/`lor` evaluate the right operand only
//     when needed (so a guarded load is never executed when its guard is false).
//  9. `barrier` and `subgroup` appear only in kernels (helpers containing one are inlined
//     first), never inside a `switch`. `atomic` works on i32/u32 arrays (and f32 for add), and on narrow integer
//     arrays but u8c (not min/max), that are global or shared; its operands are of the element
//     type (i32 for narrow elements; compareExchange's expected value narrowed as the element
//     reads back). `trap` ends the thread; control never
//     continues after it.

import type { OpName } from "./ops.js";
import type { Type, ArrayType } from "./types.js";
import type { SizeExpr } from "./size.js";

export type ExprHandle = number & { readonly __brand: "expr" };
export type LocalHandle = number & { readonly __brand: "local" };
export type FunctionHandle = number & { readonly __brand: "function" };
export type GlobalHandle = number & { readonly __brand: "global" };
type SharedHandle = number & { readonly __brand: "shared" };

/** Where source came from; resolved to file:line:col only when printed or reported. */
interface SourceRef { readonly name: string; locate(offset: number): { file: string; line: number; column: number } }
/** A source position; `inlinedAt` is the call site it was inlined through (for exception call chains). */
export interface Loc { readonly src: SourceRef; readonly at: number; readonly inlinedAt?: Loc; readonly fn?: string }

export type Builtin =
  | "threadIdx.x" | "threadIdx.y" | "threadIdx.z" | "blockIdx.x" | "blockIdx.y" | "blockIdx.z"
  | "blockDim.x" | "blockDim.y" | "blockDim.z" | "gridDim.x" | "gridDim.y" | "gridDim.z"
  /** subgroupSize(): the threads per subgroup (warp); subgroupLaneId(): this thread's index in its subgroup. */
  | "subgroupSize" | "subgroupLaneId";

/** Whether a builtin differs between the threads of a block (the others are the same for all of them). */
export function threadVarying(name: Builtin): boolean {
  return name.startsWith("threadIdx") || name === "subgroupLaneId";
}

export type Expr = { type: Type; loc: Loc | null } & (
  | { k: "const"; value: number | boolean }
  | { k: "local"; local: LocalHandle }
  | { k: "global"; global: GlobalHandle }
  | { k: "builtin"; name: Builtin }
  | { k: "op"; op: OpName; args: ExprHandle[] }
  /** Conversion to `type` with JS semantics: ToInt32/ToUint32 for integers, truthiness for bool. */
  | { k: "convert"; arg: ExprHandle }
  | { k: "select"; cond: ExprHandle; a: ExprHandle; b: ExprHandle }
  | { k: "load"; array: ExprHandle; index: ExprHandle }
  | { k: "length"; array: ExprHandle }
  | { k: "shared"; shared: SharedHandle }
  /** The id of a source location in the artifact's location table (i32), for exception records. */
  | { k: "location"; site: Loc }
  /**
   * Where element `index` of a narrow array sits in the 32-bit word that holds it: its lowest
   * bit's offset in the word (i32: 0, 8, 16 or 24). Only passes/cas-loops.ts makes it.
   */
  | { k: "bitOffset"; array: ExprHandle; index: ExprHandle }
);

/**
 * Operations of `subgroup` statements (the threads of a subgroup that reach one exchange values):
 * shuffles read `args[0]` of another lane — `shuffle` lane `args[1]` mod the subgroup size,
 * `shuffleDown`/`shuffleUp` lane ± `args[1]`, `shuffleXor` lane ^ `args[1]` (a u32), the reader's
 * own value where that lane is outside the subgroup or did not take part; `add`/`min`/`max` combine
 * `args[0]` of every lane taking part (in lane order where it matters: floats on the CPU), `any`/
 * `all` their bools, `ballot` gives a u32 with bit i set where lane i's bool is true. `barrier`
 * (subgroupBarrier(), CUDA's __syncwarp()) is a meeting of the lanes and nothing else: its
 * operand is `true` and its result (true) unused; the lanes' memory accesses before it are seen by
 * the others after it.
 */
export type SubgroupOp = "shuffle" | "shuffleDown" | "shuffleUp" | "shuffleXor" | "add" | "min" | "max" | "any" | "all" | "ballot" | "barrier";

/**
 * Read-modify-write operations of `atomic` statements; each gives the element's old value, except
 * `store`, which gives its operand (as JavaScript's Atomics.store returns its value, not the
 * element's). `inc` and `dec` are CUDA's atomicInc/atomicDec on 32-bit integers, compared as
 * unsigned: inc makes `old >= limit ? 0 : old + 1`, dec `old == 0 || old > limit ? limit : old - 1`.
 */
export type AtomicOp = "add" | "sub" | "and" | "or" | "xor" | "min" | "max" | "exchange" | "compareExchange" | "load" | "store" | "inc" | "dec";

export type Block = Stmt[];

export interface SwitchCase {
  /** Integer case values; empty with `isDefault`. */
  values: number[];
  isDefault: boolean;
  body: Block;
  /** Control reaches the next case's body when this one completes (JS semantics without `break`). */
  fallthrough: boolean;
}

export type Stmt = { loc: Loc | null } & (
  | { k: "set"; local: LocalHandle; value: ExprHandle }
  | { k: "store"; array: ExprHandle; index: ExprHandle; value: ExprHandle }
  /** `frame`: this call site, recorded in an exception's call chain when a trap passes through it (debug level 2). */
  | { k: "call"; fn: FunctionHandle; args: ExprHandle[]; result: LocalHandle | null; frame?: Loc }
  | { k: "if"; cond: ExprHandle; then: Block; else: Block }
  | { k: "loop"; body: Block; continuing: Block; breakIf: ExprHandle | null }
  | { k: "switch"; selector: ExprHandle; cases: SwitchCase[] }
  | { k: "break" }
  | { k: "continue" }
  | { k: "return"; value: ExprHandle | null }
  /**
   * Every thread of the block waits here for the others (syncthreads). `anchor`: what follows it,
   * up to the next barrier, holds a loop or a statement holding a barrier (passes/barrier-regions.ts
   * marks it where the back end needs to know: OpenCL C on PoCL).
   */
  | { k: "barrier"; anchor?: true }
  /**
   * A memory fence (CUDA's __threadfence, __threadfence_block): the thread's memory accesses
   * before it are seen by the other threads of its `scope` (the whole device, or its block) before
   * its accesses after it. Orders; does not wait for anyone.
   */
  | { k: "fence"; scope: "device" | "block" }
  /**
   * `array[index] op= args…` as one indivisible step; the old value goes to `result`. compareExchange takes [expected, replacement].
   * With `word` (made only by passes/cas-loops.ts, op load or compareExchange): the step is on the
   * 32-bit word that holds the element (a narrow or f32 array's), its bits as an i32; the
   * compare-exchange never fails spuriously (it fails only where the word differs).
   */
  | { k: "atomic"; op: AtomicOp; array: ExprHandle; index: ExprHandle; args: ExprHandle[]; result: LocalHandle | null; word?: true }
  /**
   * A subgroup operation (see SubgroupOp): the threads of the subgroup meet here, like a barrier
   * of the subgroup; the result goes to `result`.
   */
  | { k: "subgroup"; op: SubgroupOp; args: ExprHandle[]; result: LocalHandle }
  /** Zero-fill a private array local (its declaration). */
  | { k: "init"; local: LocalHandle }
  /** End this thread: an exception was recorded by the runtime library. */
  | { k: "trap" }
  /**
   * A check: where `cond` holds (always, when it is null) the thread raises an exception and
   * ends — the runtime library's `report` function (gpuc_report_exception) records message
   * `code`, location `site` and the operands `a`, `b` in the kernel `state`, then the thread
   * traps. `kind` says what is checked:
   *  - "bounds": an array access; cond is `u32(index) >= u32(length)`, a the index and b the
   *    length (i32);
   *  - "throw": a user `throw`; cond null, a and b 0.
   * Passes see checks as what they are (ARCHITECTURE.md, "The kernel state and the runtime
   * library"): a pass may drop one only where it proves `cond` false, and move one only so that the
   * first failure reported stays the one plain JavaScript reports (passes/hoist-checks.ts,
   * passes/ranges.ts). A check with a null cond ends its block like a trap. Just before emission,
   * passes/lower-checks.ts spells each one as `if (cond) { call report(state, code, site, a, b);
   * trap }`.
   */
  | { k: "check"; kind: CheckKind; cond: ExprHandle | null; report: FunctionHandle; state: ExprHandle; code: ExprHandle; site: ExprHandle; a: ExprHandle; b: ExprHandle }
);

export type CheckKind = "bounds" | "throw";

export interface Local { name: string; type: Type }

export interface Function {
  name: string;
  kind: "kernel" | "helper" | "runtime";
  /** Parameter locals, in order. */
  params: LocalHandle[];
  locals: Local[];
  exprs: Expr[];
  body: Block;
  returnType: Type;
  loc: Loc | null;
  /** Source name of each parameter as the user wrote it (kernel parameter names are part of the artifact). */
  paramNames: string[];
  /**
   * The kernel state (an i32 array, see runtime/state.ts), an implicit first parameter of the
   * kernel and of each helper that uses it; calls pass the caller's own. Runtime functions take
   * the state as an ordinary parameter instead.
   */
  stateParam: LocalHandle | null;
}

/**
 * A module-level constant array (a typed array captured from `scope`): a relocation site later.
 * `rewritable`: the host may replace its values between launches (`kernel.setTable`), so no pass
 * reads them (a load from it is never folded).
 */
export interface Global { name: string; type: ArrayType; value: Float32Array | Float64Array | Int32Array | Uint32Array; rewritable?: boolean }

/**
 * A shared-memory array: one per block, visible to every thread of the block. Its type has a
 * constant size, or none and a `size` the loader evaluates at each launch (a dynamic shared
 * array, `shared(Float32Array, n)`: its length is the `length` expression). `placed`: where the
 * kernel computes such an array's length and byte offset itself (passes/launch-sizes.ts), the
 * entry function's locals that hold them.
 */
export interface Shared { name: string; type: ArrayType; size?: SizeExpr; placed?: { length: LocalHandle; offset: LocalHandle } }

export interface Message { text: string; kind: "bounds" | "exception" }

/**
 * A piece of a print format: literal text, written after a `'` (so that no text reads as a type),
 * or the type of the record's next value, printed as console.log prints it ("f32") or, from a
 * template literal, as String() writes it ("f32s", "f64s": -0 is "0").
 */
export type PrintPart = `'${string}` | "i32" | "u32" | "bool" | "f32" | "f64" | "f32s" | "f64s";

/** One `console.log` call site: its pieces, in order, concatenated when a record is printed (the spaces between arguments are text). */
export interface PrintFormat { parts: PrintPart[]; loc: Loc | null }

/** The words of a print record that a piece's value takes: an f64 two, an i32, u32, bool or f32 one, text none. */
export function printPartWords(p: string): number {
  return p === "f64" || p === "f64s" ? 2 : p === "i32" || p === "u32" || p === "bool" || p === "f32" || p === "f32s" ? 1 : 0;
}

export interface Module {
  name: string;
  /** The debug level the module was compiled at (what exception records carry). */
  debugLevel: 0 | 1 | 2;
  /** Whether inference wrote a check before each array access it could not prove in bounds (the `boundsCheck` option). */
  boundsCheck: boolean;
  functions: Function[];
  entry: FunctionHandle;
  globals: Global[];
  shared: Shared[];
  /** Exception messages; exception code = index + 1. `{0}`/`{1}` take the record's payload (`{0u}` a u32, `{0f}` an f32's bits, `{0b}` a boolean); `{{` and `}}` are braces (runtime/host.ts). */
  messages: Message[];
  formats: PrintFormat[];
  /** Global names the code resolved through the method table (an overlay of one of them invalidates it). */
  methodsUsed: string[];
  /** The target whose legality table the module was rewritten for (passes/legalize.ts), once it was. */
  legalizedFor?: string;
  /**
   * The table elements folded into constants (passes/fold.ts): by table name, each index with the
   * value folded. The code depends on them (the manifest's `folded`; a launch checks that the
   * tables still hold them).
   */
  folded?: Map<string, Map<number, number>>;
}

/**
 * Rebuild a block tree, children first: each statement's nested blocks (if, loop, switch) are
 * rewritten, then `f` gets the statement with its new blocks (a fresh object where a nested
 * block changed; the statement itself otherwise) and returns what replaces it — itself, several
 * statements, or none. A block nothing changed in is returned as it is (the same array), so a
 * pass that changes little allocates little. The one rewriter the passes and back ends use.
 */
export function rewriteBlock(block: Block, f: (s: Stmt) => Stmt | Stmt[]): Block {
  let out: Block | null = null;
  for (let i = 0; i < block.length; i++) {
    const s = block[i];
    let t: Stmt = s;
    switch (s.k) {
      case "if": {
        const then = rewriteBlock(s.then, f), els = rewriteBlock(s.else, f);
        if (then !== s.then || els !== s.else) t = { ...s, then, else: els };
        break;
      }
      case "loop": {
        const body = rewriteBlock(s.body, f), continuing = rewriteBlock(s.continuing, f);
        if (body !== s.body || continuing !== s.continuing) t = { ...s, body, continuing };
        break;
      }
      case "switch": {
        const bodies = s.cases.map((c) => rewriteBlock(c.body, f));
        if (bodies.some((b, j) => b !== s.cases[j].body)) t = { ...s, cases: s.cases.map((c, j) => ({ ...c, body: bodies[j] })) };
        break;
      }
      default: break;
    }
    const r = f(t);
    if (out === null) {
      if (r === s) continue;
      out = block.slice(0, i);
    }
    if (Array.isArray(r)) out.push(...r); else out.push(r);
  }
  return out ?? block;
}

/** The blocks a statement holds, in execution order of their first statements (then, else; body, continuing; the cases). */
export function childBlocks(s: Stmt): Block[] {
  switch (s.k) {
    case "if": return [s.then, s.else];
    case "loop": return [s.body, s.continuing];
    case "switch": return s.cases.map((c) => c.body);
    default: return [];
  }
}

/** Visit every statement of a block tree, depth first (parents before children). (No childBlocks: no array per statement on the compiler's most walked path.) */
export function walkStmts(block: Block, f: (s: Stmt) => void): void {
  for (const s of block) {
    f(s);
    switch (s.k) {
      case "if": walkStmts(s.then, f); walkStmts(s.else, f); break;
      case "loop": walkStmts(s.body, f); walkStmts(s.continuing, f); break;
      case "switch": for (const c of s.cases) walkStmts(c.body, f); break;
      default: break;
    }
  }
}

/** The expression handles a statement uses directly. */
export function stmtOperands(s: Stmt): ExprHandle[] {
  switch (s.k) {
    case "set": return [s.value];
    case "store": return [s.array, s.index, s.value];
    case "call": return s.args;
    case "if": return [s.cond];
    case "loop": return s.breakIf === null ? [] : [s.breakIf];
    case "switch": return [s.selector];
    case "return": return s.value === null ? [] : [s.value];
    case "atomic": return [s.array, s.index, ...s.args];
    case "subgroup": return s.args;
    case "break": case "continue": case "barrier": case "fence": case "init": case "trap": return [];
    case "check": return s.cond === null ? [s.state, s.code, s.site, s.a, s.b] : [s.cond, s.state, s.code, s.site, s.a, s.b];
  }
}

/** The local a call, an atomic or a subgroup operation writes its result to, if any (`set` and `init` name theirs as `local`). */
export function stmtResult(s: Stmt): LocalHandle | null {
  return s.k === "call" || s.k === "atomic" || s.k === "subgroup" ? s.result : null;
}

/** The local a statement assigns (a set, an init, a call's, atomic's or subgroup operation's result), or null. */
export function assignedLocal(s: Stmt): LocalHandle | null {
  return s.k === "set" || s.k === "init" ? s.local : stmtResult(s);
}

/** Whether control never goes past a statement in its block: a jump, a trap, an unconditional check. */
export function endsBlock(s: Stmt): boolean {
  return s.k === "return" || s.k === "break" || s.k === "continue" || s.k === "trap" || (s.k === "check" && s.cond === null);
}

/** The expression handles an expression uses directly. */
export function exprOperands(e: Expr): ExprHandle[] {
  switch (e.k) {
    case "const": case "local": case "global": case "builtin": case "shared": case "location": return [];
    case "op": return e.args;
    case "convert": return [e.arg];
    case "select": return [e.cond, e.a, e.b];
    case "load": return [e.array, e.index];
    case "length": return [e.array];
    case "bitOffset": return [e.array, e.index];
  }
}

/** A copy of a function that passes can mutate without touching the original (caches keep originals). */
export function copyFunction(f: Function): Function {
  const block = (b: Block): Block => b.map((st) => {
    switch (st.k) {
      case "if": return { ...st, then: block(st.then), else: block(st.else) };
      case "loop": return { ...st, body: block(st.body), continuing: block(st.continuing) };
      case "switch": return { ...st, cases: st.cases.map((c) => ({ ...c, values: [...c.values], body: block(c.body) })) };
      case "call": return { ...st, args: [...st.args] };
      case "atomic": case "subgroup": return { ...st, args: [...st.args] };
      default: return { ...st };
    }
  });
  return {
    ...f, params: [...f.params], locals: f.locals.map((l) => ({ ...l })), paramNames: [...f.paramNames], body: block(f.body),
    exprs: f.exprs.map((e) => (e.k === "op" ? { ...e, args: [...e.args] } : { ...e })),
  };
}

/** A copy of a module that passes can mutate (functions copied; values, locations and tables shared). */
export function copyModule(m: Module): Module {
  return {
    ...m, functions: m.functions.map(copyFunction), globals: m.globals.map((g) => ({ ...g })), shared: m.shared.map((x) => ({ ...x })),
    messages: m.messages.map((x) => ({ ...x })), formats: m.formats.map((f) => ({ ...f, parts: [...f.parts] })), methodsUsed: [...m.methodsUsed],
    folded: m.folded && new Map([...m.folded].map(([name, at]) => [name, new Map(at)])),
  };
}

/** The IR broke an invariant. Thrown by the validator and by back ends on IR they cannot handle. */
export class InvalidIRError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid IR:\n  ${problems.join("\n  ")}`);
    this.name = "InvalidIRError";
  }
}

export function assertNeverIR(x: never): never {
  throw new InvalidIRError([`unhandled IR node ${JSON.stringify((x as { k?: string }).k ?? x)}`]);
}
