// JS for one IR function: statements and expressions with the kernel language's exact semantics
// (Math.fround for f32, |0 and >>>0 for i32/u32 wrap-around). A kernel without barriers runs
// every thread of the grid in one tight loop nest (no closure call per thread).

import type { SizeExpr } from "../../ir/size.js";
import type { Block, Builtin, Expr, ExprHandle, Function, Loc, Module, Stmt } from "../../ir/module.js";
import { assertNeverIR, assignedLocal, exprOperands, rewriteBlock, stmtOperands, threadVarying, walkStmts } from "../../ir/module.js";
import { completesBlock } from "../../ir/module-info.js";
import { resultScalar } from "../../ir/ops.js";
import { JS_OPS } from "./ops.js";
import { formatNumber } from "../../ir/printer.js";
import { T, isArray, typeName, type Elem, type Scalar, type Type } from "../../ir/types.js";
import type { LocationTable } from "../locations.js";
import { InternalCompilerError } from "../../errors.js";
import { lowerCheck } from "../../ir/passes/lower-checks.js";
import { Namer, legalName, numbered, type NameRules } from "../names.js";
import { JS_RESERVED_WORDS } from "../../js-reserved.js";

/** Names generated code never gives a variable: JavaScript's reserved words, and the globals it uses. */
const RESERVED = new Set([...JS_RESERVED_WORDS, "undefined", "NaN", "Infinity", "Math", "Number", "Object", "globalThis"]);

/** JS variable names of the builtins inside generated code. */
const BUILTIN_VARS: Record<Builtin, string> = {
  "threadIdx.x": "$tx", "threadIdx.y": "$ty", "threadIdx.z": "$tz",
  "blockIdx.x": "$bx", "blockIdx.y": "$by", "blockIdx.z": "$bz",
  "blockDim.x": "$dx", "blockDim.y": "$dy", "blockDim.z": "$dz",
  "gridDim.x": "$gx", "gridDim.y": "$gy", "gridDim.z": "$gz",
  subgroupSize: "$S", subgroupLaneId: "$lane",
};
/**
 * A kernel's parameters after its own: the grid, then the range of linear block indices to run,
 * `$b0` to `$b1` (bx fastest, then by, then bz). The CPU device leaves the range out (the whole
 * grid); its worker threads pass a range each (devices/cpu-workers.ts).
 */
export const GRID_PARAMS = ["$gx", "$gy", "$gz", "$dx", "$dy", "$dz", "$b0", "$b1"];

/** The sanitizer's thread order, read once per launch (the loops of sanitized code test it). */
export const SAN_ORDER = "const $rev = $san.rev;";

/** The whole grid when no block range is given; the first block's coordinates (divisions only for a range). */
export const BLOCK_RANGE_DEFAULT = "let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }";

/**
 * The loop over blocks `$b0` to `$b1` around `body` (lines at depth `d + 1`): blockIdx counted
 * along with the linear index, so a block costs a compare and an increment, as nested loops did.
 */
export function blockLoop(d: number, body: string[], sanitize = false): string[] {
  const pad = "  ".repeat(d);
  // The sanitizer's: the blocks in either order ($san.rev: last first), each announced.
  if (sanitize) return [
    `${pad}for (let $bi = $b0; $bi < $b1; $bi++) {`,
    `${pad}  const $b = $rev ? $b1 - 1 - ($bi - $b0) : $bi, $bx = $b % $gx, $by = Math.floor($b / $gx) % $gy, $bz = Math.floor(Math.floor($b / $gx) / $gy);`,
    `${pad}  $san.b($b);`,
    ...body,
    `${pad}}`,
  ];
  return [
    `${pad}for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {`,
    ...body,
    `${pad}  if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }`,
    `${pad}}`,
  ];
}

export const TYPED_ARRAY: Record<Elem, string> = {
  bool: "Uint8Array", i32: "Int32Array", u32: "Uint32Array", f32: "Float32Array", f64: "Float64Array",
  i8: "Int8Array", u8: "Uint8Array", u8c: "Uint8ClampedArray", i16: "Int16Array", u16: "Uint16Array",
};

/** What every function emitter shares: the module and the names of its functions, globals and shared arrays. */
export interface ModuleNames {
  m: Module;
  /**
   * `fastMath`: f32 arithmetic is carried in f64 between stores (a JS engine has no f32
   * arithmetic; rounding every result with Math.fround puts two conversions on each step of a
   * dependency chain). Stores to f32 arrays and explicit conversions still round.
   */
  fastMath: boolean;
  fnNames: string[];
  globals: string[];
  shared: string[];
  builtins: Builtin[][];
  /** Functions that may end in a trap (directly or through a callee). */
  mayTrap: boolean[];
  /** The runtime function recording call-chain frames, when linked (debug level 2). */
  frameFn: number;
  /** The artifact's location table, filled as the code refers to locations. */
  locations: LocationTable;
  /**
   * The `sanitize` feature: every access of a global or shared array goes through the CPU device's
   * sanitizer (`$san`, devices/cpu-sanitizer.ts), as do blocks, threads, barriers, subgroup
   * operations and fences; `sanSites` lists the accesses (the array's name there, the location id,
   * read, write or atomic), which the code carries as `$sanSites`.
   */
  sanitize: boolean;
  sanSites: SanSite[];
}

/** One access the sanitizer checks: the array's name where the code accesses it, its location id, what it does. */
export interface SanSite { name: string; loc: number; access: "read" | "write" | "atomic"; own?: true }

/** JavaScript names: `$` starts gpuc's own names, so a source name may not start with one. */
const JS_NAMES: NameRules = { invalid: /[^A-Za-z0-9_$]/g, badStart: (n) => /^[0-9$]/.test(n), prefix: "_", reserved: RESERVED };

export function sanitize(name: string): string {
  return legalName(name, JS_NAMES);
}

export class FunctionEmitter {
  /** JS expression that reads / writes each local. */
  protected reads: string[] = [];
  protected writes: string[] = [];
  protected lines: string[] = [];
  private loopLabels = 0;
  /** For each enclosing loop: the label to `break` for an IR `continue`, or null when JS `continue` is right. */
  protected continueTargets: (string | null)[] = [];
  protected isKernel: boolean;
  protected state: string | null;
  protected f: Function;

  constructor(protected names: ModuleNames, f: Function, protected index: number) {
    this.f = f;
    this.isKernel = index === names.m.entry;
    const locals = new Namer(numbered);
    f.locals.forEach((l, i) => {
      const n = locals.take(i === f.stateParam ? "$state" : sanitize(l.name));
      this.reads[i] = n;
      this.writes[i] = n;
    });
    this.state = f.stateParam === null ? null : this.reads[f.stateParam];
  }

  /** Parameters in order: the kernel state first when the function takes it. */
  protected paramList(): string[] {
    const f = this.f;
    return [...(f.stateParam !== null ? ["$state"] : []), ...f.params.map((p) => this.reads[p])];
  }

  /** Declarations of the non-parameter locals: scalars as `let`, private arrays allocated once. */
  protected declarations(include: (local: number) => boolean = () => true): string[] {
    const f = this.f;
    const scalars: string[] = [];
    const arrays: string[] = [];
    f.locals.forEach((l, i) => {
      if (f.params.includes(i as never) || i === f.stateParam || !include(i)) return;
      if (isArray(l.type)) arrays.push(`const ${this.reads[i]} = new ${TYPED_ARRAY[l.type.elem]}(${l.type.size});`);
      else scalars.push(`${this.reads[i]} = ${zero(l.type)}`);
    });
    return [...arrays, ...(scalars.length ? [`let ${scalars.join(", ")};`] : [])];
  }

  emit(): string {
    const f = this.f;
    const extra = this.isKernel ? GRID_PARAMS : this.names.builtins[this.index].map((b) => BUILTIN_VARS[b]);
    const head = `function ${this.names.fnNames[this.index]}(${[...this.paramList(), ...extra].join(", ")}) {`;
    if (!this.isKernel) {
      for (const d of this.declarations()) this.lines.push("  " + d);
      this.block(f.body, 1);
      return [head, ...this.lines, "}"].join("\n");
    }
    // The kernel: every thread of every block, in order, in one loop nest.
    const decls = this.declarations();
    const arrays = decls.filter((d) => d.startsWith("const "));
    const lets = decls.filter((d) => d.startsWith("let "));
    /** The thread loops (z, y, x up to `txEnd`) around a body. */
    const threads = (body: Block, txEnd: string, d: number): string[] => {
      this.lines = [];
      this.block(body, d + 1);
      const pad = "  ".repeat(d), label = hasReturn(body) ? "$thread: " : "";
      return [
        ...(this.names.sanitize
          ? [...sanThreadLoops(pad, txEnd, label), `${pad}  $san.t_(($tz * $dy + $ty) * $dx + $tx);`]
          : [`${pad}for (let $tz = 0; $tz < $dz; $tz++)`, `${pad}for (let $ty = 0; $ty < $dy; $ty++)`, `${pad}${label}for (let $tx = 0; $tx < ${txEnd}; $tx++) {`]),
        ...lets.map((l) => `${pad}  ${l}`),
        ...this.lines,
        `${pad}}`,
      ];
    };
    const guard = this.names.sanitize ? null : guardedRange(f);
    let loops: string[];
    if (guard) {
      // The threads past the guard's bound do nothing: the x loop stops there instead of testing
      // each one. Exact while blockIdx.x * blockDim.x + threadIdx.x cannot wrap around i32.
      const bound = stripParens(this.expr(guard.bound));
      const perBlock: string[] = [`      const $txEnd = Math.min($dx, ${bound} - $bx * $dx);`];
      if (guard.checkedArrays.length) {
        // Accesses at exactly the guarded index are checked once per block, for the whole range
        // of its threads; the per-thread checks remain only in the fallback.
        const fits = guard.checkedArrays.map((a) => `$bx * $dx + $txEnd <= ${this.expr(a)}.length`).join(" && ");
        perBlock.push(`      if (${fits}) {`, ...threads(guard.uncheckedBody, "$txEnd", 4), "      } else {", ...threads(guard.body, "$txEnd", 4), "      }");
      } else perBlock.push(...threads(guard.body, "$txEnd", 3));
      loops = [
        "  if ($gx * $dx <= 2147483648) {",
        ...blockLoop(2, perBlock),
        "  } else {",
        ...blockLoop(2, threads(f.body, "$dx", 3)),
        "  }",
      ];
    } else loops = blockLoop(1, threads(f.body, "$dx", 2), this.names.sanitize);
    return [head, `  ${BLOCK_RANGE_DEFAULT}`, ...(this.names.sanitize ? [`  ${SAN_ORDER}`] : []), ...this.sharedAllocations().map((l) => "  " + l), ...arrays.map((l) => "  " + l), ...loops, "}"].join("\n");
  }

  /** Shared arrays live for the launch; CUDA leaves them uninitialized per block, gpuc zero-fills them once. */
  protected sharedAllocations(): string[] {
    const out = this.names.m.shared.map((s, i) => `const ${this.names.shared[i]} = new ${TYPED_ARRAY[s.type.elem]}(${s.size ? this.sizeJS(s.size) : s.type.size});`);
    if (this.names.sanitize) this.names.m.shared.forEach((s, i) => out.push(`$san.sh(${this.names.shared[i]}, ${JSON.stringify(s.name)});`));
    return out;
  }

  /**
   * The sanitizer's site of an access of `array` at `loc`, where the sanitizer checks it: arrays
   * of global and shared memory in the program's own functions (not the runtime library's, nor
   * the kernel state). Private arrays are a thread's own; constant tables are only read.
   */
  protected sanSite(array: ExprHandle, loc: Loc | null, access: SanSite["access"]): number | null {
    if (!this.names.sanitize || this.f.kind === "runtime") return null;
    const e = this.f.exprs[array];
    if (!isArray(e.type) || (e.type.space !== "global" && e.type.space !== "shared")) return null;
    if (e.k === "local" && e.local === this.f.stateParam) return null;
    const name = e.k === "local" ? this.f.locals[e.local].name : e.k === "shared" ? this.names.m.shared[e.shared].name : "an array";
    this.ownParams ??= this.isKernel ? ownIndexParams(this.f) : new Set();
    const own = e.k === "local" && this.ownParams.has(e.local);
    this.names.sanSites.push({ name, loc: this.names.locations.id(loc), access, ...(own ? { own: true as const } : {}) });
    return this.names.sanSites.length - 1;
  }
  private ownParams: Set<number> | null = null;

  /** A launch-time size in JS, with the kernel's i32 meaning (the device checked it is at least 1). */
  private sizeJS(e: SizeExpr): string {
    switch (e.k) {
      case "param": return `(${this.reads[this.f.params[e.index]]} | 0)`;
      case "blockDim": return ["$dx", "$dy", "$dz"][e.axis];
      case "const": return String(e.value | 0);
      case "select": {
        const cmp = { lt: "<", le: "<=", gt: ">", ge: ">=", eq: "===", ne: "!==" }[e.cmp];
        return `(${this.sizeJS(e.args[0])} ${cmp} ${this.sizeJS(e.args[1])} ? ${this.sizeJS(e.a)} : ${this.sizeJS(e.b)})`;
      }
      case "op": {
        const [a, b] = e.args.map((x) => this.sizeJS(x));
        switch (e.op) {
          case "add": return `((${a} + ${b}) | 0)`;
          case "sub": return `((${a} - ${b}) | 0)`;
          case "mul": return `Math.imul(${a}, ${b})`;
          case "div": return `(${b} === 0 ? 0 : (${a} / ${b}) | 0)`;
          case "rem": return `(${b} === 0 ? 0 : (${a} % ${b}) | 0)`;
          case "shl": return `(${a} << ${b})`;
          case "shr": return `(${a} >> ${b})`;
          case "and": return `(${a} & ${b})`;
          case "or": return `(${a} | ${b})`;
          case "min": case "max": return `Math.${e.op}(${a}, ${b})`;
        }
      }
    }
  }

  protected line(depth: number, text: string): void { this.lines.push("  ".repeat(depth) + text); }

  block(b: Block, depth: number): void {
    for (const s of b) this.stmt(s, depth);
  }

  /** What an IR `return` does in the kernel (ends the thread). */
  protected kernelReturn(): string { return "continue $thread;"; }

  protected stmt(s: Stmt, d: number): void {
    switch (s.k) {
      case "set": this.line(d, `${this.writes[s.local]} = ${stripParens(this.expr(s.value))};`); return;
      case "store": {
        const site = this.sanSite(s.array, s.loc, "write");
        // (The sanitizer's call gives the index back and keeps the value, evaluated before the
        // check as in JavaScript's order: the element access stays the code's own.)
        if (site !== null) this.line(d, `${this.expr(s.array)}[$san.w(${this.expr(s.array)}, ${stripParens(this.expr(s.index))}, ${site}, ${stripParens(this.expr(s.value))})] = $san.v;`);
        else this.line(d, `${this.expr(s.array)}[${stripParens(this.expr(s.index))}] = ${stripParens(this.expr(s.value))};`);
        return;
      }
      case "call": return this.call(s, d);
      case "if":
        this.line(d, `if (${stripParens(this.expr(s.cond))}) {`);
        this.block(s.then, d + 1);
        if (s.else.length) { this.line(d, "} else {"); this.block(s.else, d + 1); }
        this.line(d, "}");
        return;
      case "loop": return this.loop(s, d);
      case "switch": {
        this.line(d, `switch (${stripParens(this.expr(s.selector))}) {`);
        for (const c of s.cases) {
          for (const v of c.values) this.line(d + 1, `case ${v}:`);
          if (c.isDefault) this.line(d + 1, "default:");
          this.line(d + 1, "{");
          this.continueTargets.push(this.continueTargets.at(-1) ?? null);
          this.block(c.body, d + 2);
          this.continueTargets.pop();
          if (!c.fallthrough && completesBlock(c.body)) this.line(d + 2, "break;");
          this.line(d + 1, "}");
        }
        this.line(d, "}");
        return;
      }
      case "break": this.line(d, "break;"); return;
      case "continue": {
        const target = this.continueTargets.at(-1);
        this.line(d, target ? `break ${target};` : "continue;");
        return;
      }
      case "return":
        if (this.isKernel) this.line(d, this.kernelReturn());
        else this.line(d, s.value !== null ? `return ${stripParens(this.expr(s.value))};` : "return;");
        return;
      case "atomic": return this.atomic(s, d);
      case "init": this.line(d, `${this.reads[s.local]}.fill(0);`); return;
      case "trap": this.line(d, "throw $trap;"); return;
      // A fence: a block's threads run on one thread (nothing to order), and across workers every
      // atomic is sequentially consistent (JavaScript's Atomics), which is what a device-scope fence
      // is used with (a flag or counter another block reads atomically after it): plain stores before
      // it are visible to whoever reads that atomic's result. Nothing to emit.
      // (The sanitizer counts it: an atomic after it releases what the thread did before.)
      case "fence": if (this.names.sanitize) this.line(d, "$san.fence();"); return;
      case "barrier": case "subgroup": throw new InternalCompilerError(`a ${s.k === "barrier" ? "barrier" : "subgroup operation"} outside a region kernel`);
      case "check": for (const x of lowerCheck(s)) this.stmt(x, d); return;
      default: assertNeverIR(s);
    }
  }

  private call(s: Extract<Stmt, { k: "call" }>, d: number): void {
    const names = this.names;
    const callee = names.m.functions[s.fn];
    const extra = names.builtins[s.fn].map((b) => BUILTIN_VARS[b]);
    const state = callee.stateParam !== null ? [this.state ?? "$state"] : [];
    const call = `${names.fnNames[s.fn]}(${[...state, ...s.args.map((a) => stripParens(this.expr(a))), ...extra].join(", ")})`;
    const text = s.result !== null ? `${this.writes[s.result]} = ${call};` : `${call};`;
    if (s.frame === undefined || !names.mayTrap[s.fn] || names.frameFn < 0) { this.line(d, text); return; }
    // Debug level 2: a trap passing through this call site records it in the exception's call chain.
    const frameExtra = names.builtins[names.frameFn].map((b) => BUILTIN_VARS[b]);
    this.line(d, `try { ${text} } catch ($e) { if ($e === $trap) ${names.fnNames[names.frameFn]}(${[this.state, String(names.locations.id(s.frame)), ...frameExtra].join(", ")}); throw $e; }`);
  }

  /**
   * An atomic operation. When the kernel runs on one thread ($mt false, the CPU device's own
   * thread) a plain read-modify-write is indivisible, and ten times cheaper than `Atomics`. Its
   * worker threads bind $mt true (devices/cpu-workers.ts): integer arrays then go through
   * `Atomics` (which JavaScript has for Int8/Uint8/Int16/Uint16/Int32/Uint32 arrays; min and max
   * as a compare-exchange loop), f32 add and exchange through the loader's `$atomicF32`, a
   * compare-exchange loop on an Int32Array view. Plain f32 loads and stores need neither.
   */
  private atomic(s: Extract<Stmt, { k: "atomic" }>, d: number): void {
    // Each operand once, and where it is more than a name or a number, in a const first: spelled
    // inside `$o + …` or `… ? … : …` an unparenthesized conditional would bind wrongly.
    const ops = s.args.map((a) => stripParens(this.expr(a)));
    const v = ops.map((x, i) => (/^-?[\w$.]+$/.test(x) ? x : `$v${i}`));
    const held = ops.map((x, i) => (v[i] === x ? "" : `, $v${i} = ${x}`)).join("");
    const next: Record<string, string | null> = {
      add: `$o + ${v[0]}`, sub: `$o - ${v[0]}`, and: `$o & ${v[0]}`, or: `$o | ${v[0]}`, xor: `$o ^ ${v[0]}`,
      min: `Math.min($o, ${v[0]})`, max: `Math.max($o, ${v[0]})`, exchange: v[0], store: v[0],
      compareExchange: `$o === ${v[0]} ? ${v[1]} : $o`, load: null,
      inc: `$o >>> 0 >= ${v[0]} >>> 0 ? 0 : $o + 1`, dec: `$o === 0 || $o >>> 0 > ${v[0]} >>> 0 ? ${v[0]} : $o - 1`,
    };
    const n = next[s.op];
    const plain = [`$o = $a[$i];`];
    if (n !== null) plain.push(`$a[$i] = ${n};`);
    const elem = (this.f.exprs[s.array].type as { elem: Elem }).elem;
    let shared: string | null;
    if (elem === "f32") shared = s.op === "add" || s.op === "exchange" ? `$o = $atomicF32($a, $i, ${s.op === "add" ? 0 : 1}, ${v[0]});` : null;
    else if (s.op === "min" || s.op === "max" || s.op === "inc" || s.op === "dec") {
      // (Atomics has no min, max, inc or dec: a compare-exchange loop.)
      shared = `for (;;) { $o = Atomics.load($a, $i); if (Atomics.compareExchange($a, $i, $o, ${n}) === $o) break; }`;
    }
    else shared = `$o = Atomics.${s.op}(${["$a", "$i", ...v].join(", ")});`;
    const parts = [`const $a = ${this.expr(s.array)}, $i = ${stripParens(this.expr(s.index))}${held}; let $o;`];
    const site = this.sanSite(s.array, s.loc, "atomic");
    if (site !== null) parts.push(`$san.x($a, $i, ${site});`);
    parts.push(shared === null ? plain.join(" ") : `if ($mt) { ${shared} } else { ${plain.join(" ")} }`);
    if (s.result !== null) parts.push(`${this.writes[s.result]} = ${s.op === "store" ? v[0] : "$o"};`);
    this.line(d, `{ ${parts.join(" ")} }`);
  }

  /**
   * A loop. When its continuing block is plain assignments and it has no break-if, it becomes
   * `for (; test; update)`, where JS's `continue` already runs the update. Otherwise the body
   * is a labeled block that an IR `continue` leaves with `break`.
   */
  private loop(s: Extract<Stmt, { k: "loop" }>, d: number): void {
    let body = s.body;
    let test = "";
    const first = body[0];
    if (first?.k === "if" && first.else.length === 0 && first.then.length === 1 && first.then[0].k === "break") {
      const c = this.f.exprs[first.cond];
      if (c.k === "op" && c.op === "not") { test = stripParens(this.expr(c.args[0])); body = body.slice(1); }
    }
    const simpleUpdate = s.breakIf === null && s.continuing.every((c) => c.k === "set");
    if (simpleUpdate) {
      const update = s.continuing.map((c) => (c.k === "set" ? `${this.writes[c.local]} = ${stripParens(this.expr(c.value))}` : "")).join(", ");
      this.line(d, `for (; ${test}; ${update}) {`);
      this.continueTargets.push(null);
      this.block(body, d + 1);
      this.continueTargets.pop();
      this.line(d, "}");
      return;
    }
    const label = `$body${this.loopLabels++}`;
    this.line(d, `for (; ${test};) {`);
    this.line(d + 1, `${label}: {`);
    this.continueTargets.push(label);
    this.block(body, d + 2);
    this.continueTargets.pop();
    this.line(d + 1, "}");
    this.block(s.continuing, d + 1);
    if (s.breakIf !== null) this.line(d + 1, `if (${stripParens(this.expr(s.breakIf))}) break;`);
    this.line(d, "}");
  }

  expr(h: ExprHandle): string {
    const e: Expr = this.f.exprs[h];
    switch (e.k) {
      case "const": return constant(e.value, e.type);
      case "local": return this.reads[e.local];
      case "global": return this.names.globals[e.global];
      case "shared": return this.names.shared[e.shared];
      case "location": return String(this.names.locations.id(e.site));
      case "builtin": return BUILTIN_VARS[e.name];
      case "op": {
        const spelling = JS_OPS[e.op];
        const operand = (this.f.exprs[e.args[0]].type as { scalar: Scalar }).scalar;
        const raw = spelling.js(e.args.map((a) => this.expr(a)), operand);
        const result = resultScalar(e.op, operand);
        return spelling.exact.includes(operand) || (result === "f32" && this.names.fastMath) ? raw : wrap(raw, result);
      }
      case "convert": return convert(this.expr(e.arg), (this.f.exprs[e.arg].type as { scalar: Scalar }).scalar, (e.type as { scalar: Scalar }).scalar);
      case "select": return `(${this.expr(e.cond)} ? ${this.expr(e.a)} : ${this.expr(e.b)})`;
      case "load": {
        const site = this.sanSite(e.array, e.loc, "read");
        if (site !== null) return `${this.expr(e.array)}[$san.r(${this.expr(e.array)}, ${stripParens(this.expr(e.index))}, ${site})]`;
        return `${this.expr(e.array)}[${stripParens(this.expr(e.index))}]`;
      }
      case "length": return `${this.expr(e.array)}.length`;
      case "bitOffset": throw new InternalCompilerError("a word's bit offset reached the JS back end (its typed arrays have narrow atomics)");
      default: return assertNeverIR(e);
    }
  }
}

/**
 * The kernel's array parameters that every access reaches at the thread's global x index only
 * (`i = blockIdx.x * blockDim.x + threadIdx.x`, assigned once) and that no call is given: in a
 * launch of one row of threads per block and one row of blocks, a different element for each
 * thread, which no other thread reaches through this parameter. The sanitizer leaves such a
 * parameter's accesses unchecked in such a launch, unless another argument shares its buffer
 * (devices/cpu-sanitizer.ts, bind).
 */
function ownIndexParams(f: Function): Set<number> {
  const out = new Set<number>();
  const first = f.body[0];
  if (first?.k !== "set" || countSets(f.body, first.local) !== 1 || !isGlobalX(f, first.value)) return out;
  const i = first.local;
  const arrays = f.params.filter((p) => isArray(f.locals[p].type));
  const bad = new Set<number>();
  const isParam = (h: ExprHandle): number | null => { const x = f.exprs[h]; return x.k === "local" && arrays.includes(x.local) ? x.local : null; };
  const atI = (h: ExprHandle) => { const x = f.exprs[h]; return x.k === "local" && x.local === i; };
  const visit = (h: ExprHandle): void => {
    const x = f.exprs[h];
    if (x.k === "load" || x.k === "bitOffset") { const p = isParam(x.array); if (p !== null && !atI(x.index)) bad.add(p); visit(x.index); return; }
    if (x.k === "local") { if (arrays.includes(x.local)) bad.add(x.local); return; }
    if (x.k === "length") return;
    for (const o of exprOperands(x)) visit(o);
  };
  walkStmts(f.body, (s) => {
    if (s.k === "store" || s.k === "atomic") {
      const p = isParam(s.array);
      if (p !== null && !atI(s.index)) bad.add(p);
      for (const o of stmtOperands(s)) if (o !== s.array) visit(o);
      return;
    }
    for (const o of stmtOperands(s)) visit(o);
  });
  for (const p of arrays) if (!bad.has(p)) out.add(p);
  return out;
}

/** Whether `h` is blockIdx.x * blockDim.x + threadIdx.x (an i32, either operand order). */
function isGlobalX(f: Function, h: ExprHandle): boolean {
  const e = (x: ExprHandle) => f.exprs[x];
  const isBuiltin = (x: ExprHandle, name: string) => { const y = e(x); return y.k === "builtin" && y.name === name; };
  const x = e(h);
  if (x.k !== "op" || x.op !== "add" || x.type !== T.i32) return false;
  const isBlockOffset = (m: ExprHandle): boolean => {
    const y = e(m);
    return y.k === "op" && y.op === "mul" && ((isBuiltin(y.args[0], "blockIdx.x") && isBuiltin(y.args[1], "blockDim.x")) || (isBuiltin(y.args[0], "blockDim.x") && isBuiltin(y.args[1], "blockIdx.x")));
  };
  return (isBlockOffset(x.args[0]) && isBuiltin(x.args[1], "threadIdx.x")) || (isBlockOffset(x.args[1]) && isBuiltin(x.args[0], "threadIdx.x"));
}

/**
 * The sanitizer's thread loops (z, y, x from 0 to `xEnd`; `$rev`: last first), open: the
 * caller's body and closing brace follow. A `continue` of the x loop (`label`) goes to the next thread.
 */
export function sanThreadLoops(pad: string, xEnd: string, label: string, xStart = "0"): string[] {
  return [
    `${pad}for (let $iz = 0; $iz < $dz; $iz++) for (let $iy = 0; $iy < $dy; $iy++) ${label}for (let $ix = ${xStart}; $ix < ${xEnd}; $ix++) {`,
    `${pad}  const $tz = $rev ? $dz - 1 - $iz : $iz, $ty = $rev ? $dy - 1 - $iy : $iy, $tx = $rev ? ${xEnd} - 1 - ($ix - ${xStart}) : $ix;`,
  ];
}

function convert(x: string, from: Scalar, to: Scalar): string {
  if (from === "bool") return to === "bool" ? x : `(${x} ? 1 : 0)`;
  switch (to) {
    case "bool": return `!!${x}`;
    case "i32": return `(${x} | 0)`;
    case "u32": return `(${x} >>> 0)`;
    case "f32": return `Math.fround(${stripParens(x)})`;
    case "f64": return x;
  }
}

function wrap(raw: string, t: Scalar): string {
  switch (t) {
    case "i32": return `(${raw} | 0)`;
    case "u32": return `(${raw} >>> 0)`;
    case "f32": return `Math.fround(${stripParens(raw)})`;
    default: return raw;
  }
}

function constant(v: number | boolean, _t: Type): string {
  if (typeof v === "boolean") return String(v);
  if (v !== v) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "(-Infinity)";
  if (Object.is(v, -0)) return "(-0)";
  const s = formatNumber(v);
  return v < 0 ? `(${s})` : s;
}

export function zero(t: Type): string {
  if (t === T.bool) return "false";
  if (t.kind === "scalar") return "0";
  throw new InternalCompilerError(`no zero value for ${typeName(t)}`);
}

export function stripParens(s: string): string {
  if (!s.startsWith("(") || !s.endsWith(")")) return s;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") depth++;
    else if (s[i] === ")") { depth--; if (depth === 0 && i < s.length - 1) return s; }
  }
  return s.slice(1, -1);
}

export function hasReturn(b: Block): boolean {
  let found = false;
  walkStmts(b, (s) => { if (s.k === "return") found = true; });
  return found;
}

/**
 * The kernel's leading guard on its global x index, when the body is
 *   i = blockIdx.x * blockDim.x + threadIdx.x; if (i < B) { body }      or
 *   i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= B) return; body
 * with B the same for every thread (constants, unassigned parameters, their lengths, grid sizes).
 * Returns B and the body with the guard removed (the index assignment kept).
 *
 * Checks: the per-thread checks of `a[i]` (i the global index, never reassigned; a a parameter)
 * are dropped only in a copy that runs when the block's whole range of i fits in every such
 * array (`$bx * $dx + $txEnd <= a.length`, with i >= 0 as long as the grid does not wrap i32,
 * which the caller tests); otherwise the copy with every check runs. So a check is skipped only
 * where it cannot fire, and the first failure is the one plain JavaScript reports.
 */
function guardedRange(f: Function): { bound: ExprHandle; body: Block; uncheckedBody: Block; checkedArrays: ExprHandle[] } | null {
  const [first, second, ...rest] = f.body;
  if (first?.k !== "set" || second?.k !== "if") return null;
  const i = first.local;
  const e = (h: ExprHandle) => f.exprs[h];
  if (!isGlobalX(f, first.value)) return null;
  const assigned = new Set<number>();
  walkStmts(f.body, (s) => { const l = assignedLocal(s); if (l !== null) assigned.add(l); });
  const invariant = (h: ExprHandle): boolean => {
    const x = e(h);
    switch (x.k) {
      case "const": return true;
      case "builtin": return !threadVarying(x.name);
      case "local": return f.params.includes(x.local) && !assigned.has(x.local);
      case "length": return invariant(x.array);
      case "op": case "convert": case "select": return exprOperands(x).every(invariant);
      default: return false;
    }
  };
  const c = e(second.cond);
  if (c.k !== "op" || c.args.length !== 2) return null;
  const [a, b] = c.args;
  const readsI = (h: ExprHandle) => { const x = e(h); return x.k === "local" && x.local === i; };
  if (!readsI(a) || e(b).type !== T.i32 || !invariant(b)) return null;
  let body: Block;
  if (c.op === "lt" && second.else.length === 0 && rest.length === 0) body = [first, ...second.then];
  else if (c.op === "ge" && second.else.length === 0 && second.then.length === 1 && second.then[0].k === "return") body = [first, ...rest];
  else return null;
  // Bounds checks of `array[i]` with i never reassigned can be done once for the block's range.
  const checkedArrays: ExprHandle[] = [];
  const seen = new Set<string>();
  const reassigned = countSets(f.body, i) > 1;
  const strip = (block: Block): Block => rewriteBlock(block, (st) => {
    const arr = reassigned ? null : boundsCheckOf(f, st, i);
    if (arr === null || !invariant(arr)) return st;
    const key = JSON.stringify(e(arr));
    if (!seen.has(key)) { seen.add(key); checkedArrays.push(arr); }
    return [];
  });
  const uncheckedBody = strip(body);
  return { bound: b, body, uncheckedBody, checkedArrays };
}

/** The array of a bounds check `u32(i) >= u32(length(a))` on local i, or null. */
function boundsCheckOf(f: Function, s: Stmt, i: number): ExprHandle | null {
  if (s.k !== "check" || s.kind !== "bounds" || s.cond === null) return null;
  const c = f.exprs[s.cond];
  if (c.k !== "op" || c.op !== "ge") return null;
  const unwrap = (h: ExprHandle): ExprHandle => { const x = f.exprs[h]; return x.k === "convert" ? x.arg : h; };
  const idx = f.exprs[unwrap(c.args[0])], len = f.exprs[unwrap(c.args[1])];
  if (idx.k !== "local" || idx.local !== i || len.k !== "length") return null;
  return len.array;
}

function countSets(b: Block, local: number): number {
  let n = 0;
  walkStmts(b, (s) => { if (s.k === "set" && s.local === local) n++; });
  return n;
}
