// The PTX back end: validated IR → one PTX module (NVIDIA's virtual ISA, assembled by ptxas or
// the CUDA driver's JIT).
//
// Lowering, in short:
//  - every IR local is one virtual register of its type's class (%p pred, %r b32, %f f32,
//    %fd f64, %rd b64); expressions are trees, so each gets fresh temporaries and ptxas
//    allocates the real registers;
//  - structured control flow becomes labels and predicated branches (`@!%p bra`);
//  - an array is a base address and a length: kernel array parameters are a .u64 pointer and a
//    .u32 length; private arrays are .local, shared arrays .shared (32-bit addresses); constant
//    tables by the relocation strategy: `patch` — through .global pointers (`gpuc_table_<i>_…`)
//    the loader fills with cuModuleGetGlobal before the first launch; `table` — through a table
//    of pointers passed as the entry's `gpuc_tables` parameter and on to every function that
//    reads a table; `bake` — the data itself, as initialized .global arrays;
//  - the kernel state is two more entry parameters (pointer and length), passed to the
//    functions that use it;
//  - helpers and the runtime library stay `.func`s when not inlined (PTX has a call stack, so
//    recursion works); `trap` is `exit` (an exiting thread also releases barriers waiting on it);
//  - float arithmetic is `.rn` (never contracted into FMAs: results equal the CPU's), division
//    and square root correctly rounded unless `fastMath`; JS semantics where PTX differs
//    (integer division by zero, shift counts, float→int wrapping, NaN and signed zeros in
//    min/max, Math.round) are spelled out.
//
// This file assembles the module: its header, the tables, the shared memory, the prototypes and
// the live functions. One function's code is function.ts's and its parts' (each
// file's first line says its share): statements.ts, expressions.ts, arrays.ts, atomics.ts and
// subgroups.ts, which share one context (context.ts).

import type { Loc, Module } from "../../ir/module.js";
import type { Scalar } from "../../ir/types.js";
import { LocationTable } from "../locations.js";
import { assertLegalized } from "../../ir/passes/legalize.js";
import { reaching, usesExpr } from "../../ir/module-info.js";
import { Namer, numbered } from "../names.js";
import type { TargetFeatures } from "../target.js";
import { initializer } from "../c-family.js";
import { arrayBytes, immediate, sanitize } from "./common.js";
import type { PTXModuleState } from "./context.js";
import { DYNAMIC_SHARED, sharedName } from "./arrays.js";
import { emitFunction } from "./function.js";
import type { PTXEntryParam, PTXLayout } from "./layout.js";

interface PTXCode { code: string; entry: string; layout: PTXLayout; locations: Loc[] }

/**
 * The PTX ISA version gpuc writes: 7.8, the oldest that has everything it emits on every
 * architecture it emits for (sm_75 to sm_90; ptxas of CUDA 13 takes 7.8 to 9.0 for sm_90).
 */
const PTX_VERSION = "7.8";

export function emitPTX(m: Module, features: TargetFeatures): PTXCode {
  assertLegalized(m, "ptx");
  return new PTXModuleEmitter(m, features).emit();
}

class PTXModuleEmitter implements PTXModuleState {
  readonly locations = new LocationTable();
  readonly fnNames: string[];
  /** Functions some emitted code calls (a runtime function only ever inlined into cold blocks is left out). */
  readonly called = new Set<number>();

  /** Under `table`: the functions that read a table, themselves or through a callee (they take the pointer table). */
  readonly needsTables = new Set<number>();

  constructor(readonly m: Module, readonly features: TargetFeatures) {
    if (features.relocation === "table")
      reaching(m, (f) => usesExpr(f, (e) => e.k === "global")).forEach((needs, i) => { if (needs) this.needsTables.add(i); });
    const names = new Namer(numbered);
    this.fnNames = m.functions.map((f, i) => (i === m.entry ? sanitize(f.name) : names.take(`${sanitize(f.name)}_${i}`)));
  }

  emit(): PTXCode {
    const m = this.m;
    const arch = this.features.arch ?? "sm_75";
    const out: string[] = [];
    const outLocs: number[] = [];
    const push = (text: string, locs?: number[]): void => {
      const lines = text.split("\n");
      out.push(...lines);
      outLocs.push(...(locs ?? lines.map(() => -1)));
    };
    push([`// gpuc: kernel '${sanitize(m.functions[m.entry].name)}'`, `.version ${PTX_VERSION}`, `.target ${arch}`, ".address_size 64", ""].join("\n"));
    const relocation = this.features.relocation ?? "patch";
    const tables = m.globals.map((g, i) => ({ symbol: relocation === "table" ? `slot ${i}` : `gpuc_table_${i}_${sanitize(g.name)}`, index: i }));
    if (relocation === "patch") for (const t of tables) push(`.visible .global .align 8 .u64 ${t.symbol};`);
    if (relocation === "bake") m.globals.forEach((g, i) => push(bakedTable(tables[i].symbol, g.type.elem as Scalar, g.value)));
    let sharedBytes = 0;
    m.shared.forEach((sh, i) => {
      if (sh.size) return;
      const { bytes, align } = arrayBytes(sh.type.elem, sh.type.size ?? 0);
      sharedBytes += bytes;
      push(`.shared .align ${align} .b8 ${sharedName(m, i)}[${Math.max(bytes, 4)}];`);
    });
    // Shared arrays sized at launch share the kernel's dynamic shared memory (cuLaunchKernel's
    // sharedMemBytes): the kernel computes each one's length and offset (16-byte aligned) from
    // its parameters, as the device does (devices/cuda.ts).
    if (m.shared.some((sh) => sh.size)) push(`.extern .shared .align 16 .b8 ${DYNAMIC_SHARED}[];`);
    const bodies: { text: string[]; locs: number[]; fn: number }[] = [];
    let entryParams: PTXEntryParam[] = [];
    // Functions in module order (callees first); prototypes first, so recursion and any order work.
    const protos: string[] = [];
    m.functions.forEach((f, i) => {
      const r = emitFunction(this, f, i, tables.map((t) => t.symbol));
      if (i === m.entry) entryParams = r.entryParams;
      bodies.push({ text: r.lines, locs: r.locs, fn: i });
      protos.push(`${r.signature};`);
    });
    const live = (i: number) => i === m.entry || this.called.has(i);
    const liveProtos = protos.filter((_p, i) => i !== m.entry && live(i));
    protos.length = 0;
    protos.push(...liveProtos);
    if (protos.length) push(["", ...protos].join("\n"));
    for (const b of bodies) if (live(b.fn)) { push(""); push(b.text.join("\n"), b.locs); }
    push("");
    const code = out.join("\n");
    return {
      code, entry: this.fnNames[m.entry],
      layout: { arch, params: entryParams, relocation, tables, sharedBytes, lines: outLocs },
      locations: this.locations.list,
    };
  }
}

/** A constant table's data as an initialized .global array (relocation strategy `bake`). */
function bakedTable(symbol: string, elem: Scalar, value: ArrayLike<number>): string {
  const type = elem === "f32" ? "f32" : elem === "f64" ? "f64" : elem === "i32" ? "s32" : "u32";
  const { length, text } = initializer(value, (v) => immediate(v, elem));
  return `.global .align ${elem === "f64" ? 8 : 4} .${type} ${symbol}[${length}] = ${text};`;
}
