// The JavaScript back end: validated IR → one JS module text per kernel. Functions are emitted
// by function.ts; a kernel with barriers is split into regions by regions.ts.

import type { Builtin, Loc, Module } from "../../ir/module.js";
import { walkStmts } from "../../ir/module.js";
import { exprsUsed, reaching, reachingSets } from "../../ir/module-info.js";
import { containsBarrier } from "../../ir/passes/inline.js";
import { lowerBlock } from "../../ir/passes/lower-checks.js";
import { assertLegalized } from "../../ir/passes/legalize.js";
import { FunctionEmitter, sanitize, type ModuleNames } from "./function.js";
import { LocationTable } from "../locations.js";
import { emitRegionKernel } from "./regions.js";
import { emitWasm } from "./wasm.js";
import { SAN_SITES, WASM_CONSTANT } from "./wasm-abi.js";

interface JSArtifactCode {
  code: string;
  entry: string;
  /** Names the code expects bound when it is loaded, in order: one per module global, then the runtime hooks. */
  bindings: string[];
}

/**
 * Names the loader binds besides the globals: the trap sentinel, the divergence reporter, the
 * subgroup size, whether other threads run the kernel at the same time (atomics through
 * `Atomics`), and the f32 atomic read-modify-write for that case (function.ts, atomic).
 */
const JS_RUNTIME_BINDINGS = ["$trap", "$divergent", "$S", "$mt", "$atomicF32"] as const;

const PRELUDE_BITS = `const $bits = new ArrayBuffer(8), $bitsF32 = new Float32Array($bits), $bitsF64 = new Float64Array($bits), $bitsI32 = new Int32Array($bits);
function $f32bits(x) { $bitsF32[0] = x; return $bitsI32[0]; }
function $f64hi(x) { $bitsF64[0] = x; return $bitsI32[1]; }
function $f64lo(x) { $bitsF64[0] = x; return $bitsI32[0]; }`;

export function emitJS(m: Module, options: { fastMath?: boolean; sanitize?: boolean } = {}): JSArtifactCode & { locations: Loc[] } {
  assertLegalized(m, "js");
  const names: ModuleNames = {
    m,
    fastMath: options.fastMath === true,
    fnNames: m.functions.map((f, i) => (i === m.entry ? sanitize(f.name) : `${sanitize(f.name)}$${i}`)),
    globals: m.globals.map((g, i) => `$g${i}_${sanitize(g.name)}`),
    shared: m.shared.map((s, i) => `$s${i}_${sanitize(s.name)}`),
    builtins: builtinsPerFunction(m),
    mayTrap: mayTrapPerFunction(m),
    frameFn: m.functions.findIndex((f) => f.kind === "runtime" && f.name === "gpuc_report_exception_frame"),
    locations: new LocationTable(),
    sanitize: options.sanitize === true,
    sanSites: [],
  };
  // A kernel with barriers is split into regions with its checks lowered (regions.ts sees the
  // runtime call and the trap); every other function keeps its checks (function.ts spells them).
  // So is a kernel reading subgroupLaneId() (a thread's lane comes from its linear id there).
  const parts = m.functions.map((f, i) => (i === m.entry && (containsBarrier(f.body) || names.builtins[i].includes("subgroupLaneId")) ? emitRegionKernel(names, { ...f, body: lowerBlock(f.body) }, i) : new FunctionEmitter(names, f, i).emit()));
  const uses = (ops: string[]) => m.functions.some((f) => f.exprs.some((e) => e.k === "op" && ops.includes(e.op)));
  const bits = uses(["f32bits", "f32frombits", "f64hi", "f64lo"]) ? PRELUDE_BITS + (uses(["f32frombits"]) ? "\nfunction $f32frombits(x) { $bitsI32[0] = x; return $bitsF32[0]; }" : "") + "\n\n" : "";
  // The kernel as WebAssembly too, where it is in that path's subset (wasm.ts): a base64 constant
  // the CPU device decodes (the code, its hash and its checks carry it as they carry the rest).
  // (Not when sanitized: the sanitizer sees the JavaScript's accesses, so it always runs.)
  const wasm = names.sanitize ? { refused: "sanitized" } : emitWasm(m, { fastMath: names.fastMath, builtins: names.builtins, locations: names.locations });
  const module = "bytes" in wasm ? `\n\nconst ${WASM_CONSTANT} = "${base64(wasm.bytes)}";` : "";
  const sites = names.sanitize ? `\n\nconst ${SAN_SITES} = ${JSON.stringify(names.sanSites)};` : "";
  const code = `"use strict";\n${bits}${parts.join("\n\n")}${module}${sites}\n`;
  const bindings = [...names.globals, ...JS_RUNTIME_BINDINGS, ...(names.sanitize ? ["$san"] : [])];
  return { code, entry: names.fnNames[m.entry], bindings, locations: names.locations.list };
}

/** Bytes as base64 (btoa: Node and browsers alike). */
function base64(bytes: Uint8Array): string {
  let s = "";
  // (apply takes the typed array as it is: a spread went through its iterator, an object per byte.)
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(s);
}

/** The builtins each function reads, directly or through its callees (helpers receive them as parameters). */
function builtinsPerFunction(m: Module): Builtin[][] {
  return reachingSets(m, (f) => {
    const own: Builtin[] = [];
    exprsUsed(f, (e) => { if (e.k === "builtin") own.push(e.name); });
    return own;
  }).map((s) => [...s].sort());
}

/** Whether each function may end in a trap, itself or through a callee. */
function mayTrapPerFunction(m: Module): boolean[] {
  return reaching(m, (f) => { let t = false; walkStmts(f.body, (s) => { if (s.k === "trap" || s.k === "check") t = true; }); return t; });
}

