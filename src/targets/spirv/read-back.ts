// The read-back checks of SPIR-V artifacts (ARCHITECTURE.md, "Caches"): the layout's schema, and
// the code check — the words parsed as instructions (magic, header, every instruction's length
// within the module); every OpFunctionCall must name an OpFunction of the module, the only extended
// instruction set is OpenCL.std, nothing is imported (no Linkage capability), and the entry point
// names the entry.

import type { ReadBack, SchemaKit } from "../target.js";
import type { GenericSchema } from "valibot";
import { schemaParts } from "../layout-kit.js";
import { MAGIC, Op } from "./words.js";

export const spirvReadBack: ReadBack = {
  layoutSchema: spirvLayoutSchema,

  checkCode(a) {
    if (!(a.code instanceof Uint8Array)) return "its code is not a SPIR-V binary";
    return checkSPIRV(a.code, a.entry);
  },
};

const OP_CAPABILITY = 17, LINKAGE = 5;

function decodeString(words: Uint32Array, from: number, end: number): string {
  const bytes: number[] = [];
  for (let i = from; i < end; i++) for (let k = 0; k < 4; k++) {
    const c = (words[i] >>> (k * 8)) & 0xff;
    if (c === 0) return new TextDecoder().decode(new Uint8Array(bytes));
    bytes.push(c);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function checkSPIRV(code: Uint8Array, entry: string): string | null {
  if (code.byteLength % 4 !== 0 || code.byteLength < 20) return "it cannot be parsed: not a whole number of SPIR-V words";
  const words = new Uint32Array(code.buffer.slice(code.byteOffset, code.byteOffset + code.byteLength));
  if (words[0] !== MAGIC) return "it cannot be parsed: no SPIR-V magic number";
  const functions = new Set<number>();
  const calls: number[] = [];
  let entryFound = false, open = 0;
  for (let i = 5; i < words.length;) {
    const count = words[i] >>> 16, op = words[i] & 0xffff;
    if (count === 0 || i + count > words.length) return "it cannot be parsed: an instruction runs past the end";
    if (op === OP_CAPABILITY && words[i + 1] === LINKAGE) return "it declares the Linkage capability (it could import functions)";
    if (op === Op.ExtInstImport && decodeString(words, i + 2, i + count) !== "OpenCL.std") return `it imports the extended instruction set '${decodeString(words, i + 2, i + count)}'`;
    if (op === Op.Function) { functions.add(words[i + 2]); open++; }
    if (op === Op.FunctionEnd) open--;
    if (op === Op.FunctionCall) calls.push(words[i + 3]);
    if (op === Op.EntryPoint && decodeString(words, i + 3, i + count) === entry) entryFound = true;
    i += count;
  }
  if (open !== 0) return "it cannot be parsed: a function does not end";
  if (!entryFound) return `its entry '${entry}' is not an entry point`;
  for (const c of calls) if (!functions.has(c)) return `it calls function %${c}, which it does not define`;
  return null;
}

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
function spirvLayoutSchema(v: SchemaKit): GenericSchema {
  const { count, tables, args } = schemaParts(v);
  return v.strictObject({ args: args(), relocation: v.picklist(["bake", "table"]), tables, localBytes: count });
}
