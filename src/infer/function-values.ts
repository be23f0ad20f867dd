// Functions as values (`ROUND(w, r, k, F)`, `reduce(v, (a, b) => a + b)`): a function is a type of
// its own (ir/types.ts `fn`), so a helper given one is specialized for it as for any argument
// type, and a call through its parameter is a call of that function — nothing of it reaches the
// IR. This registry names each function a value may be: one id per helper (its lowered
// UFunction), generator or intrinsic. Types are interned for the process, so the registry holds
// helpers and generators weakly: a compile's functions go with it.

import type { UCallee, UFunction } from "../frontend/uir.js";
import { T, type FnType, type Type } from "../ir/types.js";
import { InternalCompilerError } from "../errors.js";

export type FnCallee = Exclude<UCallee, { k: "var" } | { k: "dynamic" }>;

const ids = new WeakMap<object, number>();
const intrinsicIds = new Map<string, number>();
const entries: ({ k: "intrinsic"; name: string } | { k: "function" | "generated"; ref: WeakRef<object>; name: string })[] = [];

/** The type of `callee` as a value, with the types of the locals it captures (`env`). */
export function fnType(callee: FnCallee, name: string, env?: readonly Type[]): FnType {
  const key = callee.k === "function" ? callee.fn() : callee.k === "generated" ? callee.gen : null;
  let id = key ? ids.get(key) : intrinsicIds.get((callee as { name: string }).name);
  if (id === undefined) {
    id = entries.length;
    if (key) { entries.push({ k: callee.k as "function" | "generated", ref: new WeakRef(key), name: (callee as { name?: string }).name ?? name }); ids.set(key, id); }
    else { entries.push({ k: "intrinsic", name: (callee as { name: string }).name }); intrinsicIds.set((callee as { name: string }).name, id); }
  }
  return T.fn(id, name, env);
}

/** What a value of type `t` calls (while the compile that made it runs). */
export function fnCallee(t: FnType): FnCallee {
  const e = entries[t.id];
  if (e.k === "intrinsic") return e;
  const target = e.ref.deref();
  if (!target) throw new InternalCompilerError(`the function of ${t.name} as a value was collected while its compile ran`);
  return e.k === "function" ? { k: "function", fn: () => target as UFunction } : { k: "generated", gen: target as Function, name: e.name };
}
