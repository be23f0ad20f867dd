// Poison detection (DESIGN §4): code that falls back to dynamic dispatch — a call to something
// the module does not define, which the runtime would have to resolve by name — must never be
// linked or launched. gpuc's compiler never emits it (an unresolvable call is a CompileError),
// so poison in a cache means the entry was made by something else or damaged: it is discarded
// and the kernel compiled afresh; poison in fresh output is an internal error, never cached.

/** Why an artifact's code is poisoned, or null when every call it makes is defined in it. */
export function findPoison(a: { target: string; code: string | Uint8Array; entry: string }): string | null {
  if (typeof a.code !== "string") return null;
  const code = a.code;
  switch (a.target) {
    case "ptx": {
      if (/^\s*\.extern\b/m.test(code)) return "it declares an external symbol (.extern), resolved only when linked";
      const defined = new Set([...code.matchAll(/^\.(?:visible\s+\.)?(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)\s*\(/gm)].map((m) => m[1]));
      if (!defined.has(a.entry)) return `its entry '${a.entry}' is not defined`;
      for (const m of code.matchAll(/\bcall(?:\.uni)?\s+(?:\([^)]*\),\s*)?([A-Za-z_$][\w$]*)\s*,/g))
        if (!defined.has(m[1])) return `it calls '${m[1]}', which it does not define`;
      return null;
    }
    case "wgsl": {
      const defined = new Set([...code.matchAll(/\bfn\s+([A-Za-z_][\w]*)\s*\(/g)].map((m) => m[1]));
      if (!defined.has(a.entry)) return `its entry '${a.entry}' is not defined`;
      for (const m of code.matchAll(/\b(gpuc_[\w]*)\s*\(/g)) if (!defined.has(m[1])) return `it calls '${m[1]}', which it does not define`;
      return null;
    }
    case "js": {
      const defined = new Set([...code.matchAll(/\bfunction\s+([A-Za-z_$][\w$]*)\s*\(/g)].map((m) => m[1]));
      if (!defined.has(a.entry)) return `its entry '${a.entry}' is not defined`;
      // Calls to gpuc's own functions (helpers and the runtime library are named `name$<n>`).
      for (const m of code.matchAll(/(?<![\w$.])([A-Za-z_][\w]*\$\d+)\s*\(/g)) if (!defined.has(m[1])) return `it calls '${m[1]}', which it does not define`;
      return null;
    }
    default:
      return null;
  }
}
