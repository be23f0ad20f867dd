// Target helpers: code of a target's own that its emitted code calls for what has no instruction or
// built-in with JavaScript's meaning (WGSL's exact f32 remainder, PTX's f64 fmod). Each target
// keeps its registry beside its emitter (wgsl/helpers.ts, ptx/prelude.ts) and its legal.ts names
// the ops spelled with one; this is how any target collects the ones its code uses.

import { InternalCompilerError } from "../errors.js";

/** One helper: the other helpers of the same registry it calls. */
export interface Helper { readonly deps: readonly string[] }

/** The helpers `used` needs, each after the ones it calls, each once (in first-use order). */
export function helperClosure<H extends Helper>(registry: Readonly<Record<string, H>>, used: Iterable<string>): string[] {
  const out: string[] = [];
  const add = (name: string): void => {
    if (out.includes(name)) return;
    const h = registry[name];
    if (!h) throw new InternalCompilerError(`no target helper '${name}'`);
    for (const d of h.deps) add(d);
    out.push(name);
  };
  for (const n of used) add(n);
  return out;
}
