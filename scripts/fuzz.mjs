#!/usr/bin/env node
// Differential fuzzing: random kernels of arithmetic, Math, integer ops, ternaries and loops,
// each run on a device and compared with a reference. Not part of `npm test` (it is random and
// slow); run it after changing a back end, the passes or inference.
//
//   node scripts/fuzz.mjs                      # CPU device vs plain JavaScript (f64 and i32: exact)
//   node scripts/fuzz.mjs --device webgpu      # WebGPU vs the CPU device (f32; see below)
//   node scripts/fuzz.mjs --device cuda        # CUDA vs the CPU device (f32 and f64: exact)
//   node scripts/fuzz.mjs --device opencl      # OpenCL (PoCL) vs the CPU device (f32 and f64: exact)
//   node scripts/fuzz.mjs --device spir        # the llvm target's SPIR on the OpenCL device (PoCL) vs the CPU device (the same)
//   node scripts/fuzz.mjs --device amdgpu      # the llvm target on an AMD GPU (HIP) vs the CPU device (the same)
//   node scripts/fuzz.mjs --bounds             # bounds checks: random indices, loops with carried indices (--device too)
//   node scripts/fuzz.mjs --control            # statements: if/loops/break/switch/return/helpers, carried values (--device too)
//   node scripts/fuzz.mjs --barriers --device webgpu   # shared memory and syncthreads() (and tiled loops): a GPU device (webgpu, cuda, amdgpu, opencl, spir) vs the CPU device
//   node scripts/fuzz.mjs --subgroups --device webgpu  # subgroup shuffles, reductions and votes: the same
//   node scripts/fuzz.mjs --atomics            # Atomics.* and atomicMin/Max on global and shared arrays: the same
//   node scripts/fuzz.mjs --races              # the CPU device's sanitizer: --barriers' and --atomics' kernels and a mutant of each, forward and reversed
//   node scripts/fuzz.mjs --f32                # f32 arithmetic and Math on the CPU device against JS with Math.fround
//   node scripts/fuzz.mjs --barriers --device wasm     # (also --atomics, --subgroups [--subgroup-size 8]) the CPU
//                                              # device's WebAssembly against its JavaScript: exact
//   options: --count N (kernels, default 300), --seed S (default 1), --verbose,
//            --wasm (the CPU device runs every kernel that has a WebAssembly form as WebAssembly:
//            device("cpu", { wasm: "always" }), launches without a time limit, which would run
//            them on the workers; the count of kernels that had one is printed),
//            --threads N (with --wasm or --device wasm: that device on N threads, every launch of two
//            blocks or more on its workers, which run the WebAssembly in one shared memory),
//            --ptxas (also compile each kernel for the ptx target and assemble it with ptxas; any mode)
//
// What each comparison may assume:
// - js: the kernel language on f64 arrays and i32 values is JavaScript, so the generator keeps to
//   that subset (no u32 mixed with i32, which promotes as in C; no f32; integer sums wrapped with
//   `| 0`, products through Math.imul) and every element must be identical (Object.is).
// - webgpu: f32 only, finite inputs; integer results exact, float results within 1e-5 relative
//   (WGSL's accuracy), elements whose reference is NaN or infinite are skipped (WGSL lets the
//   driver assume none occurs), transcendental functions left out, and a float's bits read
//   through a bit cast are read without the sign bit (WGSL lets the driver ignore the sign of a
//   zero). What remains may still differ
//   by the driver's fast math, and a difference is a lead, not a verdict: lavapipe reassociates
//   `(a - b) + b` into `a`, and a comparison with a NaN made along the way (`x % 0`) may go either
//   way.
// - cuda: PTX rounds as the CPU does; every element must be identical except results of Math
//   functions, which are left out.
// - amdgpu: as cuda (LLVM IR without fast-math flags; f32 denormals kept; gpuc's own correctly
//   rounded square root).
// - opencl: as cuda (OpenCL C without contraction, f32 division and square root correctly
//   rounded); --subgroups compares against the CPU device with subgroups of one thread
//   (OpenCL C 1.2 has none: each thread is its own subgroup there).
// - bounds (on the CPU device, or --device webgpu|cuda): kernels index arrays (global and shared,
//   launches with and without requiredThreads) with random i32 expressions (sums wrapped with
//   `| 0`, products through Math.imul: i32 arithmetic wraps in the kernel, not in JS), and with the loop
//   shapes real code has: counted loops `for (let q = A; q < B; q++)` (negative starts, bounds past
//   the array) whose indices are carried across iterations: running offsets `r = r ± c` (c
//   positive, negative, zero, per thread) read before and after the step, steps that make no
//   induction variable (conditional, by q), temporaries `r = q * s + c` used after their
//   definition and carried ones read before it, two locals swapped every iteration, nested loops
//   with a row offset and a running offset stepped in the inner body, indices through a helper
//   declared in the kernel (a function declaration, or an arrow reading the kernel's locals),
//   early break/continue/return before and after the steps (half of these loops only read: a sum
//   of loads, stored after the loop — the loops loop versioning gives a scan); and a
//   shared array sized at launch (from blockDim.x) in a third of the kernels, a
//   multi-dimensional shared array (t[i][j], compound assignment, a row passed to a helper; its
//   second dimension sized at launch from blockDim.x in a third of the kernels) and
//   views (subarray with negative and out-of-range ends, views of views, through a helper, a view
//   rebound to a view of itself in a loop: CUDA's pointer bump) against
//   plain JS's nested arrays and subarray; a scalar parameter assigned under a test; indices that
//   come back through out-parameters (a helper filling an object's fields, on some paths only,
//   itself or through another helper; on two variables, a nested object's field, a tuple's
//   element, under a test; `ix = stepIx(ix, d)` in a loop) and counters that local arrow functions
//   step (`const bump = (by) => { r = (r + by) | 0; }`: under a test in a loop, through a second
//   local function, in a loop's condition, an object's fields they capture); an optional array
//   parameter y, given or null (`if (y)`, `y ? y[i] : 0`, `y ?? x`, `y != null`, `y?.length`,
//   a helper testing it); an array of objects pa (a structArray of { i, v }, or on the CPU device a
//   plain Array of objects: `pa[k].i` as an index, field stores, `op=`, `++`, whole-element
//   stores read back — on the CPU device a value read back that is not the one stored throws
//   where plain JS does not —, `pa.length`; or a plain Array whose objects also hold an object
//   and fixed-length Arrays of numbers and of objects, read a field at a time with the inner
//   Arrays' numbers, f64, used as indices: `o[pa[k].w[j]]`, `pa[k].nb[j].i`, `pa[k].q.z`). Each such
//   block is drawn to trap on its own (one in four) or not, and about half the kernels trap
//   (the count is printed). The kernel must stop with a bounds KernelError exactly
//   when plain JS, run thread by thread, indexes out of range — on the CPU device at the same
//   access: its index, the array's length, the thread and the block (plain JS's arrays fail when
//   the access is made, as checked typed arrays would: `o[i] = x[j]` reads x[j] first). This checks that the passes that
//   drop checks (ir/passes/ranges.ts, ir/passes/hoist-checks.ts's loop versioning) drop only
//   checks that cannot fire, and each target's checks. Every third kernel runs on a 2-D grid and
//   indexes as matrix kernels do — row and column from the y and x indices, row * C + col under
//   bounds tests on both or an early return, a counted loop over a row and a column, a tile of the
//   shared array —: the shapes whose checks a launch proves (ir/passes/launch-proofs.ts; on
//   WebGPU the launch then runs the kernel's variant without them).
// - control: random statements (if/else, for, for…of, while and do-while loops with break and
//   continue, labeled ones too (`break L1` out of inner loops and switches), switches on
//   integers and by === (switch (true), a float selector), a helper with a default and a rest
//   parameter (hd), logical assignments, x.at(-k), typeof, `const { x } = threadIdx`,
//   switch with fallthrough, early return, calls of helpers specialized on i32 and f64) over i32 and f64
//   locals, a scalar parameter sv each thread assigns, and a private Int32Array, and short loops with values carried across iterations
//   (running offsets into the private array, locals read before their definition, `a = (a + 1) | 0`
//   counters, swaps of a and b or of two offsets, nested loops with a row offset; bit casts through
//   typed arrays over a private array's buffer; private arrays of i32, f32, u8 or i16 declared in
//   a loop's body, zeroed each time round, one element written and two read), with early
//   break/continue/return among them; out-parameter helpers (fill, fill2 through fill, upd that
//   returns its parameter: `acc = upd(acc, v)`, deep passing a field of its parameter on) on the
//   kernel's objects, their fields and tuple elements, read back after the call and added into the
//   result; local arrow functions assigning what they capture (counters used as indices and in
//   loop conditions, an i32 local widened to f64, the kernel's a and c, an object's fields through
//   a second local function); an optional array parameter y (given, null or undefined) tested
//   with `if (y)`, `!y`, `y != null`, `?:`, `??` and by a helper; every index stays in range by
//   construction (every third kernel is compiled without bounds checks). A kernel that runs on where plain JS ends is stopped (timeoutMs) and counted as
//   a difference. Against plain
//   JS on the CPU device (exact), against the CPU device elsewhere (on f32 arrays for WebGPU,
//   within 1e-5 relative).
// - barriers: kernels that exchange values through a shared array between syncthreads() (no data
//   races: every write sits between two barriers, its value computed before the first), under
//   block-uniform conditions and loops with break/continue; and, in half the kernels, the tiled
//   loop of real kernels (cuda-samples' n-body, tiled matrix products: tiled()): each tile loaded
//   into a shared array (some loads guarded by `t < m`), a barrier, inner counted loops over the
//   tile (which ir/passes/hoist-checks.ts versions), alone or in the arms of an if, a barrier;
//   trip counts from the i32 parameters n and m; threads that return before the loop (`if (i >=
//   n) return;`) or in it, which still pass its barriers; guarded stores. The CPU device (which
//   splits the kernel into per-thread loops at its barriers) against WebGPU, CUDA or OpenCL,
//   exactly (i32 only). A barrier under a condition WGSL's uniformity analysis cannot prove
//   uniform is a CompileError there, counted, not a difference. On PoCL, a build that aborts its
//   kernel compiler is the launch's KernelError (the OpenCL device builds in a child process
//   first), printed as FAILED; POCL_WORK_GROUP_METHOD (loopvec, PoCL 3.1's default; loops; repl)
//   picks the work-group method PoCL builds with.
// - subgroups: i32 kernels of shuffles (by lane, down, up, xor, broadcast; constant and per-thread
//   lanes, distances past the subgroup), reductions and votes, under conditions that are the same
//   within a subgroup but not across the block (a subgroup's index, a broadcast value, a
//   reduction) and under conditions that differ between its lanes (a lane's index or values: the
//   operation is among the lanes that reach it), in loops with break/continue whose trip counts
//   and exits are subgroup-uniform or differ per lane, mixed with shared-memory exchanges between
//   barriers under block-uniform conditions, a warp reduction's loop over a shared delta and a
//   lane's store of its warp's value; in a third of the kernels some threads return first.
//   The CPU device, opened with the GPU's subgroup size, against the GPU, exactly.
// - f32: expressions on Float32Array values against plain JS that rounds every operation with
//   Math.fround (the language's f32 rule, literals included), a third of them inside an
//   escape-time loop (each thread leaves at its own iteration, some skip one, threads past a
//   bound return first), every element identical; the CPU
//   device only (it is the reference the GPU devices are compared with).
// - atomics: many threads of several blocks apply one commutative atomic operation per array
//   (add, sub, and, or, xor, atomicMin, atomicMax, atomicInc and atomicDec at one limit per array) to global and shared Int32Array/Uint32Array
//   slots, shared results added into global ones; the final arrays (not the old values, whose
//   order is not defined) must equal the CPU device's. A third of the kernels on 8- and 16-bit
//   elements (commutative operations; plain and atomic stores, exchanges and compare-exchanges
//   of each thread's own element beside its neighbours') or f32 (atomicAdd of integers): what
//   targets write out as compare-and-swap loops on a word.
// - races: the CPU device's sanitizer (device("cpu", { sanitize: true })), each launch run forward
//   and with threadOrder "reversed": half the kernels --barriers' (the GPU devices' shapes, race
//   free), half --atomics'. Each must run without a report and give the same results in both
//   orders (else FALSE REPORT, ORDER-DEPENDENT UNMUTATED). Then one mutant of each: one
//   syncthreads() removed, or one atomic statement written as the plain read-modify-write it
//   stands for (`o[i] = (o[i] + v) | 0;`, `>>> 0` on Uint32Array, Math.min/max, CUDA's wrapping
//   ternary for atomicInc/Dec). Where the mutant's results (every array) differ between the two
//   orders, one of its runs must have reported (race, uninitialized or divergence), else MISSED.
//   Mutants reported whose results agree are counted (a race both orders happen to resolve
//   alike), not failures; mutants that do not compile or reach a barrier divergently are counted
//   apart (--verbose prints those and the mutants not reported). No --device, --wasm or --threads
//   (sanitized launches run as JavaScript on the calling thread).
//
// Exit status 1 when anything differs; each difference is printed with its kernel and inputs.

import { kernel, device, onCompile, structArray, CompileError, KernelError, atomicMin, atomicMax, atomicAdd, atomicInc, atomicDec } from "gpuc";
import { assemblePTX, formatPtxasErrors } from "../dist/targets/ptx/ptxas.js";

// Random kernels compile once: the user's disk cache would only fill with them, and one past its
// size bound (400 MB in 52,000 files) made them twenty times slower (300 --bounds kernels: 98 s,
// 5 s without it). GPUC_CACHE=1 keeps it.
process.env.GPUC_CACHE ??= "0";
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i < 0 ? dflt : args[i + 1]; };
const mode = opt("device", "js");
const count = Number(opt("count", 300));
let seed = Number(opt("seed", 1)) * 7919 + 17;
const verbose = args.includes("--verbose");
/** --trace: each kernel of --control and --bounds, and how long it took, on stderr (to find one that takes a device minutes); --races: the time. */
const trace = args.includes("--trace");
const ptxas = args.includes("--ptxas");
const boundsMode = args.includes("--bounds");
const controlMode = args.includes("--control");
const barrierMode = args.includes("--barriers");
const atomicMode = args.includes("--atomics");
const subgroupMode = args.includes("--subgroups");
const raceMode = args.includes("--races");
const f32Mode = args.includes("--f32");
if (raceMode && (mode !== "js" || args.includes("--wasm") || args.includes("--threads"))) { console.error("--races runs the CPU device's sanitizer: leave out --device, --wasm and --threads"); process.exit(2); }
if (f32Mode && mode !== "js") { console.error("--f32 checks the CPU device against JS: leave out --device"); process.exit(2); }
if ((barrierMode || atomicMode || subgroupMode) && mode === "js") { console.error("--barriers, --subgroups and --atomics compare a GPU device with the CPU device: add --device webgpu, cuda, amdgpu, opencl or spir"); process.exit(2); }
if (!["js", "webgpu", "cuda", "amdgpu", "opencl", "spir", "wasm"].includes(mode)) { console.error(`--device: js, webgpu, cuda, amdgpu, opencl, spir or wasm, not '${mode}'`); process.exit(2); }
if (mode === "wasm" && !barrierMode && !atomicMode && !subgroupMode) { console.error("--device wasm compares the CPU device's WebAssembly with its JavaScript for --barriers, --atomics and --subgroups (the other modes take --wasm, against plain JavaScript)"); process.exit(2); }

// mulberry32, in [0, 1). (An LCG computed in doubles, as this was, loses the product's low bits:
// its sequence repeated after about 10,000 draws, and 2,000 kernels held a few hundred distinct ones.)
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let z = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  z = (z + Math.imul(z ^ (z >>> 7), 61 | z)) ^ z;
  return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
};
const pick = (a) => a[Math.floor(rnd() * a.length)];
/** A random integer in [lo, hi]. */
const ri = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));

const exactUnary = ["sqrt", "abs", "floor", "ceil", "round", "trunc", "sign"];
const mathUnary = mode === "js" ? [...exactUnary, "exp", "log", "sin", "cos", "atan", "tanh", "cbrt", "log2", "expm1", "asinh", "log1p"] : exactUnary;
const mathBinary = mode === "js" ? ["min", "max", "pow", "atan2", "hypot"] : ["min", "max"];
const literals = mode === "webgpu" ? ["1.5", "0.25", "-3", "7", "0.1"] : ["1.5", "0.25", "-3", "7", "0.1", "1e30"];

function fexpr(d) {
  if (d <= 0 || rnd() < 0.2) return pick(["x[i]", "x[i+1]", "x[i+2]", "c"]);
  const r = rnd();
  if (r < 0.4) return `(${fexpr(d - 1)} ${pick(["+", "-", "*", "/", "%"])} ${fexpr(d - 1)})`;
  if (r < 0.5) return `(${fexpr(d - 1)} ${pick(["+", "-", "*", "/", "%"])} ${pick(literals)})`;
  if (r < 0.62) return `Math.${pick(mathUnary)}(${fexpr(d - 1)})`;
  if (r < 0.7) return `Math.${pick(mathBinary)}(${fexpr(d - 1)}, ${fexpr(d - 1)})`;
  if (r < 0.8) return `(${cexpr(d - 1)} ? ${fexpr(d - 1)} : ${fexpr(d - 1)})`;
  if (r < 0.88) return `(- ${fexpr(d - 1)})`;
  return `(${fexpr(d - 1)} ${pick(["+", "-", "*"])} ${iexpr(d - 1)})`;
}
function iexpr(d) {
  if (d <= 0 || rnd() < 0.2) return pick(["(x[i]|0)", "(x[i+1]|0)", "i", "5", "-9", "(c|0)", "2147483647"]);
  const r = rnd();
  if (r < 0.3) return `((${iexpr(d - 1)} ${pick(["+", "-"])} ${iexpr(d - 1)}) | 0)`;
  if (r < 0.5) return `(${iexpr(d - 1)} ${pick(["&", "|", "^", "<<", ">>"])} ${iexpr(d - 1)})`;
  if (r < 0.6) return `((${iexpr(d - 1)} / ${iexpr(d - 1)}) | 0)`;
  if (r < 0.67) return `((${iexpr(d - 1)} % ${pick(["7", "-5", "3", "1", "0"])}) | 0)`;
  if (r < 0.82) return `Math.${pick(["imul", "min", "max"])}(${iexpr(d - 1)}, ${iexpr(d - 1)})`;
  if (r < 0.9) return `(~${iexpr(d - 1)})`;
  return `(${fexpr(d - 1)} | 0)`;
}
function cexpr(d) {
  const ops = ["<", "<=", ">", ">=", "===", "!=="];
  return rnd() < 0.7 ? `(${fexpr(d)} ${pick(ops)} ${fexpr(d)})` : `(${iexpr(d)} ${pick(ops)} ${iexpr(d)})`;
}

const inputs = mode === "webgpu"
  ? [0, -0, 1, -1, 2.5, -7.25, 1e10, -3e-5, 16777217, 0.1, 3, 65536, 2147483647, -2147483648, 4294967295]
  : [0, -0, 1, -1, 2.5, -7.25, 1e10, -3e-5, 123456789, NaN, Infinity, -Infinity, 0.1, 3, 65536, 2147483647, -2147483648, 4294967295];

const N = 8;
/** --bounds: how a kernel's blocks are told apart (its blocks run at once on the CPU device's workers): 2 on a 1-D grid, 4 on a 2-D one. */
let blockSlots = { count: 2, id: "(b & 1)" };
const wasmMode = args.includes("--wasm");
/** --wasm: how many kernels had a WebAssembly form (each instantiates one module when loaded). */
let wasmModules = 0;
if (wasmMode || mode === "wasm") {
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = function (...a) { const i = new Instance(...a); wasmModules++; return i; };
  process.on("exit", () => {
    // (--threads: the modules the workers loaded, in the pool's list of what each worker has.)
    const onWorkers = (d) => Math.max(0, ...(d?.workers?.loaded ?? []).map((s) => [...s].filter((k) => k[0] === "w").length));
    console.log(`--wasm: ${wasmModules} kernels ran as WebAssembly${threads > 1 ? `, ${onWorkers(wasmMode ? cpu : dev)} on the workers` : ""}`);
  });
}
const threads = Number(opt("threads", 1));
const onThreads = threads > 1 ? { threads, parallel: "always" } : { threads: 1 };
if (threads > 1 && !wasmMode && mode !== "wasm") { console.error("--threads goes with --wasm or --device wasm"); process.exit(2); }
// (One thread: a launch with a time limit runs on a worker, and with more than one a kernel's
// blocks would run at once there, where the kernels' stores of one block that another reads —
// allowed, a race as on a GPU — would make the device differ from plain JS run block by block.)
const cpu = await device("cpu", wasmMode ? { wasm: "always", ...onThreads } : mode === "wasm" ? { wasm: false } : { threads: 1 });
let dev = cpu;
if (mode !== "js") {
  try { dev = mode === "wasm" ? await device("cpu", { ...onThreads, wasm: "always", subgroupSize: Number(opt("subgroup-size", 32)) }) : mode === "spir" ? await device("opencl", { llvm: true }) : await device(mode); } catch (e) { console.error(`fuzz: ${e.message}`); process.exit(2); }
}
const same = (a, b) => Object.is(a, b);
// Kernels whose launch proved their checks outside loops and ran their variant without them (WebGPU:
// ARCHITECTURE.md, "Checks a launch proves"): a kernel whose variant, leaving something out, was
// compiled, and the kernel's own code not (a launch the variant does not run compiles it).
const compiledAs = new Map();
onCompile((e) => {
  if (e.origin !== "compiled" || e.target !== "wgsl") return;
  const c = compiledAs.get(e.kernel) ?? { variant: false, plain: false };
  if (e.provenChecks && e.checksLeftOut > 0) c.variant = true;
  else if (!e.provenChecks) c.plain = true;
  compiledAs.set(e.kernel, c);
});
const provenNote = () => (mode === "webgpu" ? `; ${[...compiledAs.values()].filter((c) => c.variant && !c.plain).length} ran their variant without the checks their launch proved` : "");
// --bounds and --control on the CPU device: a kernel that runs on where plain JS ends (a loop
// whose counter a local function steps, miscompiled) is stopped, a KernelError of kind
// `cancelled`, and counted as a difference (GPU devices cannot stop a launch).
const stop = mode === "js" && !wasmMode ? { timeoutMs: 20000 } : {};
const close = (a, b) => same(a, b) || !Number.isFinite(b) ||
  (Number.isFinite(a) && Math.abs(a - b) <= 1e-5 * Math.max(Math.abs(a), Math.abs(b)));

let differ = 0, compileErrors = 0;
/** --control: the last number in the kernel's fresh names (the local functions of cByRef and the counters they capture). */
let uid = 0;
/** Whether this --control kernel's sa holds objects with w and q (see cObjects). */
let nestedSa = false;
if (boundsMode) await fuzzBounds();
else if (controlMode) await fuzzControl();
else if (barrierMode) await fuzzBarriers();
else if (atomicMode) await fuzzAtomics();
else if (subgroupMode) await fuzzSubgroups();
else if (f32Mode) await fuzzF32();
else if (raceMode) await fuzzRaces();
else for (let t = 0; t < count; t++) {
  const body = rnd() < 0.5 ? `o[i] = ${fexpr(4)};` : `o[i] = ${iexpr(4)};`;
  const loop = rnd() < 0.3 ? ` let acc = 0; for (let j = 0; j < (x[i] & 7); j++) { acc += ${fexpr(2)} + j; } o[i] += acc;` : "";
  const src = `const i = threadIdx.x; const c = x[i] * 0.5; ${body}${loop}`;
  const make = () => new Function(`return function fuzz(x, o) { ${src} }`)();
  const Arr = mode === "webgpu" || ((mode === "cuda" || mode === "amdgpu" || mode === "opencl" || mode === "spir") && rnd() < 0.5) ? Float32Array : Float64Array;
  const x = Arr.from({ length: N + 2 }, () => pick(inputs));
  // The output's element type: stores convert as typed arrays do (WebGPU: f32 only, where a
  // value within tolerance could still convert to a different integer).
  const Out = mode === "webgpu" ? Arr : pick([Float64Array, Float32Array, Int32Array, Uint32Array]);
  const got = new Out(N), want = new Out(N);
  try {
    if (mode === "js") {
      globalThis.threadIdx = { x: 0 };
      const f = make();
      for (let i = 0; i < N; i++) { globalThis.threadIdx.x = i; f(x, want); }
    } else {
      await kernel(make()).launch(cpu, { blocks: 1, threads: N }, x, want);
    }
    const k = kernel(make());
    await k.launch(dev, { blocks: 1, threads: N }, x, got);
    if (!(await assembles(k, [x, got], src))) continue;
  } catch (e) {
    failed(e, src);
    continue;
  }
  const ok = mode === "webgpu" ? close : same;
  const bad = [];
  for (let i = 0; i < N; i++) if (!ok(got[i], want[i])) bad.push(`[${i}] got ${got[i]}, want ${want[i]}`);
  if (bad.length) {
    differ++;
    console.log(`DIFFERS (${Arr.name} → ${Out.name}): ${bad.slice(0, 3).join("; ")}\n  ${src}\n  x = [${Array.from(x).join(", ")}]`);
  }
}
if (!boundsMode && !controlMode && !barrierMode && !atomicMode && !subgroupMode && !f32Mode && !raceMode) console.log(`${count} kernels on ${mode === "js" ? "the CPU device against plain JavaScript" : `${mode} against the CPU device`}: ${differ} differ, ${compileErrors} compile errors (seed ${opt("seed", 1)})`);
process.exit(differ ? 1 : 0);

/**
 * A kernel that did not run: a user error the generator could have written (a CompileError other
 * than internal) is counted; anything else is a bug, counted as a difference and printed.
 */
function failed(e, src) {
  if (e instanceof CompileError && e.kind !== "internal") {
    compileErrors++;
    if (verbose) console.log(`compile error: ${e.message.split("\n")[0]}\n  ${src}`);
    return;
  }
  differ++;
  console.log(`FAILED ${e?.kind ?? ""}: ${String(e?.message).split("\n")[0]}\n  ${src}`);
}

/** With --ptxas: the kernel's PTX (for these arguments) must assemble for sm_90; a rejection counts as a difference. */
async function assembles(k, args, src) {
  if (!ptxas) return true;
  const r = await assemblePTX(await k.compile({ target: "ptx", args }), "sm_90");
  if (!r.ok) { differ++; console.log(`PTXAS REJECTED:\n${formatPtxasErrors(r)}\n  ${src}`); }
  return r.ok;
}

/** An i32 index expression over the thread's values (no >>>: u32 promotes as in C, not as JS). */
function index(d) {
  if (d <= 0 || rnd() < 0.25) return pick(["t", "b", "bd", "j", "k", "3", "0", "15", "16", "(n - 1)", "n", "-1", "m"]);
  const r = rnd();
  if (r < 0.35) {
    // i32 arithmetic wraps in the kernel language; plain JS's + - * do not: both sides spell the
    // wrapping (| 0, Math.imul), which means the same in each (a product of large shifted values
    // was the one difference 20,000 kernels found, and it was this).
    const op = pick(["+", "-", "*", "&", "|", ">>", "<<", "^"]), a = index(d - 1), b = index(d - 1);
    if (op === "*") return `Math.imul(${a}, ${b})`;
    if (op === "+" || op === "-") return `((${a} ${op} ${b}) | 0)`;
    return `(${a} ${op} ${b})`;
  }
  if (r < 0.5) return `(${index(d - 1)} % ${pick(["16", "n", "10", "bd", "(n + 1)", "-4"])})`;
  if (r < 0.6) return `(${index(d - 1)} & ${pick(["7", "15", "31"])})`;
  if (r < 0.7) return `Math.min(${index(d - 1)}, ${index(d - 1)})`;
  if (r < 0.78) return `Math.max(${index(d - 1)}, ${index(d - 1)})`;
  if (r < 0.88) return `((${index(d - 1)} / ${pick(["2", "3", "bd"])}) | 0)`;
  return `(${index(d - 1)} ? ${index(d - 1)} : ${index(d - 1)})`;
}

/**
 * A block with a counted loop `for (let q = A; q < B; q++)` whose indices are carried across its
 * iterations (the shapes ir/passes/hoist-checks.ts must tell apart from indices affine in q):
 * running offsets r = r ± c read before and after the step; temporaries r = q * s + c used after
 * their definition, and carried ones read before it (the previous iteration's value, the start on
 * the first); two locals swapped every iteration; nested loops with a row offset and a running
 * offset stepped in the inner body; indices through the kernel's helper hx; early break, continue,
 * return and user throws (some testing an index as a bounds check would) before and after the
 * step. Starts (negative ones too), bounds (some past n) and steps are random, and most draws
 * index out of range for some thread (fuzzBounds() draws again until one traps or not, as it
 * chose); the loops stay short. r in [0, 1) picks the shape.
 */
function carried(r) {
  // Half the blocks only read in their loops: a sum s of loads (a dot product's shape),
  // stored after the loop — the loops whose checked copy loop versioning makes a scan of the path
  // and the checks alone (ir/passes/hoist-checks.ts); exits on the sum (a loaded value) or by
  // return keep the two copies.
  const pure = rnd() < 1 / 2, text = carriedBlock(r, pure);
  return pure ? `{ let s = 0; ${text} o[@(t & 7)] = s; }` : text;
}

function carriedBlock(r, pure) {
  const start = () => pick([String(ri(-3, 10)), String(ri(0, 5)), "0", "(t & 3)", "(m >> 1)", "(b - 1)", "(t - 2)", "(n - 1)"]);
  const outside = () => pick([String(-ri(1, 6)), "n", `(n + ${ri(0, 4)})`, "(t - 2)", "(b - 1)", "(2 - t)", "-(t & 3)"]); // for some thread or block
  const from = () => pick(["0", "0", "0", "1", "2", "-1", "(t & 3)", "b"]);
  const to = () => pick([String(ri(0, 6)), "n", "(n - 1)", "(n + 1)", "(n - 4)", "(n >> 1)", "(n - (t & 3))", "(m >> 1)"]);
  const loop = (v, body, a = from(), bnd = to()) => `for (let ${v} = ${a}; ${v} < ${bnd}; ${v}++) { ${body.filter(Boolean).join(" ")} }`;
  // (pure: loads into the sum s instead of stores.)
  const add = (a, mk, idx, value) => `s = (s + ${a}[${mk}(${idx})]${value === "1" ? "" : ` * ${value}`}) | 0;`;
  // An access: @( ) for x and o (length n), #( ) for the shared array.
  const use = (idx, value = "q") => {
    const [a, mk] = rnd() < 0.8 ? ["o", "@"] : ["sh", "#"], r = rnd();
    if (pure) return r < 0.7 ? add(r < 0.35 ? "x" : a, r < 0.35 ? "@" : mk, idx, value) : `s = (s ^ ${a}[${mk}(${idx})]) + ${value} | 0;`;
    if (r < 0.4) return `${a}[${mk}(${idx})] += 1;`;
    if (r < 0.7) return `${a}[${mk}(${idx})] = ${value};`;
    return `o[@(${value} & 7)] = x[@(${idx})];`;
  };
  // An early exit (sometimes none) on the counter, a carried local or a loaded value; or a user
  // throw, also one that tests a carried local against n as a bounds check would (`if (r >= n)
  // throw`): a check of the user's, which no pass may take for a bounds check.
  const exit = (vars, p = 0.3) => {
    if (rnd() >= p) return "";
    // (An exit on the sum only on the CPU device, which runs the threads in plain JS's order: the
    // sum loads o and the shared array, which other threads write, so on a GPU whether a thread
    // leaves early — and so whether it fails — would depend on how the threads interleave.)
    if (pure && rnd() < 0.25 && mode === "js") vars = [...vars, "s"];
    const cond = pick([`q === ${ri(0, 5)}`, `q >= ${ri(1, 7)}`, "(q & 1) === 1", `x[@(q & 7)] > ${ri(-7, 14)}`,
      ...vars.map((v) => `${v} ${pick(["<", ">", "==="])} ${ri(-2, 9)}`), ...vars.map((v) => `${v} >= ${pick(["n", "(n - 1)", "o.length"])}`)]);
    return `if (${cond}) ${pick(["break", "continue", "return", "break", "continue", "return", 'throw new Error("stop")'])};`;
  };
  // Steps by invariant amounts (constants, zero and negative ones too, j = 2, per-thread ones).
  const step = (v) => pick([`${v} = ${v} + ${ri(-2, 2)};`, `${v} = ${v} - ${ri(0, 2)};`, `${v} = ${v} + 1;`, `${v} = ${v} - 1;`,
    `${v} += ${ri(1, 2)};`, `${v}++;`, `${v}--;`, `${v} = ${ri(1, 2)} + ${v};`, `${v} = ${v} ${pick(["+", "-"])} j;`, `${v} = ${v} + (t & 1);`]);
  // Steps that do not make an induction variable: conditional, or by the counter.
  const oddStep = (v) => pick([`if (${pick(["(q & 1) === 0", `q < ${ri(1, 4)}`, `x[@(q & 7)] > ${ri(-7, 14)}`])}) { ${step(v)} }`, `${v} = ${v} + q;`,
    `${v} = q + ${v};`, `${v} = ${v} - q;`]);
  const linear = () => pick([`q * ${ri(1, 3)} + ${ri(-3, 3)}`, `q * ${pick([2, 3, -1])} - ${ri(0, 3)}`, `${ri(-2, 4)} + q`, "q",
    `q - ${ri(1, 3)}`, `(q << 1) + ${ri(-2, 2)}`, `${ri(-1, 9)} - q`]);
  const after = (v) => (rnd() < 0.3 ? use(v, "1") : ""); // the final value, after the loop
  if (r < 0.22) { // a running offset, read before and after its step (sometimes a second one, or a step that is not one)
    const two = rnd() < 0.3;
    return `{ let r = ${start()}${two ? `, u = ${start()}` : ""}; ${loop("q", [exit(["r"]), use("r"), exit(["r"]), rnd() < 0.8 ? step("r") : oddStep("r"), exit(["r"]),
      rnd() < 0.7 ? use(pick(["r", `r + ${ri(-2, 2)}`, "r + q", "q - r", "r - 1"])) : "", two ? `${use("u")} ${step("u")} ${use(pick(["u", "u + r", "r - u"]))}` : ""])} ${after("r")} }`;
  }
  if (r < 0.3) { // temporaries from q, used after their definition
    return `{ ${loop("q", [exit([]), `const r = ${linear()};`, use("r"), rnd() < 0.5 ? `const u = r ${pick(["+", "-"])} ${ri(0, 2)}; ${use("u")}` : "", exit(["r"])])} }`;
  }
  if (r < 0.52) { // a carried local: read before its definition (the start on the first iteration) and after it
    return `{ let r = ${rnd() < 0.6 ? outside() : start()}; ${loop("q", [exit(["r"]), use("r"), exit(["r"]), `r = ${linear()};`, rnd() < 0.5 ? use("r") : ""])} ${after("r")} }`;
  }
  if (r < 0.62) { // two locals swapped every iteration
    const swap = pick(["const tmp = u; u = v; v = tmp;", "const tmp = v; v = u; u = tmp;", `const tmp = u; u = v; v = tmp ${pick(["+", "-"])} 1;`]);
    return `{ let u = ${start()}, v = ${start()}; ${loop("q", [use(pick(["u", "v"])), exit(["u", "v"]), swap, rnd() < 0.6 ? use(pick(["u", "v", "tmp", "u + q"])) : ""])} }`;
  }
  if (r < 0.75) { // nested loops: a row offset, and a running offset stepped in the inner body
    const w = ri(2, 5), at = pick(["o", "o", "sh"]), mk = at === "o" ? "@" : "#";
    const inner = loop("z", [exit(["r"], 0.2).replaceAll("q", "z"), use(pick(["row + z", "z + row", "row + z - 1"]), "z"),
      rnd() < 0.6 ? (pure ? add(at, mk, "r", "z") : `${at}[${mk}(r)] += z;`) : "", "r = r + 1;",
      rnd() < 0.4 ? (pure ? add(at, mk, `r ${pick(["", "- 1", "+ 1"])}`, "q") : `${at}[${mk}(r ${pick(["", "- 1", "+ 1"])})] = q;`) : ""],
      pick(["0", "0", "1", "-1"]), pick([String(w), String(w), String(w - 1), String(w + 1), "(n >> 2)"]));
    return `{ let r = ${pick(["0", "0", String(ri(-4, 4)), "(t & 3)", "-(t & 7)"])}; ${loop("q", [exit([]), `const row = q * ${w};`, inner, exit(["r", "row"])],
      pick(["0", "0", "1", "-1"]), pick([String(ri(1, 3)), "(n >> 2)", "(n / 3 | 0)", `(n / ${w} | 0)`]))} ${after("r")} }`;
  }
  if (r < 0.88) { // an index through the helper, from a running offset or a carried local
    return `{ let r = ${pick([start(), outside()])}; ${loop("q", [exit(["r"]), use(pick(["hx(r)", "hx(r) - q", "hx(q) + r"])), rnd() < 0.5 ? step("r") : `r = ${linear()};`, exit(["r"]),
      rnd() < 0.5 ? `const u = hx(r); ${use("u")}` : ""])} }`;
  }
  // early exits around the step of a running offset: continue before it, break/return/continue after
  return `{ let r = ${start()}; ${loop("q", [exit(["r"], 1).replace(/(break|return);$/, "continue;"), use("r"), step("r"), exit(["r"], 1), use(pick(["r", "r - 1"]))])} ${after("r")} }`;
}

/**
 * A block with a counted loop whose counter indexes arrays itself (the counters ir/passes/ranges.ts
 * gives a range, and those it must not): `for (let q = A; q CMP B; STEP)` counting up (< or <=;
 * q++, q += c with c up to 4) or down (> or >=; q--, q -= c), to constant bounds and variable ones
 * (n, blockDim.x, a loaded value, per thread), indices as the tiled matmul's (row * 4 + q) and
 * others, some past the array; continue, break and return in the body, and the counter read after
 * the loop; and the shapes that give the counter no range: the counter also assigned in the body
 * (jumps ahead under a test, by the thread's index, Math.max), in an inner loop, a bound changed in
 * the body, a while loop that steps at the end of its body, a first test that leaves by `continue`
 * (to the step, past the bound) before it leaves by break, and counters at the ends of i32 (steps
 * spelled `(q + c) | 0`; bounds that keep them from wrapping, and `q <= 2147483647` stopped by a
 * break at the last value or, wrapped, a few values past it). Every loop ends: a counter only ever
 * moves toward its bound or its break. r in [0, 1) picks the shape.
 */
function counted(r) {
  const up = rnd() < 0.6, c = pick([1, 1, 1, 2, 3, 4]);
  const cmp = up ? pick(["<", "<="]) : pick([">", ">="]);
  const stepText = up ? (c === 1 ? pick(["q++", "++q", "q += 1", "q = q + 1"]) : pick([`q += ${c}`, `q = q + ${c}`, `q = ${c} + q`]))
    : (c === 1 ? pick(["q--", "q -= 1", "q = q - 1"]) : pick([`q -= ${c}`, `q = q - ${c}`, `q = q + ${-c}`]));
  const start = up ? pick(["0", "0", "1", "-1", "-2", "(t & 3)", "(m >> 1)", "b"]) : pick(["7", "15", "16", "(n - 1)", "n", "(bd - 1)", "(t & 7)", "(n + 1)"]);
  const bound = up ? pick(["8", "16", "4", "n", "(n - 1)", "(n + 1)", "bd", "x.length", "(t & 7)", "m", "x[@(t & 7)]", "(bd >> 1)"])
    : pick(["0", "-1", "1", "(t & 3)", "-2", "(b - 1)"]);
  const ix = () => pick(["q", "q", "q + 1", "q - 1", "(t & 3) * 4 + q", "q * 2", "(q >> 1)", "n - 1 - q", "15 - q", "q & 7", "(q + t) & 15", "bd - 1 - q"]);
  const use = (idx) => {
    const [a, mk] = rnd() < 0.5 ? ["o", "@"] : ["sh", "#"];
    return pick([`${a}[${mk}(${idx})] += 1;`, `${a}[${mk}(${idx})] = q;`, `o[@(t)] = ${a}[${mk}(${idx})];`]);
  };
  const exit = (jumps = ["break", "continue", "return", "break", "continue"]) => (rnd() < 0.35
    ? `if (${pick([`q === ${ri(0, 6)}`, "(q & 1) === 1", `x[@(q & 7)] > ${ri(-7, 14)}`, `q ${up ? ">" : "<"} ${ri(0, 8)}`])}) ${pick(jumps)};` : "");
  const head = (a = start, b = bound) => `for (let q = ${a}; q ${cmp} ${b}; ${stepText})`;
  const toward = (k) => (up ? `q = q + ${k};` : `q = q - ${k};`);
  // After the loop: the counter's last value, also at an array's edge (a range that missed the
  // last value, bound + the jump of an assignment in the body, drops a check that fires here).
  const after = () => {
    const [a, mk] = rnd() < 0.5 ? ["o", "@"] : ["sh", "#"], d = ri(0, 3);
    return rnd() < 0.5 ? use(pick(["q", `q + ${ri(0, 6)}`, `q - ${ri(0, 6)}`, "15 - q"]))
      : up ? `${a}[${mk}(q + ${a}.length - (${bound}) - ${d})] += 1;` : `${a}[${mk}(q - (${bound}) + ${d})] += 1;`;
  };
  // The counter declared before the loop and read after it, or not.
  const around = (body) => (rnd() < 0.5
    ? `{ let q = ${start}; for (; q ${cmp} ${bound}; ${stepText}) { ${body} } ${after()} }`
    : `{ ${head()} { ${body} } }`);
  if (r < 0.25) return around([exit(), use(ix()), exit(), rnd() < 0.5 ? use(ix()) : ""].filter(Boolean).join(" "));
  if (r < 0.4) { // the counter assigned in the body too (always toward its bound: the loop ends)
    const jump = pick([`if (${pick(["(q & 1) === 0", `x[@(q & 7)] > ${ri(-7, 14)}`, `t > ${ri(0, 6)}`])}) ${toward(ri(1, 3))}`,
      `if (q === ${up ? ri(0, 4) : ri(3, 9)}) q = ${up ? ri(5, 20) : -ri(1, 4)};`, toward("(t & 1)"), `q = Math.${up ? "max" : "min"}(q, ${ri(-2, 12)});`]);
    return around(`${exit()} ${rnd() < 0.5 ? use(ix()) : ""} ${jump} ${use(ix())}`);
  }
  if (r < 0.52) { // an inner loop that assigns the outer counter
    const inner = `for (let z = 0; z < ${ri(1, 3)}; z++) { ${rnd() < 0.5 ? `sh[#(z + q)] += 1;` : `o[@(z)] = q;`} if (${pick(["z === 1", "(q & 1) === 1", `t > ${ri(0, 8)}`])}) ${toward(1)} }`;
    return around(`${exit()} ${use(ix())} ${inner} ${use(ix())}`);
  }
  if (r < 0.64) { // a bound that the body changes (toward the counter, or once, or capped: the loop ends)
    const change = up ? pick(["lim = lim - 1;", `if (q === ${ri(0, 4)}) lim = lim + ${ri(1, 6)};`, `lim = Math.min(lim + 1, ${ri(8, 20)});`])
      : pick(["lim = lim + 1;", `if (q === ${ri(3, 9)}) lim = lim - ${ri(1, 6)};`, `lim = Math.max(lim - 1, ${-ri(2, 8)});`]);
    return `{ let lim = ${bound}; ${head(start, "lim")} { ${exit()} ${use(ix())} ${change} ${rnd() < 0.5 ? use(ix()) : ""} } }`;
  }
  if (r < 0.74) { // a while loop stepping at the end of its body (no continue: it would skip the step)
    return `{ let q = ${start}; while (q ${cmp} ${bound}) { ${exit(["break", "return"])} ${use(ix())} ${stepText}; } ${rnd() < 0.5 ? after() : ""} }`;
  }
  if (r < 0.84) { // the loop's first test leaves by `continue` once (to the step, past the bound), then by break
    const past = { "<": ">=", "<=": ">", ">": "<=", ">=": "<" }[cmp];
    return `{ let q = ${start}, once = 0; for (;; ${stepText}) { if (q ${past} ${bound}) { if (once > ${ri(0, 1)}) break; once = once + 1; continue; } ${use(ix())} } ${after()} }`;
  }
  // At the ends of i32: q + c wraps in the kernel, so steps wrap on both sides (| 0); no loop wraps.
  const MAX = 2147483647, MIN = -2147483648;
  // (Distances from the end, and q >> 28: 7 or -8 at the ends, -8 or 7 once wrapped.)
  const idx = (off) => pick(up ? [`((${MAX} - q + ${off}) | 0)`, `((q >> 28) - 7 + ${off})`] : [`((q - (${MIN}) + ${off}) | 0)`, `((q >> 28) + 8 + ${off})`]);
  const base = up ? MAX - ri(3, 40) : MIN + ri(3, 40), d = ri(0, 20);
  const wrapStep = up ? `q = (q + ${c}) | 0` : `q = (q - ${c}) | 0`;
  const uses = () => [use(idx(ri(-2, 3))), rnd() < 0.4 ? use("q & 15") : ""].join(" ");
  if (rnd() < 0.4) { // every value up to the end, stopped by a break at the last one or (wrapped) a few past it
    const last = up ? MAX : MIN, stop = pick([last, last, up ? MIN + ri(0, 2) : MAX - ri(0, 2)]);
    return `{ for (let q = ${base}; q ${up ? "<=" : ">="} ${last}; q = (q ${up ? "+" : "-"} 1) | 0) { ${uses()} if (q === ${stop}) break; } }`;
  }
  // A bound that keeps the last step in range: q < MAX - b with c <= b + 1 (<=: c <= b).
  const b = c + d, end = up ? MAX - b : MIN + b;
  return `{ for (let q = ${base}; q ${cmp} ${end}; ${wrapStep}) { ${exit(["break", "continue", "return"])} ${uses()} } }`;
}

/**
 * One index into arrays of different lengths (o: n; the shared array sh: 8, 16 or 32), again later:
 * a bounds check that passed covers only its own array and only while the index is unchanged
 * (ir/passes/ranges.ts drops a later check of the same index against the same length). The index
 * changed between the two, in the loop around the second, or under a test; the reduction's shape
 * (sh[t] before a loop, and in it under t < c).
 */
function repeated(shape) {
  const near = () => pick(["t", "t", `(t + ${ri(1, 9)})`, `(t - ${ri(0, 3)})`, `(m + ${ri(0, 8)})`, index(2)]);
  const arr = () => pick(["sh[#(k)]", "o[@(k)]", "x[@(k)]"]);
  if (shape < 0.5) {
    const [a, b] = rnd() < 0.5 ? ["o[@(k)]", "sh[#(k)]"] : ["sh[#(k)]", "o[@(k)]"];
    return `k = ${near()}; ${a} += 1; ${pick(["", "", "k = k + 1; ", "k = t; ", "if (t > 2) k = k - 3; ", "if (t > 2) { k = k - 3; } else { k = k; } "])}${pick([a, b])} += 2; ${b} += 3;`;
  }
  const loopBody = () => `${pick(["", `if (t < ${pick(["4", "(bd >> q)", "n", "8"])}) `])}${pick(["sh[#(k)]", "o[@(k)]"])} += q + ${arr()}; ${pick(["", "", "k = k + 1;", "k = q;", "if (q > 0) k = k - 2;"])}`;
  return `k = ${near()}; ${pick(["sh[#(k)]", "o[@(k)]"])} = t; for (let q = 0; q < ${ri(1, 3)}; q++) { ${loopBody()} }`;
}

/**
 * Out-parameters and local functions that assign what they capture (copy-in/copy-out, inlined by
 * inference: src/infer/calls.ts), as indices: an object a helper fills (fillIx sets one field on
 * some paths only; viaIx through fillIx; clampIx; readIx loads through the object's index and
 * returns a number; stepIx returns its parameter, `ix = stepIx(ix, d)` in a loop; moveIn a nested
 * object's fields), each field read back as an index after the call; one helper called on two
 * variables, on a field of a nested object and on tuple elements (`tp[1]`), under a test; a local
 * arrow function given the object. And counters a local arrow function steps (`const bump = (by)
 * => { r = (r + by) | 0; }`) under a test in a loop, through a second local function, with an
 * early return, in a loop's condition (`while (next() < B)`), and the fields of an object it
 * captures. The helpers are function declarations of the kernel (byRefHelpers, appended where
 * used). r in [0, 1) picks the shape. (A function, not a const: the driver above runs before this
 * part of the module is evaluated.)
 */
function byRefHelpers() {
  return {
    fillIx: "function fillIx(v, ix) { ix.a = (v * 2 - 3) | 0; if (v > 4) return; ix.b = (ix.a + v) | 0; }",
    viaIx: "function viaIx(v, ix) { fillIx(v, ix); if (ix.a > 7) { ix.a = ix.a & 7; return; } ix.b = ix.b ^ 1; }",
    clampIx: "function clampIx(ix, hi) { if (ix.a >= hi) { ix.a = (hi - 1) | 0; return; } if (ix.a < 0) ix.a = 0; }",
    readIx: "function readIx(arr, ix) { ix.b = arr[@(ix.a)]; ix.a = (ix.a + 1) | 0; return ix.b & 7; }",
    stepIx: "function stepIx(ix, d) { ix.a = (ix.a + d) | 0; ix.b = (ix.b - 1) | 0; return ix; }",
    moveIn: "function moveIn(st, v) { st.in.a = v; st.w = (st.w + 1) | 0; }",
    orIx: "function orIx(a, i) { return a ? a[@(i)] & 15 : i; }",
  };
}
/** The declarations of the byRefHelpers a kernel's text calls (and those they call). */
function byRefDecls(text) {
  const all = byRefHelpers(), used = Object.keys(all).filter((h) => text.includes(`${h}(`));
  if (used.includes("viaIx") && !used.includes("fillIx")) used.push("fillIx");
  return used.map((h) => `\n  ${all[h]}`).join("");
}
/** The block (see byRefHelpers). */
function byRef(r) {
  const idx = () => (rnd() < 0.6 ? pick(["t", "k", "m", "(t - 2)", "(n - t)", "b", "j", "(t & 3)", "(m - 4)", String(ri(-2, 9))]) : index(2));
  const use = (e) => {
    const [a, mk] = rnd() < 0.7 ? ["o", "@"] : ["sh", "#"];
    return pick([`${a}[${mk}(${e})] += 1;`, `${a}[${mk}(${e})] = t;`, `o[@(t)] = x[@(${e})];`]);
  };
  const cond = () => pick(["(t & 1) === 0", `t > ${ri(0, 6)}`, `x[@(t & 7)] > ${ri(-7, 14)}`, "b === 1", `m < ${ri(1, 9)}`]);
  const trip = () => pick(["3", "4", "(t & 3)", "n", "(n >> 1)", String(ri(1, 6))]);
  const exit = () => (rnd() < 0.25 ? `if (${pick([`q === ${ri(0, 3)}`, cond()])}) ${pick(["break", "continue", "return"])};` : "");
  const fill = () => pick(["fillIx", "fillIx", "viaIx"]);
  const init = () => `{ a: ${pick(["0", "t", "k", String(ri(-2, 9))])}, b: ${pick(["0", "t", "m", String(ri(-2, 9))])} }`;
  if (r < 0.12) { // one object filled, both fields read back (b is set on some paths only)
    return `{ const ix = ${init()}; ${fill()}(${idx()}, ix); ${use("ix.a")} ${use(pick(["ix.b", "((ix.a + ix.b) | 0)"]))} }`;
  }
  if (r < 0.22) { // the same helper on two variables
    return `{ const ia = ${init()}, ib = ${init()}; ${fill()}(${idx()}, ia); ${fill()}(${pick(["ia.a", "ia.b", idx()])}, ib); ${use(pick(["ia.a", "ia.b"]))} ${use(pick(["ib.a", "ib.b", "((ia.b - ib.a) | 0)"]))} }`;
  }
  if (r < 0.32) { // a field of a nested object, tuple elements
    return pick([
      `{ const st = { in: ${init()}, w: ${pick(["j", "0", "t"])} }; ${fill()}(${idx()}, st.in); ${rnd() < 0.5 ? `moveIn(st, ${idx()}); ` : ""}${use("st.in.a")} ${use(pick(["st.in.b", "((st.in.b + st.w) | 0)"]))} }`,
      `{ const tp = [${init()}, ${init()}]; ${fill()}(${idx()}, tp[1]); ${rnd() < 0.5 ? `clampIx(tp[0], ${pick(["n", "8", "bd"])}); ` : ""}${use("tp[1].a")} ${use(pick(["tp[0].a", "tp[1].b", "tp[0].b"]))} }`,
    ]);
  }
  if (r < 0.42) { // a helper that returns the object it updates: ix = stepIx(ix, d) in a loop
    return `{ let ix = ${init()}; for (let q = 0; q < ${trip()}; q++) { ${exit()} ix = stepIx(ix, ${pick(["1", "-1", "q", "(t & 1)", "2", "-q"])}); ${use("ix.a")} ${rnd() < 0.5 ? use("ix.b") : ""} } ${rnd() < 0.5 ? use(pick(["ix.a", "ix.b"])) : ""} }`;
  }
  if (r < 0.5) { // filled under a test, else clamped
    return `{ const ix = ${init()}; if (${cond()}) ${fill()}(${idx()}, ix); else clampIx(ix, ${pick(["n", "bd", "4", "(n - t)"])}); ${use("ix.a")} ${rnd() < 0.5 ? use("ix.b") : ""} }`;
  }
  if (r < 0.57) { // a load through the object's index, returning a number
    return `{ const ix = { a: ${idx()}, b: 0 }; ${rnd() < 0.4 ? `clampIx(ix, n); ` : ""}const v = readIx(${pick(["x", "o"])}, ix); ${use("v")} ${use(pick(["ix.a", "ix.b & 15", "(ix.a + v) | 0"]))} }`;
  }
  if (r < 0.62) { // a local arrow function as the out-parameter helper
    return `{ const put = (v, ob) => { ob.a = (v + ${ri(-2, 2)}) | 0; if (ob.a > ${ri(2, 9)}) return; ob.b = ob.a; }; const ix = ${init()}; put(${idx()}, ix); ${use("ix.a")} ${use("ix.b")} }`;
  }
  const from = pick(["0", "0", "(t & 3)", "-1", "m", String(ri(-3, 6))]);
  if (r < 0.74) { // a captured counter stepped under a test in a loop (sometimes through a second local function, or with an early return)
    const body = rnd() < 0.4 ? `if (by < ${ri(-1, 1)}) return; r = (r + by) | 0;` : "r = (r + by) | 0;";
    const twice = rnd() < 0.35;
    return `{ let r = ${from}; const bump = (by) => { ${body} };${twice ? " const twice = (by) => { bump(by); bump((by + 1) | 0); };" : ""} for (let q = 0; q < ${trip()}; q++) { ${exit()} if (${pick([cond(), "(q & 1) === 0", `q < ${ri(1, 3)}`])}) ${twice ? "twice" : "bump"}(${pick(["1", "-1", "q", "(t & 1)", "2", "j"])}); ${use("r")} } ${rnd() < 0.6 ? use(pick(["r", "r - 1"])) : ""} }`;
  }
  if (r < 0.84) { // the fields of a captured object, through two local functions
    return `{ const pos = { a: ${from}, b: 0 }; const adv = (d) => { pos.a = (pos.a + d) | 0; pos.b = (pos.b + 1) | 0; }; const adv2 = (d) => { adv(d); if (pos.a > ${ri(2, 9)}) adv(${pick(["-2", "-3", "-pos.b"])}); }; ` +
      `for (let q = 0; q < ${trip()}; q++) { ${exit()} adv2(${pick(["1", "q", "(t & 1)", "2"])}); ${use("pos.a")} } ${use(pick(["pos.b", "pos.a"]))} }`;
  }
  if (r < 0.93) { // a counter stepped in the loop's condition
    return `{ let r = ${from}; const next = () => { r = (r + 1) | 0; return r; }; while (next() < ${pick(["n", "8", "bd", "(t & 7)", String(ri(1, 12))])}) { ${use(pick(["r", "r + 1", "r - 2"]))} ${rnd() < 0.25 ? `if (${cond()}) break;` : ""} } ${rnd() < 0.5 ? use("r") : ""} }`;
  }
  // a local function assigning the kernel's k (an early return on some threads)
  return `{ const setK = (v) => { if (v < ${ri(-2, 2)}) return; k = v; }; setK(${idx()}); ${use("k")} ${rnd() < 0.5 ? `setK((k + ${ri(1, 4)}) | 0); ${use("k")}` : ""} }`;
}

/**
 * An optional array y (length n, or null: the kernel is specialized on it) tested as CUDA code
 * tests a NULL pointer: `if (y)`, `y ? y[i] : 0`, `y ?? x`, `y != null`, `y == null`, `y?.length`,
 * and y given to a helper that tests it (orIx). Every access is under its test.
 */
function optionalUse(s) {
  const idx = () => (rnd() < 0.6 ? pick(["t", "k", "m", "(t - 2)", "(n - t)", "b", "j", String(ri(-2, 11))]) : index(2));
  return pick([
    `if (y) { o[@(${idx()})] = y[@(${idx()})]; }`,
    `o[@(t)] += y ? y[@(${idx()})] : ${s};`,
    `{ const src = y ?? x; o[@(src[@(${idx()})] & 15)] += 1; }`,
    `if (y != null) k = y[@(${idx()})] & 15; o[@(k)] += 1;`,
    `o[@(orIx(y, ${idx()}))] += 1;`,
    `if (y == null) { sh[#(${idx()})] = t; } else { y[@(${idx()})] += 1; }`,
    `k = y?.length ?? ${ri(2, 12)}; sh[#(k - ${ri(0, 3)})] = t;`,
  ]);
}

/**
 * An array of objects pa (n objects { i, v } of integers: a struct array, or on the CPU device in
 * half the kernels a plain Array of objects, whose fields are f64) read and written through its
 * elements: `pa[k].i` as an index, field stores, `op=` and `++`, whole-element stores, its length
 * (pa: this kernel's, objectsFor).
 */
function structUse(s, pa) {
  const idx = () => (rnd() < 0.6 ? pick(["t", "k", "m", "(t - 2)", "(n - t)", "b", "j", String(ri(-2, 11))]) : index(2));
  // Objects holding objects and fixed-length Arrays (the CPU device's plain Arrays, see objectsFor):
  // read a field at a time, the inner Arrays' indices checked against their lengths (¤3( and ¤2(:
  // pa[k].w has 3 numbers, pa[k].nb 2 objects), their numbers (f64) used as indices as they are.
  // A shared array of objects so (shared(Array, 8)): a thread's store, then reads of it and of
  // elements no thread may have stored (0s here; a GPU's would be garbage, so never a value read back).
  if (rnd() < 0.3) {
    const a = idx();
    return pick([`so[¤8(${a})] = { i: ${idx()}, v: t }; o[@(so[¤8(${a})].i | 0)] += 1;`,
      `so[¤8(${a})] = { i: ${idx()}, v: ${idx()} }; so[¤8(${a})].v += ${ri(-2, 3)}; sh[#(so[¤8(${idx()})].v & 7)] = t;`]);
  }
  if (Array.isArray(pa) && pa[0].w) {
    const inner = () => pick(["t", "m", "j", "(t - 1)", "(k & 3)", String(ri(-1, 4))]);
    return pick([
      `o[@(pa[@(${idx()})].w[¤3(${inner()})])] += 1;`,
      `o[@(t)] = pa[@(${idx()})].nb[¤2(${inner()})].i + pa[@(${idx()})].q.z;`,
      `pa[@(${idx()})].i = pa[@(${idx()})].w[¤3(${inner()})] + pa[@(${idx()})].nb.length;`,
      `k = pa[@(${idx()})].w.length + pa.length - ${ri(2, 5)}; o[@(k)] += 1;`,
      `sh[#(pa[@(${idx()})].nb[¤2(${inner()})].i & 7)] = t;`,
      `pa[@(${idx()})].v += pa[@(${idx()})].q.z; o[@(pa[@(t)].v | 0)] += 1;`,
      `o[@(pa[@(${idx()})].nb[¤2(${inner()})].i)] = pa[@(${idx()})].i | 0;`,
    ]);
  }
  return pick([
    `o[@(pa[@(${idx()})].i | 0)] += 1;`,
    `pa[@(${idx()})].v = t + ${s};`,
    `pa[@(${idx()})] = { i: ${idx()}, v: k };`,
    `pa[@(${idx()})].i += ${ri(-2, 3)}; o[@(t)] = pa[@(${idx()})].i | 0;`,
    `pa[@(${idx()})].v++; sh[#(pa[@(t)].v & 7)] = t;`,
    `k = pa.length - ${ri(0, 3)}; o[@(k)] += 1;`,

    // What a store put there, read back as an index (values matter: a lost field shows as a trap or
    // not). On a GPU the threads that store to one element run at once: there they all store the
    // same values (constants), so what any of them reads back is what plain JS reads.
    (() => { const a = idx(), val = mode === "js" ? idx : () => String(ri(-2, 11)); return `pa[@(${a})] = { i: ${val()}, v: ${val()} }; o[@(pa[@(${a})].${pick(["i", "v"])} | 0)] += 1;`; })(),
    (() => { const a = idx(); return mode === "js" ? `pa[@(${a})].${pick(["i", "v"])} ${pick(["+=", "-=", "="])} ${idx()}; sh[#(pa[@(${a})].v | 0)] = t;`
      : `pa[@(${a})].${pick(["i", "v"])} = ${ri(-2, 11)}; sh[#(pa[@(${a})].v | 0)] = t;`; })(),
    // On the CPU device (threads one after another, as the reference runs them): a store read back
    // at once must give what was stored, or the kernel throws where plain JS does not. (An element
    // of this block's alone: the device may run the blocks at once, on workers.)
    ...(mode === "js" ? [(() => {
      const a = `(${idx()}) * ${blockSlots.count} + ${blockSlots.id}`, c1 = ri(-9, 40), c2 = ri(-9, 40), f = pick(["i", "v"]);
      return pick([`pa[@(${a})] = { i: ${c1}, v: ${c2} }; if ((pa[@(${a})].i | 0) !== ${c1} || (pa[@(${a})].v | 0) !== ${c2}) throw new Error("stop");`,
        `pa[@(${a})].${f} = ${c1}; pa[@(${a})].${f} += ${c2}; if ((pa[@(${a})].${f} | 0) !== ${c1 + c2}) throw new Error("stop");`]);
    })()] : []),
  ]);
}

/**
 * pa for one kernel: a struct array (every device), or on the CPU device a plain Array of objects
 * (f64 fields), in half of those holding an object and fixed-length Arrays of numbers and of objects.
 */
function objectsFor(n, it) {
  const vals = Array.from({ length: n }, (_, j) => ({ i: (j * 3 + it) % 11 - 1, v: j }));
  if (mode === "js" && rnd() < 0.25)
    return vals.map((o, j) => ({ ...o, w: [j % 4, (j * 5 + it) % 11 - 1, j], nb: [{ i: (j + 1 + it) % 12 - 1 }, { i: (j * 7) % 10 }], q: { z: (j + it) % 5 - 2 } }));
  if (mode === "js" && rnd() < 1 / 3) return vals;
  const a = structArray({ i: Int32Array, v: Int32Array }, n);
  vals.forEach((o, j) => { a[j] = o; });
  return a;
}
function cloneObjects(a) {
  if (Array.isArray(a)) return structuredClone(a);
  const c = structArray({ i: Int32Array, v: Int32Array }, a.length);
  c.fields.i.set(a.fields.i);
  c.fields.v.set(a.fields.v);
  return c;
}

async function fuzzBounds() {
  const n = 10, blocks = 2;
  // Every third kernel is launched on a 2-D grid (2 blocks by 2, threads by 2 or 3) and indexes
  // as a matrix kernel does — row and column from the y and x indices, row * w + col, a counted
  // loop over a row and a column, bounds tests on both — the shapes of the launch proofs
  // (ir/passes/launch-proofs.ts: a check a launch's grid and lengths decide). ny, blocksY: this
  // kernel's (1 for a 1-D kernel).
  let ny = 1, blocksY = 1;
  const head = () => "const t = threadIdx.x, b = blockIdx.x, bd = blockDim.x, n = o.length, m = (t * 7) % 10; let k = 0; const j = 2;" +
    (ny > 1 ? " const ty = threadIdx.y, by = blockIdx.y, bdy = blockDim.y, row = by * bdy + ty, col = b * bd + t;" : "");
  /**
   * A statement of a matrix kernel (2-D kernels only): an R × C matrix in o or x (R·C ≤ n, or one
   * more row or column: out of range), guarded by bounds tests on row and column, by an early
   * return, or not; a counted loop over a row and a column; a tile of the shared array.
   */
  const matrix = (s) => {
    const [R, C] = pick([[2, 5], [3, 3], [5, 2], [2, 4], [1, 10], [10, 1], [3, 4], [4, 3]]);
    const lt = () => pick(["<", "<", "<", "<="]);
    return pick([
      `if (row ${lt()} ${R} && col ${lt()} ${C}) { o[@(row * ${C} + col)] += ${s}; }`,
      `if (col ${lt()} ${C}) { if (row ${lt()} ${R}) o[@(col + row * ${C})] = x[@(col * ${R} + row)]; }`,
      `{ const c = ${pick([String(C), "bd", "n"])}; if (row >= ${R} || col >= c) return; o[@(row * c + col)] += 1; }`,
      `if (row < ${R} && col < ${C}) { k = 0; for (let q = 0; q < ${pick(["2", String(C), String(R), "bdy"])}; q++) { k = (k + x[@(row * ${C} + q)] * x[@(q * ${C} + col)]) | 0; } o[@(row * ${C} + col)] = k; }`,
      `o[@(row * ${pick(["bd", "2", "n", "(bd * gridDim.x)"])} + col)] = ${s};`,
      `if (ty * bd + t < ${pick(["8", "16", "32", "(bd * bdy)"])}) { sh[#(ty * bd + t)] = row; } o[@(t % n)] = sh[#(${pick(["t", "ty * bd + t", "(bdy - 1 - ty) * bd + t", "t * bdy + ty"])})];`,
      `o[@(${pick(["row", "col", "by * 2 + b", "row + col", "col * bdy + ty"])})] += ${s};`,
    ]);
  };
  const x = Int32Array.from({ length: n }, (_, i) => i * 3 - 7);
  /**
   * What plain JS, running the body thread by thread, fails with first (the reference): "bounds"
   * (it indexes out of range), "throw" (a user throw), or false.
   */
  // Multi-dimensional shared arrays and views (the kernel's and the reference's spellings of one
  // statement; ⟦i⟧ in a body is pairs[i]): `sh2 = shared(Int32Array, [R, C])` is, in plain JS, an
  // array of rows, where a row out of range is undefined and indexing it fails (as every index
  // out of range does here); a view is `subarray`'s, checked against its own length.
  let pairs = [];
  const R = 4, C = 5;
  const pair = (k, r) => { pairs.push({ k, r }); return `⟦${pairs.length - 1}⟧`; };
  const kernelText = (body) => body.replace(/⟦(\d+)⟧/g, (_m, i) => pairs[i].k);
  const refText = (body) => body.replace(/⟦(\d+)⟧/g, (_m, i) => pairs[i].r);
  const mdOrView = (s) => {
    const i = () => (rnd() < 0.6 ? pick(["(t & 3)", "(t % 5)", "(b & 1)", "((t + b) & 3)", "(m >> 2)", "0", "1", "2", "3", "4", "j", "k"]) : index(2)), small = () => pick(["0", "1", "2", "-1", "-3", "3", "(n - 2)", "n", "(n + 2)", "(t & 3)", "-(t & 3)"]);
    const r = rnd();
    if (r < 0.3) { const [a, b, c, d] = [i(), i(), i(), i()]; return pair(`sh2[${a}][${b}] = t + ${s}; o[(t)] = sh2[${c}][${d}];`, `set2(${a}, ${b}, t + ${s}); o[chk(n, t)] = get2(${c}, ${d});`); }
    if (r < 0.45) { const [a, b] = [i(), i()]; return pair(`sh2[${a}][${b}] += 1;`, `upd2(${a}, ${b}, 1);`); }
    if (r < 0.55) { const [a, b] = [i(), i()]; return pair(`o[(t)] = hv(sh2[${a}], ${b});`, `o[chk(n, t)] = hv(row2(${a}), ${b});`); }
    const [b0, e0, a] = [small(), small(), i()], arr = pick(["x", "o"]), end = rnd() < 0.5 ? `, ${e0}` : "";
    if (r < 0.75) return pair(`{ const v = ${arr}.subarray(${b0}${end}); o[(t)] = v[${a}] + v.length; }`, `{ const v = ${arr}.subarray(${b0}${end}); o[chk(n, t)] = v[chk(v.length, ${a})] + v.length; }`);
    if (r < 0.83) return pair(`{ const v = o.subarray(${b0}${end}); v[${a}] += ${s}; }`, `{ const v = o.subarray(${b0}${end}); v[chk(v.length, ${a})] += ${s}; }`);
    const [b1, c] = [small(), i()];
    // A view rebound to a view of itself in a loop (CUDA's pointer bump, `p += k`).
    const trips = ri(1, 3);
    if (r < 0.91) return pair(`{ let v = ${arr}.subarray(${b0}${end}); for (let q = 0; q < ${trips}; q++) { v = v.subarray(${b1}); o[(t)] = v[${a}] + v.length; } }`,
      `{ let v = ${arr}.subarray(${b0}${end}); for (let q = 0; q < ${trips}; q++) { v = v.subarray(${b1}); o[chk(n, t)] = v[chk(v.length, ${a})] + v.length; } }`);
    return pair(`{ const v = ${arr}.subarray(${b0}${end}).subarray(${b1}); o[(t)] = hv(v, ${c}); }`, `{ const v = ${arr}.subarray(${b0}${end}).subarray(${b1}); o[chk(n, t)] = hv(v, ${c}); }`);
  };
  // Where plain JS indexed out of range through @( ) or #( ) (null elsewhere): the index, the
  // array's length, the thread and block; on the CPU device the kernel's error must name them.
  // The access fails when it is made, as a checked typed array's would — `o[i] = x[j]` reads x[j]
  // before it stores to o[i] — so @( ) gives an index out of range as a symbol that the arrays
  // (x, o, y, pa, sh: proxies) fail on.
  let refFailure = null;
  const outside = new Map();
  const failing = (a) => new Proxy(a, {
    get(t, key) {
      if (outside.has(key)) { refFailure = outside.get(key); throw new RangeError("out of bounds"); }
      const v = Reflect.get(t, key, t);
      return typeof v === "function" ? v.bind(t) : v;
    },
    set(t, key, v) {
      if (outside.has(key)) { refFailure = outside.get(key); throw new RangeError("out of bounds"); }
      return Reflect.set(t, key, v, t);
    },
  });
  const outOfRange = (body, threads, sharedSize) => {
    const refSrc = `function kf(x, o, p, y, pa) { ${head()} const sh = sharedArray;${body.includes("so[") ? " const so = sharedObjs;" : ""}\n  ${refText(body).replace(/@\(/g, "at(n, ").replace(/#\(/g, `at(${sharedSize}, `).replace(/¤(\d)\(/g, "chk($1, ")}\n}`;
    refFailure = null;
    let tx = 0, bx = 0, ty = 0, by = 0;
    try {
      const chk = (len, i) => { if (!(i >= 0 && i < len)) throw new RangeError("out of bounds"); return i; };
      const at = (len, i) => {
        if (i >= 0 && i < len) return i;
        const key = Symbol("outside");
        outside.set(key, { index: i, len, tx, bx, ty, by });
        return key;
      };
      outside.clear();
      const xRef = failing(x), sharedArray = failing(new Int32Array(sharedSize)), o = failing(new Int32Array(n)), yRef = y && failing(y.slice()), paRef = failing(cloneObjects(pa));
      const rows = Array.from({ length: R }, () => new Int32Array(C));
      const row2 = (i) => (i >= 0 && i < R ? rows[i] : null);
      const cell = (i, j) => { const row = row2(i); chk(C, j); if (!row) throw new RangeError("out of bounds"); return [row, j]; };
      const get2 = (i, j) => { const [row, c] = cell(i, j); return row[c]; };
      const set2 = (i, j, v) => { const [row, c] = cell(i, j); row[c] = v; };
      const upd2 = (i, j, d) => { const [row, c] = cell(i, j); row[c] += d; };
      const hv = (v, i) => { if (!v) throw new RangeError("out of bounds"); return v[chk(v.length, i)]; };
      const make = new Function("chk", "at", "sharedArray", "sharedObjs", "threadIdx", "blockIdx", "blockDim", "gridDim", "row2", "get2", "set2", "upd2", "hv", `return ${refSrc}`);
      // Blocks and threads in the CPU device's order: x first, then y.
      for (by = 0; by < blocksY; by++) for (bx = 0; bx < blocks; bx++) {
        sharedArray.fill(0);
        outside.clear();
        for (const row of rows) row.fill(0);
        // The shared array of objects so: its objects' fields 0 until stored (the CPU device's
        // shared memory is zeroed for each block; a GPU's is not, which these kernels never read).
        const sharedObjs = Array.from({ length: 8 }, () => ({ i: 0, v: 0 }));
        for (ty = 0; ty < ny; ty++) for (tx = 0; tx < threads; tx++) make(chk, at, sharedArray, sharedObjs, { x: tx, y: ty }, { x: bx, y: by }, { x: threads, y: ny }, { x: blocks, y: blocksY }, row2, get2, set2, upd2, hv)(xRef, o, p, yRef, paRef);
      }
    } catch (e) {
      if (e instanceof RangeError) return "bounds";
      if (e instanceof Error && e.message === "stop") return "throw";
      throw e;
    }
    return false;
  };
  let traps = 0, thrown = 0, withViews = 0, viewTraps = 0, withByRef = 0, byRefTraps = 0, withOptional = 0;
  const byRefShape = /\b(fillIx|viaIx|clampIx|readIx|stepIx|moveIn|put|bump|adv|next|setK)\(/;
  // The kernel's scalar parameter p (an i32), which some statements assign: its range must keep
  // the value it came with.
  let p = 0;
  // The optional array y: given (length n) or null in half the kernels each.
  let y = null;
  // The array of objects pa (see structUse).
  let pa = null, withStructs = 0, structTraps = 0, withSharedObjects = 0, matrices = 0, matrixTraps = 0;
  for (let it = 0; it < count; it++) {
    ny = it % 3 === 1 ? 2 + (it % 2) : 1;
    blocksY = ny > 1 ? 2 : 1;
    blockSlots = ny > 1 ? { count: 4, id: "((b & 1) + 2 * (by & 1))" } : { count: 2, id: "(b & 1)" };
    p = pick([0, 3, 7, 9, 10, 50, -1, 200]);
    pa = objectsFor(n, it);
    y = rnd() < 0.5 ? Int32Array.from({ length: n }, (_, i) => i * 5 - 13) : null;
    const sharedSize = pick([8, 16, 32]), threads = pick([4, 8, 16, 32]), required = rnd() < 0.5;
    const stmts = [];
    pairs = [];
    // The kernel's helper (declared after the statements: function declarations are hoisted).
    // The index helper: a function declared in the kernel (hoisted), or a local arrow function that
    // reads the kernel's locals (declared first: a const is not hoisted).
    const [mul, add] = [pick([1, 2, -1, 3]), ri(-2, 3)];
    const arrow = rnd() < 0.5 ? `const hx = (v) => v * ${mul} + ${add}${pick(["", " + (t & 1)", " - (b & 1)", " + (n - n)"])};` : null;
    const helper = `function hx(v) { return v * ${mul} + ${add}; }`;
    const withHelper = (list) => (list.some((t) => t.includes("hx(")) && arrow ? `${arrow}\n  ` : "") + list.join("\n  ") + (list.some((t) => t.includes("hx(")) && !arrow ? `\n  ${helper}` : "") +
      byRefDecls(list.join(" "));
    for (let s = 0, ns = 1 + Math.floor(rnd() * 3); s < ns; s++) {
      // @( ) indexes x or o (length n), #( ) the shared array.
      if (rnd() < 0.7) {
        // Most of carried()'s raw blocks index out of range for some thread: one in four is to trap,
        // the rest to stay in range (drawn again, in the same shape, until plain JS running that
        // block alone agrees; after 40 tries the last is kept).
        const trap = rnd() < 1 / 4, shape = rnd(), g = rnd();
        const gen = g < 0.3 ? counted : g < 0.6 ? carried : g < 0.74 ? repeated : g < 0.86 ? byRef : g < 0.93 ? () => structUse(s, pa) : () => optionalUse(s);
        let c = gen(shape);
        for (let tries = 0; tries < 40 && !!outOfRange(withHelper([c]), threads, sharedSize) !== trap; tries++) c = gen(shape);
        stmts.push(c);
        continue;
      }
      if (ny > 1 && rnd() < 0.5) {
        // Drawn to trap (one in four) or not, as the blocks below are.
        const trap = rnd() < 1 / 4;
        let c = matrix(s);
        for (let tries = 0; tries < 40 && !!outOfRange(withHelper([c]), threads, sharedSize) !== trap; tries++) c = matrix(s);
        stmts.push(c);
        continue;
      }
      const r = rnd();
      if (r < 0.35) { stmts.push(mdOrView(s)); continue; }
      if (r < 0.4) stmts.push(`o[@(${index(3)})] = x[@(${index(2)})] + ${s};`);
      else if (r < 0.6) stmts.push(`sh[#(${index(3)})] = t + ${s}; o[@(t)] = sh[#(${index(2)})];`);
      else if (r < 0.8) stmts.push(`for (let j = ${pick(["0", "t", "-1", "1"])}; j < ${pick(["n", "x.length", "16", "(n + 1)", "bd"])}; j${pick(["++", " += 2", " += bd"])}) { o[@(${index(3)})] += 1; }`);
      // Guards that bound an index (checks under them may go, ir/passes/ranges.ts): both ends, the
      // upper end only (k may be negative), an else branch, an early exit, and a guarded local
      // changed under its guard (its check must stay).
      else stmts.push(pick([
        `k = ${index(2)}; if (k >= 0 && k < n) { o[@(k)] = x[@(${index(3)})]; } else { k = ${index(1)}; }`,
        `k = ${index(2)}; if (k < o.length) { o[@(k)] += 1; }`,
        `k = ${index(2)}; if (k >= x.length || k < ${ri(-1, 1)}) { k = ${index(1)}; } else { o[@(t)] = x[@(k)]; }`,
        `k = ${index(2)}; if (-1 < k && k < x.length) { k = k + ${ri(-1, 2)}; o[@(t)] = x[@(k)]; }`,
        `k = ${index(2)}; if (k >= o.length) { return; } o[@(k)] = ${s};`,
        // the parameter p assigned under a test, or in a loop, then an index
        `if (p > ${ri(-1, 12)}) { p = ${ri(-1, 9)}; } o[@(p)] += 1;`,
        `if (p < ${ri(0, 9)}) p = ${ri(0, 7)}; sh[#(p)] = t;`,
        `for (let q = 0; q < 4; q++) { if (p > ${ri(0, 9)}) p = q; } o[@(p)] = ${s};`,
        // a local read before any assignment where its test fails (undefined in plain JS, so the
        // index is NaN: out of range; the kernel refuses the arithmetic on an integer that is still
        // undefined, a KernelError at the read, which counts as the trap)
        `{ let w; if (${pick(["(t & 1) === 0", "t > 2", `x[@(t)] > ${ri(-7, 14)}`, "b === 1"])}) w = ${pick(["5", "3", "(t & 7) + 1", "n"])}; ${pick(["sh[#(", "o[@("])}w - ${ri(1, 2)})] += 1; }`,
        // the reduction tree's shape: t + c under t < c (in range only where 2c <= the size)
        `{ const c = ${pick(["4", "8", "16", "(bd >> 1)", "bd", "(n >> 1)"])}; if (t < c) { k = t + c; sh[#(k)] += 1; } }`,
        // a difference under the test that orders it (a scan's buf[t - offset] under t >= offset;
        // in range only where a - c stays below the length, and not where it could wrap), and
        // under the test that orders it the other way (negative: a check that must stay)
        `{ const a = ${pick(["t", "(t & 3)", "(t & 7)", "(t + b)", "(b + 1)", index(2), "(p | 0)", "((p * 400000000) | 0)"])}, c = ${pick(["1", "2", "(t & 1)", "(t >> 1)", "j", "k", "(p | 0)", "((p * -500000000) | 0)", index(1)])}; ` +
          `if (${pick(["a >= c", "c <= a", "a > c", "c < a", "!(a < c)", "a <= c", "a < c", "c >= a"])}) { ${pick(["o[@(a - c)] += 1;", "sh[#(a - c)] = t;", "o[@(t)] = x[@((a - c) | 0)];"])} } }`,
      ]));
    }
    const body = withHelper(stmts);
    const hv = kernelText(body).includes("hv(") ? "\n  function hv(v, i) { return v[i]; }" : "";
    // The shared array's size as a constant, or (one kernel in three) sized at launch from blockDim.x.
    // (Half of those through a conditional whose test is false at every block size: a select of sizes.)
    const launchSize = sharedSize % threads === 0 ? `blockDim.x * ${sharedSize / threads}` : `blockDim.x + ${sharedSize - threads}`;
    const size = rnd() < 1 / 3 ? (rnd() < 0.5 ? launchSize : `(blockDim.x > 4096 ? 1 : ${launchSize})`) : String(sharedSize);
    const src = `function kf(x, o, p, y, pa) { ${head()} const sh = shared(Int32Array, ${size});${body.includes("so[") ? " const so = shared(Array, 8);" : ""} const sh2 = shared(Int32Array, [${R}, ${rnd() < 1 / 3 ? `blockDim.x - ${threads - C}` : C}]);\n  ${kernelText(body).replace(/[@#]\(|¤\d\(/g, "(")}${hv}\n}`;
    const t0 = performance.now();
    if (trace) process.stderr.write(`[${it}] ${src}\n`);
    const refTraps = outOfRange(body, threads, sharedSize);
    let kernelTraps = false, kernelMessage = "";
    try {
      const k = kernel(new Function(`return ${src}`)(), required ? { requiredThreads: ny > 1 ? [threads, ny, 1] : threads } : {});
      if (!(await assembles(k, [x, new Int32Array(n), p, y, pa], src))) continue;
      await k.launch(dev, { blocks: ny > 1 ? [blocks, blocksY] : blocks, threads: ny > 1 ? [threads, ny] : threads, ...stop }, x, new Int32Array(n), p, y && y.slice(), cloneObjects(pa));
    } catch (e) {
      if (e instanceof KernelError && e.kind === "bounds") { kernelTraps = "bounds"; kernelMessage = e.message; }
      else if (e instanceof KernelError && e.kind === "exception" && /is undefined here \(declared without a value/.test(e.message)) { kernelTraps = "bounds"; kernelMessage = e.message; }
      else if (e instanceof KernelError && e.kind === "exception" && /stop/.test(e.message)) kernelTraps = "throw";
      else { failed(e, src); continue; }
    }
    if (trace) process.stderr.write(`[${it}] ${(performance.now() - t0).toFixed(0)} ms\n`);
    // The CPU device runs the threads in the reference's order, so the first failure is the same;
    // on a GPU the threads run at once and any failing thread may be first: only whether one fails.
    // ... and (on the CPU device) the failing access is plain JS's: its index and length, its thread and
    // block (where plain JS's index is a number: a local read before any assignment is undefined there, 0 in the kernel).
    const f = refFailure, where = f && `index ${f.index} out of bounds for array '[^']*' of length ${f.len} \\(thread \\(${f.tx}, ${f.ty}, 0\\) of block \\(${f.bx}, ${f.by}, 0\\)`;
    const otherAccess = mode === "js" && refTraps === "bounds" && kernelTraps === "bounds" && f && Number.isInteger(f.index) && !new RegExp(where).test(kernelMessage);
    if (mode === "js" ? refTraps !== kernelTraps || otherAccess : !!refTraps !== !!kernelTraps) {
      differ++;
      const say = (v) => (v === "bounds" ? "indexes out of range" : v === "throw" ? "throws" : "runs to its end");
      console.log(`DIFFERS: plain JS ${say(refTraps)}${otherAccess ? ` (index ${f.index}, length ${f.len}, thread ${f.tx}, ${f.ty}, block ${f.bx}, ${f.by}): the kernel ${kernelMessage}` : `, the kernel ${say(kernelTraps)}`} (${ny > 1 ? `${threads} × ${ny} threads in ${blocks} × ${blocksY} blocks` : `${threads} threads`}${required ? ", requiredThreads" : ""}, p = ${p}, y ${y ? "given" : "null"})\n${src}\n`);
    } else if (refTraps) { traps++; if (refTraps === "throw") thrown++; }
    if (pairs.length) { withViews++; if (refTraps && !!refTraps === !!kernelTraps) viewTraps++; }
    if (byRefShape.test(body)) { withByRef++; if (refTraps && !!refTraps === !!kernelTraps) byRefTraps++; }
    if (/\by\b/.test(body)) withOptional++;
    if (/\bpa\b/.test(body)) { withStructs++; if (refTraps && !!refTraps === !!kernelTraps) structTraps++; }
    if (body.includes("so[")) withSharedObjects++;
    if (ny > 1) { matrices++; if (refTraps && !!refTraps === !!kernelTraps) matrixTraps++; }
  }
  console.log(`${count} kernels indexing arrays on ${mode === "js" ? "the CPU device" : mode}: ${differ} differ, ${traps} trap as they should (${thrown} by a user throw; ${withViews} kernels index multi-dimensional shared arrays or views, ${viewTraps} of them trap; ${withByRef} index through out-parameters or captured locals a local function assigns, ${byRefTraps} of them trap; ${withOptional} test the optional array y; ${withStructs} index the array of objects pa, ${structTraps} of them trap, ${withSharedObjects} the shared array of objects so; ${matrices} on 2-D grids, ${matrixTraps} of them trap${provenNote()}), ${compileErrors} compile errors (seed ${opt("seed", 1)})`);
}


// ---- control flow --------------------------------------------------------------------------------

// A function, not a const: the driver above runs before this part of the module is evaluated.
function helpers() {
  return `function h1(p) { if (p > 3) return (p - 1) | 0; return Math.imul(p, 3); }
function h2(p) { let s = 0; for (let q = 0; q < (p & 3); q++) s = (s + q * 2) | 0; return s; }
function g(u, v) { return u * 0.5 + v; }
function fill(v, r) { r.s = Math.imul(v, 3); if (v > 2) { r.f = r.f * 0.5 + v; return; } r.f = -r.f; }
function fill2(v, r) { fill(v, r); if (r.s < 0) r.s = (r.s + 100) | 0; else r.f = r.f - r.s; }
function upd(r, v) { r.s = (r.s + v) | 0; r.f = r.f + v; return r; }
function deep(q, v) { q.in.s = (q.in.s ^ v) | 0; if (v < 0) return; fill(v, q.in); q.k = (q.k + 1) | 0; }
function pk(q, j, f) { return q ? (q[j & 7] | 0) : f; }
function hd(v, w = (v * 2 + 1) | 0, ...more) { return (v ^ w ^ more.length) | 0; }
function ap(f, u, v) { return f(f(u, v) | 0, u); }
function ap2(f, u) { return ap(f, u, (u + 1) | 0); }`;
}

/**
 * The kernel's object values (i32 field s, f64 field f) that out-parameter helpers fill and local
 * functions capture: declared where the body uses them, and added into the result.
 */
function kernelObjects() {
  return [
    { name: "ov", decl: "const ov = { s: a, f: c };", fold: "ov.s + ov.f" },
    { name: "acc", decl: "let acc = { s: b, f: c * 0.5 };", fold: "acc.s + acc.f" },
    { name: "nest", decl: "const nest = { in: { s: 1, f: c }, k: i };", fold: "nest.in.s + nest.in.f + nest.k" },
    { name: "tp", decl: "const tp = [{ s: 2, f: c }, { s: b, f: x[i & 7] }];", fold: "tp[0].s + tp[0].f + tp[1].s + tp[1].f" },
  ];
}
/**
 * Out-parameters and local functions that assign what they capture (copy-in/copy-out: the call is
 * inlined and the values copied back): the helpers fill, fill2 (through fill), upd (returns its
 * parameter: `acc = upd(acc, v)`) and deep (a field of its parameter passed on to fill) on the
 * kernel's objects, their fields and tuple elements, read back after the call, under a test; and
 * local arrow functions that step a counter (under a test in a loop, as a loop's condition:
 * `while (cnt < 5) { step(v); … }`), widen an i32 local to f64, assign the kernel's a and c, the
 * fields of a captured object through a second local function, or pass a captured object to fill2.
 */
function cByRef(d, inLoop) {
  const obj = () => pick(["ov", "ov", "acc", "tp[0]", "tp[1]", "nest.in"]);
  const back = (o) => pick([`a = (a + ${o}.s) | 0;`, `c += ${o}.f;`, `b = (b ^ ${o}.s) | 0;`, `p[${o}.s & 7] = ${ci(1)};`, `if (${o}.f > ${ci(1)}) a = (a + 1) | 0;`]);
  const block = (loop = inLoop) => (d > 0 ? cblock(d - 1, loop) : "");
  const trip = () => pick(["3", "(a & 3)", "n", "((b & 3) + 1)"]);
  const u = ++uid, r = rnd();
  if (r < 0.16) { const o = obj(); return `${pick(["fill", "fill", "fill2"])}(${ci(1)}, ${o}); ${back(rnd() < 0.7 ? o : obj())}`; }
  if (r < 0.24) { const [o1, o2] = [obj(), obj()]; if (o1 === o2) return `fill(${ci(1)}, ${o1}); ${back(o1)}`; return `fill(${ci(1)}, ${o1}); fill2(${ci(1)}, ${o2}); ${back(o1)} ${back(o2)}`; }
  if (r < 0.32) return pick([`acc = upd(acc, ${ci(1)});`, `upd(${obj()}, ${ci(1)});`, `c += upd(acc, ${ci(1)}).f;`]) + ` ${back(pick(["acc", obj()]))}`;
  if (r < 0.38) return `deep(nest, ${ci(1)}); ${back("nest.in")} ${rnd() < 0.5 ? "a = (a + nest.k) | 0;" : ""}`;
  if (r < 0.46) { const o = obj(); return `if ${cc(1)} { fill(${ci(1)}, ${o}); ${block()} } else { ${block()} } ${back(o)}`; }
  if (r < 0.58) { // a captured counter stepped under a test in a loop (through a second local function too), used as an index
    const twice = rnd() < 0.35;
    return `{ let cnt${u} = ${ci(1)}; const bump${u} = (v) => { ${rnd() < 0.3 ? "if (v < 0) return; " : ""}cnt${u} = (cnt${u} + v) | 0; };` +
      `${twice ? ` const twice${u} = (v) => { bump${u}(v); bump${u}((v ^ 1) | 0); };` : ""} for (let j = 0; j < ${trip()}; j++) { if ${cc(1)} ${twice ? "twice" : "bump"}${u}(${ci(1)}); ${block(true)} p[cnt${u} & 7] = (p[cnt${u} & 7] + j) | 0; } a = (a + cnt${u}) | 0; }`;
  }
  if (r < 0.68) { // a counter stepped by a local function in the loop's condition or body
    return rnd() < 0.5
      ? `{ let cnt${u} = 0; const step${u} = (v) => { cnt${u} = (cnt${u} + (v & 3) + 1) | 0; }; while (cnt${u} < ${pick(["5", "(a & 7)", "n", "9"])}) { step${u}(${ci(1)}); ${block(true)} } b = (b + cnt${u}) | 0; }`
      : `{ let cnt${u} = ${pick(["0", "(a & 3)", "-1"])}; const next${u} = () => { cnt${u} = (cnt${u} + 1) | 0; return cnt${u}; }; do { ${block(true)} c += x[cnt${u} & 7]; } while (next${u}() < ${pick(["3", "(b & 3)", "n"])}); a = (a ^ cnt${u}) | 0; }`;
  }
  if (r < 0.75) { // an i32 local widened to f64 by what a local function assigns it
    return `{ let w${u} = ${ci(1)}; const add${u} = (v) => { w${u} = w${u} + v; }; add${u}(${ci(1)}); if ${cc(1)} add${u}(${cf(1)}); ${block()} c += w${u}; }`;
  }
  if (r < 0.84) { // the fields of a captured object, through a second local function, in a loop
    return `{ const addTo${u} = (v) => { ov.s = (ov.s + v) | 0; ov.f = ov.f * 0.5 + v; }; const twice${u} = (v) => { addTo${u}(v); if (ov.s > ${ri(-2, 6)}) addTo${u}(-1); }; ` +
      `for (let j = 0; j < ${trip()}; j++) { twice${u}(${pick(["j", ci(1)])}); ${block(true)} } ${back("ov")} }`;
  }
  if (r < 0.93) { // the kernel's own a and c assigned by a local function (an early return on some calls)
    return `{ const setA${u} = (v) => { if (v > ${ri(0, 6)}) { a = (a - v) | 0; return; } a = (a + v) | 0; c = c * 0.5; }; setA${u}(${ci(1)}); ${block()} if ${cc(1)} setA${u}(${ci(1)}); }`;
  }
  // a local function passing a captured object to an out-parameter helper
  return `{ const refill${u} = (v) => { fill2(v, ov); c += ov.f; }; refill${u}(${ci(1)}); ${block()} if ${cc(1)} refill${u}(${ci(1)}); ${back("ov")} }`;
}
/**
 * The optional array y (given, null or undefined: the kernel is specialized on it) tested as CUDA
 * code tests a NULL pointer: `if (y)`, `!y`, `y != null`, `y ? y[k] : x[k]`, `y ?? x`, and given
 * to the helper pk, which tests it. Every element read is under its test.
 */
function cOptional(d, inLoop) {
  const block = () => (d > 0 ? cblock(d - 1, inLoop) : "");
  return pick([
    `if (y) c += y[${ci(1)} & 7];`,
    `c += y ? y[${ci(1)} & 7] : x[a & 7];`,
    `c += (y ?? x)[${ci(1)} & 7];`,
    `a = (a + pk(y, ${ci(1)}, ${ci(1)})) | 0;`,
    `if (y != null) { ${block()} c -= y[b & 7]; } else { ${block()} }`,
    `if (!y) { ${block()} }`,
    `{ const src = y ?? x; c += src[i & 7] * 0.5; }`,
    ...(inLoop ? [`if (y != null && y[a & 7] > ${pick(["2", "0", "-1"])}) ${pick(["break", "continue"])};`] : []),
  ]);
}

/** i32 values (a, b, n, i); f64 values (c and the array); no literal or i32 stands alone in an f64 context. */
function ci(d) {
  if (d <= 0 || rnd() < 0.3) return pick(["a", "b", "i", "3", "-2", "(x[i & 7] | 0)", "n", "p[a & 7]", "p[i & 7]", "sv"]);
  const r = rnd();
  if (r < 0.4) return `((${ci(d - 1)} ${pick(["+", "-"])} ${ci(d - 1)}) | 0)`;
  if (r < 0.55) return `(${ci(d - 1)} ${pick(["&", "|", "^", ">>", "<<"])} ${ci(d - 1)})`;
  if (r < 0.65) return `Math.imul(${ci(d - 1)}, ${ci(d - 1)})`;
  if (r < 0.75) return `((${ci(d - 1)} % 5) | 0)`;
  if (r < 0.85) return `h${pick([1, 2])}(${ci(d - 1)})`;
  return `(${cf(d - 1)} | 0)`;
}
function cf(d) {
  if (d <= 0 || rnd() < 0.3) return pick(["c", "x[i & 7]", "x[(i + 1) & 7]"]);
  const r = rnd();
  if (r < 0.5) return `(${cf(d - 1)} ${pick(["+", "-", "*", "/"])} ${cf(d - 1)})`;
  if (r < 0.6) return `g(${cf(d - 1)}, ${ci(d - 1)})`;
  if (r < 0.65) return `Math.${pick(["floor", "abs", "sqrt"])}(${cf(d - 1)})`;
  if (r < 0.7) return `Math.${pick(["min", "max"])}(${cf(d - 1)}, ${cf(d - 1)})`;
  return `(${cc(d - 1)} ? ${cf(d - 1)} : ${cf(d - 1)})`;
}
function cc(d) { return `(${ci(d)} ${pick(["<", "<=", "===", "!==", ">"])} ${ci(d)})`; }
/**
 * The kernel's objects: sa, an array of 8 objects { s, f } (a plain Array of objects on the CPU
 * device, whose objects in half the kernels also hold w, an Array of 4 numbers, q, an object, and
 * ok, a boolean;
 * elsewhere a struct array of an i32 s and an f32 f), and po, an object argument
 * { k, on, q: { r } } (CUDA's struct by value). A thread stores into its own element's s and ok only (the
 * others' may be stored at once on a GPU); f, w and q are read anywhere.
 */
function cObjects(d, inLoop) {
  const block = () => (d > 0 ? cblock(d - 1, inLoop) : "");
  const any = () => `sa[${ci(1)} & 7]`;
  return pick([
    `c += ${any()}.f * po.k;`,
    `sa[i].s = (sa[i].s + ${ci(1)}) | 0;`,
    `if (${any()}.f > ${cf(1)}) { sa[i].s = (sa[i].s ^ ${ci(1)}) | 0; ${block()} } else { a = (a + sa[i].s) | 0; }`,
    `a = (a + sa.length + (po.on ? po.q.r : ${ci(1)})) | 0;`,
    nestedSa ? `{ const e = ${any()}.q; c += e.z; }` : `{ const e = ${any()}; c += e.f + e.s; }`,
    `for (let j = 0; j < (po.q.r & 3); j++) { c += sa[(i + j) & 7].f; ${block()} }`,
    ...(nestedSa ? [`c += ${any()}.w[${ci(1)} & 3] + ${any()}.q.z;`, `b = (b + ${any()}.w.length + (${any()}.q.z | 0)) | 0;`,
      `if (${any()}.w[${ci(1)} & 3] > ${cf(1)}) { ${block()} } else { c -= sa[i].w[(a ^ b) & 3]; }`,
      `for (let j = 0; j < sa[i].w.length; j++) { c += sa[(i + j) & 7].w[j] * ${cf(1)}; }`,
      `if (${any()}.ok) { ${block()} } else { a = (a + (sa[i].ok ? 1 : 2)) | 0; }`,
      `sa[i].ok = ${cc(1)} || !sa[i].ok; if (sa[i].ok) c += 0.5;`] : []),
  ]);
}
function cstmt(d, inLoop) {
  // A private array declared in a loop's body: zeroed again each time round (the IR's `init`,
  // passes/zero-fill.ts or the emitter's own fill), one element written, then others read.
  if (inLoop && rnd() < 0.05) {
    const T = pick(["Int32Array", "Float32Array", "Uint8Array", "Int16Array"]);
    const read = T === "Float32Array" ? `c += q[(a + 1) & 3] + q[b & 3];` : `b = (b + q[(a + 1) & 3] + q[a & 3]) | 0;`;
    return `{ const q = new ${T}(${pick(["4", "8"])}); q[${ci(1)} & 3] ${pick(["=", "+="])} ${ci(1)}; ${read} }`;
  }
  if (rnd() < 0.03) return cByRef(d, inLoop);
  if (rnd() < 0.015) return cOptional(d, inLoop);
  if (rnd() < 0.03) return cObjects(d, inLoop);
  const r = rnd();
  if (d <= 0 || r < 0.35) {
    if (rnd() < 0.2) return `p[${ci(1)} & 7] = ${ci(2)};`;
    // Bit casts: typed arrays over a private array's buffer, both ways (a NaN's bits read as 0).
    // (On WebGPU without the sign bit, masked off as an integer: WGSL lets the driver ignore the
    // sign of a zero that arithmetic makes, `(c - c) * -2`, and of a NaN; a float operation such
    // as Math.abs would not do, since the driver folds it where it assumes no NaN.)
    if (rnd() < 0.06) return rnd() < 0.5
      ? `{ const fb = new Float32Array(1); const ub = new Uint32Array(fb.buffer); fb[0] = ${cf(1)}; ${mode === "webgpu" ? "const ua = ub[0] & 0x7fffffff; a = (a + (ua & 65535) - (ua >>> 16)) | 0;" : "a = (a + (ub[0] & 65535) - (ub[0] >>> 16)) | 0;"} }`
      : `{ const ub = new Int32Array(1); ub[0] = ${ci(1)}; const fb = new Float32Array(ub.buffer); c = c + (fb[0] === fb[0] ? fb[0] : 0); }`;
    // Bit casts between element sizes: bytes as words (read and written), words as bytes and halves.
    if (rnd() < 0.04) return rnd() < 0.5
      ? `{ const bq = new ${pick(["Uint8Array", "Int8Array"])}(8); bq[${ci(1)} & 7] = ${ci(1)}; bq[3] = b; const wq = new ${pick(["Uint32Array", "Int32Array"])}(bq.buffer); wq[a & 1] ^= ${ci(1)}; a = (a + (wq[i & 1] & 65535) + bq[(a ^ 5) & 7]) | 0; }`
      : `{ const wq = new Int32Array(2); wq[0] = ${ci(1)}; wq[1] = a; const hq = new ${pick(["Int16Array", "Uint16Array", "Uint8Array"])}(wq.buffer); hq[${ci(1)} & 3] += ${ci(1)}; b = (b + hq[(a + 1) & 3] + (wq[i & 1] >> 3)) | 0; }`;
    // A helper's default parameter and rest parameter (hd), and logical assignments.
    if (rnd() < 0.08) return pick([
      () => `a = (a + hd(${ci(1)})) | 0;`,
      () => `b = (b + hd(${ci(1)}, a)) | 0;`,
      () => `a = (a ^ hd(b, ${ci(1)}, 1, 2)) | 0;`,
      () => `${pick(["a", "b"])} ${pick(["||=", "&&=", "??="])} ${ci(1)};`,
      () => `c ${pick(["||=", "&&="])} ${cf(1)};`,
      // at() counting from the end, typeof known when compiled, the builtins as an object.
      () => `c += x.at(-1 - (${pick(["a", "b", "i", "n"])} & 7));`,   // (an index without effects: at() reads it twice)
      () => `a = (a + (typeof ${pick(["sv", "c", "y", "po"])} === "${pick(["number", "object", "undefined"])}" ? 1 : 2)) | 0;`,
      () => `{ const { x: tq } = threadIdx; b = (b + tq) | 0; }`,
      // Variables declared without a value, undefined until assigned (on some paths only): tested,
      // compared, the left of ??, a float's NaN in arithmetic — every use JavaScript's exactly.
      () => { const u = ++uid; return `{ let m${u}; for (let j = 0; j < ${pick(["3", "(a & 3)", "n"])}; j++) if (m${u} === undefined || x[(i + j) & 7] < m${u}) m${u} = x[(i + j) & 7]; c += m${u} ?? 0.5; }`; },
      () => { const u = ++uid; return `{ let k${u}; if ${cc(1)} k${u} = ${ci(1)}; a = (a + (k${u} ?? 1)) | 0; if (k${u} === undefined) b = (b + 1) | 0; a = (a ^ (k${u} | 0)) | 0; if (k${u} > 2) a = (a + 1) | 0; }`; },
      () => { const u = ++uid; return `{ let f${u}; if ${cc(1)} f${u} = ${cf(1)}; c += f${u} === undefined ? 1 : f${u}; c += f${u} != null ? 0.5 : 0.25; }`; },
      () => { const u = ++uid; return `{ let e${u}; switch (${ci(1)} & 3) { case 0: e${u} = ${ci(1)}; break; case 1: e${u} = 2; } b = (b + (e${u} ?? 3)) | 0; }`; },
      // Functions as values: a helper given a scope helper, an intrinsic, a function written where
      // it is passed or a const bound to one, and passing it on.
      () => { const two = rnd() < 0.5; return `a = (a + ${two ? "ap2" : "ap"}(${pick(["Math.imul", "Math.max", "Math.min", "(s, t) => (s - t * 2) | 0", "function (s, t) { return s > t ? s : (t ^ 5); }", "hd"])}, ${ci(1)}${two ? "" : `, ${ci(1)}`})) | 0;`; },
      () => { const u = ++uid; return `{ const op${u} = ${pick(["Math.imul", "hd", "(s, t) => (s + t) | 0"])}; b = (b ^ op${u}(${ci(1)}, ${ci(1)})) | 0; }`; },
      // Arrays' in-place methods: callbacks written where passed (assigning what they capture), the
      // searches, fill with relative positions.
      () => { const u = ++uid; return `{ let s${u} = 0; p.forEach((v, j) => { s${u} = (s${u} + v * j) | 0; }); a = (a + s${u}) | 0; }`; },
      () => `c += x.${pick(["reduce", "reduceRight"])}((s, v, j) => s * 0.5 + v + j${rnd() < 0.5 ? ", c" : ""});`,
      () => `a = (a + ${rnd() < 0.5 ? `p.${pick(["indexOf", "lastIndexOf"])}(${ci(1)})` : `p.${pick(["findIndex", "findLastIndex"])}((v) => v > ${ci(1)})`}) | 0;`,
      () => `if (${rnd() < 0.3 ? `p.includes(${ci(1)})` : `p.${pick(["some", "every"])}((v, j) => v < j + ${ci(1)})`}) b = (b + 1) | 0;`,
      () => `p.fill(${ci(1)}, ${ri(-9, 9)}${rnd() < 0.5 ? `, ${ri(-9, 9)}` : ""});`,
      // A local function passed as a value, taking along what it reads: a number, p, ov.
      () => { const u = ++uid; return `{ const k${u} = ${ci(1)}; const cl${u} = (s, t) => ${pick([`(s + t * k${u}) | 0`, `(s ^ p[t & 7]) | 0`, `(s + ov.s - t) | 0`, `s > k${u} ? t : (s + p[k${u} & 7]) | 0`])}; a = (a + ap(cl${u}, ${ci(1)}, ${ci(1)})) | 0; }`; },
    ])();
    // (sv: the kernel's scalar parameter, which each thread assigns as its own.)
    const v = pick(["a", "b", "c", "sv"]);
    return v === "c" ? `c ${pick(["=", "+=", "-="])} ${cf(2)};` : `${v} = ${ci(2)};`;
  }
  if (r < 0.5) return `if ${cc(1)} { ${cblock(d - 1, inLoop)} } else { ${cblock(d - 1, inLoop)} }`;
  if (r < 0.56) return carriedLoop(d);
  if (r < 0.62) return labeled((body) => `for (let j = 0; j < ${pick(["3", "(a & 7)", "n", "5"])}; j++) { ${body()} }`, d);
  if (r < 0.66) return labeled((body) => `{ let w = 0; ${"{label}"}while (w < ${pick(["4", "(b & 3)"])}) { w++; ${body()} } }`, d);
  // do-while: its test comes last (WGSL's `break if`), after any break or continue in the body.
  if (r < 0.7) return labeled((body) => `{ let w = 0; ${"{label}"}do { ${body()} } while (++w < ${pick(["3", "(b & 3)"])}); }`, d);
  // for…of over the private array (a view of it), the input, or a literal.
  if (r < 0.72) return labeled((body) => pick([
    () => `for (const e of p${rnd() < 0.5 ? `.subarray(${ci(1)} & 3)` : ""}) { b = (b + e) | 0; ${body()} }`,
    () => `for (let e of x) { e = e * 0.5; c += e; ${body()} }`,
    () => `for (const e of [a, b & 7, ${ri(0, 9)}]) { a = (a ^ e) | 0; ${body()} }`,
  ])(), d);
  if (r < 0.78 && inLoop) {
    // A labeled jump to an enclosing loop (out of inner loops and switches), or a plain one.
    const { labels } = labelState();
    const target = labels.length && rnd() < 0.5 ? ` ${pick(labels)}` : "";
    return `if ${cc(1)} ${pick(["break", "continue"])}${target};`;
  }
  if (r < 0.86) return pick([
    () => `switch (${ci(1)} & 3) { case 0: ${cblock(d - 1, inLoop)} break; case 1: ${cblock(d - 1, inLoop)} case 2: ${cblock(d - 1, inLoop)} break; default: ${cblock(d - 1, inLoop)} }`,
    () => `switch (${ci(1)} & 3) { case 0: ${cblock(d - 1, inLoop)} break; case 1: ${cblock(d - 1, inLoop)} case 2: ${cblock(d - 1, inLoop)} break; default: ${cblock(d - 1, inLoop)} }`,
    // Labels found by === in order: switch (true) over tests, a float selector, computed labels.
    () => `switch (true) { case ${cc(1)}: ${cblock(d - 1, inLoop)} break; case ${cc(1)}: ${cblock(d - 1, inLoop)} default: ${cblock(d - 1, inLoop)} }`,
    () => `switch (${pick(["c", "x[i & 7]", "(c * 2)"])}) { case ${cf(1)}: ${cblock(d - 1, inLoop)} case 0.5: ${cblock(d - 1, inLoop)} break; default: ${cblock(d - 1, inLoop)} case ${ci(1)}: ${cblock(d - 1, inLoop)} }`,
  ])();
  if (r < 0.92) return `if ${cc(1)} { o[i] = ${cf(1)}; return; }`;
  return `o[i] += ${cf(2)};`;
}
/**
 * A loop of at most 4 iterations whose values are carried across them: a running offset into p
 * (up from 0..3 or down from 4..7, so that it stays within p when some iteration skips its step)
 * read before and after its step; a local read before its definition from j; an i32 counter
 * a = (a ± c) | 0; a and b, or two offsets into p, swapped every iteration; nested loops with a
 * row offset and a running offset stepped in the inner body. Random statements, and early break,
 * continue and return, before and after the steps.
 */
function carriedLoop(d) {
  const trip = pick(["3", "4", "(a & 3)", "((b & 3) + 1)", "(i & 3)", "2"]);
  const inner = () => (rnd() < 0.4 ? cblock(d - 1, true) : "");
  const exit = () => (rnd() < 0.35 ? pick([`if ${cc(1)} break;`, `if ${cc(1)} continue;`, `if ${cc(1)} { o[i] = ${cf(1)}; return; }`]) : "");
  // A for loop, or (one in four) the same steps as a do-while, whose test comes last (`continue`
  // goes to it, so j steps there): it runs once even when the trip is 0.
  const loop = (body) => (rnd() < 0.25
    ? `{ let j = 0; do { ${body.filter(Boolean).join(" ")} } while (++j < ${trip}); }`
    : `for (let j = 0; j < ${trip}; j++) { ${body.filter(Boolean).join(" ")} }`);
  const ab = () => pick(["a", "b"]);
  const r = rnd();
  if (r < 0.3) {
    const up = rnd() < 0.6;
    const step = up ? pick(["r = r + 1;", "r++;", "r += 1;", "r = 1 + r;", "r = r + 0;"]) : pick(["r = r - 1;", "r--;", "r -= 1;"]);
    return `{ let r = ${up ? `(${ci(1)} & 3)` : `((${ci(1)} & 3) + 4)`}; ${loop([exit(), `p[r] = ${ci(1)};`, inner(), exit(), step, exit(),
      `${ab()} = (${ab()} + p[r]) | 0;`, rnd() < 0.5 ? "c += x[r];" : ""])} ${rnd() < 0.5 ? `${ab()} = (${ab()} ^ r) | 0;` : ""} }`;
  }
  if (r < 0.45) {
    return `{ let r = ${ci(1)} & 7; ${loop([exit(), `c += x[r];`, `p[r] = (p[r] + ${ci(1)}) | 0;`, inner(),
      `r = ${pick(["j", "j * 2 + 1", "((j + a) | 0) & 7", "7 - j", "j + 3", "(j << 1)"])};`, exit(), rnd() < 0.5 ? `${ab()} = (${ab()} + p[r]) | 0;` : ""])} }`;
  }
  if (r < 0.6) {
    const v = ab();
    return loop([exit(), `p[${v} & 7] = (p[${v} & 7] + ${ci(1)}) | 0;`, inner(), `${v} = (${v} ${pick(["+", "-"])} ${pick(["1", "2", "j", "3"])}) | 0;`, exit(),
      `${v === "a" ? "b" : "a"} = (${v === "a" ? "b" : "a"} ${pick(["+", "^", "-"])} ${v}) | 0;`, rnd() < 0.5 ? `c += p[${v} & 7];` : ""]);
  }
  if (r < 0.72) {
    return loop([exit(), pick(["const tmp = a; a = b; b = tmp;", "const tmp = b; b = a; a = tmp;", "const tmp = a; a = b; b = (tmp + 1) | 0;"]), inner(),
      `p[${pick(["a", "b", "((a + j) | 0)"])} & 7] = ${ci(1)};`, exit(), rnd() < 0.5 ? `c += x[b & 7];` : ""]);
  }
  if (r < 0.85) {
    return `{ let u = a & 7, v = b & 7; ${loop([exit(), `p[u] = (p[v] + ${ci(1)}) | 0;`, "const tmp = u; u = v; v = tmp;", inner(), exit(), `c += x[v];`])} a = (a + u) | 0; }`;
  }
  return `{ let r = 0; for (let q = 0; q < ${pick(["2", "((a & 1) + 1)", "1"])}; q++) { const row = q * 4; ${exit()} for (let z = 0; z < ${pick(["4", "((b & 3) + 1)", "(a & 3)"])}; z++) { ${exit()} p[row + z] = (p[r] + ${ci(1)}) | 0; r = r + 1; ${exit()} ${inner()} } ${ab()} = (${ab()} + r) | 0; } }`;
}
function cblock(d, inLoop) { return Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => cstmt(d, inLoop)).join(" "); }

/**
 * The labels of the loops around the statement being generated, that a break or continue may
 * name, and a count for new ones. (A function, not a const: the driver above runs before this
 * part of the module is evaluated.)
 */
function labelState() { return (labelState.s ??= { labels: [], count: 0 }); }
/**
 * A loop, labeled one time in three (`L3: for …`; where the text has `{label}`, the label goes
 * there, on the loop inside a block), its body generated with that label in reach.
 */
function labeled(loop, d) {
  const st = labelState();
  const label = rnd() < 0.35 ? `L${st.count++}` : null;
  if (label) st.labels.push(label);
  // A labeled loop's body jumps to it, most times, from an inner loop or a switch.
  const jump = () => `if ${cc(1)} ${pick(["break", "continue"])} ${label};`;
  const out = () => (!label || rnd() < 0.3 ? "" : pick([
    () => `for (let h = 0; h < ${pick(["3", "(a & 3)"])}; h++) { ${cblock(d - 2, true)} ${jump()} c += 0.5; }`,
    () => `switch (${ci(1)} & 3) { case 1: ${jump()} a = (a + 1) | 0; break; default: ${cblock(d - 2, true)} }`,
  ])());
  const text = loop(() => `${cblock(d - 1, true)} ${out()}`);
  if (label) st.labels.pop();
  const at = label ? `${label}: ` : "";
  return text.includes("{label}") ? text.replace("{label}", at) : at + text;
}

async function fuzzControl() {
  const N = 8;
  const scope = new Function(`${helpers()}; return { ${[...helpers().matchAll(/^function (\w+)/gm)].map((m) => m[1]).join(", ")} };`)();
  let withByRef = 0, withOptional = 0, withObjects = 0, unchecked = 0, loopArrays = 0, withLabels = 0, withForOf = 0, withJsForms = 0, withUnassigned = 0, withFnValues = 0, withMethods = 0;
  for (let it = 0; it < count; it++) {
    uid = 0;
    nestedSa = mode === "js" && rnd() < 0.5;
    const stmts = cblock(3, false), used = kernelObjects().filter((v) => new RegExp(`\\b${v.name}\\b`).test(stmts));
    const body = `const i = threadIdx.x; const n = (x.length + i) & 7; const p = new Int32Array(8); let a = i; let b = (x[i] | 0); let c = x[(i + 2) & 7] * 0.25; ` +
      `${used.map((v) => `${v.decl} `).join("")}${stmts} o[i] = c + a + b + sv + p[(a ^ b) & 7]${used.map((v) => ` + ${v.fold}`).join("")};`;
    if (used.length || /\b(fill2?|upd|deep)\(|=> \{/.test(stmts)) withByRef++;
    if (/\b(break|continue) L\d/.test(stmts)) withLabels++;
    if (/ of /.test(stmts)) withForOf++;
    if (/\bhd\(|\|\|=|&&=|\?\?=|\.at\(|typeof |= threadIdx;|switch \((true|c|x\[i & 7\]|\(c \* 2\))\)/.test(stmts)) withJsForms++;
    if (/let [mkfe]\d+;/.test(stmts)) withUnassigned++;
    if (/\bap2?\(|const op\d+ =/.test(stmts)) withFnValues++;
    if (/\.(forEach|reduce|reduceRight|indexOf|lastIndexOf|findIndex|findLastIndex|some|every|includes|fill)\(/.test(stmts)) withMethods++;
    const src = `${helpers()}\nreturn function control(x, o, y, sa, po, sv) { ${body} }`;
    const sv = (it % 7) - 3;
    const Arr = mode === "webgpu" ? Float32Array : Float64Array;
    const x = Arr.from({ length: N }, (_, j) => [1.5, -2, 7, 0.25, 100, -0.5, 3, 12][(j + it) % 8]);
    // The optional array y: given, null or undefined.
    // (On the CPU device, given as a plain Array of numbers in half the kernels that have it: an f64[] too.)
    const yGiven = Arr.from({ length: N }, (_, j) => [4, -1.5, 0.5, 9, -3, 2.25, 6, -0.25][(j * 3 + it) % 8]);
    const y = pick([mode === "js" && rnd() < 0.5 ? Array.from(yGiven) : yGiven, null, undefined]);
    if (/\by\b/.test(stmts)) withOptional++;
    if (stmts.includes("const q = new")) loopArrays++;
    // The objects (see cObjects): each launch and the reference get their own copy of sa.
    const objs = Array.from({ length: N }, (_, j) => ({ s: (j * 5 + it) % 9 - 3, f: [0.5, -1.25, 3, 8, -0.75, 2, 0.125, -6][(j + it) % 8],
      ...(nestedSa ? { w: [j, j * 0.5, -j, it % 7], q: { z: (j * 3) % 5 - 1.5 }, ok: (j + it) % 3 === 0 } : {}) }));
    const saOf = () => {
      if (mode === "js") return structuredClone(objs);
      const a = structArray({ s: Int32Array, f: Float32Array }, N);
      objs.forEach((o, j) => { a[j] = o; });
      return a;
    };
    const po = { k: pick([0.5, 2, -1.5, 3]), on: rnd() < 0.5, q: { r: ri(-2, 9) } };
    const saWant = saOf(), saGot = saOf();
    if (/\b(sa|po)\b/.test(stmts)) withObjects++;
    const want = new Arr(N), got = new Arr(N);
    // Every third kernel without bounds checks (its indices are in range by construction): its
    // ?:, && and || read arrays on their lazy sides with no check before them, as the selects of
    // code compiled so do (ir/passes/lazy-reads.ts on PTX, SPIR-V and LLVM IR). (Chosen by the
    // kernel's number, not a random draw: a seed's kernels are the ones it gave before.)
    const boundsCheck = it % 3 !== 2;
    if (!boundsCheck) unchecked++;
    const k = kernel(new Function("threadIdx", src)(), { scope, boundsCheck });
    const t0 = performance.now();
    if (trace) process.stderr.write(`[${it}] ${body}\n`);
    try {
      if (mode === "js") for (let t = 0; t < N; t++) new Function("threadIdx", src)({ x: t })(x, want, y, saWant, po, sv);
      else await k.launch(cpu, { blocks: 1, threads: N }, x, want, y, saWant, po, sv);
      await k.launch(dev, { blocks: 1, threads: N, ...stop }, x, got, y, saGot, po, sv);
      if (!(await assembles(k, [x, got, y, saOf(), po, sv], body))) continue;
    } catch (e) {
      failed(e, body);
      continue;
    }
    if (trace) process.stderr.write(`[${it}] ${(performance.now() - t0).toFixed(0)} ms\n`);
    const ok = mode === "webgpu" ? (a, b) => !Number.isFinite(b) || Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)) : same;
    for (let t = 0; t < N; t++) {
      if (ok(got[t], want[t]) && saGot[t].s === saWant[t].s && saGot[t].ok === saWant[t].ok) continue;
      differ++;
      console.log(`DIFFERS (${Arr.name}, y ${y ? "given" : String(y)}${boundsCheck ? "" : ", boundsCheck: false"}) [${t}]: got ${got[t]} (sa[${t}].s ${saGot[t].s}), want ${want[t]} (sa[${t}].s ${saWant[t].s})\n  ${body}`);
      break;
    }
  }
  console.log(`${count} kernels of control flow on ${mode === "js" ? "the CPU device against plain JavaScript" : `${mode} against the CPU device`}: ${differ} differ (${withByRef} with out-parameters or local functions assigning captures, ${withOptional} testing the optional array y, ${withObjects} using the array of objects sa or the object po, ${loopArrays} declaring a private array in a loop, ${withLabels} with labeled jumps, ${withForOf} with for…of loops, ${withJsForms} with defaults, rest parameters, logical assignments, at(), typeof, threadIdx as an object or switches by ===, ${withUnassigned} with variables declared without a value, ${withFnValues} with functions as values, ${withMethods} with arrays' methods, ${unchecked} without bounds checks${provenNote()}), ${compileErrors} compile errors (seed ${opt("seed", 1)})`);
}


// ---- barriers ------------------------------------------------------------------------------------

/**
 * One i32 kernel `name(x, o, n, m)` of `body` on the reference device and on the device under test
 * (and through ptxas with --ptxas), `blocks` blocks of `bd` threads: every output must be equal.
 * n and m are i32 parameters (0 unless given).
 */
async function againstReference(name, body, reference, blocks, bd, what, n = 0, m = 0) {
  const x = referenceX();
  const want = new Int32Array(blocks * bd), got = new Int32Array(blocks * bd);
  try {
    const k = kernel(new Function(`return function ${name}(x, o, n, m) { ${body} }`)(), { types: { n: "i32", m: "i32" } });
    // (Stopped after a minute, as the js mode stops a kernel: a kernel the reference runs for that
    // long is a case to look at, said with its source, not a fuzzer that never ends.)
    await k.launch(reference, { blocks, threads: bd, timeoutMs: 60000 }, x, want, n, m);
    await k.launch(dev, { blocks, threads: bd }, x, got, n, m);
    if (!(await assembles(k, [x, got, n, m], body))) return;
  } catch (e) {
    failed(e, body);
    return;
  }
  const i = want.findIndex((w, j) => got[j] !== w);
  if (i >= 0) { differ++; console.log(`DIFFERS [${i}]: got ${got[i]}, want ${want[i]} (${what})\n  ${body}`); }
}

/** The x of againstReference's kernels (which only read it). */
function referenceX() { return Int32Array.from({ length: 32 }, (_, i) => (i * 7919) % 13 - 6); }

function bi(d) {
  if (d <= 0 || rnd() < 0.3) return pick(["t", "v", "w", "r", "3", "(x[t] | 0)", "s[t]", "s[(t + 1) % bd]", "s[bd - 1 - t]", "s[0]"]);
  const r = rnd();
  if (r < 0.5) return `((${bi(d - 1)} ${pick(["+", "-"])} ${bi(d - 1)}) | 0)`;
  if (r < 0.7) return `(${bi(d - 1)} ${pick(["&", "^", ">>"])} ${pick(["3", "7", "1"])})`;
  if (r < 0.8) return `Math.imul(${bi(d - 1)}, 3)`;
  return `(${bi(d - 1)} < ${bi(d - 1)} ? ${bi(d - 1)} : ${bi(d - 1)})`;
}
/** Conditions every thread of a block agrees on. */
function buc() { return pick(["(b & 1) === 0", "it < 2", "s[0] > 5", "(bd & 8) !== 0", "u > 3"]); }
function bstmt(d, inLoop) {
  const r = rnd();
  if (d <= 0 || r < 0.3) return `${pick(["v", "w"])} = ${bi(2)};`;
  if (r < 0.45) return `{ const q = ${bi(2)}; syncthreads(); s[t] = q; syncthreads(); }`;
  if (r < 0.55) return `syncthreads(); r = ${bi(2)}; syncthreads();`;
  if (r < 0.65) return `if (${buc()}) { ${bblock(d - 1, inLoop)} } else { ${bblock(d - 1, inLoop)} }`;
  if (r < 0.75) return `for (let it = 0; it < ${pick(["3", "2", "(u & 3)"])}; it++) { ${bblock(d - 1, true)} }`;
  if (r < 0.8 && inLoop) return `if (${buc()}) ${pick(["break", "continue"])};`;
  // (Conditions on the thread's index: the CPU device's WebAssembly splits rows where they change.)
  if (r < 0.87) {
    // (With --device wasm, a store to the thread's own element too, in a region of its own: what
    // later reads it sees it after a barrier, as every thread does.)
    const store = mode === "wasm" && rnd() < 0.4;
    const cond = `${pick(["t", "t", "t + 1", "t - 2"])} ${pick(["<", ">", "!==", "<=", ">=", "==="])} ${pick(["3", "bd - 2", "5", "(u & 7)"])}`;
    return store ? `if (${cond}) { s[t] = (s[t] + ${bi(1)}) | 0; } syncthreads();` : `if (${cond}) { v = ${bi(1)}; }`;
  }
  if (r < 0.95) return shared2();
  return `u = s[${pick(["0", "1", "bd - 1"])}]; syncthreads();`;
}

/**
 * The shared-memory steps of real kernels whose threads store through more than one index, or
 * under conditions on their data (what the CPU device's four-lane form tests at run time):
 * a tree reduction (reduction.ts's `s[t] += s[t + st]` under `t < st`, and the interleaved
 * `t % (2 * st) === 0`), a bitonic compare-and-swap step at a stride (bitonic-sort.ts: pairs
 * `p`, `p + st`, swapped where their order differs from a direction, a second array swapped
 * alike: tile, which the kernel clears first, or the swap would read shared memory no thread
 * wrote, as --races' sanitizer reports), an odd-even transposition step (pairs t, t + 1), a store under a condition on the
 * thread's own data; and, with --device wasm only (a GPU's answer to them is not defined, but the
 * CPU device's is JavaScript's), races in thread order: a thread reading the element its
 * neighbour just wrote, two threads writing one element.
 */
function shared2() {
  const r = rnd();
  const dir = pick(["true", "(t & 2) === 0", "(t & 4) !== 0", "x[t] > 0"]);
  if (r < 0.2) {
    const cond = pick(["t < st", "t < st", "t % (2 * st) === 0"]);
    return `syncthreads(); for (let st = ${pick(["bd >> 1", "1"])}; ${pick(["st > 0; st >>= 1", "st < bd; st <<= 1"])}) { if (${cond} && t + st < bd) s[t] = (s[t] + s[t + st]) | 0; syncthreads(); }`;
  }
  if (r < 0.45) {
    const step = (st) => `{ const st = ${st}; if (t < (bd >> 1)) { const p = 2 * t - (t & (st - 1)); const a = s[p], c = s[p + st]; ` +
      `if ((a > c) === (${dir})) { s[p] = c; s[p + st] = a; const e = tile[p]; tile[p] = tile[p + st]; tile[p + st] = e; } } }`;
    return rnd() < 0.5 ? `syncthreads(); ${step(pick(["1", "2", "4", "(bd >> 1)"]))} syncthreads();` : `for (let k = bd >> 1; k > 0; k >>= 1) { syncthreads(); ${step("k")} } syncthreads();`;
  }
  if (r < 0.6) return `syncthreads(); if ((t & 1) === ${ri(0, 1)} && t + 1 < bd) { const a = s[t], c = s[t + 1]; if (a > c) { s[t] = c; s[t + 1] = a; } } syncthreads();`;
  if (r < 0.65 || mode !== "wasm") return `{ const q = ${bi(2)}; syncthreads(); if (q ${pick([">", "<", "==="])} ${ri(-3, 6)}) { s[t] = (q + v) | 0; v = w; } else { w = (w ^ q) | 0; } syncthreads(); }`;
  return pick([
    `if (t > 0) s[t] = (s[t - 1] + ${bi(1)}) | 0;`,
    `if (t + 1 < bd) s[t + 1] = Math.imul(s[t], 3) ^ t;`,
    `s[(t * 5) & (bd - 1)] = (v + t) | 0;`,
    `s[t >> 1] = (s[t >> 1] + t) | 0;`,
    `{ const q = s[${pick(["0", "1", "3", "bd - 1", "(u & 7)"])}]; s[t] = (q + t) | 0; }`,
    `if (${bi(1)} > 2) { const a = s[t]; s[t] = s[(t + 4) & (bd - 1)]; s[(t + 4) & (bd - 1)] = a; }`,
  ]) + " syncthreads();";
}
function bblock(d, inLoop) { return Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => bstmt(d, inLoop)).join(" "); }

/**
 * The tiled loop real kernels have (cuda-samples' n-body, tiled matrix products): per tile, each
 * thread loads its W elements into the shared array `tile` (unguarded, or under `t < m` or a
 * bound on the source index), a barrier, an inner counted loop over the tile reading it (its
 * bound blockDim.x, a parameter, a per-thread value: loops ir/passes/hoist-checks.ts versions),
 * sometimes in one or both arms of an if/else (block-uniform or not), a barrier; trip counts from
 * the parameters n and m; threads returned before the loop (`if (i >= n) return;` and others) or in
 * it, before its first barrier (they still pass its barriers); stores guarded by `t < m` or
 * `i < n`. Every slot a loop reads was written first (the kernel clears the tile; the GPU's shared
 * memory starts undefined), and no thread writes a slot another may read before the next barrier.
 */
function tiled() {
  const W = pick([1, 1, 2, 4]);
  const el = (j, c = 0) => (W === 1 ? `tile[${j}]` : `tile[${W} * ${j} + ${c}]`);
  const src = pick(["(k0 * bd + t)", "(k0 + Math.imul(t, 3))", "(i + k0)"]);
  const load = (c) => `${el("t", c)} = ((x[(${src} + ${c}) & 31] + ${c}) | 0) ^ k0;`;
  const loads = Array.from({ length: W }, (_, c) => load(c)).join(" ");
  const guarded = pick(["", "", `if (t < m) `, `if (k0 * bd + t < n) `]);
  // The inner loop: every bound keeps j below blockDim.x (the slots the threads wrote).
  const inner = (op) => {
    const lim = pick(["bd", "bd", "Math.min(m, bd)", "Math.min(n, bd)", "(t & 7) + 1", "bd - (m & 3)"]);
    const c = W === 1 ? 0 : ri(0, W - 1);
    const body = pick([`acc = (acc ${op} ${el("j", c)}) | 0;`, `acc = (Math.imul(acc, 3) + ${el("j", c)}) | 0;`, `if (${el("j", c)} > ${ri(-4, 4)}) acc = (acc + j) | 0;`,
      `if (j === t) continue; acc = (acc ${op} ${el("j", c)}) | 0;`, `if (${el("j", c)} === ${ri(-6, 6)}) break; acc = (acc + 1) | 0;`]);
    return `for (let j = ${pick(["0", "0", "1"])}; j < ${lim}; j++) { ${body} }`;
  };
  const compute = pick([
    () => inner("+"),
    () => `if (${pick(["m > 5", "(n & 1) === 0", "bd > 8", "k0 === 1"])}) { ${inner("+")} } else { ${pick([inner("^"), `acc = (acc + ${el("t")}) | 0;`, ""])} }`,
    () => `if (${pick(["t < m", "(x[t] & 1) === 0", "i < n"])}) { ${inner("-")} } else { acc = (acc ^ ${el("(bd - 1 - t)")}) | 0; }`,
    () => `${inner("+")} ${inner("^")}`,
  ])();
  const exitIn = pick(["", "", "", `if (k0 === ${ri(0, 2)} && (x[t] & 3) === ${ri(0, 3)}) return;`]);
  const tail = pick(["", "", "if (t < m) v = (v + acc) | 0;", "if (i < n) o[b * bd + t] = acc;", "w = (w ^ k0) | 0;"]);
  const trips = pick(["(((n + bd - 1) / bd) | 0)", "(m & 3)", "2", "(n >> 3)", "(((m + 1) >> 1) & 3)"]);
  return `for (let c = 0; c < ${W}; c++) ${el("t", "c")} = 0; syncthreads(); ` +
    pick(["", "if (i >= n) return; ", "if (i >= n) return; ", `if ((x[t] & 3) === ${ri(0, 3)}) return; `, "if (t >= m) return; "]) +
    `for (let k0 = 0; k0 < ${trips}; k0++) { ${exitIn} ${guarded}{ ${loads} } syncthreads(); ${compute} syncthreads(); ${tail} }`;
}

/** One --barriers kernel `barriers(x, o, n, m)` (a case, see atomicKernel()) of 3 blocks; tiled: whether it has a tiled loop. */
function barrierKernel() {
  const blocks = 3, bd = pick([8, 16, 32]);
  // Half the kernels are tiled loops (among the other statements, or alone).
  const isTiled = rnd() < 0.5;
  const shape = isTiled ? (rnd() < 0.5 ? tiled() : `${bblock(2, false)} ${tiled()} ${bblock(2, false)}`) : bblock(3, false);
  const body = "const t = threadIdx.x, b = blockIdx.x, bd = blockDim.x, i = b * bd + t; const it = 0; const s = shared(Int32Array, 32); " +
    `const tile = shared(Int32Array, 128); let v = t, w = b, r = 0, acc = 0; s[t] = t * 3 + b; tile[t] = 0; syncthreads(); let u = s[0]; syncthreads(); ` +
    `${shape} o[b * bd + t] = ((((v + w) | 0) + r) | 0) + acc;`;
  const n = pick([0, ri(1, blocks * bd), blocks * bd, ri(0, 100)]), m = ri(0, 40);
  return { name: "barriers", body, params: { x: referenceX(), o: new Int32Array(blocks * bd), n, m }, options: { types: { n: "i32", m: "i32" } },
    blocks, threads: bd, what: `${bd} threads, n = ${n}, m = ${m}`, tiled: isTiled };
}

async function fuzzBarriers() {
  let tiles = 0;
  for (let it = 0; it < count; it++) {
    const c = barrierKernel();
    if (c.tiled) tiles++;
    await againstReference(c.name, c.body, cpu, c.blocks, c.threads, c.what, c.params.n, c.params.m);
  }
  console.log(`${count} kernels with barriers on ${mode} against the CPU device: ${differ} differ (${tiles} tiled), ${compileErrors} compile errors (seed ${opt("seed", 1)})`);
}


// ---- subgroups -----------------------------------------------------------------------------------

/** An i32 expression of the thread's values; with `shuffles` false, no shuffle (some lanes may have returned). */
function si(d, shuffles) {
  if (d <= 0 || rnd() < 0.3) return pick(["t", "v", "w", "lane", "3", "(x[t & 31] | 0)", "s[t]", "s[(t + 1) % bd]"]);
  const r = rnd();
  const lane = () => pick(["1", "0", "lane + 1", "(v & 15)", "31", "-1", "(t >> 1)", "S - 1"]);
  if (r < 0.25) return `((${si(d - 1, shuffles)} ${pick(["+", "-"])} ${si(d - 1, shuffles)}) | 0)`;
  if (r < 0.35) return `(${si(d - 1, shuffles)} ${pick(["&", "^", ">>"])} ${pick(["3", "7", "1"])})`;
  if (r < 0.6 && shuffles) return `${pick(["subgroupShuffle", "subgroupShuffleDown", "subgroupShuffleUp", "subgroupShuffleXor", "subgroupBroadcast"])}(${si(d - 1, shuffles)}, ${lane()})`;
  if (r < 0.8) return `${pick(["subgroupAdd", "subgroupMin", "subgroupMax"])}(${si(d - 1, shuffles)})`;
  if (r < 0.9) return `(${pick(["subgroupAny", "subgroupAll"])}(${si(d - 1, shuffles)} > ${pick(["0", "3", "-2"])}) ? 1 : 0)`;
  return `(subgroupBallot(${si(d - 1, shuffles)} > 0) | 0)`;
}
/** Conditions the threads of each subgroup agree on (not those of a block), or (half the time) conditions that differ between its lanes. */
function suc(shuffles) {
  if (rnd() < 0.5) return pick(["lane < 3", "(t & 1) === 0", "v > 2", "(lane ^ b) % 3 === 0", "lane !== S - 1", `(${si(1, shuffles)} & 3) === 1`]);
  return pick(["(warp & 1) === 0", "warp > 0", "it < 2", `subgroupMax(${si(1, shuffles)}) > 2`, `(subgroupBallot((v & 1) === 0) & 1) !== 0`, ...(shuffles ? ["subgroupBroadcast(v, 0) > 1"] : [])]);
}
/**
 * A statement. At block level (`block`), barriers under conditions every thread of the block
 * agrees on; below a subgroup-uniform condition, none (a barrier there would diverge).
 */
function sstmt(d, inLoop, shuffles, block) {
  const r = rnd();
  if (d <= 0 || r < 0.3) return `${pick(["v", "w"])} = ${si(2, shuffles)};`;
  // Below a subgroup-uniform condition, no break or continue of a loop of the block (some
  // subgroups would leave it, skipping its barriers).
  if (r < 0.45) return `if (${suc(shuffles)}) { ${sblock(d - 1, inLoop && !block, shuffles, false)} } else { ${sblock(d - 1, inLoop && !block, shuffles, false)} }`;
  if (r < 0.52 && block) return `if (${pick(["(b & 1) === 0", "u > 3", "bd > 8"])}) { ${sblock(d - 1, inLoop, shuffles, true)} }`;
  // (Below a condition, trip counts may differ between lanes.)
  if (r < 0.62) return `for (let it = 0; it < ${block ? pick(["3", "2", "(u & 3)"]) : pick(["3", "(subgroupMax(v) & 3)", "(lane & 3)", "(v & 3)", "((t + b) % 3)"])}; it++) { ${sblock(d - 1, true, shuffles, block)} }`;
  if (r < 0.68 && inLoop) return `if (${block ? "it === 1" : suc(shuffles)}) ${pick(["break", "continue"])};`;
  if (r < 0.8 && block) return `{ const q = ${si(2, shuffles)}; syncthreads(); s[t] = q; syncthreads(); }`;
  // A warp reduction's loop (its delta the block's; nothing stored: it runs at block level) and a
  // region whose one access to s is a lane's store at its warp's element (stored lane by lane; one
  // lane per warp, chosen by a value the block shares: `lane === (v & 3)` let lanes with
  // different v write one element, a race the sanitizer reported).
  // (`|| 1`: with subgroups of one, S >> 1 and S - 1 are 0, which doubling never ends.)
  if (r < 0.85 && block && shuffles) return `for (let d = ${pick(["(S >> 1) || 1", "1", "(S - 1) || 1"])}; ${pick(["d > 0; d >>= 1", "d < S; d <<= 1"])}) { v = (v + ${pick(["subgroupShuffleDown", "subgroupShuffleUp", "subgroupShuffleXor"])}(v, d)) | 0; }`;
  if (r < 0.87 && block) return `syncthreads(); if (lane === ${pick(["0", "S - 1", "(u & 3)"])}) s[warp + ${pick(["0", "8"])}] = v; syncthreads(); w = s[warp + ${pick(["0", "8"])}]; syncthreads();`;
  if (r < 0.9) return `if (t ${pick(["<", ">", "!=="])} ${pick(["3", "bd - 2", "5"])}) { v = ${si(1, false).replace(/subgroup\w+\(/g, "Math.abs(")}; }`;
  return block ? `u = s[${pick(["0", "1 % bd", "bd - 1"])}]; syncthreads();` : `w = s[${pick(["0", "1 % bd", "bd - 1"])}];`;
}
function sblock(d, inLoop, shuffles, block) { return Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => sstmt(d, inLoop, shuffles, block)).join(" "); }

async function fuzzSubgroups() {
  // The CPU device with the GPU's subgroup size.
  const probe = kernel(function probe(o) { o[threadIdx.x] = subgroupSize(); });
  const sizes = new Int32Array(1);
  await probe.launch(dev, { blocks: 1, threads: 1 }, sizes);
  const S = sizes[0];
  const ref = await device("cpu", { subgroupSize: S, ...(wasmMode ? { wasm: "always" } : mode === "wasm" ? { wasm: false } : {}) });
  const blocks = 3;
  let exits = 0;
  for (let it = 0; it < count; it++) {
    const bd = pick([S, 2 * S, 4 * S].filter((n) => n <= 64));
    const early = rnd() < 1 / 3;
    if (early) exits++;
    const body = "const t = threadIdx.x, b = blockIdx.x, bd = blockDim.x, S = subgroupSize(), lane = subgroupLaneId(), warp = (t / S) | 0; const it = 0; " +
      // (Every element of s written first: a warp's slot `warp + 8` is past a small block's threads.)
      "const s = shared(Int32Array, 64); let v = (x[t & 31] * 3 + t) | 0, w = b, u = 0; for (let j = t; j < 64; j += bd) s[j] = j * 3 + b; syncthreads(); u = s[0]; syncthreads(); " +
      (early ? `if (${pick(["(x[t & 31] & 3) === 1", "t % 3 === 2", "v > 5"])}) return; ` : "") +
      `${sblock(3, false, true, true)} o[b * bd + t] = (v + w) | 0;`;
    await againstReference("subgroups", body, ref, blocks, bd, `${bd} threads, subgroups of ${S}`);
  }
  ref.close();
  console.log(`${count} kernels with subgroup operations on ${mode} (subgroups of ${S}) against the CPU device: ${differ} differ (${exits} with early returns), ${compileErrors} compile errors (seed ${opt("seed", 1)})`);
}

// ---- atomics -------------------------------------------------------------------------------------

/**
 * A kernel and its launch (a case): `name(...params)` of `body` (compiled with `options`), `blocks`
 * blocks of `threads`; params its arguments in order, arrays copied for each launch (argsOf).
 */
function compileCase(c, body = c.body) {
  return kernel(new Function(`return function ${c.name}(${Object.keys(c.params).join(", ")}) { ${body} }`)(), c.options);
}
function argsOf(c) { return Object.values(c.params).map((v) => (ArrayBuffer.isView(v) ? v.slice() : v)); }
/** Where two launches' arguments (argsOf) first differ: the array's name and the index; else null. */
function firstDifference(c, a, b) {
  const names = Object.keys(c.params);
  for (let k = 0; k < a.length; k++) {
    const i = ArrayBuffer.isView(a[k]) ? a[k].findIndex((v, j) => !Object.is(v, b[k][j])) : -1;
    if (i >= 0) return { k, name: names[k], i };
  }
  return null;
}

/**
 * A kernel of atomics on Int32Array or Uint32Array elements: one commutative operation per array
 * (global o and shared sh), shared results added into o[8 ..] (a case, see compileCase()).
 */
function atomicKernel() {
  const all = ["Atomics.add", "Atomics.sub", "Atomics.and", "Atomics.or", "Atomics.xor", "atomicMin", "atomicMax", "atomicInc", "atomicDec"];
  // One operation per array: different ones on one slot would not commute.
  const ops = { o: pick(all), sh: pick(all.filter((o) => o !== "Atomics.sub")) };
  // atomicInc/atomicDec wrap at a limit: one limit per array, so that the order does not matter.
  const limits = { o: pick(["5", "100", "-1", "1000"]), sh: pick(["3", "7", "64"]) };
  const unsigned = rnd() < 0.5, A = unsigned ? "Uint32Array" : "Int32Array";
  const stmts = [];
  for (let s = 0, ns = 1 + Math.floor(rnd() * 4); s < ns; s++) {
    const target = rnd() < 0.3 ? "sh" : "o";
    const idx = pick(["t & 7", "(t * 3) % 8", "b", "(t + b) & 7", "0", "x[t & 7] & 7"]);
    const val = /atomic(Inc|Dec)/.test(ops[target]) ? limits[target] : pick(["t", "x[t & 7]", "t * 7 - 20", "b + 1", "-3", "(t ^ 5) - 8", "2147483647", "t * 1000000", "t & 1 ? 3 : -5"]);
    stmts.push(`${ops[target]}(${target}, ${idx}, ${val});`);
  }
  const body = `const t = threadIdx.x, b = blockIdx.x; const sh = shared(${A}, 8); if (t < 8) sh[t] = ${ops.sh === "Atomics.and" ? -1 : ops.sh === "atomicMin" ? (unsigned ? "4294967295" : "2147483647") : ops.sh === "atomicMax" ? (unsigned ? 0 : "-2147483648") : 0}; syncthreads(); ` +
    `${stmts.join(" ")} syncthreads(); if (t < 8) Atomics.add(o, 8 + t, sh[t]);`;
  const x = Int32Array.from({ length: 8 }, (_, i) => i * 5 - 11);
  const Arr = unsigned ? Uint32Array : Int32Array;
  const init = Arr.from({ length: 16 }, (_, i) => ((i * 12345) % 1000) - 300);
  const threads = pick([8, 32, 64, 256]), blocks = pick([1, 3]);
  return { name: "atomics", body, params: { x, o: init }, options: { scope: { atomicMin, atomicMax, atomicInc, atomicDec } }, blocks, threads, what: `${A}, ${blocks} × ${threads}` };
}

async function fuzzAtomics() {
  for (let it = 0; it < count; it++) {
    // A third of the kernels on 8- and 16-bit or f32 elements: the loops on the element's word.
    const c = rnd() < 1 / 3 ? wordAtomicKernel() : atomicKernel();
    const want = argsOf(c), got = argsOf(c);
    try {
      const k = compileCase(c);
      await k.launch(cpu, { blocks: c.blocks, threads: c.threads }, ...want);
      await k.launch(dev, { blocks: c.blocks, threads: c.threads }, ...got);
      if (!(await assembles(k, got, c.body))) continue;
    } catch (e) {
      failed(e, c.body);
      continue;
    }
    const d = firstDifference(c, got, want);
    if (d) { differ++; console.log(`DIFFERS ${d.name}[${d.i}]: got ${got[d.k][d.i]}, want ${want[d.k][d.i]} (${c.what})\n  ${c.body}`); }
  }
  console.log(`${count} kernels with atomics on ${mode} against the CPU device: ${differ} differ, ${compileErrors} compile errors (seed ${opt("seed", 1)})`);
}

/**
 * Atomics a target writes out as compare-and-swap loops on the element's 32-bit word
 * (ir/passes/cas-loops.ts): on 8- and 16-bit elements (global and shared) a commutative operation
 * per array, wrapping as the element does; plain stores, Atomics.store, exchange and
 * compareExchange, each thread on its own element, so that neighbours in one word race; and
 * atomicAdd on f32 with integer values (exact in any order). The final arrays (a case, see
 * compileCase()) against the CPU device's, and each thread's old values where they are defined
 * (its own element's, in r).
 */
function wordAtomicKernel() {
  const kind = pick(["Int8Array", "Uint8Array", "Int16Array", "Uint16Array", "Float32Array"]);
  const f32 = kind === "Float32Array";
  const ops = f32 ? ["atomicAdd"] : ["Atomics.add", "Atomics.sub", "Atomics.and", "Atomics.or", "Atomics.xor"];
  const op = { o: pick(ops), sh: pick(ops.filter((o) => o !== "Atomics.sub")) };
  const stmts = [];
  for (let s = 0, ns = 1 + Math.floor(rnd() * 4); s < ns; s++) {
    const target = rnd() < 0.3 ? "sh" : "o";
    const idx = pick(["t & 7", "(t * 3) % 8", "b", "(t + b) & 7", "0", "x[t & 7] & 7", "t & 1"]);
    const val = f32 ? pick(["t", "x[t & 7]", "b + 1", "-3", "(t & 3) - 2", "t & 1 ? 0.5 : -2"]) : pick(["t", "x[t & 7]", "t * 7 - 20", "b + 1", "-3", "(t ^ 5) - 8", "300", "t * 1000", "t & 1 ? 3 : -5"]);
    stmts.push(`${op[target]}(${target}, ${idx}, ${val});`);
  }
  // Each thread's own element of `p` (16 + its global id): neighbours share words.
  const own = "16 + b * bd + t";
  const mine = [];
  for (let s = 0, ns = Math.floor(rnd() * 3); s < ns && !f32; s++) {
    mine.push(pick([
      `p[${own}] = t * 37 - 50;`,
      `Atomics.store(p, ${own}, t - 9);`,
      `r[${own}] = Atomics.exchange(p, ${own}, t + b);`,
      `r[${own}] = Atomics.compareExchange(p, ${own}, p[${own}], t * 3);`,
      `r[${own}] = Atomics.compareExchange(p, ${own}, 12345, t);`,
      `r[${own}] = Atomics.add(p, ${own}, t);`,
      `r[${own}] = Atomics.load(p, ${own});`,
    ]));
  }
  const fill = op.sh === "Atomics.and" ? -1 : 0;
  const body = `const t = threadIdx.x, b = blockIdx.x, bd = blockDim.x; const sh = shared(${kind}, 8); if (t < 8) sh[t] = ${fill}; syncthreads(); ` +
    `${stmts.join(" ")} ${mine.join(" ")} syncthreads(); if (t < 8) ${f32 ? "atomicAdd" : "Atomics.add"}(o, 8 + t, sh[t]);`;
  const x = Int32Array.from({ length: 8 }, (_, i) => i * 5 - 11);
  const Arr = globalThis[kind];
  const threads = pick([8, 32, 64, 256]), blocks = pick([1, 3]);
  const n = 16 + blocks * threads;
  const init = Arr.from({ length: n }, (_, i) => ((i * 12345) % 1000) - 300);
  return { name: "wordAtomics", body, params: { x, o: init, p: init.slice(), r: new Int32Array(n) }, options: { scope: { atomicAdd } }, blocks, threads, what: `${kind}, ${blocks} × ${threads}` };
}


// ---- races --------------------------------------------------------------------------------------

/** A launch of the case on a sanitized device: its arguments after it and the sanitizer's KernelError (null without findings); any other error thrown. */
async function sanitized(k, d, c) {
  const args = argsOf(c);
  try {
    await k.launch(d, { blocks: c.blocks, threads: c.threads }, ...args);
    return { args, error: null };
  } catch (e) {
    if (e instanceof KernelError && ["race", "uninitialized", "divergence"].includes(e.kind)) return { args, error: e };
    throw e;
  }
}

/** The arguments of the call whose "(" is just before s[at], split at its top-level commas, and the index past its ")". */
function callArgs(s, at) {
  const out = [];
  for (let i = at, from = at, depth = 0; ; i++) {
    if (s[i] === "(" || s[i] === "[") depth++;
    else if ((s[i] === ")" || s[i] === "]") && depth-- === 0) { out.push(s.slice(from, i).trim()); return [out, i + 1]; }
    else if (s[i] === "," && depth === 0) { out.push(s.slice(from, i).trim()); from = i + 1; }
  }
}

/** `f(a, i, v)` as the plain read-modify-write it stands for, on a's element type. */
function plainUpdate(f, a, i, v, type) {
  const e = `${a}[${i}]`;
  // The element's arithmetic: i32 wraps with | 0, u32 with >>> 0 (8- and 16-bit elements wrap as they are stored).
  const wrap = (x) => (type === "Float32Array" ? x : type === "Uint32Array" ? `(${x}) >>> 0` : `(${x}) | 0`);
  const elem = `((${v}) ${type === "Uint32Array" ? ">>> 0" : "| 0"})`, limit = `((${v}) >>> 0)`;
  const op = { "Atomics.add": "+", atomicAdd: "+", "Atomics.sub": "-", "Atomics.and": "&", "Atomics.or": "|", "Atomics.xor": "^" }[f];
  if (op) return `${e} = ${wrap(`${e} ${op} (${v})`)};`;
  if (f === "atomicMin" || f === "atomicMax") return `${e} = Math.${f.slice(6).toLowerCase()}(${e}, ${elem});`;
  // CUDA's atomicInc and atomicDec, comparing as u32 (intrinsics.ts).
  if (f === "atomicInc") return `${e} = (${e} >>> 0) >= ${limit} ? 0 : ${wrap(`${e} + 1`)};`;
  return `${e} = ${e} === 0 || (${e} >>> 0) > ${limit} ? ${elem} : ${wrap(`${e} - 1`)};`;
}

/**
 * One mutant of the case: a barrier kernel without one of its syncthreads(), or an atomics kernel
 * with one of its atomic statements (calls whose old value is unused) made a plain
 * read-modify-write; its body and what changed.
 */
function mutant(c, barriers) {
  if (barriers) {
    const at = [...c.body.matchAll(/syncthreads\(\); /g)].map((m) => m.index), i = pick(at);
    return { body: c.body.slice(0, i) + c.body.slice(i + "syncthreads(); ".length), what: `syncthreads() ${at.indexOf(i) + 1} of ${at.length} removed` };
  }
  const calls = [...c.body.matchAll(/(?<=[;{})] )(Atomics\.(?:add|sub|and|or|xor)|atomic(?:Min|Max|Inc|Dec|Add))\(/g)];
  const m = pick(calls), [[a, i, v], end] = callArgs(c.body, m.index + m[0].length);
  const type = ArrayBuffer.isView(c.params[a]) ? c.params[a].constructor.name : c.body.match(new RegExp(`\\b${a} = shared\\((\\w+)`))[1];
  const plain = plainUpdate(m[1], a, i, v, type);
  return { body: c.body.slice(0, m.index) + plain + c.body.slice(end + 1), what: `${c.body.slice(m.index, end + 1)} → ${plain}` };
}

/** --races (see the header): each kernel and its mutant on the sanitized CPU device, forward and reversed. */
async function fuzzRaces() {
  const fwd = await device("cpu", { sanitize: true }), rev = await device("cpu", { sanitize: true, threadOrder: "reversed" });
  let barriers = 0, differing = 0, reported = 0, missed = 0, falseReports = 0, orderDependent = 0, reportedAlike = 0, mutantErrors = 0, divergent = 0;
  /** Mutants made and mutants reported: barrier ones, atomic ones (--verbose prints those not reported). */
  const made = [0, 0], reportedAs = [0, 0];
  let tl = 0;
  // The sanitizer's message, its first lines (a kernel may race on every element).
  const message = (e) => { const l = e.message.split("\n"); return l.slice(0, 12).join("\n    ") + (l.length > 12 ? `\n    … (${e.reports?.length} reports)` : ""); };
  for (let it = 0; it < count; it++) {
    // (--trace: how long the last kernel and its mutant took.)
    if (trace && it) process.stderr.write(`[${it - 1}] ${(performance.now() - tl).toFixed(0)} ms\n`);
    tl = performance.now();
    const isBarrier = rnd() < 0.5;
    const c = isBarrier ? barrierKernel() : rnd() < 1 / 3 ? wordAtomicKernel() : atomicKernel();
    if (isBarrier) barriers++;
    let f, r;
    try {
      const k = compileCase(c);
      f = await sanitized(k, fwd, c);
      r = await sanitized(k, rev, c);
    } catch (e) {
      failed(e, c.body);
      continue;
    }
    if (f.error || r.error) {
      falseReports++;
      for (const [order, e] of [["forward", f.error], ["reversed", r.error]]) if (e) console.log(`FALSE REPORT (${order}; ${c.what}): ${message(e)}\n  ${c.body}`);
      continue;
    }
    const d = firstDifference(c, f.args, r.args);
    if (d) {
      orderDependent++;
      console.log(`ORDER-DEPENDENT UNMUTATED ${d.name}[${d.i}]: forward ${f.args[d.k][d.i]}, reversed ${r.args[d.k][d.i]} (${c.what})\n  ${c.body}`);
      continue;
    }
    const m = mutant(c, isBarrier);
    made[isBarrier ? 0 : 1]++;
    try {
      const k = compileCase(c, m.body);
      f = await sanitized(k, fwd, c);
      r = await sanitized(k, rev, c);
    } catch (e) {
      if (!(e instanceof CompileError && e.kind !== "internal")) { failed(e, m.body); continue; }
      mutantErrors++;
      if (verbose) console.log(`mutant compile error: ${e.message.split("\n")[0]}\n  ${m.body}`);
      continue;
    }
    if ([f, r].some((x) => x.error?.kind === "divergence" || x.error?.reports?.some((p) => p.kind === "divergence"))) {
      divergent++;
      if (verbose) console.log(`divergent (${c.what}; ${m.what}): ${message(f.error ?? r.error)}\n  ${m.body}`);
      continue;
    }
    const found = f.error ?? r.error;
    if (found) reportedAs[isBarrier ? 0 : 1]++;
    else if (verbose) console.log(`not reported (${c.what}; ${m.what}):\n  ${m.body}`);
    // (A run that reported holds its launch's results all the same: the sanitizer reports after it.)
    if (!firstDifference(c, f.args, r.args)) { if (found) reportedAlike++; continue; }
    differing++;
    if (found) { reported++; continue; }
    missed++;
    const names = Object.keys(c.params);
    const outs = f.args.flatMap((a, k) => (ArrayBuffer.isView(a) && a.some((v, j) => !Object.is(v, r.args[k][j]))
      ? [`  forward  ${names[k]} = [${Array.from(a).join(", ")}]`, `  reversed ${names[k]} = [${Array.from(r.args[k]).join(", ")}]`] : []));
    console.log(`MISSED (${c.what}; ${m.what}):\n  ${m.body}\n${outs.join("\n")}`);
  }
  fwd.close();
  rev.close();
  console.log(`${count} kernels under the sanitizer, forward and reversed (${barriers} with barriers, ${count - barriers} with atomics): ` +
    `${differing} of ${made[0] + made[1]} mutants differ between the orders, ${reported} of them reported, ${missed} MISSED; ${falseReports} FALSE REPORTs, ` +
    `${orderDependent} order-dependent unmutated; ${reportedAlike} mutants reported whose results agree (${reportedAs[0]} of ${made[0]} without a barrier reported, ${reportedAs[1]} of ${made[1]} with a plain update); ${compileErrors} compile errors, ` +
    `${mutantErrors} mutants that do not compile, ${divergent} divergent, ${differ} failed (seed ${opt("seed", 1)})`);
  differ += missed + falseReports + orderDependent;
}


// ---- f32 -----------------------------------------------------------------------------------------

/** [kernel text, reference text]: the reference rounds every f32 operation, and each literal, with F. */
function f32expr(d) {
  if (d <= 0 || rnd() < 0.2) { const l = pick(["x[i]", "x[i+1]", "x[i+2]", "c"]); return [l, l]; }
  const r = rnd();
  if (r < 0.4) {
    const [a, ra] = f32expr(d - 1), [b, rb] = f32expr(d - 1), op = pick(["+", "-", "*", "/", "%"]);
    return [`(${a} ${op} ${b})`, `F(${ra} ${op} ${rb})`];
  }
  if (r < 0.5) {
    const [a, ra] = f32expr(d - 1), op = pick(["+", "-", "*", "/"]), lit = pick(["1.5", "0.1", "-3", "7", "1e20"]);
    return [`(${a} ${op} ${lit})`, `F(${ra} ${op} F(${lit}))`];
  }
  if (r < 0.62) {
    const [a, ra] = f32expr(d - 1);
    const f = pick(["sqrt", "abs", "floor", "ceil", "round", "trunc", "sign", "exp", "log", "sin", "cos", "atan", "tanh", "cbrt", "log2", "expm1"]);
    return [`Math.${f}(${a})`, `F(Math.${f}(${ra}))`];
  }
  if (r < 0.7) {
    const [a, ra] = f32expr(d - 1), [b, rb] = f32expr(d - 1), f = pick(["min", "max", "pow", "atan2", "hypot"]);
    return [`Math.${f}(${a}, ${b})`, `F(Math.${f}(${ra}, ${rb}))`];
  }
  if (r < 0.8) {
    const [p, rp] = f32expr(d - 1), [q, rq] = f32expr(d - 1), [a, ra] = f32expr(d - 1), [b, rb] = f32expr(d - 1);
    const op = pick(["<", ">=", "===", "!=="]);
    return [`((${p} ${op} ${q}) ? ${a} : ${b})`, `((${rp} ${op} ${rq}) ? ${ra} : ${rb})`];
  }
  if (r < 0.88) { const [a, ra] = f32expr(d - 1); return [`(- ${a})`, `(- ${ra})`]; }
  const [a, ra] = f32expr(d - 1), op = pick(["+", "-", "*"]), iv = pick(["i", "(x[i] | 0)", "5", "-9"]);
  return [`(${a} ${op} ${iv})`, `F(${ra} ${op} F(${iv}))`];
}

async function fuzzF32() {
  const N = 8;
  const values = [0, -0, 1, -1, 2.5, -7.25, 1e10, -3e-5, 16777217, NaN, Infinity, 0.1, 3, 65536, 2147483647, -2147483648, 3e38, 1e-40];
  for (let it = 0; it < count; it++) {
    const [k, r] = f32expr(4);
    let src = `const i = threadIdx.x; const c = x[i] * 0.5; o[i] = ${k};`;
    let refSrc = `const i = threadIdx.x; const c = F(x[i] * 0.5); o[i] = ${r};`;
    // A third: an escape-time loop (each thread leaves at its own iteration, some skip one, the
    // last threads return first) — the shape four lanes run under masks.
    if (rnd() < 1 / 3) {
      const skip = pick(["k === 2", "k === i", "c < 0"]), bound = pick(["100", "4", "1e6"]), ret = pick(["6", "8", "3"]);
      const loop = (e) => `if (i >= ${ret}) return; let c = x[i] * 0.5, k = 0; while (k < 12 && Math.abs(c) < ${bound}) { if (${skip}) { k++; continue; } c = ${e}; k++; }`;
      src = `const i = threadIdx.x; ${loop(k)} o[i] = c + k;`;
      refSrc = `const i = threadIdx.x; ${loop(r).replace("let c = x[i] * 0.5", "let c = F(x[i] * 0.5)")} o[i] = F(c + k);`;
    }
    const x = Float32Array.from({ length: N + 2 }, () => pick(values));
    const want = new Float32Array(N), got = new Float32Array(N);
    for (let i = 0; i < N; i++) new Function("threadIdx", "F", `return function f32(x, o) { ${refSrc} }`)({ x: i }, Math.fround)(x, want);
    try {
      const k = kernel(new Function(`return function f32(x, o) { ${src} }`)());
      await k.launch(cpu, { blocks: 1, threads: N }, x, got);
      if (!(await assembles(k, [x, got], src))) continue;
    } catch (e) {
      failed(e, src);
      continue;
    }
    const i = want.findIndex((w, j) => !Object.is(got[j], w));
    if (i >= 0) { differ++; console.log(`DIFFERS [${i}]: got ${got[i]}, want ${want[i]}\n  ${src}\n  x = [${Array.from(x).join(", ")}]`); }
  }
  console.log(`${count} f32 kernels on the CPU device against JS rounding every operation: ${differ} differ, ${compileErrors} compile errors (seed ${opt("seed", 1)})`);
}
