// Where the WGSL back end's code names each array parameter's storage variable (the layout's
// `sites`, which the WebGPU device's variants are spliced at): the emitter writes marks around a
// parameter's declaration, each access `name[index]` and any other mention of its name, and
// `takeSites` takes them out of the finished text, recording the offsets they were at. The marks
// are characters of Unicode's private use area, which WGSL gpuc emits never holds otherwise (its
// names are sanitized ASCII; the kernel's name in the head comment is quoted in printable ASCII).

import { InternalCompilerError } from "../../errors.js";
import type { WGSLSites } from "./layout.js";

const ACCESS = 0xe000, MENTION = 0xe001, DECLARATION = 0xe002, BINDING_END = 0xe003, INDEX_END = 0xe004, DECLARATION_END = 0xe005;
const mark = (code: number, binding: number) => `${String.fromCharCode(code)}${binding}${String.fromCharCode(BINDING_END)}`;

/** `name[index]`, where `name` is the variable of binding `binding`. */
export function markAccess(binding: number, name: string, index: string): string {
  return `${mark(ACCESS, binding)}${name}[${index}${String.fromCharCode(INDEX_END)}]`;
}

/** The variable of binding `binding` named other than in an access. */
export function markMention(binding: number, name: string): string {
  return `${mark(MENTION, binding)}${name}`;
}

/** The declaration (one line) of binding `binding`'s variable. */
export function markDeclaration(binding: number, text: string): string {
  return `${mark(DECLARATION, binding)}${text}${String.fromCharCode(DECLARATION_END)}`;
}

/** The text without its marks, and the sites they marked, by binding (ascending). */
export function takeSites(marked: string): { code: string; sites: WGSLSites[] } {
  const byBinding = new Map<number, WGSLSites>();
  const of = (b: number) => {
    let s = byBinding.get(b);
    if (!s) byBinding.set(b, (s = { binding: b, declaration: [-1, -1], accesses: [], mentions: [] }));
    return s;
  };
  let code = "", from = 0;
  /** Open accesses (the slot of their index's end) and declarations (their site), innermost last. */
  const open: { access: number[] | null; at: number; declaration: WGSLSites | null }[] = [];
  const bad = (why: string) => new InternalCompilerError(`the WGSL emitter's site marks are malformed: ${why}`);
  // (The marks found by the regular expression engine: the text between them is not looked at.)
  const marks = /[\uE000-\uE005]/g;
  for (let m = marks.exec(marked); m; m = marks.exec(marked)) {
    const i = m.index;
    const c = marked.charCodeAt(i);
    code += marked.slice(from, i);
    from = i + 1;
    if (c === INDEX_END || c === DECLARATION_END) {
      const o = open.pop();
      if (!o || (c === INDEX_END) !== (o.access !== null)) throw bad("an end without its start");
      if (o.access) o.access[o.at] = code.length;
      else o.declaration!.declaration[1] = code.length;
      continue;
    }
    let end = i + 1;
    while (end < marked.length && marked.charCodeAt(end) !== BINDING_END) end++;
    const b = Number(marked.slice(i + 1, end));
    if (end === marked.length || end === i + 1 || !Number.isInteger(b)) throw bad("a mark without its binding");
    from = end + 1;
    marks.lastIndex = end + 1;
    const s = of(b);
    if (c === ACCESS) { s.accesses.push(code.length, -1); open.push({ access: s.accesses, at: s.accesses.length - 1, declaration: null }); }
    else if (c === MENTION) s.mentions.push(code.length);
    else if (c === DECLARATION) { s.declaration[0] = code.length; open.push({ access: null, at: 0, declaration: s }); }
    else throw bad("a binding's end without its mark");
  }
  if (open.length) throw bad("a start without its end");
  code += marked.slice(from);
  const sites = [...byBinding.values()].sort((x, y) => x.binding - y.binding);
  for (const s of sites) if (s.declaration[0] < 0) throw bad(`binding ${s.binding} is named but not declared`);
  return { code, sites };
}
