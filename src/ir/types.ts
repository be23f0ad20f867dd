// IR types, interned: each distinct type is one frozen object, so `a === b` is type equality.

import { InternalCompilerError } from "../errors.js";

export type Scalar = "bool" | "i32" | "u32" | "f32" | "f64";

/**
 * The element type of an array: a scalar, or a narrow integer (Int8Array i8, Uint8Array u8,
 * Uint8ClampedArray u8c, Int16Array i16, Uint16Array u16). Narrow elements exist only in memory:
 * a load gives an i32 (sign- or zero-extended as the typed array reads it) and a store takes an
 * i32 and keeps its low 8 or 16 bits (a u8c store's value is already clamped to 0…255 by
 * inference, as Uint8ClampedArray converts). Values are never narrow.
 */
export type Narrow = "i8" | "u8" | "u8c" | "i16" | "u16";
export type Elem = Scalar | Narrow;

const NARROW_BYTES: Record<Narrow, number> = { i8: 1, u8: 1, u8c: 1, i16: 2, u16: 2 };
export function isNarrow(e: Elem): e is Narrow { return e in NARROW_BYTES; }
/** The type of a value loaded from (and stored into) an element of type `e`. */
export function elemScalar(e: Elem): Scalar { return isNarrow(e) ? "i32" : e; }
/** Bytes per element in memory (bool never lives in arrays; counted as 4). */
export function elemBytes(e: Elem): number { return isNarrow(e) ? NARROW_BYTES[e] : e === "f64" ? 8 : 4; }
/**
 * The bytes a shared array of `count` elements takes: whole 32-bit words, at least one, as atomics
 * on 8- and 16-bit elements work on the word that holds them (every target and device).
 */
export function wordBytes(e: Elem, count: number): number { return Math.max(4, Math.ceil(elemBytes(e) * count / 4) * 4); }

/** Where an array lives: kernel parameters (global), scope tables (constant), per thread (private), per block (shared). */
type AddressSpace = "global" | "constant" | "private" | "shared";

export type Type =
  | { readonly kind: "scalar"; readonly scalar: Scalar }
  /**
   * An array; with `view`, a view of one (`a.subarray(b, e)`, a row of a multi-dimensional
   * shared array) as a helper receives it: its base array, an offset and a length. Views are
   * inference's argument types only: IR locals and expressions are never views.
   */
  | {
    readonly kind: "array"; readonly elem: Elem; readonly space: AddressSpace; readonly size: number | null; readonly view?: true; readonly dims?: readonly number[];
    /** A view through a bit cast (`new Uint32Array(key.buffer)`): its base array's element type, whose bits it reads as `elem`'s (infer/arrays.ts, bitsView). */
    readonly bits?: Elem;
  }
  /**
   * An object or tuple value (`{ x, y }`, `[lo, hi]`): its fields, each a scalar or another
   * aggregate. Inference's type only: an aggregate is scalarized into one IR local per leaf (and
   * one helper parameter per leaf), so IR locals and expressions never have it. An object's fields
   * are sorted by name (two objects with the same names and field types are the same type, in any
   * order); a tuple's are its elements "0", "1", ….
   */
  | { readonly kind: "agg"; readonly tuple: boolean; readonly fields: readonly { readonly name: string; readonly type: Type }[] }
  /**
   * `null` or `undefined` where an array may be (an optional array argument, `if (a)`):
   * inference's type only, known when a function is specialized; a parameter of this type has no
   * IR parameter and nothing of it reaches the IR.
   */
  | { readonly kind: "null"; readonly undef: boolean }
  /**
   * An array of objects of one shape (a plain JS Array of `{ x, y }` given to a kernel): inference's
   * type only. It is its leaves' arrays, one IR array parameter per leaf (depth first in the object
   * type's field order: structure of arrays, `structsLeaves`); `a[i]` is an object value read from
   * them, `a[i].x = v` a store into one. The objects' fields are numbers, and in a kernel's
   * argument also objects of such fields and fixed-length arrays of numbers (`f64[26]`) or of
   * objects (a `structs` with a `count`: `{ n: f64 }[26]`), whose leaves hold `count` elements
   * per object.
   */
  | { readonly kind: "structs"; readonly of: AggType; readonly count?: number }
  | { readonly kind: "void" }
  /**
   * A function as a value (`ROUND(w, r, k, F)` passing F): inference's type only, known when a
   * helper is specialized — one specialization per function it is given, as per argument type — so
   * a call through the parameter is a call of that function. `id` names the function (its
   * registry: infer/function-values.ts); `env`, the types of the locals a local function captures,
   * which a parameter of this type receives as IR parameters (none without).
   */
  | { readonly kind: "fn"; readonly id: number; readonly name: string; readonly env?: readonly Type[] }
  /** Inference's bottom: "no value seen yet". Never present in validated IR. */
  | { readonly kind: "unknown" };

export type ScalarType = Extract<Type, { kind: "scalar" }>;
export type ArrayType = Extract<Type, { kind: "array" }>;
export type AggType = Extract<Type, { kind: "agg" }>;
export type NullType = Extract<Type, { kind: "null" }>;
export type StructsType = Extract<Type, { kind: "structs" }>;
export type FnType = Extract<Type, { kind: "fn" }>;

const interned = new Map<string, Type>();
function intern<T extends Type>(key: string, make: () => T): T {
  let t = interned.get(key);
  if (!t) { t = Object.freeze(make()) as Type; interned.set(key, t); }
  return t as T;
}

export const T = {
  bool: intern("bool", () => ({ kind: "scalar", scalar: "bool" })) as ScalarType,
  i32: intern("i32", () => ({ kind: "scalar", scalar: "i32" })) as ScalarType,
  u32: intern("u32", () => ({ kind: "scalar", scalar: "u32" })) as ScalarType,
  f32: intern("f32", () => ({ kind: "scalar", scalar: "f32" })) as ScalarType,
  f64: intern("f64", () => ({ kind: "scalar", scalar: "f64" })) as ScalarType,
  void: intern("void", () => ({ kind: "void" })),
  null: intern("null", () => ({ kind: "null", undef: false })) as NullType,
  undefined: intern("undefined", () => ({ kind: "null", undef: true })) as NullType,
  unknown: intern("unknown", () => ({ kind: "unknown" })),
  scalar(s: Scalar): ScalarType { return T[s]; },
  array(elem: Elem, space: AddressSpace, size: number | null = null): ArrayType {
    return intern(`${elem}[${size ?? ""}] ${space}`, () => ({ kind: "array", elem, space, size }));
  },
  /** A view of an array of type `base` (its element type, address space and size: the base array's); through a bit cast of an array of `bits`. */
  view(base: ArrayType, bits?: Elem): ArrayType {
    return intern(`${base.elem}[${base.size ?? ""}] ${base.space} view${bits ? ` bits ${bits}` : ""}`, () => ({ kind: "array", elem: base.elem, space: base.space, size: base.size, view: true, ...(bits ? { bits } : {}) }));
  },
  /**
   * A multi-dimensional shared array as a helper receives it (inference's argument type only): the
   * flat array of `base` with its dimensions.
   */
  shaped(base: ArrayType, dims: readonly number[]): ArrayType {
    return intern(`${base.elem}[${base.size ?? ""}] ${base.space} ${dims.map((d) => `[${d}]`).join("")}`, () => ({ kind: "array", elem: base.elem, space: base.space, size: base.size, dims: [...dims] }));
  },
  /** An array of objects of type `of`, as a kernel's argument; with `count`, a fixed-length one inside such objects. */
  structs(of: AggType, count?: number): StructsType {
    return intern(`structs ${typeName(of)}[${count ?? ""}]`, () => (count === undefined ? { kind: "structs", of } : { kind: "structs", of, count }));
  },
  /** The type of the function `id` as a value (infer/function-values.ts), with the types of the locals it captures (`env`). */
  fn(id: number, name: string, env?: readonly Type[]): FnType {
    return intern(`fn ${id}${env?.length ? ` (${env.map(typeName).join(", ")})` : ""}`, () => ({ kind: "fn", id, name, ...(env?.length ? { env: [...env] } : {}) }));
  },
  /** An object value's type (fields in any order: they are sorted by name) or a tuple's (elements in order). */
  agg(tuple: boolean, fields: readonly { name: string; type: Type }[]): AggType {
    const list = tuple ? fields.map((f, i) => ({ name: String(i), type: f.type })) : [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const made = { kind: "agg", tuple, fields: list.map((f) => Object.freeze({ name: f.name, type: f.type })) } as const;
    return intern(`agg ${typeName(made)}`, () => ({ ...made, fields: Object.freeze(made.fields) }));
  },
};

export function isArray(t: Type): t is ArrayType { return t.kind === "array"; }
export function isInt(t: Type): boolean { return t === T.i32 || t === T.u32; }
export function isFloat(t: Type): boolean { return t === T.f32 || t === T.f64; }
/** A scalar type's scalar (the IR's validator has made sure the type is one). */
export function scalarOf(t: Type): Scalar {
  if (t.kind !== "scalar") throw new InternalCompilerError(`expected a scalar, got ${t.kind}`);
  return t.scalar;
}
export const isFloatScalar = (s: Scalar): boolean => s === "f32" || s === "f64";
export function typeName(t: Type): string {
  switch (t.kind) {
    case "scalar": return t.scalar;
    case "array": return `${t.elem}[${t.size ?? ""}]${t.space === "global" ? "" : " " + t.space}${t.view ? " view" : ""}${t.bits ? ` over ${t.bits}[]` : ""}${t.dims ? " " + t.dims.map((d) => `[${d}]`).join("") : ""}`;
    case "agg": return t.tuple ? `[${t.fields.map((f) => typeName(f.type)).join(", ")}]`
      : `{ ${t.fields.map((f) => `${/^[A-Za-z_$][\w$]*$/.test(f.name) ? f.name : JSON.stringify(f.name)}: ${typeName(f.type)}`).join(", ")} }`;
    case "null": return t.undef ? "undefined" : "null";
    case "structs": return `${typeName(t.of)}[${t.count ?? ""}]`;
    case "void": return "void";
    case "fn": return `function '${t.name}'`;
    case "unknown": return "?";
  }
}

export function isAgg(t: Type): t is AggType { return t.kind === "agg"; }

/**
 * Parse a type name: "f32" or "f32[]" (global array), "null" or "undefined" (an optional array's
 * absence), narrow elements only as arrays ("u8[]"), an object `{ a: f32, b: { c: i32 } }` (a
 * kernel's object argument: its fields sorted by name, numbers, booleans or objects), or an array
 * of objects `{ x: f32, y: i32 }[]` (fields numbers). Null for anything else.
 */
export function parseTypeName(name: string): Type | null {
  const n = name.trim();
  if (n === "null" || n === "undefined") return T[n];
  if (n.startsWith("{")) {
    const r = parseObjectType(n, 0);
    if (!r) return null;
    const rest = n.slice(r.end).trim();
    // (An object argument's fields are numbers, booleans and objects; an array of objects' are
    // numbers, booleans, objects and fixed-length arrays.)
    if (rest === "") return flatAgg(r.t, false) ? r.t : null;
    return rest === "[]" && flatAgg(r.t, true) ? T.structs(r.t) : null;
  }
  const m = /^(bool|i32|u32|f32|f64|i8|u8|u8c|i16|u16)(\[\])?$/.exec(n);
  if (!m) return null;
  if (m[2]) return T.array(m[1] as Elem, "global");
  return isNarrow(m[1] as Elem) ? null : T.scalar(m[1] as Scalar);
}

/** Whether an object type has only scalar and object fields (and, `arrays`, fixed-length arrays). */
function flatAgg(t: AggType, arrays: boolean): boolean {
  return t.fields.every((f) => (f.type.kind === "scalar" || f.type.kind === "agg" ? f.type.kind === "scalar" || flatAgg(f.type, arrays)
    : arrays && (f.type.kind === "array" || (f.type.kind === "structs" && flatAgg(f.type.of, true)))));
}

/** `{ name: type, … }` from `at` (a `{`), fields scalars, objects or fixed-length arrays of either (`f64[4]`, `{ x: f64 }[26]`): its type and where it ends; null if it is not one. */
function parseObjectType(s: string, at: number): { t: AggType; end: number } | null {
  const fields: { name: string; type: Type }[] = [];
  const field = /\s*([A-Za-z_$][\w$]*)\s*:\s*/y, scalar = /(bool|i32|u32|f32|f64)\b/y, count = /\[([1-9]\d{0,6})\]/y, sep = /\s*([,}])/y;
  let i = at + 1;
  for (;;) {
    field.lastIndex = i;
    const f = field.exec(s);
    if (!f || fields.some((x) => x.name === f[1])) return null;
    i = field.lastIndex;
    let type: Type;
    if (s[i] === "{") {
      const inner = parseObjectType(s, i);
      if (!inner) return null;
      ({ t: type, end: i } = inner);
    } else {
      scalar.lastIndex = i;
      const m = scalar.exec(s);
      if (!m) return null;
      type = T.scalar(m[1] as Scalar);
      i = scalar.lastIndex;
    }
    count.lastIndex = i;
    const c = count.exec(s);
    if (c) {
      i = count.lastIndex;
      type = type.kind === "agg" ? T.structs(type, Number(c[1])) : type === T.bool ? T.unknown : T.array((type as ScalarType).scalar, "global", Number(c[1]));
      if (type.kind === "unknown") return null;
    }
    fields.push({ name: f[1], type });
    sep.lastIndex = i;
    const e = sep.exec(s);
    if (!e) return null;
    i = sep.lastIndex;
    if (e[1] === "}") return { t: T.agg(false, fields), end: i };
  }
}

/**
 * One leaf of an array of objects: its path of fields ("nei.number"), its array's element type
 * (a boolean field's is u8: 0 or 1), and how many it holds per object (fixed-length arrays on
 * the way multiply).
 */
export interface StructsLeaf { readonly path: string; readonly elem: Elem; readonly per: number }

/** The leaves of an array of objects of type `of`, depth first in field order: one IR array each. */
export function structsLeaves(of: AggType, prefix = "", per = 1): StructsLeaf[] {
  return of.fields.flatMap((f) => {
    const path = prefix + f.name, t = f.type;
    if (t.kind === "scalar") return [{ path, elem: t.scalar === "bool" ? "u8" : t.scalar, per }];
    if (t.kind === "agg") return structsLeaves(t, path + ".", per);
    if (t.kind === "structs") return structsLeaves(t.of, path + ".", per * t.count!);
    return [{ path, elem: (t as ArrayType).elem, per: per * (t as ArrayType).size! }];
  });
}

/**
 * How many parameters a kernel argument of this type name has in compiled code: none for an
 * absent optional array, one per leaf for an object or an array of objects, else one.
 */
export function codeParameters(name: string): number {
  const t = parseTypeName(name);
  const leaves = (x: Type): number => (x.kind === "agg" ? x.fields.reduce((n, f) => n + leaves(f.type), 0) : 1);
  return t?.kind === "null" ? 0 : t?.kind === "structs" ? structsLeaves(t.of).length : t ? leaves(t) : 1;
}

/**
 * Per argument type name, how many code parameters it is, negative for an object's or an array of
 * objects' leaves: what a launch gives for them is not what their code parameters hold (a struct
 * array's fields, expanded at launch), so a launch proof never reads them (ir/launch-proof.ts).
 */
export function codeParameterCounts(types: readonly string[]): number[] {
  return types.map((t) => (t.startsWith("{") ? -codeParameters(t) : codeParameters(t)));
}

// The numeric lattice for joins and promotion: bool < i32 < u32 < f32 < f64 (u32 ⊔ i32 = u32, as in C and Julia).
const RANK: Record<Scalar, number> = { bool: 0, i32: 1, u32: 2, f32: 3, f64: 4 };

/** The common type of two scalars (a variable assigned both, or the operands of arithmetic). */
export function joinScalar(a: ScalarType, b: ScalarType): ScalarType {
  return RANK[a.scalar] >= RANK[b.scalar] ? a : b;
}

/** Exact value semantics of each scalar type on a JS number (what storing into the type does). */
export function wrapValue(t: Scalar, v: number | boolean): number | boolean {
  switch (t) {
    case "bool": return typeof v === "boolean" ? v : v !== 0 && v === v;
    case "i32": return Number(v) | 0;
    case "u32": return Number(v) >>> 0;
    case "f32": return Math.fround(Number(v));
    case "f64": return Number(v);
  }
}
