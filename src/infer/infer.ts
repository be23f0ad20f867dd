// Inference of a kernel: specializes it and every helper it calls on argument types (method
// instances), iterating each to a fixed point, and assembles the typed IR module.

import { InternalCompilerError, type Diagnostic, type Frame } from "../errors.js";
import { Diagnostics } from "../diagnostics.js";
import type { UFunction, UTable } from "../frontend/uir.js";
import type { Function, FunctionHandle, Global, GlobalHandle, Module } from "../ir/module.js";
import { walkStmts } from "../ir/module.js";
import { T, parseTypeName, typeName, type Scalar, type Type } from "../ir/types.js";
import { FunctionBuilder, type ModuleContext } from "./build.js";
import type { MethodTable } from "./methods.js";

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
  fn: Function | null;
}

const MAX_ITERATIONS = 64;

export function methodInstanceKey(fn: UFunction, argTypes: Type[]): string {
  return `${fn.id}(${argTypes.map(typeName).join(",")})`;
}

class ModuleBuilder implements ModuleContext {
  readonly diags = new Diagnostics();
  private instances = new Map<string, MethodInstance>();
  private functions: (Function | null)[] = [];
  private stack: MethodInstance[] = [];
  private globals: Global[] = [];
  private tables = new Map<UTable, { handle: number; type: Type }>();
  private reportedLowering = new Set<UFunction>();

  constructor(readonly methods: MethodTable) {}

  instance(ufn: UFunction, argTypes: Type[], frames: Frame[], kind: "kernel" | "helper" = "helper") {
    const key = methodInstanceKey(ufn, argTypes);
    let mi = this.instances.get(key);
    if (mi?.state === "inferring") {
      // A recursive call: use the return type inferred so far; the caller's fixed point settles it.
      for (const m of this.stack) if (m !== mi && this.stack.indexOf(m) > this.stack.indexOf(mi)) m.provisional = true;
      return { handle: mi.handle, returnType: mi.returnType, pending: true };
    }
    if (mi && !(mi.provisional && this.stack.length)) return { handle: mi.handle, returnType: mi.returnType, pending: false };
    if (!mi) {
      mi = { key, ufn, argTypes, handle: this.functions.length, returnType: T.unknown, state: "inferring", provisional: false, fn: null };
      this.instances.set(key, mi);
      this.functions.push(null);
    }
    this.reportLowering(ufn, frames);
    this.infer(mi, kind, frames);
    return { handle: mi.handle, returnType: mi.returnType, pending: false };
  }

  private reportLowering(ufn: UFunction, frames: Frame[]): void {
    if (this.reportedLowering.has(ufn)) return;
    this.reportedLowering.add(ufn);
    const lowered = (ufn as UFunction & { diagnostics?: Diagnostic[] }).diagnostics ?? [];
    for (const d of lowered) this.diags.add({ ...d, frames: [...d.frames, ...frames] });
  }

  private infer(mi: MethodInstance, kind: "kernel" | "helper", frames: Frame[]): void {
    mi.state = "inferring";
    mi.provisional = false;
    this.stack.push(mi);
    const u = mi.ufn;
    let varTypes: Type[] = u.vars.map((v) => (v.declared ? parseTypeName(v.declared) ?? T.unknown : T.unknown));
    u.params.forEach((p, i) => { varTypes[p] = mi.argTypes[i]; });
    let returnType: Type = kind === "kernel" ? T.void : u.declaredReturn ? parseTypeName(u.declaredReturn) ?? T.unknown : T.unknown;
    mi.returnType = returnType;
    let pass;
    for (let iter = 0; ; iter++) {
      if (iter > MAX_ITERATIONS) throw new InternalCompilerError(`inference of '${u.name}' did not reach a fixed point`);
      pass = new FunctionBuilder(u, mi.argTypes, varTypes, returnType, kind, this, frames);
      const result = pass.build();
      mi.returnType = result.returnType;
      const stable = result.returnType === returnType && result.varTypes.every((t, i) => t === varTypes[i]);
      varTypes = result.varTypes;
      returnType = result.returnType;
      if (stable) {
        mi.fn = result.fn;
        const here = (at: number): Frame[] => [{ function: u.name, location: u.source.locate(at) }, ...frames];
        for (const e of result.errors) this.diags.error(e.kind, e.message, u.source, e.span, here(e.span.start), e.hint);
        for (const r of pass.unknownReads)
          this.diags.error("type", `variable '${u.vars[r.v].name}' is used before any value is assigned to it`, u.source, r.span, here(r.span.start));
        for (const c of pass.unknownCalls)
          this.diags.error("type", `cannot infer the return type of recursive function '${c.name}' (does every path recurse?)`, u.source, c.span, here(c.span.start));
        break;
      }
    }
    this.functions[mi.handle] = mi.fn;
    this.stack.pop();
    mi.state = "done";
  }

  table(t: UTable): { handle: number; type: Type } {
    let g = this.tables.get(t);
    if (!g) {
      const elem: Scalar = t.value instanceof Float32Array ? "f32" : t.value instanceof Float64Array ? "f64" : t.value instanceof Int32Array ? "i32" : "u32";
      const type = T.array(elem, "constant", t.value.length);
      g = { handle: this.globals.length, type };
      this.globals.push({ name: t.name, type, value: t.value });
      this.tables.set(t, g);
    }
    return g;
  }

  /** The module with callees before callers (post-order from the entry), unreachable functions dropped. */
  finish(name: string, entry: number): Module {
    const order: number[] = [];
    const state = new Map<number, "visiting" | "done">();
    const visit = (h: number): void => {
      if (state.has(h)) return;
      state.set(h, "visiting");
      const f = this.functions[h];
      if (!f) throw new InternalCompilerError(`function ${h} was never inferred`);
      walkStmts(f.body, (s) => { if (s.k === "call") visit(s.fn); });
      state.set(h, "done");
      order.push(h);
    };
    visit(entry);
    const remap = new Map(order.map((old, i) => [old, i]));
    const functions = order.map((h) => this.functions[h]!);
    for (const f of functions) walkStmts(f.body, (s) => { if (s.k === "call") s.fn = remap.get(s.fn)! as FunctionHandle; });
    return { name, functions, entry: remap.get(entry)! as FunctionHandle, globals: this.globals.map((g) => ({ ...g })) as Global[] };
  }
}

/** Infer a kernel on argument types and build its typed IR module; throws one CompileError with every problem found. */
export function inferKernel(kernel: UFunction, argTypes: Type[], methods: MethodTable): Module {
  const b = new ModuleBuilder(methods);
  if (argTypes.length !== kernel.params.length) throw new InternalCompilerError("argument count checked by the caller");
  const { handle } = b.instance(kernel, argTypes, [], "kernel");
  b.diags.throwIfAny();
  return b.finish(kernel.name, handle);
}

export type { GlobalHandle };
