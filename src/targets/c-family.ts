// The op spellings C-like shading languages share (WGSL and OpenCL C today): infix operators and
// the Math functions both name as C does. A target's emitter spells each op through a table over
// every OpName (`Record<OpName, OpSpelling>`: a new op fails to compile until each target that
// uses this has a spelling), made of these and its own where its meaning or name differs
// (integer wrapping, float min/max, helpers of its prelude). Legalize has rewritten what a target
// cannot spell with its instruction (ir/passes/legalize.ts); what is here is exact for the operand
// types that reach it on both.

import { InternalCompilerError } from "../errors.js";
import type { OpName } from "../ir/ops.js";
import type { Scalar } from "../ir/types.js";

/**
 * One op's text from its operands' texts and their type; `use(name, text)` names a helper of the
 * target's prelude the text calls (and returns the text).
 */
export type OpSpelling = (a: readonly string[], t: Scalar, use: (name: string, text: string) => string) => string;

export const infix = (o: string): OpSpelling => (a) => `(${a[0]} ${o} ${a[1]})`;
export const prefix = (o: string): OpSpelling => (a) => `(${o}${a[0]})`;
export const call = (name: string): OpSpelling => (a) => `${name}(${a.join(", ")})`;

/** The spellings both languages share. */
export const C_FAMILY_OPS = {
  div: infix("/"),
  and: infix("&"), or: infix("|"), xor: infix("^"), bitnot: prefix("~"),
  eq: infix("=="), ne: infix("!="), lt: infix("<"), le: infix("<="), gt: infix(">"), ge: infix(">="),
  land: infix("&&"), lor: infix("||"), not: prefix("!"),
  floor: call("floor"), ceil: call("ceil"), trunc: call("trunc"), sqrt: call("sqrt"), exp: call("exp"), log: call("log"), log2: call("log2"),
  sin: call("sin"), cos: call("cos"), tan: call("tan"), asin: call("asin"), acos: call("acos"), atan: call("atan"),
  sinh: call("sinh"), cosh: call("cosh"), tanh: call("tanh"), asinh: call("asinh"), acosh: call("acosh"), atanh: call("atanh"),
} satisfies Partial<Record<OpName, OpSpelling>>;

/** An op a target's legality table lowers before emission (its spelling is never asked for). */
export const lowered = (target: string, op: OpName, why = "legalize lowers it"): OpSpelling => () => { throw new InternalCompilerError(`${op} reached the ${target} back end (${why})`); };

/**
 * A baked constant table's initializer, as C (and PTX, whose initializers are C's) writes one:
 * its elements' texts eight to a line, braced; an empty table has one zero element (neither has
 * zero-length arrays). With the element count the declaration names.
 */
export function initializer(value: ArrayLike<number>, spell: (v: number) => string): { length: number; text: string } {
  const items = value.length ? Array.from(value, spell) : [spell(0)];
  const lines: string[] = [];
  for (let i = 0; i < items.length; i += 8) lines.push("  " + items.slice(i, i + 8).join(", "));
  return { length: items.length, text: `{\n${lines.join(",\n")}\n}` };
}
