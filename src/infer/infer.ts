// Inference of a kernel: specializes it and every helper it calls on argument types (method
// instances), iterating each to a fixed point, and assembles the typed IR module.

import type { SizeExpr } from "../ir/size.js";
import { InternalCompilerError, type Diagnostic, type Frame } from "../errors.js";
import { Diagnostics } from "../frontend/diagnostics.js";
import type { UFunction, UTable } from "../frontend/uir.js";
import { walkUBody } from "../frontend/uir.js";
import type { Expr, Function as IRFunction, FunctionHandle, LocalHandle, Global, GlobalHandle, Message, Module, PrintFormat, Shared } from "../ir/module.js";
import { copyFunction, walkStmts } from "../ir/module.js";
import { T, parseTypeName, typeName, type ArrayType, type Scalar, type Type } from "../ir/types.js";
import { RUNTIME } from "../runtime/functions.js";
import { runtimeFunction } from "./runtime.js";
import { lowerFunction } from "../frontend/lower.js";
import { parseFunctionSource } from "../frontend/parse.js";
import { scopeEnvironment } from "../frontend/scope.js";
import { allNames, type ArgType } from "./overlays.js";
import { FunctionBuilder } from "./build.js";
import type { FrameSite, InstanceBody, ModuleContext, ParamFinal } from "./pass.js";
import type { MethodTable, SharedShape } from "./methods.js";

/** A function specialized on a tuple of argument types. */
interface MethodInstance {
  key: string;
  ufn: UFunction;
  argTypes: Type[];
  handle: number;
  returnType: Type;
  state: "inferring" | "done";
  /** Inferred while a caller's return type was still provisional (mutual recursion): redo on next use. */
  provisional: boolean;
  fn: IRFunction | null;
  /** What the last inference of a provisional instance found: reported once the recursion settles. */
  deferred?: Diagnostic[];
  /** An aggregate return value's leaf locals in `fn`, and whether it is always a new object (statements.ts). */
  returnLeaves?: LocalHandle[] | null;
  returnsFresh?: boolean;
  /** Where each parameter's value is when `fn` returns (its local, or an object's leaves): what a call copies back (calls.ts). */
  paramFinal?: (ParamFinal | undefined)[];
}

const MAX_ITERATIONS = 64;

function resolveFrames(sites: FrameSite[]): Frame[] {
  return sites.map((s) => ({ function: s.function, location: s.src.locate(s.at) }));
}

function methodInstanceKey(fn: UFunction, argTypes: Type[]): string {
  // (A function value by its id: two functions may have one name.)
  return `${fn.id}(${argTypes.map((t) => (t.kind === "fn" ? `fn#${t.id}(${(t.env ?? []).map(typeName).join(",")})` : typeName(t))).join(",")})`;
}

interface InferOptions {
  boundsCheck: boolean;
  debugLevel: 0 | 1 | 2;
  /** The target's name (for messages about overlays). */
  target: string;
  /**
   * The runtime library's cache owner (a RuntimeCacheToken's key): runtime functions inferred
   * under it are reused by later modules of the same token, and by no other.
   */
  runtimeToken?: string;
}

/**
 * The runtime library's cache (ARCHITECTURE.md, "Caches", layer d): each runtime function's typed
 * IR per runtime token, copied into every module that links it. In memory only: never written to a
 * disk cache or an image. A redefinition of the function (another function object) misses.
 */
const runtimeCache = new Map<string, { decl: unknown; fn: IRFunction }>();

/** The runtime cache's keys ("<token>|<function>"), for tests and diagnostics. */
export function runtimeCacheKeys(): string[] { return [...runtimeCache.keys()]; }


/** Overlay implementations lowered once per function object (they see only global names). */
const implementations = new WeakMap<Function, UFunction>();
/** Generated functions per generator and argument types. */
const generatedCache = new WeakMap<Function, Map<string, UFunction>>();

class ModuleBuilder implements ModuleContext {
  readonly diags = new Diagnostics();
  private messages: Message[] = [];
  private formats: PrintFormat[] = [];
  private sharedByKey = new Map<string, number>();
  private stateUse = new Map<UFunction, boolean>();
  private instances = new Map<string, MethodInstance>();
  private functions: (IRFunction | null)[] = [];
  private stack: MethodInstance[] = [];
  /** Provisional instances whose diagnostics wait for the outermost inference to end. */
  private deferred = new Set<MethodInstance>();
  private globals: Global[] = [];
  private shared: Shared[] = [];
  private tables = new Map<UTable, { handle: number; type: Type }>();
  /** The shapes of tables of tables, by global handle. */
  private tableShapes = new Map<number, SharedShape>();
  private reportedLowering = new Set<UFunction>();

  readonly methodsUsed = new Set<string>();
  get target(): string { return this.options.target; }

  constructor(readonly methods: MethodTable, readonly options: InferOptions) {}

  noteMethod(name: string): void { this.methodsUsed.add(name); }

  lowerImplementation(impl: Function, name: string): UFunction {
    let u = implementations.get(impl);
    if (!u) {
      const parsed = parseFunctionSource(impl, impl.name || name);
      u = lowerFunction(parsed.node, impl.name || name, parsed.source, { globals: allNames, lookup: () => undefined });
      implementations.set(impl, u);
    }
    return u;
  }

  generate(gen: Function, name: string, types: ArgType[]): { fn: UFunction } | { error: unknown } {
    const key = types.map((t) => t.name).join(",");
    let byTypes = generatedCache.get(gen);
    const hit = byTypes?.get(key);
    if (hit) return { fn: hit };
    let made: unknown;
    try {
      made = gen(...types);
    } catch (error) {
      return { error };
    }
    // A generator returns the function, or { fn, scope } when the function names helpers or constants.
    const fn = typeof made === "function" ? made : (made as { fn?: unknown })?.fn;
    const scope = typeof made === "function" ? undefined : (made as { scope?: Record<string, unknown> })?.scope;
    if (typeof fn !== "function") return { error: new TypeError(`it returned ${made === null ? "null" : typeof made}, not a function (or { fn, scope })`) };
    let u: UFunction;
    try {
      const parsed = parseFunctionSource(fn, fn.name || name);
      u = lowerFunction(parsed.node, fn.name || name, parsed.source, scopeEnvironment(scope, { globals: allNames }));
    } catch (error) {
      return { error };
    }
    if (!byTypes) { byTypes = new Map(); generatedCache.set(gen, byTypes); }
    byTypes.set(key, u);
    return { fn: u };
  }

  sharedArray(key: string, name: string, type: ArrayType, size?: SizeExpr): number {
    let h = this.sharedByKey.get(key);
    if (h === undefined) {
      h = this.shared.length;
      const taken = new Set(this.shared.map((s) => s.name));
      let unique = name;
      for (let k = 1; taken.has(unique); k++) unique = `${name}_${k}`;
      this.shared.push({ name: unique, type, ...(size ? { size } : {}) });
      this.sharedByKey.set(key, h);
    }
    return h;
  }

  private runtimeLinked = new Map<string, { handle: number; returnType: Type }>();

  runtime(name: string): { handle: number; returnType: Type } {
    const decl = RUNTIME.get(name);
    if (!decl) throw new InternalCompilerError(`unknown runtime function '${name}'`);
    const linked = this.runtimeLinked.get(name);
    if (linked) return linked;
    const token = this.options.runtimeToken;
    const cached = token !== undefined ? runtimeCache.get(`${token}|${name}`) : undefined;
    if (cached && cached.decl === decl && !cached.fn.body.some((st) => st.k === "call")) {
      // A runtime function that calls no other is self-contained: its cached IR is linked as is.
      const handle = this.functions.length;
      const fn = copyFunction(cached.fn);
      this.functions.push(fn);
      const r = { handle, returnType: fn.returnType };
      this.runtimeLinked.set(name, r);
      return r;
    }
    const ufn = runtimeFunction(name, globalMethodsFor(this.methods));
    const params = decl.params.map((t) => parseTypeName(t)!);
    const inst = this.instance(ufn, params, [], "runtime");
    // The compiled signature must be the declared one (ARCHITECTURE.md, "The kernel state and the
    // runtime library").
    const f = this.functions[inst.handle];
    const got = f ? `(${f.params.map((p) => typeName(f.locals[p].type)).join(", ")}) -> ${typeName(f.returnType)}` : "?";
    const want = `(${params.map(typeName).join(", ")}) -> ${decl.returns}`;
    if (f && got !== want)
      this.diags.add({ kind: "runtime-signature", message: `runtime function '${name}' is declared ${want} but compiles to ${got}`, location: null, frames: [] });
    else if (f && token !== undefined && !inst.pending && !this.diags.list.length) runtimeCache.set(`${token}|${name}`, { decl, fn: copyFunction(f) });
    const r = { handle: inst.handle, returnType: f?.returnType ?? inst.returnType };
    this.runtimeLinked.set(name, r);
    return inst;
  }

  usesState(fn: UFunction): boolean {
    let u = this.stateUse.get(fn);
    if (u === undefined) { u = usesKernelState(fn, this.options.boundsCheck); this.stateUse.set(fn, u); }
    return u;
  }

  message(text: string, kind: Message["kind"] = "exception"): number {
    let i = this.messages.findIndex((m) => m.text === text && m.kind === kind);
    if (i < 0) { i = this.messages.length; this.messages.push({ text, kind }); }
    return i + 1;
  }

  format(f: PrintFormat): number {
    this.formats.push(f);
    return this.formats.length - 1;
  }

  arrayName(e: Expr): string {
    if (e.k === "global") return this.globals[e.global]?.name ?? "table";
    if (e.k === "shared") return this.shared[e.shared]?.name ?? "shared";
    return "array";
  }

  instance(ufn: UFunction, argTypes: Type[], frames: FrameSite[], kind: "kernel" | "helper" | "runtime" = "helper") {
    const usesState = kind === "helper" && this.usesState(ufn);
    const key = methodInstanceKey(ufn, argTypes);
    let mi = this.instances.get(key);
    if (mi?.state === "inferring") {
      // A recursive call: use the return type inferred so far; the caller's fixed point settles it.
      for (const m of this.stack) if (m !== mi && this.stack.indexOf(m) > this.stack.indexOf(mi)) m.provisional = true;
      return { handle: mi.handle, returnType: mi.returnType, pending: true, usesState };
    }
    if (mi && !(mi.provisional && this.stack.length)) return { handle: mi.handle, returnType: mi.returnType, pending: false, usesState };
    if (!mi) {
      mi = { key, ufn, argTypes, handle: this.functions.length, returnType: T.unknown, state: "inferring", provisional: false, fn: null };
      this.instances.set(key, mi);
      this.functions.push(null);
    }
    this.reportLowering(ufn, frames);
    if (kind === "kernel") for (const d of ufn.kernelDiagnostics ?? []) this.diags.add(d);
    this.infer(mi, kind, frames);
    return { handle: mi.handle, returnType: mi.returnType, pending: false, usesState };
  }

  instanceBody(handle: number): InstanceBody | null {
    for (const mi of this.instances.values()) {
      if (mi.handle !== handle) continue;
      if (mi.state !== "done" || !mi.fn) return null;
      return { fn: mi.fn, leaves: mi.returnLeaves ?? null, fresh: mi.returnsFresh ?? false, paramFinal: mi.paramFinal ?? [] };
    }
    return null;
  }

  private reportLowering(ufn: UFunction, frames: FrameSite[]): void {
    if (this.reportedLowering.has(ufn)) return;
    this.reportedLowering.add(ufn);
    const lowered = (ufn as UFunction & { diagnostics?: Diagnostic[] }).diagnostics ?? [];
    for (const d of lowered) this.diags.add({ ...d, frames: [...d.frames, ...resolveFrames(frames)] });
  }

  private infer(mi: MethodInstance, kind: "kernel" | "helper" | "runtime", frames: FrameSite[]): void {
    mi.state = "inferring";
    mi.provisional = false;
    this.stack.push(mi);
    const u = mi.ufn;
    let varTypes: Type[] = u.vars.map((v) => (v.declared ? parseTypeName(v.declared) ?? T.unknown : T.unknown));
    u.params.forEach((p, i) => { varTypes[p] = mi.argTypes[i]; });
    let returnType: Type = kind === "kernel" ? T.void : u.declaredReturn ? parseTypeName(u.declaredReturn) ?? T.unknown : T.unknown;
    mi.returnType = returnType;
    for (let iter = 0; ; iter++) {
      if (iter > MAX_ITERATIONS) throw new InternalCompilerError(`inference of '${u.name}' did not reach a fixed point`);
      const result = new FunctionBuilder(u, mi.argTypes, varTypes, returnType, kind, this, frames).build();
      mi.returnType = result.returnType;
      const stable = result.returnType === returnType && result.varTypes.every((t, i) => t === varTypes[i]);
      varTypes = result.varTypes;
      returnType = result.returnType;
      if (stable) {
        mi.fn = result.fn;
        mi.returnLeaves = result.returnLeaves;
        mi.returnsFresh = result.returnsFresh;
        mi.paramFinal = result.paramFinal;
        const here = (at: number): Frame[] => resolveFrames([{ function: u.name, src: u.source, at }, ...frames]);
        const found: Diagnostic[] = result.errors.map((e) => ({ kind: e.kind, message: e.message, location: u.source.locate(e.span.start), frames: here(e.span.start), hint: e.hint, cause: e.cause }));
        for (const r of result.unknownReads)
          found.push({ kind: "type", message: `variable '${u.vars[r.v].name}' is used before any value is assigned to it`, location: u.source.locate(r.span.start), frames: here(r.span.start) });
        for (const c of result.unknownCalls)
          found.push({ kind: "type", message: `cannot infer the return type of recursive function '${c.name}' (does every path recurse?)`, location: u.source.locate(c.span.start), frames: here(c.span.start) });
        // A provisional instance (it called a function whose inference is still in progress:
        // mutual recursion) is inferred again on that function's next pass; only what its last
        // inference finds is reported, when the outermost inference ends.
        if (mi.provisional) { mi.deferred = found; this.deferred.add(mi); }
        else { mi.deferred = undefined; for (const d of found) this.diags.add(d); }
        break;
      }
    }
    this.functions[mi.handle] = mi.fn;
    this.stack.pop();
    mi.state = "done";
    if (this.stack.length === 0) {
      for (const m of this.deferred) for (const d of m.deferred ?? []) this.diags.add(d);
      this.deferred.clear();
    }
  }

  table(t: UTable): { handle: number; type: Type } | { conflict: UTable } {
    let g = this.tables.get(t);
    if (!g) {
      // A relocation site is named by its scope name: another value under that name is a conflict.
      // The same value under the same name (two scopes sharing a table) is the same site.
      for (const [other, og] of this.tables) {
        if (other.name !== t.name) continue;
        if (other.value !== t.value) return { conflict: other };
        this.tables.set(t, og);
        return og;
      }
      const elem: Scalar = t.value instanceof Float32Array ? "f32" : t.value instanceof Float64Array ? "f64" : t.value instanceof Int32Array ? "i32" : "u32";
      const type = T.array(elem, "constant", t.value.length);
      g = { handle: this.globals.length, type };
      if (t.dims) this.tableShapes.set(g.handle, { name: t.name, dims: t.dims, table: true });
      this.globals.push({ name: t.name, type, value: t.value, ...(t.rewritable ? { rewritable: true } : {}) });
      this.tables.set(t, g);
    }
    return g;
  }

  /** The shape of a table of tables (a global), indexed `t[i][j]` as a multi-dimensional shared array is. */
  tableShape(global: number): SharedShape | undefined { return this.tableShapes.get(global); }

  /** The module with callees before callers (post-order from the entry), unreachable functions dropped. */
  finish(name: string, entry: number): Module {
    const order: number[] = [];
    const state = new Map<number, "visiting" | "done">();
    const visit = (h: number): void => {
      if (state.has(h)) return;
      state.set(h, "visiting");
      const f = this.functions[h];
      if (!f) throw new InternalCompilerError(`function ${h} was never inferred`);
      walkStmts(f.body, (s) => { if (s.k === "call") visit(s.fn); else if (s.k === "check") visit(s.report); });
      state.set(h, "done");
      order.push(h);
    };
    visit(entry);
    // The frame recorder is called by back ends, not by statements (see pruneFunctions).
    const frameFn = this.functions.findIndex((f) => f?.kind === "runtime" && f.name === "gpuc_report_exception_frame");
    if (frameFn >= 0) visit(frameFn);
    const remap = new Map(order.map((old, i) => [old, i]));
    const functions = order.map((h) => this.functions[h]!);
    for (const f of functions) walkStmts(f.body, (s) => {
      if (s.k === "call") s.fn = remap.get(s.fn)! as FunctionHandle;
      else if (s.k === "check") s.report = remap.get(s.report)! as FunctionHandle;
    });
    return { name, functions, entry: remap.get(entry)! as FunctionHandle, globals: this.globals.map((g) => ({ ...g })) as Global[], shared: this.shared,
      messages: this.messages, formats: this.formats, debugLevel: this.options.debugLevel, boundsCheck: this.options.boundsCheck, methodsUsed: [...this.methodsUsed].sort() };
  }
}

/** Infer a kernel on argument types and build its typed IR module; throws one CompileError with every problem found. */
export function inferKernel(kernel: UFunction, argTypes: Type[], methods: MethodTable, options: InferOptions): Module {
  const b = new ModuleBuilder(methods, options);
  if (argTypes.length !== kernel.params.length) throw new InternalCompilerError("argument count checked by the caller");
  const { handle } = b.instance(kernel, argTypes, [], "kernel");
  b.diags.throwIfAny();
  return b.finish(kernel.name, handle);
}

export type { GlobalHandle };

/** The global table an overlay derives from (runtime functions see no user overlays). */
function globalMethodsFor(t: MethodTable): MethodTable { return t.root(); }

/**
 * Whether a function takes the kernel state: it indexes arrays (with bounds checks on), throws,
 * prints, uses atomics, shuffles within a width, or calls a helper (a generated one, or through a
 * function value). Decided from the source so that a function's
 * parameters are known before it is inferred (recursion needs that).
 */
function usesKernelState(fn: UFunction, boundsCheck: boolean): boolean {
  let uses = false;
  walkUBody(fn.body, (e) => {
    if (e.k === "index" && boundsCheck) uses = true;
    // (A generated function, and a function value's, may index arrays too.)
    if (e.k === "call" && (e.callee.k === "function" || e.callee.k === "generated" || e.callee.k === "var" || (e.callee.k === "intrinsic" && /^(console\.|Atomics\.|atomic)/.test(e.callee.name)))) uses = true;
    // (A shuffle with a width checks the width against the subgroup: a KernelError where it does not fit.)
    if (e.k === "call" && e.callee.k === "intrinsic" && /^subgroupShuffle/.test(e.callee.name) && e.args.length === 3) uses = true;
  }, (s) => { if (s.k === "throw") uses = true; }, () => uses);
  return uses;
}
