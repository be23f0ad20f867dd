// Tokens of WGSL, PTX and OpenCL C text, for the read-back code checks of those targets
// (wgsl/read-back.ts, ptx/read-back.ts, opencl/read-back.ts).
//
// A hand-written scanner (several times faster than a sticky regular expression per token).
// Names: PTX `[.%$A-Za-z_][\w$.]*` (directives, dotted opcodes and registers are one token);
// WGSL `[A-Za-z_][\w]*` and any non-ASCII character (WGSL's XID names). Numbers: a digit and
// then letters, digits, `.` and an exponent's sign. Operators: the comparisons, shifts, `&&`,
// `||` as one token (templates need them); anything else one character per token. C (`c`): names
// `[A-Za-z_]\w*`; a `#` first on its line (comments and white space aside) begins a directive,
// one token to the end of the line, trimmed; a quote or backslash is a token of its own (the
// check refuses them).

type Lang = "wgsl" | "ptx" | "c";

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** Whether a token (non-empty) is a name: WGSL `[A-Za-z_]…` or non-ASCII; PTX also `.`, `%`, `$`. */
export function isNameToken(t: string): boolean {
  const c = t.charCodeAt(0);
  return isAlpha(c) || c >= 128;
}
function isNameStart(c: number, lang: Lang): boolean {
  return isAlpha(c) || (lang === "wgsl" ? c >= 128 : lang === "ptx" && (c === 46 || c === 37 || c === 36));
}
function isNamePart(c: number, lang: Lang): boolean {
  return isAlpha(c) || isDigit(c) || (lang === "wgsl" ? c >= 128 : lang === "ptx" && (c === 46 || c === 36));
}

/** The comment-free tokens of a text, or why it cannot be split into them. */
export function tokenize(code: string, lang: Lang): { tokens: string[] } | { error: string } {
  const tokens: string[] = [];
  const n = code.length;
  let i = 0;
  /** Whether only white space and comments precede `i` on its line (C's directives). */
  let lineStart = true;
  while (i < n) {
    const c = code.charCodeAt(i);
    if (c === 10) lineStart = true;
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11) { i++; continue; }
    if (c === 47 /* / */) {
      const d = code.charCodeAt(i + 1);
      if (d === 47) { const e = code.indexOf("\n", i + 2); i = e < 0 ? n : e + 1; lineStart = true; continue; }
      if (d === 42) {
        // WGSL's block comments nest; PTX's and C's do not (C: one space, the line goes on).
        let depth = 1;
        let j = i + 2;
        while (j < n && depth > 0) {
          const x = code.charCodeAt(j);
          if (x === 42 && code.charCodeAt(j + 1) === 47) { depth--; j += 2; }
          else if (lang === "wgsl" && x === 47 && code.charCodeAt(j + 1) === 42) { depth++; j += 2; }
          else j++;
        }
        if (depth > 0) return { error: "a /* comment does not end" };
        i = j;
        continue;
      }
    }
    let j = i + 1;
    if (c === 35 /* # */ && lang === "c" && lineStart) {
      const e = code.indexOf("\n", i);
      j = e < 0 ? n : e;
      tokens.push(code.slice(i, j).trim());
      i = j;
      continue;
    }
    lineStart = false;
    if (isNameStart(c, lang)) {
      while (j < n && isNamePart(code.charCodeAt(j), lang)) j++;
    } else if (isDigit(c) || (c === 46 && isDigit(code.charCodeAt(j)))) {
      for (; j < n; j++) {
        const x = code.charCodeAt(j);
        if (isAlpha(x) || isDigit(x) || x === 46) continue;
        // An exponent's sign: 1e-3, 0x1p+4.
        const e = code.charCodeAt(j - 1) | 32;
        if ((x === 43 || x === 45) && (e === 101 || e === 112) && isDigit(code.charCodeAt(j + 1))) continue;
        break;
      }
    } else if (c === 34 /* " */ && lang === "ptx") {
      while (j < n && code.charCodeAt(j) !== 34 && code.charCodeAt(j) !== 10) j += code.charCodeAt(j) === 92 ? 2 : 1;
      if (code.charCodeAt(j) !== 34) return { error: "a string does not end" };
      j++;
    } else if (c === 60 || c === 62) {
      // < <= << <<=  and  > >= >> >>=
      const d = code.charCodeAt(j);
      if (d === c) { j++; if (code.charCodeAt(j) === 61) j++; }
      else if (d === 61) j++;
    } else if ((c === 61 || c === 33) && code.charCodeAt(j) === 61) j++; // == !=
    else if ((c === 38 || c === 124) && code.charCodeAt(j) === c) j++; // && ||
    tokens.push(j === i + 1 ? code[i] : code.slice(i, j));
    i = j;
  }
  return { tokens };
}

/** Index just past the group opened at `open` (`(`/`)` or `[`/`]`, nesting both), or -1. */
export function skipGroup(t: string[], open: number): number {
  let depth = 0;
  for (let j = open; j < t.length; j++) {
    const x = t[j];
    if (x === "(" || x === "[") depth++;
    else if (x === ")" || x === "]") { if (--depth === 0) return j + 1; }
  }
  return -1;
}
