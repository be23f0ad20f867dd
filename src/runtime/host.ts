// The host side of the runtime library: turns a launch's kernel state into a KernelError and
// printed lines, for every device alike. Only the devices import it (a page loads it with the
// device it opens); the tables it reads are tables.ts.

import { KernelError, quoteName, type Frame, type SourceLocation } from "../errors.js";
import { STATE } from "./state.js";
import type { RuntimeTables } from "./tables.js";

const where = (l: SourceLocation): string => `${l.file}:${l.line}:${l.column}`;
const dim = (s: Int32Array, at: number) => ({ x: s[at], y: s[at + 1], z: s[at + 2] });

/** The exception a launch recorded, as a KernelError, or null when there was none. */
export function decodeException(state: Int32Array, tables: RuntimeTables, kernel: string): KernelError | null {
  const code = state[STATE.CODE];
  if (code === 0) return null;
  const msg = tables.messages[code - 1] ?? { text: "an exception occurred in the kernel", kind: "exception" as const };
  // The payload words by `{0}`/`{1}`: an i32, `u` a u32, `f` an f32's bits, `b` a boolean, as
  // String() writes them; `{{` and `}}` are a message's own braces.
  const a = state[STATE.A], b = state[STATE.B];
  const text = msg.text.replace(/\{(0|1)([ufb]?)\}|\{\{|\}\}/g, (m, i: string | undefined, f: string) => {
    if (i === undefined) return m[0];
    const v = i === "0" ? a : b;
    if (f === "f") { bitsI32[0] = v; return String(bitsF32[0]); }
    return f === "u" ? String(v >>> 0) : f === "b" ? String(v !== 0) : String(v);
  });
  const loc = tables.location(state[STATE.LOC]);
  const t = state[STATE.THREAD];
  const thread = { x: t & 0x3ff, y: (t >>> 10) & 0x3ff, z: (t >>> 20) & 0x3f }, block = dim(state, STATE.BLOCK);
  // The call chain: the location's inlined-at sites, then the call sites recorded while unwinding.
  const frames: Frame[] = [];
  for (let l = loc; l; l = l.inlinedAt) frames.push({ function: l.function, location: { file: l.file, line: l.line, column: l.column } });
  for (let i = 0; i < state[STATE.NFRAMES]; i++)
    for (let f = tables.location(state[STATE.FRAMES + i]); f; f = f.inlinedAt)
      frames.push({ function: f.function, location: { file: f.file, line: f.line, column: f.column } });
  let message = `${loc ? where(loc) + ": " : ""}${text} (thread (${thread.x}, ${thread.y}, ${thread.z}) of block (${block.x}, ${block.y}, ${block.z}) in kernel ${quoteName(kernel)})`;
  if (tables.debugLevel < 2) frames.length = Math.min(frames.length, 1);
  for (let i = 1; i < frames.length; i++) message += `\n    called from '${frames[i].function}' at ${where(frames[i].location!)}`;
  const err = new KernelError(msg.kind, message, { location: loc ? { file: loc.file, line: loc.line, column: loc.column } : null, thread, block });
  (err as { frames?: Frame[] }).frames = frames;
  return err;
}

const bits = new ArrayBuffer(8), bitsI32 = new Int32Array(bits), bitsF32 = new Float32Array(bits), bitsF64 = new Float64Array(bits);

/** The lines printed by a launch, in the order their records were written. */
export function decodePrints(state: Int32Array, tables: RuntimeTables): string[] {
  const lines: string[] = [];
  const end = Math.min(STATE.PRINT_BASE + state[STATE.PRINT_CURSOR], state.length);
  let at = STATE.PRINT_BASE;
  while (at + STATE.PRINT_HEADER <= end) {
    const fmt = tables.formats[state[at]];
    if (!fmt) break;
    const prefix = `[block (${state[at + 4]}, ${state[at + 5]}, ${state[at + 6]}) thread (${state[at + 1]}, ${state[at + 2]}, ${state[at + 3]})]`;
    at += STATE.PRINT_HEADER;
    let out = "";
    // (ir/module.ts PrintPart: text after a quote, else a value's type.)
    for (const p of fmt.parts) {
      switch (p) {
        case "i32": out += String(state[at++]); break;
        case "u32": out += String(state[at++] >>> 0); break;
        case "bool": out += String(state[at++] !== 0); break;
        case "f32": case "f32s": bitsI32[0] = state[at++]; out += p === "f32" ? formatNumber(bitsF32[0]) : String(bitsF32[0]); break;
        case "f64": case "f64s": bitsI32[1] = state[at++]; bitsI32[0] = state[at++]; out += p === "f64" ? formatNumber(bitsF64[0]) : String(bitsF64[0]); break;
        default: out += p.slice(1);
      }
    }
    lines.push(`${prefix} ${out}`);
  }
  const dropped = state[STATE.PRINT_DROPPED];
  if (dropped > 0) {
    const bytes = (state.length - STATE.PRINT_BASE) * 4;
    const size = bytes >= 1024 ? `${bytes >> 10} KiB` : `${bytes} bytes`;
    lines.push(`[gpuc] ${dropped} print record${dropped === 1 ? "" : "s"} dropped: the print buffer (${size}; printBufferWords in device options) is full`);
  }
  return lines;
}

/** As console.log shows a number. */
function formatNumber(v: number): string {
  return Object.is(v, -0) ? "-0" : String(v);
}

/** A fresh kernel state of `printWords` words of print area. */
export function newState(printWords: number): Int32Array {
  return new Int32Array(STATE.PRINT_BASE + printWords);
}

/** Clear the header before a launch (the print area is overwritten as it is used). */
export function resetState(state: Int32Array): void {
  state.fill(0, 0, STATE.PRINT_BASE);
}

/**
 * After a launch on a device whose kernel state lives in its memory (CUDA, OpenCL): the state's
 * header read back (`read(words)`: the first `words` words of the state), then the print area as
 * far as it was written, only when something was printed; the prints sent to `print` in order,
 * and the recorded exception, if any, thrown as the KernelError it describes.
 */
export function reportKernelState(read: (words: number) => Int32Array, stateWords: number, tables: RuntimeTables, kernel: string, print: (line: string) => void): void {
  const header = read(STATE.PRINT_BASE);
  const cursor = header[STATE.PRINT_CURSOR], dropped = header[STATE.PRINT_DROPPED];
  if (cursor > 0 || dropped > 0) {
    const state = new Int32Array(stateWords);
    state.set(read(Math.min(STATE.PRINT_BASE + cursor, stateWords)));
    for (const line of decodePrints(state, tables)) print(line);
  }
  const err = decodeException(header, tables, kernel);
  if (err) throw err;
}
