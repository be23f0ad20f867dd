// The read-back checks of LLVM IR artifacts (ARCHITECTURE.md, "Caches"): the layout's schema, and
// the code check — the text read line by line (gpuc writes one definition, declaration or
// instruction a line; comments stripped); every function a call names must be defined in the
// module or be one the driver provides by its contract (an `llvm.` intrinsic, a SPIR work-item or
// barrier builtin); every symbol named must exist; no call through a pointer, no inline assembly,
// no alias, no external global but the dynamic LDS block; the entry is a kernel of the module.

import type { ReadBack, SchemaKit } from "../target.js";
import type { GenericSchema } from "valibot";
import { schemaParts } from "../layout-kit.js";

export const llvmReadBack: ReadBack = {
  layoutSchema: llvmLayoutSchema,

  checkCode(a) {
    if (typeof a.code !== "string") return "its code is not text";
    return checkLLVM(a.code, a.entry);
  },
};

/** What SPIR drivers provide, as the emitter calls it (emit.ts): work-item ids and sizes, barriers, fences. */
const SPIR_BUILTINS = new Set(["_Z12get_local_idj", "_Z12get_group_idj", "_Z14get_local_sizej", "_Z14get_num_groupsj", "_Z7barrierj"]);
const NAME = /@([A-Za-z_.$][\w.$]*)/g;

/** A line without its comment (`;` outside a quoted string). */
function stripComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ";" && !quoted) return line.slice(0, i);
  }
  return line;
}

/**
 * What is wrong with a SPIR kernel's argument metadata, or null: a driver reads it before anything
 * else, and PoCL (built with assertions, as Debian's is) ends the process on a list that is
 * missing or of another length than the kernel's parameters — so a module read back must have
 * each of the four lists, one entry per parameter, and no `!opencl.kernels`.
 */
function spirMetadataProblem(code: string, entry: string): string | null {
  if (/^!opencl\.kernels\b/m.test(code)) return "it has SPIR 1.2's !opencl.kernels list, which drivers here misread";
  const head = code.split("\n").find((l) => l.startsWith("define ") && l.includes(` @${entry}(`))!;
  const params = head.slice(head.indexOf("(") + 1, head.lastIndexOf(")"));
  const count = params.trim() ? params.split(",").length : 0;
  const nodes = new Map<string, number>();
  for (const m of code.matchAll(/^!(\d+) = !\{(.*)\}$/gm)) nodes.set(m[1], entries(m[2]));
  for (const list of ["kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type", "kernel_arg_type_qual"]) {
    const ref = new RegExp(`!${list} !(\\d+)\\b`).exec(head);
    if (!ref) return `its kernel has no !${list} list`;
    if (nodes.get(ref[1]) !== count) return `its kernel's !${list} list has ${nodes.get(ref[1]) ?? "no"} entries for ${count} parameters`;
  }
  return null;
}

/** The entries of a metadata node's list (commas inside quoted strings are no separators). */
function entries(list: string): number {
  if (!list.trim()) return 0;
  let n = 1, quoted = false;
  for (const c of list) {
    if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) n++;
  }
  return n;
}

function checkLLVM(code: string, entry: string): string | null {
  const defined = new Set<string>(), declared = new Set<string>(), globals = new Set<string>();
  const named: string[] = [];
  let depth = 0, entryFound = false;
  for (const raw of code.split("\n")) {
    const line = stripComment(raw).trim();
    if (!line) continue;
    if (/\basm\b/.test(line) && !line.startsWith('"')) return "it holds inline assembly";
    if (/^@[\w.$]+\s*=\s*(\w+\s+)*(alias|ifunc)\b/.test(line)) return "it defines an alias";
    if (depth === 0) {
      const def = /^define\s+(?:[^@]*?\s)?(?:void|i1|i32|float|double)\s+@([A-Za-z_.$][\w.$]*)\(/.exec(line);
      if (def) {
        defined.add(def[1]);
        if (def[1] === entry && /^define\s+(spir_kernel|amdgpu_kernel)\s+void\s/.test(line)) entryFound = true;
        if (line.endsWith("{")) depth++;
        else return "it cannot be parsed: a definition without a body";
        named.push(...[...line.slice(line.indexOf("(")).matchAll(NAME)].map((m) => m[1]));
        continue;
      }
      const dec = /^declare\s+[^@]*@([A-Za-z_.$][\w.$]*)\(/.exec(line);
      if (dec) {
        if (!dec[1].startsWith("llvm.") && !SPIR_BUILTINS.has(dec[1])) return `it declares an external function '${dec[1]}'`;
        declared.add(dec[1]);
        continue;
      }
      const glob = /^@([A-Za-z_.$][\w.$]*)\s*=\s*(.*)$/.exec(line);
      if (glob) {
        if (/\bexternal\b/.test(glob[2]) && !(glob[1] === "gpuc_dynamic_lds" && /^external addrspace\(3\) global \[0 x i8\]/.test(glob[2])))
          return `it declares an external global '${glob[1]}'`;
        globals.add(glob[1]);
        named.push(...[...glob[2].matchAll(NAME)].map((m) => m[1]));
        continue;
      }
      if (/^(target|source_filename|attributes|!)/.test(line)) continue;
      return `it cannot be parsed: '${line.slice(0, 60)}' at the top level`;
    }
    if (line === "}") { depth--; continue; }
    if (line.endsWith("{")) return "it cannot be parsed: a nested block";
    // Calls name their callee directly: not through a value.
    const call = /\bcall\s+(?:\w+\s+)*?(?:void|i1|i8|i16|i32|i64|float|double|ptr(?:\s+addrspace\(\d+\))?)\s+([@%][\w.$-]*)/.exec(line);
    if (/\b(call|invoke)\b/.test(line) && (!call || call[1][0] !== "@")) return `it calls through a value ('${line.slice(0, 60)}')`;
    named.push(...[...line.matchAll(NAME)].map((m) => m[1]));
  }
  if (depth !== 0) return "it cannot be parsed: a function does not end";
  if (!entryFound) return `its entry '${entry}' is not a kernel of the module`;
  if (/^target triple = "spir64-unknown-unknown"$/m.test(code)) {
    const bad = spirMetadataProblem(code, entry);
    if (bad) return bad;
  }
  for (const n of named) if (!defined.has(n) && !declared.has(n) && !globals.has(n)) return `it refers to '@${n}', which it neither defines nor declares`;
  return null;
}

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
function llvmLayoutSchema(v: SchemaKit): GenericSchema {
  const { count, tables, args } = schemaParts(v);
  return v.strictObject({
    arch: v.picklist(["spir64", "gfx90a", "gfx940", "gfx1100"]),
    args: args(),
    relocation: v.picklist(["table"]),
    tables,
    localBytes: count,
    conditionalBarriers: v.boolean(),
  });
}
