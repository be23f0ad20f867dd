// What the parts emitting one WGSL shader share (emit.ts builds them around it): the module, the
// function being emitted (the kernel, then each runtime function) with its names, lines and their
// locations; what the module analysis found (barriers, arrays used atomically, written, the
// bindings of the kernel's array parameters); the prelude's helpers the code uses; WGSL's names and
// types; and the lowering of expressions, which the parts below it reach through it.

import type { ExprHandle, Function, Module } from "../../ir/module.js";
import { elemScalar, isNarrow, type Elem, type Narrow, type Scalar, type Type } from "../../ir/types.js";
import { LineWriter } from "../locations.js";
import { legalName, type NameRules } from "../names.js";
import { InternalCompilerError } from "../../errors.js";

const RESERVED = new Set(`alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if let
  loop override requires return struct switch true var while array atomic bool f16 f32 i32 u32 mat2x2 mat3x3 mat4x4 ptr sampler texture_2d vec2 vec3 vec4
  bitcast select main params state lid wid nwg wgx wgy wgz`.split(/\s+/));

/** WGSL names: no "__" (reserved), a letter first. */
const WGSL_NAMES: NameRules = { invalid: /[^A-Za-z0-9_]/g, collapseUnderscores: true, badStart: (n) => /^[0-9_]/.test(n), prefix: "v", reserved: RESERVED };

export function sanitize(name: string): string {
  return legalName(name, WGSL_NAMES);
}

export const SCALAR: Record<Scalar, string> = { bool: "bool", i32: "i32", u32: "u32", f32: "f32", f64: "f64" };

/** The runtime function that records an exception (see emit.ts, RAISE). */
export const REPORT = "gpuc_report_exception";

/** The lowering of expressions (expressions.ts), for the parts below it (arrays.ts: indices, stored values). */
export interface Lowering {
  expr(h: ExprHandle): string;
}

export class ShaderContext extends LineWriter {
  /** The function being emitted: the kernel, or a runtime function (emit.ts, runtimeFunction). */
  f: Function;
  names: string[] = [];
  hasBarrier = false;
  /** Workgroup loads read beforehand with workgroupUniformLoad, by expression: the name that holds each (statements.ts). */
  readonly uniformLoads = new Map<number, string>();
  /** Whether the kernel uses subgroup operations or builtins (the `subgroups` feature). */
  usesSubgroups = false;
  /** Whether threads may communicate through storage buffers (an array written and read, or atomic). */
  storageShared = false;
  /** Helper functions of the prelude the code uses (emitted before main). */
  readonly prelude = new Set<string>();
  readonly atomicArrays = new Set<string>(); // keys: "p3" (param local), "g1", "s0", "state"
  readonly written = new Set<string>();
  /** The binding of each array parameter of the kernel, by local: where its variable is named is marked (sites.ts). */
  readonly paramBindings = new Map<number, number>();
  /** Set by emit.ts once the expressions' part exists. */
  lower!: Lowering;

  constructor(readonly m: Module) {
    super();
    this.f = m.functions[m.entry];
  }

  use(name: string, text: string): string { this.prelude.add(name); return text; }

  // ---- names and types ---------------------------------------------------------------------

  global(i: number): string { return `g_${sanitize(this.m.globals[i].name)}`; }
  shared(i: number): string { return `s_${sanitize(this.m.shared[i].name)}_${i}`; }

  /**
   * A storage or workgroup array's element type in WGSL: narrow elements are packed in u32 words,
   * atomic when written; an f32 array used atomically is atomic<u32> words holding the floats' bits
   * (WGSL has no float atomics; arrays.ts reads and writes them through bitcasts).
   */
  elemType(key: string, elem: Elem): string {
    if (isNarrow(elem)) return this.written.has(key) ? "atomic<u32>" : "u32";
    if (!this.atomicArrays.has(key)) return SCALAR[elem];
    return elem === "f32" ? "atomic<u32>" : `atomic<${SCALAR[elem]}>`;
  }

  /** Private arrays: narrow elements are i32s, each holding its element's value (stores narrow it). */
  typeText(t: Type): string {
    if (t.kind === "scalar") return SCALAR[t.scalar];
    if (t.kind === "array" && t.size !== null) return `array<${SCALAR[elemScalar(t.elem)]}, ${t.size}>`;
    throw new InternalCompilerError(`WGSL local of type ${JSON.stringify(t)}`);
  }

  /** "p<local>", "g<global>", "s<shared>", "state" or "l<private local>" for an array expression. */
  arrayKey(h: ExprHandle): string {
    const e = this.f.exprs[h];
    if (e.k === "local") {
      // The kernel's state, or a runtime function's state parameter (the module binding).
      if (e.local === this.f.stateParam || (this.f.kind === "runtime" && e.local === this.f.params[0])) return "state";
      return this.f.params.includes(e.local) ? `p${e.local}` : `l${e.local}`;
    }
    if (e.k === "global") return `g${e.global}`;
    if (e.k === "shared") return `s${e.shared}`;
    throw new InternalCompilerError(`array expression of kind ${e.k}`);
  }

  /** The narrow element type of an array expression, or null. */
  narrowOf(array: ExprHandle): Narrow | null {
    const t = this.f.exprs[array].type;
    return t.kind === "array" && isNarrow(t.elem) ? t.elem : null;
  }

  /** The binding of an array parameter of the kernel, or undefined (any other array, or a runtime function's). */
  paramBinding(array: ExprHandle): number | undefined {
    const e = this.f.exprs[array];
    return e.k === "local" && this.f === this.m.functions[this.m.entry] ? this.paramBindings.get(e.local) : undefined;
  }
}
