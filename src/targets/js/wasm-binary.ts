// The WebAssembly binary format, as much of it as the JS target's WebAssembly path writes
// (wasm.ts): LEB128 numbers, the sections of a module, and the opcodes by name. Encoding only:
// the engine (WebAssembly.Module) is the validator of what this writes.

import { PREFER_SECTION, THREADS_SECTION } from "./wasm-abi.js";

/** Value types. */
export const V = { i32: 0x7f, i64: 0x7e, f32: 0x7d, f64: 0x7c, v128: 0x7b } as const;
export type ValType = (typeof V)[keyof typeof V];

/** Opcodes by their text-format names (the one-byte ones; `0xfc`-prefixed ones in FC). */
export const OP = {
  unreachable: 0x00, block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, br_if: 0x0d, return: 0x0f, call: 0x10,
  drop: 0x1a, select: 0x1b,
  "local.get": 0x20, "local.set": 0x21, "local.tee": 0x22,
  "i32.load": 0x28, "f32.load": 0x2a, "f64.load": 0x2b, "i32.load8_s": 0x2c, "i32.load8_u": 0x2d, "i32.load16_s": 0x2e, "i32.load16_u": 0x2f,
  "i32.store": 0x36, "f32.store": 0x38, "f64.store": 0x39, "i32.store8": 0x3a, "i32.store16": 0x3b,
  "i32.const": 0x41, "i64.const": 0x42, "f32.const": 0x43, "f64.const": 0x44,
  "i32.eqz": 0x45, "i32.eq": 0x46, "i32.ne": 0x47, "i32.lt_s": 0x48, "i32.lt_u": 0x49, "i32.gt_s": 0x4a, "i32.gt_u": 0x4b,
  "i32.le_s": 0x4c, "i32.le_u": 0x4d, "i32.ge_s": 0x4e, "i32.ge_u": 0x4f,
  "f32.eq": 0x5b, "f32.ne": 0x5c, "f32.lt": 0x5d, "f32.gt": 0x5e, "f32.le": 0x5f, "f32.ge": 0x60,
  "f64.eq": 0x61, "f64.ne": 0x62, "f64.lt": 0x63, "f64.gt": 0x64, "f64.le": 0x65, "f64.ge": 0x66,
  "i32.clz": 0x67, "i32.ctz": 0x68, "i32.add": 0x6a, "i32.sub": 0x6b, "i32.mul": 0x6c, "i32.div_s": 0x6d, "i32.div_u": 0x6e, "i32.rem_s": 0x6f, "i32.rem_u": 0x70,
  "i32.and": 0x71, "i32.or": 0x72, "i32.xor": 0x73, "i32.shl": 0x74, "i32.shr_s": 0x75, "i32.shr_u": 0x76,
  "i64.shr_u": 0x88,
  "f32.abs": 0x8b, "f32.neg": 0x8c, "f32.ceil": 0x8d, "f32.floor": 0x8e, "f32.trunc": 0x8f, "f32.sqrt": 0x91,
  "f32.add": 0x92, "f32.sub": 0x93, "f32.mul": 0x94, "f32.div": 0x95, "f32.min": 0x96, "f32.max": 0x97,
  "f64.abs": 0x99, "f64.neg": 0x9a, "f64.ceil": 0x9b, "f64.floor": 0x9c, "f64.trunc": 0x9d, "f64.sqrt": 0x9f,
  "f64.add": 0xa0, "f64.sub": 0xa1, "f64.mul": 0xa2, "f64.div": 0xa3, "f64.min": 0xa4, "f64.max": 0xa5,
  "i32.wrap_i64": 0xa7, "i32.trunc_f64_s": 0xaa, "f32.convert_i32_s": 0xb2, "f32.convert_i32_u": 0xb3, "f32.demote_f64": 0xb6,
  "f64.convert_i32_s": 0xb7, "f64.convert_i32_u": 0xb8, "f64.promote_f32": 0xbb,
  "i32.reinterpret_f32": 0xbc, "i64.reinterpret_f64": 0xbd, "f32.reinterpret_i32": 0xbe,
} as const;
export type Op = keyof typeof OP;

/** The `0xfd`-prefixed (SIMD128) opcodes used: 32-bit lanes (wasm-lanes.ts). */
export const SIMD = {
  "v128.load": 0x00, "v128.load32_splat": 0x09, "v128.store": 0x0b, "v128.const": 0x0c,
  "i32x4.splat": 0x11, "f32x4.splat": 0x13,
  "i32x4.extract_lane": 0x1b, "i32x4.replace_lane": 0x1c, "f32x4.extract_lane": 0x1f, "f32x4.replace_lane": 0x20,
  "i32x4.eq": 0x37, "i32x4.ne": 0x38, "i32x4.lt_s": 0x39, "i32x4.lt_u": 0x3a, "i32x4.gt_s": 0x3b, "i32x4.gt_u": 0x3c,
  "i32x4.le_s": 0x3d, "i32x4.le_u": 0x3e, "i32x4.ge_s": 0x3f, "i32x4.ge_u": 0x40,
  "f32x4.eq": 0x41, "f32x4.ne": 0x42, "f32x4.lt": 0x43, "f32x4.gt": 0x44, "f32x4.le": 0x45, "f32x4.ge": 0x46,
  "v128.not": 0x4d, "v128.and": 0x4e, "v128.andnot": 0x4f, "v128.or": 0x50, "v128.xor": 0x51, "v128.bitselect": 0x52, "v128.any_true": 0x53,
  "f32x4.ceil": 0x67, "f32x4.floor": 0x68, "f32x4.trunc": 0x69,
  "i32x4.abs": 0xa0, "i32x4.neg": 0xa1, "i32x4.all_true": 0xa3, "i32x4.bitmask": 0xa4,
  "i32x4.shl": 0xab, "i32x4.shr_s": 0xac, "i32x4.shr_u": 0xad, "i32x4.add": 0xae, "i32x4.sub": 0xb1, "i32x4.mul": 0xb5,
  "i32x4.min_s": 0xb6, "i32x4.min_u": 0xb7, "i32x4.max_s": 0xb8, "i32x4.max_u": 0xb9,
  "f32x4.abs": 0xe0, "f32x4.neg": 0xe1, "f32x4.sqrt": 0xe3, "f32x4.add": 0xe4, "f32x4.sub": 0xe5, "f32x4.mul": 0xe6, "f32x4.div": 0xe7,
  "f32x4.min": 0xe8, "f32x4.max": 0xe9, "f32x4.convert_i32x4_s": 0xfa, "f32x4.convert_i32x4_u": 0xfb,
} as const;
export type SimdOp = keyof typeof SIMD;

/** The `0xfc`-prefixed opcodes used. */
export const FC = { "i64.trunc_sat_f64_s": 6, "memory.fill": 11 } as const;

const scratch = new DataView(new ArrayBuffer(8));
const utf8 = new TextEncoder();

/** A byte sink with the format's number encodings (a growing Uint8Array). */
export class Bytes {
  private buf = new Uint8Array(256);
  length = 0;
  /** The bytes written so far (a view: valid until the next write). */
  get bytes(): Uint8Array { return this.buf.subarray(0, this.length); }
  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  byte(x: number): this { this.room(1); this.buf[this.length++] = x & 0xff; return this; }
  u32(x: number): this {
    x >>>= 0;
    do { let c = x & 0x7f; x >>>= 7; if (x) c |= 0x80; this.byte(c); } while (x);
    return this;
  }
  s32(x: number): this {
    x |= 0;
    for (;;) {
      const c = x & 0x7f;
      x >>= 7;
      if ((x === 0 && !(c & 0x40)) || (x === -1 && c & 0x40)) return this.byte(c);
      this.byte(c | 0x80);
    }
  }
  /** A signed LEB128 i32 in its five-byte form (a value the loader may rewrite in place: wasm.ts's relocations). */
  s32wide(x: number): this {
    x |= 0;
    for (let i = 0; i < 4; i++) { this.byte((x & 0x7f) | 0x80); x >>= 7; }
    return this.byte(x & 0x7f);
  }
  /** A signed LEB128 i64 of a value given as a bigint. */
  s64(x: bigint): this {
    for (;;) {
      const c = Number(x & 0x7fn);
      x >>= 7n;
      if ((x === 0n && !(c & 0x40)) || (x === -1n && c & 0x40)) return this.byte(c);
      this.byte(c | 0x80);
    }
  }
  f32(x: number): this { scratch.setFloat32(0, x, true); return this.raw(new Uint8Array(scratch.buffer, 0, 4)); }
  f64(x: number): this { scratch.setFloat64(0, x, true); return this.raw(new Uint8Array(scratch.buffer, 0, 8)); }
  raw(bytes: Uint8Array | readonly number[]): this {
    this.room(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
    return this;
  }
  name(s: string): this { const u = utf8.encode(s); return this.u32(u.length).raw(u); }
  /** A length-prefixed vector of items. */
  vec<T>(items: readonly T[], each: (x: T) => void): this { this.u32(items.length); for (const x of items) each(x); return this; }
}

export interface FuncType { params: ValType[]; results: ValType[] }
export interface Import { module: string; name: string; kind: "func"; type: number }
export interface Global { type: ValType; mutable: boolean; init: number; export?: string }

/** A module's parts, in the order sections take them. */
export interface ModuleParts {
  types: FuncType[];
  imports: Import[];
  /** The imported memory's minimum pages (64 KiB each); always imported as `m.memory`. */
  memoryPages: number;
  /** For each defined function: its type index. */
  functions: number[];
  globals: Global[];
  exports: { name: string; func: number }[];
  /**
   * Each defined function's body: its locals (after the parameters), its code (`end` included),
   * and where in the code the five-byte constants that are fixed places start (its relocations).
   */
  bodies: { locals: ValType[]; code: Uint8Array; relocs: readonly number[] }[];
  /** With `threads`: the custom section THREADS_SECTION (wasm-abi.ts), which lists the relocations; without, none. */
  threads: boolean;
  /** The custom section PREFER_SECTION's byte (wasm-abi.ts): the module's first section. */
  prefer: boolean;
}

/**
 * The module's bytes. Its memory is imported with a maximum (4 GiB), so that the loader can import
 * a shared memory instead by setting one bit of the limits' flags; with `threads`, the custom
 * section THREADS_SECTION says where that byte and each relocation are (wasm-abi.ts).
 */
export function encodeModule(p: ModuleParts): Uint8Array {
  const out = new Bytes().raw([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  /** Where in `out` the section being filled starts its contents (known once it is filled): positions in it become the module's. */
  const section = (id: number, fill: (b: Bytes) => void, at?: (start: number) => void) => {
    const s = new Bytes(); fill(s); out.byte(id).u32(s.length); at?.(out.length); out.raw(s.bytes);
  };
  let limitsAt = 0;
  section(0, (s) => { s.name(PREFER_SECTION).byte(p.prefer ? 1 : 0); });
  section(1, (s) => s.vec(p.types, (t) => { s.byte(0x60).vec(t.params, (v) => s.byte(v)).vec(t.results, (v) => s.byte(v)); }));
  section(2, (s) => {
    s.u32(p.imports.length + 1);
    for (const i of p.imports) s.name(i.module).name(i.name).byte(0x00).u32(i.type);
    s.name("m").name("memory").byte(0x02);
    limitsAt = s.length;
    s.byte(0x01).u32(p.memoryPages).u32(65536);
  }, (start) => { limitsAt += start; });
  section(3, (s) => s.vec(p.functions, (t) => s.u32(t)));
  if (p.globals.length) section(6, (s) => s.vec(p.globals, (g) => { s.byte(g.type).byte(g.mutable ? 1 : 0).byte(OP["i32.const"]).s32(g.init).byte(OP.end); }));
  const globalExports = p.globals.flatMap((g, i) => (g.export ? [{ name: g.export, index: i }] : []));
  section(7, (s) => {
    s.u32(p.exports.length + globalExports.length);
    for (const e of p.exports) s.name(e.name).byte(0x00).u32(e.func);
    for (const g of globalExports) s.name(g.name).byte(0x03).u32(g.index);
  });
  const relocs: number[] = [];
  section(10, (s) => s.vec(p.bodies, (f) => {
    const body = new Bytes();
    // Locals as runs of one type.
    const runs: [number, ValType][] = [];
    for (const v of f.locals) { const last = runs.at(-1); if (last && last[1] === v) last[0]++; else runs.push([1, v]); }
    body.vec(runs, ([n, v]) => body.u32(n).byte(v));
    s.u32(body.length + f.code.length);
    for (const r of f.relocs) relocs.push(s.length + body.length + r);
    s.raw(body.bytes).raw(f.code);
  }), (start) => { for (let i = 0; i < relocs.length; i++) relocs[i] += start; });
  if (p.threads) {
    section(0, (s) => {
      s.name(THREADS_SECTION).u32(limitsAt).vec(relocs, (r) => s.u32(r));
    });
  }
  return out.bytes.slice();
}
