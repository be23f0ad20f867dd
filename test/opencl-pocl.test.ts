// PoCL's kernel compiler and gpuc's OpenCL C (issue #30): tiled kernels with barriers — the n-body
// port of cuda-samples and the shapes reduced from it and from scripts/fuzz.mjs --barriers — run
// on OpenCL as on the CPU device, and a build that aborts PoCL is the launch's KernelError, not
// the end of the process, with nothing written into the current directory. Real PoCL (as
// opencl.test.ts); without an OpenCL device every test here is skipped, loudly.
//
// Where a test shows what PoCL 3.1 does with gpuc's OpenCL C less the stores after its barriers
// (`gpuc_anchor = 0;`, opencl/emit.ts), it needs that PoCL: on another OpenCL platform only the
// comparisons with the CPU device run.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { kernel, device, KernelError, threadIdx, blockIdx, blockDim, shared, syncthreads, type Artifact, type Device } from "../src/index.ts";
import { freezeManifest } from "../src/reloc/manifest.ts";

const required = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("opencl");
const dev: Device | string = await device("opencl").catch((e: Error) => e.message);
if (typeof dev === "string" && required) throw new Error(`an OpenCL device is required (GPUC_REQUIRE_DEVICES) but cannot be opened: ${dev}`);
const skip = typeof dev === "string" ? `SKIPPED: no OpenCL device: ${dev}` : false;
const cpu = await device("cpu", { threads: 1 });
/** The CPU device's sanitizer: a launch that reads shared memory no thread of its block wrote fails there (README, "uninitialized"). */
const sanitized = await device("cpu", { threads: 1, sanitize: true });
after(() => { if (typeof dev !== "string") dev.close(); cpu.close(); sanitized.close(); });
const cl = () => dev as Device;
/** Whether the device is PoCL 3.1, whose kernel compiler the tests of code without the anchors are about. */
const pocl31 = () => /PoCL 3\.1\b/.test(cl().name);

/** The artifact's OpenCL C without the store after each barrier (what gpuc emitted before issue #30). */
function withoutAnchors(art: Artifact): Artifact {
  const code = (art.code as string).replace(/\n\s*gpuc_anchor = 0;/g, "");
  assert.notEqual(code, art.code, "the OpenCL C has no anchors to remove");
  return { ...art, code, manifest: freezeManifest(art.manifest.strategy, [...art.manifest.sites], code) };
}

/**
 * The artifact with the OpenCL C gpuc emitted for its kernel at `c349af8`, anchors and all
 * (test/fixtures/pocl31/NAME.cl): loop versioning's two copies of the counted loop over a tile,
 * the shape PoCL 3.1 fails on without the anchors. Since then a loop that only reads gets a scan
 * instead of its checked copy (ir/passes/hoist-checks.ts), as these kernels' do, and PoCL builds
 * their OpenCL C right even without the anchors; a loop with a store still gets the two copies.
 */
function emittedBefore(art: Artifact, name: string): Artifact {
  return { ...art, code: readFileSync(fileURLToPath(new URL(`fixtures/pocl31/${name}.cl`, import.meta.url)), "utf8") };
}

/** Launch a loaded artifact on the OpenCL device (a 1-D grid). */
async function launchRaw(art: Artifact, blocks: number, threads: number, args: unknown[]): Promise<void> {
  const d = cl();
  await d.launch(d.load(art), args, { blocks: [blocks, 1, 1], threads: [threads, 1, 1] });
}

const dots = () => new Set(readdirSync(process.cwd()).filter((f) => f.endsWith(".dot")));

// ---- cuda-samples' n-body (5_Domain_Specific/nbody, bodysystemcuda_kernel.cuh), float4 as { x, y, z, w } ----

interface Vec3 { x: number; y: number; z: number }
interface Vec4 { x: number; y: number; z: number; w: number }

function bodyBodyInteraction(ai: Vec3, bi: Vec4, bj: Vec4): Vec3 {
  const r = { x: bj.x - bi.x, y: bj.y - bi.y, z: bj.z - bi.z };
  let distSqr = r.x * r.x + r.y * r.y + r.z * r.z;
  distSqr += SOFTENING_SQUARED;
  const invDist = 1 / Math.sqrt(distSqr);
  const invDistCube = invDist * invDist * invDist;
  const s = bj.w * invDistCube;
  return { x: ai.x + r.x * s, y: ai.y + r.y * s, z: ai.z + r.z * s };
}

// (CUDA's computeBodyAccel finds its `extern __shared__` array, sized at launch, itself; here the
// kernel declares it, for blocks of up to 256 threads — cuda-samples' default block size — as the
// port in issue #30 does, and passes it.)
function computeBodyAccel(bodyPos: Vec4, positions: Float32Array, numTiles: number, sharedPos: Float32Array): Vec3 {
  let acc = { x: 0, y: 0, z: 0 };
  for (let tile = 0; tile < numTiles; tile++) {
    const src = 4 * (tile * blockDim.x + threadIdx.x);
    sharedPos[4 * threadIdx.x] = positions[src];
    sharedPos[4 * threadIdx.x + 1] = positions[src + 1];
    sharedPos[4 * threadIdx.x + 2] = positions[src + 2];
    sharedPos[4 * threadIdx.x + 3] = positions[src + 3];
    syncthreads();
    for (let counter = 0; counter < blockDim.x; counter++) {
      acc = bodyBodyInteraction(acc, bodyPos, { x: sharedPos[4 * counter], y: sharedPos[4 * counter + 1], z: sharedPos[4 * counter + 2], w: sharedPos[4 * counter + 3] });
    }
    syncthreads();
  }
  return acc;
}

const integrateBodies = kernel(function integrateBodies(newPos: Float32Array, oldPos: Float32Array, vel: Float32Array, deviceOffset: number, deviceNumBodies: number, deltaTime: number, damping: number, numTiles: number) {
  const index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= deviceNumBodies) return;
  const o = 4 * (deviceOffset + index);
  const sharedPos = shared(Float32Array, 4 * 256);
  const position = { x: oldPos[o], y: oldPos[o + 1], z: oldPos[o + 2], w: oldPos[o + 3] };
  const accel = computeBodyAccel({ ...position }, oldPos, numTiles, sharedPos);   // (CUDA passes the float4 by value)
  const velocity = { x: vel[o], y: vel[o + 1], z: vel[o + 2], w: vel[o + 3] };
  velocity.x += accel.x * deltaTime;
  velocity.y += accel.y * deltaTime;
  velocity.z += accel.z * deltaTime;
  velocity.x *= damping;
  velocity.y *= damping;
  velocity.z *= damping;
  position.x += velocity.x * deltaTime;
  position.y += velocity.y * deltaTime;
  position.z += velocity.z * deltaTime;
  newPos[o] = position.x; newPos[o + 1] = position.y; newPos[o + 2] = position.z; newPos[o + 3] = position.w;
  vel[o] = velocity.x; vel[o + 1] = velocity.y; vel[o + 2] = velocity.z; vel[o + 3] = velocity.w;
}, {
  scope: { computeBodyAccel, bodyBodyInteraction, SOFTENING_SQUARED: 0.00125 * 0.00125 },
  types: { deviceOffset: "u32", deviceNumBodies: "u32", deltaTime: "f32", damping: "f32", numTiles: "i32" },
});
declare const SOFTENING_SQUARED: number;

// The port of issue #30, where PoCL 3.1 aborted the process at the first launch ("Incoming edges to
// non-entry block!", and a gpuc_integrateBodies.dot in the current directory). 192 bodies in
// blocks of 64, one block more (the arrays hold 4 tiles, as cuda-samples pads them): the last
// block's threads return first and still pass the barriers of the tile loop. (Not a block of
// both: a thread that returned leaves its slot of sharedPos unwritten, which its block's others
// read in the tile loop — a GPU's shared memory starts undefined, and PoCL's held what another
// work-group left, differently under load: with 200 bodies this test failed about once in ten
// runs on a busy machine. The sanitized CPU device says so; here it finds nothing.)
test("cuda-samples' n-body step (tiles through shared memory, syncthreads(), an early return) computes on OpenCL what it does on the CPU device", { skip }, async () => {
  const bodies = 192, threads = 64, numTiles = Math.ceil(bodies / threads) + 1, padded = numTiles * threads;
  const pos = Float32Array.from({ length: 4 * padded }, (_, i) => (i % 4 === 3 ? 1 + (i % 7) / 8 : Math.sin(i * 1.7) * 4));
  const run = async (d: Device) => {
    const newPos = new Float32Array(4 * padded), vel = Float32Array.from({ length: 4 * padded }, (_, i) => Math.cos(i) / 10);
    const before = dots();
    await integrateBodies.launch(d, { blocks: numTiles, threads }, newPos, pos, vel, 0, bodies, 0.016, 0.995, numTiles);
    assert.deepEqual(dots(), before, "a .dot file appeared in the current directory");
    return [newPos, vel];
  };
  const [wantPos, wantVel] = await run(cpu), [gotPos, gotVel] = await run(cl());
  await run(sanitized);   // (no shared element is read before a thread of its block wrote it)
  assert.deepEqual(Array.from(gotPos), Array.from(wantPos));
  assert.deepEqual(Array.from(gotVel), Array.from(wantVel));
  assert.ok(wantPos.slice(0, 4 * bodies).some((v, i) => v !== pos[i]), "the bodies did not move");
  assert.ok(wantPos.slice(4 * bodies).every((v) => v === 0), "a thread past the bodies wrote");
  // What gpuc emitted before the anchors (and the scan): PoCL 3.1 aborts (here, in the probe's child).
  if (!pocl31()) return;
  const art = emittedBefore(await integrateBodies.compile({ target: "opencl", args: [new Float32Array(4 * padded), pos, new Float32Array(4 * padded), 0, bodies, 0.016, 0.995, numTiles] }), "integrateBodies");
  await assert.rejects(launchRaw(withoutAnchors(art), numTiles, threads, [new Float32Array(4 * padded), pos, new Float32Array(4 * padded), 0, bodies, 0.016, 0.995, numTiles]),
    (e: unknown) => e instanceof KernelError && /^PoCL's kernel compiler failed on kernel 'integrateBodies' .*Incoming edges to non-entry block/.test(e.message));
});

// The n-body kernel reduced: an early return (the threads past n are marked done, and the
// statements after it guarded), a tile loop of a load into shared memory, a barrier, a counted
// loop over the tile, a barrier. As gpuc emitted it before (emittedBefore), hoist-checks versions
// the inner loop (`if (blockDim.x - 1 <= 255) { the loop without checks } else { the loop with
// them }`), LLVM hoists that test out of the
// tile loop, and the guarded load leaves the barrier's block nothing else: PoCL 3.1 put the if's
// branch into it, made one parallel region with two entries (the arms' loops get barriers from
// PoCL's ImplicitLoopBarriers that the loops' test-first guards let a path skip) and aborted.
function tileSumBody(o: Float32Array, x: Float32Array, n: number, numTiles: number) {
  const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  const s = shared(Float32Array, 256);
  let acc = 0;
  for (let tile = 0; tile < numTiles; tile++) {
    s[t] = x[tile * blockDim.x + t];
    syncthreads();
    for (let c = 0; c < blockDim.x; c++) acc += s[c];
    syncthreads();
  }
  o[i] = acc;
}
const tileSum = kernel(tileSumBody, { name: "tileSum", types: { n: "i32", numTiles: "i32" } });

test("the n-body kernel reduced (an early return, a tile loop: a load into shared memory, barriers, a counted loop over the tile): as on the CPU device; without the anchors PoCL aborts, and the launch is a KernelError (its build ran in a child process), with no dump in the current directory", { skip }, async () => {
  const x = Float32Array.from({ length: 256 }, (_, i) => (i * 37) % 11 - 5);
  // (The last block returns whole: a block of both reads the slots its returned threads left
  // unwritten, as the n-body port above would.)
  const args = () => [new Float32Array(256), x, 192, 4] as const;
  const want = args(), got = args();
  await tileSum.launch(cpu, { blocks: 4, threads: 64 }, ...want);
  await tileSum.launch(sanitized, { blocks: 4, threads: 64 }, ...args());
  await tileSum.launch(cl(), { blocks: 4, threads: 64 }, ...got);
  assert.deepEqual(Array.from(got[0]), Array.from(want[0]));
  assert.ok(want[0].some((v) => v !== 0), "nothing was summed");
  const art = await tileSum.compile({ target: "opencl", args: [...got] });
  // The barrier before the counted loop is followed by the anchor, the one before the tile loop's
  // step (straight code) is not (opencl/emit.ts, barrier()).
  const code = art.code as string;
  assert.match(code, /barrier\(CLK_LOCAL_MEM_FENCE \| CLK_GLOBAL_MEM_FENCE\);\n\s*gpuc_anchor = 0;\n\s*v_c = 0;\n/);
  assert.match(code, /barrier\(CLK_LOCAL_MEM_FENCE \| CLK_GLOBAL_MEM_FENCE\);\n\s*v_tile = /);
  assert.equal(code.match(/gpuc_anchor = 0;/g)?.length, 1);
  if (!pocl31()) return;
  const before = dots(), old = emittedBefore(art, "tileSum");
  let err: unknown = null;
  try { await launchRaw(withoutAnchors(old), 4, 64, [...args()]); } catch (e) { err = e; }
  assert.ok(err instanceof KernelError, String(err));
  assert.equal(err.kind, "launch");
  assert.match(err.message, /^PoCL's kernel compiler failed on kernel 'tileSum' \(blocks of 64×1×1 threads\): .*ParallelRegion\.cc:\d+: .*Assertion `0 && "Incoming edges to non-entry block!"' failed\. gpuc built it in a child process first \(which was killed by SIGABRT\), so this process goes on; the kernel cannot run on OpenCL \(.+\) with this block size$/);
  assert.deepEqual(dots(), before, "PoCL's dump reached the current directory");
  // The same launch fails again (the verdict is remembered); the device still works.
  await assert.rejects(launchRaw(withoutAnchors(old), 4, 64, [...args()]), (e: unknown) => e instanceof KernelError && /Incoming edges to non-entry block/.test(e.message));
  const again = args();
  await tileSum.launch(cl(), { blocks: 4, threads: 64 }, ...again);
  assert.deepEqual(Array.from(again[0]), Array.from(want[0]));
});

// Found by scripts/fuzz.mjs --barriers --device opencl --seed 1 (the tiled shapes, OpenCL C
// without the anchors), reduced: threads that return inside the tile loop (some, by their data)
// while the others go on. PoCL 3.1 gave the others the sums of the first two tiles only (of the
// OpenCL C gpuc emitted before, emittedBefore): no abort, wrong values. With the anchors, the
// values are the CPU device's.
const earlyOut = kernel(function earlyOut(x: Int32Array, o: Int32Array, n: number, m: number) {
  const t = threadIdx.x, b = blockIdx.x, bd = blockDim.x, i = b * bd + t;
  const tile = shared(Int32Array, 32);
  let acc = 0;
  for (let k0 = 0; k0 < m; k0++) {
    if (k0 === 2 && (x[t] & 3) === 2) return;
    tile[t] = x[(i + k0) & 31];
    syncthreads();
    for (let j = 1; j < bd; j++) acc = (acc + tile[j]) | 0;
    syncthreads();
    if (i < n) o[i] = acc;
  }
  o[i] = acc;
});

test("threads that return inside a tiled loop while the others go on: as on the CPU device (PoCL 3.1 miscompiled it without the anchors)", { skip }, async () => {
  const x = Int32Array.from({ length: 32 }, (_, i) => (i * 7919) % 13 - 6);
  const want = new Int32Array(48), got = new Int32Array(48);
  await earlyOut.launch(cpu, { blocks: 3, threads: 16 }, x, want, 48, 16);
  await earlyOut.launch(cl(), { blocks: 3, threads: 16 }, x, got, 48, 16);
  assert.deepEqual(Array.from(got), Array.from(want));
  if (!pocl31()) return;
  const bare = new Int32Array(48);
  await launchRaw(withoutAnchors(emittedBefore(await earlyOut.compile({ target: "opencl", args: [x, bare, 48, 16] }), "earlyOut")), 3, 16, [x, bare, 48, 16]);
  assert.notDeepEqual(Array.from(bare), Array.from(want), "PoCL 3.1 ran the OpenCL C without the anchors right: this test no longer shows why they are there");
});

// The probe's record (devices/opencl-probe.ts, BuiltSizes): a build PoCL survived is written to the
// gpuc cache directory, and a later process with the same program and block size starts no child.
test("a block size PoCL built is recorded in the gpuc cache directory, and a later process does not probe it again", { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "gpuc-probe-record-"));
  try {
    const script = `import { kernel, device, threadIdx, blockIdx, blockDim, shared, syncthreads } from "./src/index.ts";
      const k = kernel(${tileSumBody.toString()}, { types: { n: "i32", numTiles: "i32" } });
      const d = await device("opencl");
      await k.launch(d, { blocks: 4, threads: 64 }, new Float32Array(256), new Float32Array(256), 200, 4);
      d.close();`;
    const run = () => spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8",
      env: { ...process.env, GPUC_CACHE: "1", GPUC_CACHE_DIR: dir, GPUC_OPENCL_PROBE: "1", NODE_DEBUG: "child_process" },
    });
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    // (NODE_DEBUG=child_process logs each spawn with its arguments; the probe's last names koffi.
    // tsx may spawn esbuild too.)
    const probes = (stderr: string) => stderr.match(/"koffi":"file:/g)?.length ?? 0;
    assert.equal(probes(first.stderr), 1, "the first process did not probe once");
    const records = readdirSync(join(dir, "v2", "pocl"));
    assert.equal(records.length, 1, records.join(", "));
    assert.match(records[0], /^[0-9a-f]{64}\.built$/);
    assert.equal(readFileSync(join(dir, "v2", "pocl", records[0]), "utf8"), "64x1x1\n");
    const second = run();
    assert.equal(second.status, 0, second.stderr);
    assert.equal(probes(second.stderr), 0, "the second process probed again");
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

// Found by scripts/fuzz.mjs --barriers --device opencl --seed 1 (count 1000), reduced: a
// `continue` (under a block-uniform test) in a loop whose body holds a barrier. gpuc closed the
// body with a barrier (opencl/emit.ts, closeRegion) that the `continue` jumped past: PoCL 3.1 gave
// wrong values with its default work-group method (loopvec) and aborted with `loops`. The
// closing barrier is now where the `continue`s go.
function skipAheadBody(o: Int32Array) {
  const t = threadIdx.x, b = blockIdx.x, bd = blockDim.x;
  const s = shared(Int32Array, 32);
  let w = b;
  s[t] = t * 3 + b;
  syncthreads();
  for (let it = 0; it < 3; it++) {
    syncthreads();
    if (it < 2) {
      w = w + 1;
      if (s[0] > 5) continue;
    } else {
      w = w + s[(t + 1) % bd];
    }
  }
  o[b * bd + t] = w;
}
const skipAhead = kernel(skipAheadBody, { name: "skipAhead" });

test("a continue in a loop whose body holds a barrier: as on the CPU device, with PoCL's default work-group method and with 'loops'", { skip }, async () => {
  const want = new Int32Array(48), got = new Int32Array(48);
  await skipAhead.launch(cpu, { blocks: 3, threads: 16 }, want);
  await skipAhead.launch(cl(), { blocks: 3, threads: 16 }, got);
  assert.deepEqual(Array.from(got), Array.from(want));
  assert.ok(want.some((v, i) => v !== want[i % 16]), "every block computed the same");
  // PoCL reads POCL_WORK_GROUP_METHOD when it starts: another process, which prints what differs.
  const script = `import { kernel, device, threadIdx, blockIdx, blockDim, shared, syncthreads } from "./src/index.ts";
    const k = kernel(${skipAheadBody.toString()});
    const cpu = await device("cpu"), cl = await device("opencl");
    const want = new Int32Array(48), got = new Int32Array(48);
    await k.launch(cpu, { blocks: 3, threads: 16 }, want);
    try { await k.launch(cl, { blocks: 3, threads: 16 }, got); } catch (e) { console.log(e.message); }
    console.log(want.every((w, i) => got[i] === w) ? "same" : "differs: " + got.join(","));
    cpu.close(); cl.close();`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8", env: { ...process.env, POCL_WORK_GROUP_METHOD: "loops" },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "same");
});
