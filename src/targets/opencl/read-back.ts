// The read-back checks of OpenCL C artifacts (ARCHITECTURE.md, "Caches"): the layout's schema, and
// the code check — tokens (targets/tokens.ts: comments out, C's do not nest), no preprocessor directive but the
// pragmas gpuc writes (an #include or a #define could bring in or rename anything), no string or
// character literal; every call `f(` must name a function the program defines, an OpenCL C built-in
// function or a scalar type (a cast), and the entry must be a `__kernel` function.

import type { ReadBack, SchemaKit } from "../target.js";
import type { GenericSchema } from "valibot";
import { schemaParts } from "../layout-kit.js";
import { tokenize } from "../tokens.js";

export const openclReadBack: ReadBack = {
  layoutSchema: openclLayoutSchema,

  checkCode(a) {
    if (typeof a.code !== "string") return "its code is not text";
    return checkOpenCL(a.code, a.entry);
  },
};

/** The OpenCL C 1.2 built-in functions gpuc's code may call (the specification, §6.12), and the scalar types. */
const OPENCL_CALLABLE = new Set([
  // Work-item functions.
  "get_work_dim", "get_global_size", "get_global_id", "get_local_size", "get_local_id", "get_num_groups", "get_group_id", "get_global_offset",
  // Math.
  "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh", "exp", "exp2", "exp10", "expm1",
  "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "hypot", "ilogb", "ldexp", "log", "log2", "log10", "log1p", "logb", "mad", "nextafter",
  "pow", "pown", "powr", "remainder", "rint", "rootn", "round", "rsqrt", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
  // Integer, common, relational.
  "abs", "abs_diff", "add_sat", "clz", "hadd", "max", "min", "clamp", "mul_hi", "rotate", "sub_sat", "popcount", "sign",
  "isnan", "isinf", "isfinite", "isnormal", "signbit", "select", "bitselect",
  // Reinterpretation.
  "as_int", "as_uint", "as_float", "as_double", "as_long", "as_ulong", "as_char", "as_uchar", "as_short", "as_ushort",
  // Synchronization and atomics.
  "barrier", "mem_fence", "read_mem_fence", "write_mem_fence",
  "atomic_add", "atomic_sub", "atomic_xchg", "atomic_inc", "atomic_dec", "atomic_cmpxchg", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor",
  // Attributes and types (casts, `sizeof`).
  "__attribute__", "aligned", "reqd_work_group_size", "sizeof",
  "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
]);

/** Keywords that may be followed by `(` without being a call. */
const C_KEYWORDS = new Set(["if", "for", "while", "switch", "return", "do", "else", "case", "goto"]);

/** The pragmas gpuc writes. */
const PRAGMAS = new Set([
  "#pragma OPENCL FP_CONTRACT OFF", "#pragma OPENCL EXTENSION cl_khr_fp64 : enable", "#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable",
]);

function checkOpenCL(code: string, entry: string): string | null {
  const tk = tokenize(code, "c");
  if ("error" in tk) return `it cannot be parsed: ${tk.error}`;
  const tokens = tk.tokens;
  // (gpuc writes no string, character, escape or directive but its pragmas.)
  if (tokens.includes('"') || tokens.includes("'")) return "it holds a string or character literal";
  if (tokens.includes("\\")) return "it holds a backslash (a line continuation or an escape)";
  const directive = tokens.find((x) => x.startsWith("#") && !PRAGMAS.has(x));
  if (directive !== undefined) return `it holds a preprocessor directive other than gpuc's pragmas ('${directive.slice(0, 40)}')`;
  const fns = new Set<string>();
  let kernel: string | null = null;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const x = tokens[i];
    if (x === "{") depth++;
    else if (x === "}") { if (--depth < 0) return "it cannot be parsed: a '}' closes nothing"; }
    else if (depth === 0 && x === "__kernel") {
      // `__kernel [__attribute__((…))…] void name(`: the kernel's name.
      let j = i + 1;
      while (tokens[j] === "__attribute__" && tokens[j + 1] === "(") {
        let open = 0;
        j++;
        do { if (tokens[j] === "(") open++; else if (tokens[j] === ")") open--; j++; } while (open > 0 && j < tokens.length);
      }
      if (tokens[j] === "void" && tokens[j + 2] === "(" && tokens[j + 1] === entry) kernel = entry;
    } else if (depth === 0 && tokens[i + 1] === "(" && /^[A-Za-z_]/.test(x) && !OPENCL_CALLABLE.has(x)) {
      // A definition at file scope: `type name(` … `{`.
      fns.add(x);
    }
  }
  if (depth !== 0) return "it cannot be parsed: a '{' is not closed";
  if (!fns.has(entry)) return `its entry '${entry}' is not defined`;
  if (kernel === null) return `its entry '${entry}' is not a __kernel function`;
  for (let i = 0; i < tokens.length; i++) {
    const x = tokens[i];
    if (tokens[i + 1] !== "(" || !/^[A-Za-z_]/.test(x) || C_KEYWORDS.has(x)) continue;
    if (fns.has(x) || OPENCL_CALLABLE.has(x)) continue;
    return `it calls '${x}', which it does not define`;
  }
  return null;
}

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
function openclLayoutSchema(v: SchemaKit): GenericSchema {
  const { count, lines, tables, args } = schemaParts(v);
  return v.strictObject({
    args: args({ type: v.picklist(["int", "uint", "float", "double", "pointer", "local"]) }),
    relocation: v.picklist(["bake", "table"]),
    tables,
    localBytes: count,
    conditionalBarriers: v.boolean(),
    buildOptions: v.picklist(["", "-cl-fp32-correctly-rounded-divide-sqrt"]),
    lines,
  });
}
