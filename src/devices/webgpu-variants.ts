// The WebGPU device's variants of a kernel's shader (ARCHITECTURE.md, "What a device cannot bind,
// it rewrites"): the WGSL gpuc emitted, spliced at the sites its layout records (layout.ts,
// WGSLSites) — a binding merged into another (its declaration line emptied, its variable named as
// the other's, its reads wrapped in atomicLoad where the other is atomic), accesses shifted by a
// view's offset. Nothing in the text is searched for: the sites say where, and each is checked
// against the text before it is used (an artifact read back is untrusted), so a damaged or forged
// layout is an InternalCompilerError (a revived kernel is then healed), never a shader made of
// text the sites do not describe.

import { InternalCompilerError, quoteName } from "../errors.js";
import type { WGSLLayout, WGSLSites } from "../targets/wgsl/layout.js";

/** A change of the text: [start, end) becomes `render(the index as changed)`; `index` is the part of an access changed inside it. */
interface Splice { start: number; end: number; index: [number, number] | null; render: (index: string) => string }

/**
 * The code of a variant: each binding in `merge` (removed → kept) left undeclared (its line
 * emptied, so line numbers, which map WGSL errors to the kernel's source, stay) and its variable
 * named as the kept binding's, read with atomicLoad where the kept one is atomic and it is not;
 * each access of a binding in `shift` (binding → offset in elements) at `(u32(index) + offset)`.
 */
export function variantCode(kernel: string, code: string, layout: WGSLLayout, merge: ReadonlyMap<number, number>, shift: ReadonlyMap<number, number>): string {
  const bad = (why: string) => new InternalCompilerError(`the WGSL of kernel ${quoteName(kernel)} does not fit its layout's sites: ${why}`);
  const declared = new Map<number, { sites: WGSLSites; name: string; atomic: boolean; elem: string }>();
  const of = (b: number) => {
    let d = declared.get(b);
    if (!d) declared.set(b, (d = declaration(code, layout, b, bad)));
    return d;
  };
  const splices: Splice[] = [];
  const accesses = (d: { sites: WGSLSites; name: string }, render: (index: string) => string) => {
    const a = d.sites.accesses, n = d.name.length;
    if (a.length % 2) throw bad(`binding ${d.sites.binding}'s accesses are not pairs`);
    for (let i = 0; i < a.length; i += 2) {
      if (i && a[i] <= a[i - 2]) throw bad(`binding ${d.sites.binding}'s accesses are not in order`);
      const start = a[i], close = a[i + 1];
      if (!(close < code.length && close > start + n + 1)) throw bad(`an access of binding ${d.sites.binding} is out of range`);
      if (!names(code, start, d.name) || code.charCodeAt(start + n) !== 0x5b || code.charCodeAt(close) !== 0x5d) throw bad(`no access of '${d.name}' at ${start}`);
      splices.push({ start, end: close + 1, index: [start + n + 1, close], render });
    }
  };
  for (const [b, offset] of shift) {
    const d = of(b);
    if (offset && !merge.has(b)) accesses(d, (index) => `${d.name}[(u32(${index}) + ${offset}u)]`);
  }
  for (const [removed, kept] of merge) {
    const from = of(removed), to = of(kept), offset = shift.get(removed) ?? 0;
    // A read-only parameter that names a buffer the kernel writes atomically (a narrow array's
    // packed words, written only by compare-exchange; an f32 array's bits in atomic<u32> words)
    // reads it with atomicLoad, and an f32 one takes the float back from the bits.
    const [before, after] = !to.atomic || from.atomic ? ["", ""] : from.elem === "f32" && to.elem === "atomic<u32>" ? ["bitcast<f32>(atomicLoad(&", "))"] : ["atomicLoad(&", ")"];
    accesses(from, (index) => `${before}${to.name}[${offset ? `(u32(${index}) + ${offset}u)` : index}]${after}`);
    const m = from.sites.mentions;
    for (let i = 0; i < m.length; i++) {
      if (i && m[i] <= m[i - 1]) throw bad(`binding ${removed}'s mentions are not in order`);
      if (!names(code, m[i], from.name) || isNameChar(code.charCodeAt(m[i] + from.name.length))) throw bad(`'${from.name}' is not named at ${m[i]}`);
      splices.push({ start: m[i], end: m[i] + from.name.length, index: null, render: () => to.name });
    }
    const [start, end] = from.sites.declaration;
    splices.push({ start, end, index: null, render: () => "" });
  }
  return splice(code, splices, bad);
}

/** Binding `b`'s sites, the name its declaration gives its variable, its element type and whether that is atomic; the declaration checked. */
function declaration(code: string, layout: WGSLLayout, b: number, bad: (why: string) => Error): { sites: WGSLSites; name: string; atomic: boolean; elem: string } {
  const sites = layout.sites?.find((s) => s.binding === b);
  const binding = layout.bindings.find((x) => x.binding === b);
  if (!sites || !binding || binding.role !== "param") throw bad(`binding ${b} is no array parameter's with recorded sites`);
  const [start, end] = sites.declaration;
  const head = `@group(0) @binding(${b}) var<storage, ${binding.readOnly ? "read" : "read_write"}> `;
  // One whole line: `<head><name>: array<…>;`.
  if (!(start >= 0 && start < end && end < code.length) || (start > 0 && code.charCodeAt(start - 1) !== 0x0a) || code.charCodeAt(end) !== 0x0a || !code.startsWith(head, start))
    throw bad(`binding ${b} is not declared at ${start}`);
  let n = start + head.length;
  while (n < end && isNameChar(code.charCodeAt(n))) n++;
  const name = code.slice(start + head.length, n);
  if (!name || isDigit(name.charCodeAt(0)) || !code.startsWith(": array<", n) || !code.startsWith(">;", end - 2)) throw bad(`binding ${b} is not declared at ${start}`);
  for (let i = n; i < end; i++) if (code.charCodeAt(i) === 0x0a) throw bad(`binding ${b}'s declaration is not one line`);
  return { sites, name, atomic: code.startsWith("atomic<", n + 8), elem: code.slice(n + 8, end - 2) };
}

/** Whether `name` is spelled at `at`, a whole name's start (no name character before it). */
function names(code: string, at: number, name: string): boolean {
  return at >= 0 && code.startsWith(name, at) && !(at > 0 && isNameChar(code.charCodeAt(at - 1)));
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isNameChar = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

/**
 * The code with every splice made: splices nest only inside another's index (an access in an
 * index), are otherwise apart, and are made innermost first; each index is on one line, its
 * brackets and parentheses matched. Linear in the code, and without recursion: a forged layout may nest
 * deeply.
 */
function splice(code: string, splices: Splice[], bad: (why: string) => Error): string {
  splices.sort((x, y) => x.start - y.start);
  // The text made of the whole code and of each open index, where it is read up to, and (an
  // index) its brackets open in the text read so far outside the accesses in it.
  interface Frame { splice: Splice | null; out: string; at: number; to: number; open: number[] }
  const stack: Frame[] = [{ splice: null, out: "", at: 0, to: code.length, open: [] }];
  const read = (f: Frame, to: number) => {
    if (f.splice) for (let i = f.at; i < to; i++) {
      const c = code.charCodeAt(i);
      if (c === 0x28 || c === 0x5b) f.open.push(c);
      else if ((c === 0x29 && f.open.pop() !== 0x28) || (c === 0x5d && f.open.pop() !== 0x5b) || c === 0x0a) throw bad(`the index of the access at ${f.splice.start} is not one expression`);
    }
    f.out += code.slice(f.at, to);
    f.at = to;
  };
  const close = () => {
    const f = stack.pop()!, parent = stack[stack.length - 1];
    read(f, f.to);
    if (f.open.length) throw bad(`the index of the access at ${f.splice!.start} is not one expression`);
    parent.out += f.splice!.render(f.out);
    parent.at = f.splice!.end;
  };
  for (const s of splices) {
    while (s.start >= stack[stack.length - 1].to && stack.length > 1) close();
    const f = stack[stack.length - 1];
    if (s.start < f.at || s.end > f.to) throw bad(`the sites at ${s.start} and before it overlap`);
    read(f, s.start);
    if (s.index) stack.push({ splice: s, out: "", at: s.index[0], to: s.index[1], open: [] });
    else { f.out += s.render(""); f.at = s.end; }
  }
  while (stack.length > 1) close();
  read(stack[0], code.length);
  return stack[0].out;
}
