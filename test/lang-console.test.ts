// Execution tests of console.log in kernels, kernel-language features of issue #3. Each result is
// compared with a plain-JavaScript reference computed here; f32 references round every operation
// with Math.fround.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target). Where WebGPU differs by
// design, the test says so where it branches on `gpu` or `wgsl`: no f64, and threads that run
// concurrently (the order of prints is not defined).
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show.
//
// Every assert.ok has a message: without one, node's assert re-parses the (one-line, reprinted)
// source to describe the failure, which takes minutes.

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, threadIdx, blockIdx, blockDim, gridDim } from "../src/index.ts";
import { poisonI32, F, dtest, openDevices, withDevice, kernelError, type Wide } from "./helpers.ts";

// Compiler intrinsics inside kernel bodies (declared for TypeScript only; never called on the host).
declare function syncthreads(): void;

await openDevices();

// ---- module-level helpers (passed through `scope`) -----------------------------------------

function printHelper(v: number, w: number) {
  console.log("helper", v, w * 0.5);
}

// =============================================================================================

describe("console.log", () => {
  /** The `[block (…) thread (…)] ` prefix of a printed line. */
  const prefixOf = (line: string) => /^\[block \([^)]*\) thread \([^)]*\)\] /.exec(line)?.[0] ?? "";
  /**
   * Printed lines against the expected ones. On the CPU the threads run one at a time: exactly
   * `want`, in order. On a GPU they run concurrently and their records interleave in any order:
   * the same lines, each thread's own in program order.
   */
  function sameLines(gpu: boolean, lines: string[], want: string[]): void {
    if (!gpu) return assert.deepEqual(lines, want);
    assert.deepEqual([...lines].sort(), [...want].sort());
    for (const p of new Set(want.map(prefixOf))) assert.deepEqual(lines.filter((l) => prefixOf(l) === p), want.filter((l) => prefixOf(l) === p), p);
  }

  dtest("strings, i32, u32, f32, f64 and booleans, formatted as JavaScript prints them", async ({ kind, gpu, wgsl }) => {
    const lines: string[] = [];
    await withDevice(kind, { print: (line) => lines.push(line) }, async (pdev) => {
      const k = kernel(function printer(x: Float32Array, d: Wide, u: Uint32Array, n: Int32Array) {
        const i = threadIdx.x;
        console.log("i", i, "n", n[i], "u", u[i], "f", x[i], "d", d[i], "b", x[i] > 0, i === 1);
        console.log("expr", x[i] * 2, n[i] >>> 0, -i, d[i] / 3);
        console.log("only a string");
      });
      const x = Float32Array.from([0.1, -2.5, NaN, 3.4e38]);
      // WGSL has no f64: on WebGPU d is a Float32Array (whose quotients by 3 are exact).
      const d = wgsl ? Float32Array.from([0.75, -3 * 2 ** 100, Infinity, 3 * 2 ** -120]) : Float64Array.from([0.1, -1e300, Infinity, 5e-324]);
      const u = Uint32Array.from([0, 4294967295, 2147483648, 7]);
      const n = Int32Array.from([-2147483648, -1, 0, 2147483647]);
      await k.launch(pdev, { blocks: 1, threads: 4 }, x, d, u, n);
      const want: string[] = [];
      for (let i = 0; i < 4; i++) {
        const p = `[block (0, 0, 0) thread (${i}, 0, 0)] `;
        want.push(p + ["i", i, "n", n[i], "u", u[i], "f", x[i], "d", d[i], "b", x[i] > 0, i === 1].map(String).join(" "));
        want.push(p + ["expr", F(x[i] * 2), n[i] >>> 0, -i, wgsl ? F(d[i] / 3) : d[i] / 3].map(String).join(" "));
        want.push(p + "only a string");
      }
      sameLines(gpu, lines, want);
      if (!gpu) assert.equal(lines[0], "[block (0, 0, 0) thread (0, 0, 0)] i 0 n -2147483648 u 0 f 0.10000000149011612 d 0.1 b true false");
    });
  });

  dtest("template literals, and text that spells a type's name, printed as JavaScript prints them", async ({ kind, gpu }) => {
    const lines: string[] = [];
    await withDevice(kind, { print: (line) => lines.push(line) }, async (pdev) => {
      const k = kernel(function templates(x: Float32Array, n: number) {
        const i = threadIdx.x;
        console.log(`t=${i} v=${x[i]} neg=${-x[0]} ok=${x[i] > 1}!`, -x[0], `${n}`, "f32", "i32");
        console.log(`plain`, "");
        console.log(`[${`n=${n}`}] ${"text"}`);
      });
      const x = Float32Array.from([0, 2.5]);
      await k.launch(pdev, { blocks: 1, threads: 2 }, x, 7);
      const want: string[] = [];
      const log = (...a: unknown[]) => a.map((v) => (Object.is(v, -0) ? "-0" : String(v))).join(" ");   // console.log's spacing and -0
      for (let i = 0; i < 2; i++) {
        const p = `[block (0, 0, 0) thread (${i}, 0, 0)] `;
        want.push(p + log(`t=${i} v=${x[i]} neg=${-x[0]} ok=${x[i] > 1}!`, -x[0], `${7}`, "f32", "i32"));
        want.push(p + log(`plain`, ""));
        want.push(p + log(`[${`n=${7}`}] ${"text"}`));
      }
      sameLines(gpu, lines, want);
      if (!gpu) assert.equal(lines[0], "[block (0, 0, 0) thread (0, 0, 0)] t=0 v=0 neg=0 ok=false! -0 7 f32 i32");
    });
  });

  dtest("strings concatenated with +, printed as JavaScript builds them", async ({ kind, gpu }) => {
    const lines: string[] = [];
    await withDevice(kind, { print: (line) => lines.push(line) }, async (pdev) => {
      const k = kernel(function concat(x: Float32Array, n: number) {
        const i = threadIdx.x;
        console.log("i=" + i + " v=" + x[i] + " neg " + -x[0] + (x[i] > 1) + "!", 1 + n + " n", "a" + "b");
        console.log(`t${x[i] + "u"}` + ("" + n));
      });
      const x = Float32Array.from([0, 2.5]);
      await k.launch(pdev, { blocks: 1, threads: 2 }, x, 7);
      const want: string[] = [];
      for (let i = 0; i < 2; i++) {
        const p = `[block (0, 0, 0) thread (${i}, 0, 0)] `;
        want.push(p + ["i=" + i + " v=" + x[i] + " neg " + -x[0] + (x[i] > 1) + "!", 1 + 7 + " n", "a" + "b"].join(" "));
        want.push(p + `t${x[i] + "u"}` + ("" + 7));
      }
      sameLines(gpu, lines, want);
      if (!gpu) assert.equal(lines[0], "[block (0, 0, 0) thread (0, 0, 0)] i=0 v=0 neg 0false! 8 n ab");
    });
  });

  dtest("order: one thread at a time, blocks in order (2-D grid and blocks), and around a barrier", async ({ kind, gpu }) => {
    const lines: string[] = [];
    await withDevice(kind, { print: (line) => lines.push(line) }, async (pdev) => {
      const k = kernel(function printOrder(o: Int32Array) {
        console.log("a", threadIdx.x + threadIdx.y * blockDim.x);
        syncthreads();
        console.log("b", blockIdx.x + blockIdx.y * gridDim.x);
        o[0] = 1;
      });
      await k.launch(pdev, { blocks: [2, 2], threads: [3, 2] }, new Int32Array(1));
      const want: string[] = [];
      for (let by = 0; by < 2; by++) for (let bx = 0; bx < 2; bx++) {
        for (const phase of ["a", "b"])
          for (let ty = 0; ty < 2; ty++) for (let tx = 0; tx < 3; tx++)
            want.push(`[block (${bx}, ${by}, 0) thread (${tx}, ${ty}, 0)] ${phase} ${phase === "a" ? tx + ty * 3 : bx + by * 2}`);
      }
      // On a GPU (threads and blocks run concurrently) the order that remains is the barrier's:
      // in each block, every line printed before it comes before every line printed after it.
      sameLines(gpu, lines, want);
      if (gpu) {
        for (const block of new Set(lines.map((l) => l.slice(0, l.indexOf(" thread"))))) {
          const phases = lines.filter((l) => l.startsWith(block + " ")).map((l) => l.split("] ")[1][0]).join("");
          assert.match(phases, /^a+b+$/, `${block}: ${phases}`);
        }
      }
    });
  });

  dtest("prints from a helper; each launch prints only its own lines", async ({ kind, gpu }) => {
    const lines: string[] = [];
    await withDevice(kind, { print: (line) => lines.push(line) }, async (pdev) => {
      const k = kernel(function printViaHelper(x: Float32Array) {
        printHelper(threadIdx.x, x[threadIdx.x]);
      }, { scope: { printHelper } });
      const x = Float32Array.from([0.3, -1.7]);
      await k.launch(pdev, { blocks: 1, threads: 2 }, x);
      const want = [0, 1].map((t) => `[block (0, 0, 0) thread (${t}, 0, 0)] helper ${t} ${F(x[t] * 0.5)}`);
      sameLines(gpu, lines, want);
      lines.length = 0;
      await k.launch(pdev, { blocks: 1, threads: 1 }, x);
      assert.deepEqual(lines, want.slice(0, 1));
    });
  });

  dtest("prints before an exception still appear", async ({ kind, gpu }) => {
    const lines: string[] = [];
    await withDevice(kind, { print: (line) => lines.push(line) }, async (pdev) => {
      const k = kernel(function printThenThrow(x: Int32Array) {
        const i = threadIdx.x;
        console.log("visiting", i);
        if (x[i] < 0) throw new Error("bad value");
        console.log("done", i);
      });
      const err = await kernelError(k.launch(pdev, { blocks: 1, threads: 3 }, Int32Array.from([1, -1, 1])), "exception");
      assert.match(err.message, /bad value/);
      const p = (t: number) => `[block (0, 0, 0) thread (${t}, 0, 0)] `;
      assert.ok(lines.includes(p(0) + "visiting 0") && lines.includes(p(0) + "done 0") && lines.includes(p(1) + "visiting 1"), lines.join("\n"));
      assert.ok(!lines.includes(p(1) + "done 1"), lines.join("\n"));
      // (On a GPU the threads run concurrently: no order across threads.)
      if (!gpu) assert.deepEqual(lines.slice(0, 3), [p(0) + "visiting 0", p(0) + "done 0", p(1) + "visiting 1"]);
      else assert.deepEqual(lines.filter((l) => l.startsWith(p(0))), [p(0) + "visiting 0", p(0) + "done 0"]);
    });
  });

  dtest("a tiny print buffer drops records and says how many", async ({ kind, gpu, same }) => {
    const lines: string[] = [];
    await withDevice(kind, { print: (line) => lines.push(line), printBufferWords: 64 }, async (pdev) => {
      const k = kernel(function printMany(o: Int32Array) {
        console.log("x", threadIdx.x);
        o[threadIdx.x] = 1;
      });
      const o = poisonI32(20);
      await k.launch(pdev, { blocks: 1, threads: 20 }, o);
      same(o, new Array(20).fill(1));
      // Each record is 7 header words + 1 value: 8 fit in 64 words, 12 are dropped. (On a GPU the
      // threads run concurrently: which 8 is not defined.)
      const line = (t: number) => `[block (0, 0, 0) thread (${t}, 0, 0)] x ${t}`;
      const want = Array.from({ length: 8 }, (_, t) => line(t));
      if (!gpu) assert.deepEqual(lines.slice(0, 8), want);
      else {
        const kept = lines.slice(0, 8);
        assert.equal(new Set(kept).size, 8, kept.join("\n"));
        assert.ok(kept.every((l) => Array.from({ length: 20 }, (_, t) => line(t)).includes(l)), kept.join("\n"));
      }
      assert.equal(lines.length, 9, lines.join("\n"));
      assert.ok(lines[8].startsWith("[gpuc] "), lines[8]);
      assert.match(lines[8], /\b12 print records dropped: the print buffer \(256 bytes; printBufferWords in device options\) is full$/);
      // The next launch starts with an empty buffer again.
      lines.length = 0;
      await k.launch(pdev, { blocks: 1, threads: 3 }, o);
      sameLines(gpu, lines, want.slice(0, 3));
    });
  });
});
