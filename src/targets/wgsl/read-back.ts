// The read-back checks of WGSL artifacts (ARCHITECTURE.md, "Caches"): the layout's schema, and the
// code check — comments stripped and the text tokenized; every call `f(` or `f<…>(` must name a
// function of the module, a struct or alias, a WGSL built-in function or a built-in type.

import type { ReadBack, SchemaKit } from "../target.js";
import type { GenericSchema } from "valibot";
import { schemaParts } from "../layout-kit.js";
import { isNameToken, skipGroup, tokenize } from "../tokens.js";

export const wgslReadBack: ReadBack = {
  layoutSchema: wgslLayoutSchema,

  checkCode(a) {
    if (typeof a.code !== "string") return "its code is not text";
    return checkWGSL(a.code, a.entry);
  },
};

/** The built-in functions of WGSL (the W3C specification, §17), besides the type constructors below. */
const WGSL_BUILTIN_FUNCTIONS = [
  // Bit reinterpretation, logical, array.
  "bitcast", "all", "any", "select", "arrayLength",
  // Numeric.
  "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "atan2", "ceil", "clamp", "cos", "cosh",
  "countLeadingZeros", "countOneBits", "countTrailingZeros", "cross", "degrees", "determinant", "distance", "dot",
  "dot4U8Packed", "dot4I8Packed", "exp", "exp2", "extractBits", "faceForward", "firstLeadingBit", "firstTrailingBit",
  "floor", "fma", "fract", "frexp", "insertBits", "inverseSqrt", "ldexp", "length", "log", "log2", "max", "min", "mix",
  "modf", "normalize", "pow", "quantizeToF16", "radians", "reflect", "refract", "reverseBits", "round", "saturate",
  "sign", "sin", "sinh", "smoothstep", "sqrt", "step", "tan", "tanh", "transpose", "trunc",
  // Derivatives (fragment stage only, but built in all the same).
  "dpdx", "dpdxCoarse", "dpdxFine", "dpdy", "dpdyCoarse", "dpdyFine", "fwidth", "fwidthCoarse", "fwidthFine",
  // Textures.
  "textureDimensions", "textureGather", "textureGatherCompare", "textureLoad", "textureNumLayers", "textureNumLevels",
  "textureNumSamples", "textureSample", "textureSampleBias", "textureSampleCompare", "textureSampleCompareLevel",
  "textureSampleGrad", "textureSampleLevel", "textureSampleBaseClampToEdge", "textureStore",
  // Atomics.
  "atomicLoad", "atomicStore", "atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor",
  "atomicExchange", "atomicCompareExchangeWeak",
  // Data packing and unpacking.
  "pack4x8snorm", "pack4x8unorm", "pack4xI8", "pack4xU8", "pack4xI8Clamp", "pack4xU8Clamp", "pack2x16snorm",
  "pack2x16unorm", "pack2x16float", "unpack4x8snorm", "unpack4x8unorm", "unpack4xI8", "unpack4xU8",
  "unpack2x16snorm", "unpack2x16unorm", "unpack2x16float",
  // Synchronization.
  "storageBarrier", "textureBarrier", "workgroupBarrier", "workgroupUniformLoad",
  // Subgroups and quads (the `subgroups` extension).
  "subgroupAdd", "subgroupExclusiveAdd", "subgroupInclusiveAdd", "subgroupAll", "subgroupAnd", "subgroupAny",
  "subgroupBallot", "subgroupBroadcast", "subgroupBroadcastFirst", "subgroupElect", "subgroupMax", "subgroupMin",
  "subgroupMul", "subgroupExclusiveMul", "subgroupInclusiveMul", "subgroupOr", "subgroupShuffle", "subgroupShuffleDown",
  "subgroupShuffleUp", "subgroupShuffleXor", "subgroupXor",
  "quadBroadcast", "quadSwapDiagonal", "quadSwapX", "quadSwapY",
];

/** Built-in types a call may name (value constructors and conversions; `atomic` and `ptr` never construct, but are no unknown name). */
const WGSL_BUILTIN_TYPES = (() => {
  const out = ["bool", "f16", "f32", "i32", "u32", "array", "atomic", "ptr"];
  for (const n of [2, 3, 4]) {
    out.push(`vec${n}`, ...["f", "h", "i", "u"].map((s) => `vec${n}${s}`));
    for (const m of [2, 3, 4]) out.push(`mat${n}x${m}`, `mat${n}x${m}f`, `mat${n}x${m}h`);
  }
  return out;
})();

const WGSL_CALLABLE_BUILTINS: ReadonlySet<string> = new Set([...WGSL_BUILTIN_FUNCTIONS, ...WGSL_BUILTIN_TYPES]);

/** Keywords that may be followed by `(` without being a call. */
const WGSL_KEYWORDS: ReadonlySet<string> = new Set([
  "alias", "break", "case", "const", "const_assert", "continue", "continuing", "default", "diagnostic", "discard", "else",
  "enable", "false", "fn", "for", "if", "let", "loop", "override", "requires", "return", "struct", "switch", "true", "var", "while",
]);


/** Index of the `(` after a template list opened at `lt` (`f<…>(`), or -1 when it is no template list before a call. */
function wgslTemplateCall(t: string[], lt: number): number {
  let depth = 0;
  for (let j = lt; j < t.length; j++) {
    const x = t[j];
    if (x === "<") {
      if (j !== lt && !isNameToken(t[j - 1])) return -1;
      depth++;
    } else if (x === ">" || x === ">>") {
      depth -= x.length;
      if (depth === 0) return t[j + 1] === "(" ? j + 1 : -1;
      if (depth < 0) return -1;
    } else if (x === "(" || x === "[") {
      const k = skipGroup(t, j);
      if (k < 0) return -1;
      j = k - 1;
    } else if (x === ";" || x === "{" || x === "}" || x === ")" || x === "]" || x === "=" || x === ":" || x === "&&" || x === "||" || x === "<=" || x === ">=" || x === "<<" || x === "<<=" || x === ">>=") return -1;
  }
  return -1;
}

function checkWGSL(code: string, entry: string): string | null {
  const tk = tokenize(code, "wgsl");
  if ("error" in tk) return `it cannot be parsed: ${tk.error}`;
  const t = tk.tokens;
  const fns = new Map<string, string[]>(); // name → its attributes
  const types = new Set<string>();
  const values = new Set<string>();
  let attrs: string[] = [];
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (x === "@" && i + 1 < t.length) {
      attrs.push(t[i + 1]);
      if (t[i + 2] === "(") { const k = skipGroup(t, i + 2); if (k > 0) i = k - 1; else i++; }
      else i++;
      continue;
    }
    const next = t[i + 1];
    if (x === "fn" && next !== undefined) { fns.set(next, attrs); }
    else if ((x === "struct" || x === "alias") && next !== undefined) types.add(next);
    else if (x === "let" || x === "const" || x === "override") { if (next !== undefined) values.add(next); }
    else if (x === "var") {
      let j = i + 1;
      if (t[j] === "<") { while (j < t.length && t[j] !== ">") j++; j++; }
      if (j < t.length) values.add(t[j]);
    } else if (x === "(" || x === ",") {
      // A function parameter (`name: type`, after its attributes), or a struct member: a value either way.
      let j = i + 1;
      while (t[j] === "@") { j += 2; if (t[j] === "(") { const k = skipGroup(t, j); if (k < 0) break; j = k; } }
      if (t[j + 1] === ":" && t[j] !== undefined && isNameToken(t[j])) values.add(t[j]);
    }
    attrs = [];
  }
  const entryAttrs = fns.get(entry);
  if (!entryAttrs) return `its entry '${entry}' is not defined`;
  if (!entryAttrs.includes("compute")) return `its entry '${entry}' is not a @compute function`;
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (!isNameToken(x) || WGSL_KEYWORDS.has(x)) continue;
    const prev = t[i - 1];
    if (prev === "@" || prev === "fn") continue;
    const next = t[i + 1];
    if (next !== "(" && !(next === "<" && wgslTemplateCall(t, i + 1) > 0)) continue;
    if (fns.has(x) || types.has(x) || WGSL_CALLABLE_BUILTINS.has(x)) continue;
    return values.has(x) ? `it calls '${x}', which is not a function` : `it calls '${x}', which it does not define`;
  }
  return null;
}

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
function wgslLayoutSchema(v: SchemaKit): GenericSchema {
  const { count, int, lines } = schemaParts(v);
  return v.strictObject({
    bindings: v.array(v.strictObject({
      binding: count, kind: v.picklist(["uniform", "storage", "texture"]), readOnly: v.boolean(), role: v.picklist(["params", "state", "param", "table", "record"]), index: int,
    })),
    fields: v.array(v.strictObject({ name: v.string(), type: v.picklist(["i32", "u32", "f32"]), source: v.strictObject({ param: int, length: v.boolean(), offset: v.optional(v.literal(true)) }) })),
    workgroupSize: v.tuple([v.string(), v.string(), v.string()]),
    lines,
    sites: v.array(v.strictObject({ binding: count, declaration: v.tuple([count, count]), accesses: v.array(count), mentions: v.array(count) })),
  });
}
