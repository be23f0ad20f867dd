// The read-back checks of PTX artifacts (ARCHITECTURE.md, "Caches"): the layout's schema, and the
// code check — comments stripped and the text tokenized; every `call` must name a `.func` defined
// in the module (a call through a register, and any `.extern`, is refused — except the one unsized
// `.extern .shared` array gpuc declares for shared arrays sized at launch, which is PTX's dynamic
// shared memory, not a symbol of another module).

import type { ReadBack, SchemaKit } from "../target.js";
import type { GenericSchema } from "valibot";
import { schemaParts } from "../layout-kit.js";
import { skipGroup, tokenize } from "../tokens.js";

export const ptxReadBack: ReadBack = {
  layoutSchema: ptxLayoutSchema,

  checkCode(a) {
    if (typeof a.code !== "string") return "its code is not text";
    return checkPTX(a.code, a.entry);
  },
};

const PTX_NAME = /^[A-Za-z_$%][\w$]*$/;

function checkPTX(code: string, entry: string): string | null {
  const tk = tokenize(code, "ptx");
  if ("error" in tk) return `it cannot be parsed: ${tk.error}`;
  const t = tk.tokens;
  const entries = new Set<string>();
  const funcs = new Set<string>();
  const declared = new Set<string>();
  const calls: string[] = [];
  let depth = 0;
  let start = true; // at the start of an instruction (inside a body)
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (x === ".extern") {
      // The symbol: the first name after the directives and any parameter list.
      let j = i + 1;
      while (j < t.length && (t[j][0] === "." || t[j] === "(" || /^\d/.test(t[j]))) {
        if (t[j] === "(") { const k = skipGroup(t, j); if (k < 0) break; j = k; } else j++;
      }
      const name = t[j] !== undefined && PTX_NAME.test(t[j]) ? t[j] : "?";
      const dynamicShared = depth === 0 && t[i + 1] === ".shared" && name === "gpuc_dynamic_shared" && t[j + 1] === "[" && t[j + 2] === "]" && t[j + 3] === ";";
      if (!dynamicShared) return `it declares an external symbol '${name}' (.extern)`;
      continue;
    }
    if (x === "{") { depth++; start = true; continue; }
    if (x === "}") {
      if (--depth < 0) return "it cannot be parsed: a '}' closes nothing";
      start = true;
      continue;
    }
    if (x === ";") { start = true; continue; }
    if (depth === 0) {
      if (x !== ".entry" && x !== ".func") continue;
      let j = i + 1;
      if (x === ".func" && t[j] === "(") { j = skipGroup(t, j); if (j < 0) return "it cannot be parsed: a .func return parameter list does not end"; }
      const name = t[j];
      if (name === undefined || !PTX_NAME.test(name)) return `it cannot be parsed: a ${x} without a name`;
      j++;
      if (t[j] === "(") { j = skipGroup(t, j); if (j < 0) return `it cannot be parsed: the parameter list of '${name}' does not end`; }
      while (j < t.length && t[j] !== "{" && t[j] !== ";") j++;
      if (t[j] === "{") (x === ".entry" ? entries : funcs).add(name);
      else declared.add(name);
      i = j - 1;
      continue;
    }
    if (!start) continue;
    // Labels (`name:`) and predicate guards (`@%p`, `@!%p`) precede an instruction.
    if (t[i + 1] === ":" && PTX_NAME.test(x)) { i++; continue; }
    if (x === "@") { i += t[i + 1] === "!" ? 2 : 1; continue; }
    start = false;
    if (x !== "call" && !x.startsWith("call.")) continue;
    let j = i + 1;
    if (t[j] === "(") {
      j = skipGroup(t, j);
      if (j < 0 || t[j] !== ",") return "it cannot be parsed: a call's return parameter list is malformed";
      j++;
    }
    const target = t[j];
    if (target === undefined || !PTX_NAME.test(target)) return `it cannot be parsed: a call without a target`;
    if (target[0] === "%") return `it makes an indirect call (call through register ${target})`;
    calls.push(target);
  }
  if (depth !== 0) return "it cannot be parsed: a '{' is not closed";
  if (!entries.has(entry)) return funcs.has(entry) ? `its entry '${entry}' is a .func, not an .entry` : `its entry '${entry}' is not defined`;
  for (const target of calls) {
    if (funcs.has(target)) continue;
    if (entries.has(target)) return `it calls '${target}', which is a kernel entry, not a function`;
    return declared.has(target) ? `it calls '${target}', which it declares but does not define` : `it calls '${target}', which it does not define`;
  }
  return null;
}

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
function ptxLayoutSchema(v: SchemaKit): GenericSchema {
  const { count, int, lines, tables } = schemaParts(v);
  return v.strictObject({
    arch: v.string(),
    params: v.array(v.strictObject({
      name: v.string(), role: v.picklist(["value", "pointer", "length", "state", "state-length", "tables"]), index: int,
      type: v.picklist(["u64", "u32", "s32", "f32", "f64"]),
    })),
    relocation: v.picklist(["bake", "patch", "table"]),
    tables,
    sharedBytes: count,
    lines,
  });
}
