// Bounds checks in loops whose indices are carried from one iteration to the next: running
// offsets (t = t + c), carried locals read before their assignment, swaps, nested loops with row
// offsets, indices computed by helpers, early exits; and loop counters, whose range
// (ir/passes/ranges.ts) drops the checks of the tiled matmul's k loop at a known block size. Each kernel runs on every device of the
// matrix (the CPU run also assembles its PTX with ptxas) and must do exactly what plain
// JavaScript does: the same results, or a bounds KernelError at the first access plain JS makes
// out of range. The last tests look at the IR: the loops that can be versioned still are.

import { test } from "node:test";
import assert from "node:assert/strict";
import { kernel, KernelError, device, shared, syncthreads, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { assertLocationIn, dtest, kernelError, lineOfIn, openDevices, type On } from "./helpers.ts";

await openDevices();
const lineOf = lineOfIn(import.meta.url);
const assertLocation = assertLocationIn(import.meta.url);

/** A typed array that throws, as a bounds check does, at the first index out of range. */
function checked<A extends Int32Array>(a: A): A {
  return new Proxy(a, {
    get(t, p) {
      if (typeof p === "string" && /^-?\d+$/.test(p) && !(Number(p) >= 0 && Number(p) < t.length)) throw new RangeError(`index ${p}`);
      const v = Reflect.get(t, p, t);
      return typeof v === "function" ? v.bind(t) : v;
    },
    set(t, p, v) {
      if (typeof p === "string" && /^-?\d+$/.test(p) && !(Number(p) >= 0 && Number(p) < t.length)) throw new RangeError(`index ${p}`);
      return Reflect.set(t, p, v, t);
    },
  });
}

/** What plain JS does with one thread: the output array, or the first index out of range. */
function plainJS(fn: Function, len: number, n: number, scope: Record<string, unknown>): { out: Int32Array } | { index: number } {
  const out = new Int32Array(len);
  const names = Object.keys(scope);
  const f = new Function(...names, `return (${fn.toString()});`)(...names.map((k) => scope[k]));
  try { f(checked(out), n); return { out }; } catch (e) {
    if (!(e instanceof RangeError) || !/^index -?\d+$/.test(e.message)) throw e;
    return { index: Number(e.message.slice(6)) };
  }
}

/** Run the kernel (one thread, out of length `len`) with each n; compare with plain JS. */
async function matchesJS({ dev, same }: On, fn: Function, ns: number[], opts: { len?: number; scope?: Record<string, unknown> } = {}) {
  const len = opts.len ?? 8, scope = opts.scope ?? {};
  const k = kernel(fn, { scope });
  let traps = 0;
  for (const n of ns) {
    const want = plainJS(fn, len, n, scope);
    const out = new Int32Array(len);
    let got: KernelError | null = null;
    try { await k.launch(dev, { blocks: 1, threads: 1 }, out, n); } catch (e) {
      if (!(e instanceof KernelError)) throw e;
      got = e;
    }
    if ("index" in want) {
      traps++;
      assert.ok(got, `n = ${n}: plain JS indexes out[${want.index}], the kernel ran to its end`);
      assert.equal(got.kind, "bounds");
      assert.match(got.message, new RegExp(`index ${want.index} out of bounds for array 'out' of length ${len}`), `n = ${n}`);
    } else {
      assert.equal(got, null, `n = ${n}: plain JS stays in range, the kernel reported ${got?.message}`);
      same(out, want.out, `n = ${n}`);
    }
  }
  return traps;
}

// The two kernels of the report, exactly as a user wrote them.
dtest("a running offset t = t + 1 fills 0..n-1 (it crashed the compiler)", async (on) => {
  const fn = function c(out: Int32Array, n: number) { let t = 0; for (let k = 0; k < n; k++) { out[t] = k; t = t + 1; } };
  const filled = new Int32Array(8);
  await kernel(fn).launch(on.dev, { blocks: 1, threads: 1 }, filled, 8);
  on.same(filled, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.equal(await matchesJS(on, fn, [0, 1, 8, 9, 20]), 2);
});

dtest("an index carried from the previous iteration (t = k after out[t]) keeps its check: out[-5] is reported", async (on) => {
  const fn = function a(out: Int32Array, n: number) { let t = -5; for (let k = 0; k < n; k++) { out[t] = 1; t = k; } };
  await assert.rejects(kernel(fn).launch(on.dev, { blocks: 1, threads: 1 }, new Int32Array(8), 8), (e: unknown) =>
    e instanceof KernelError && e.kind === "bounds" && /index -5 out of bounds for array 'out' of length 8/.test(e.message));
  assert.equal(await matchesJS(on, fn, [0, 1, 8]), 2);
});

dtest("running offsets: t = t + 2, t = t - 1, a step that is a parameter, read before and after the increment", async (on) => {
  const plus2 = function plus2(out: Int32Array, n: number) { let t = 1; for (let k = 0; k < n; k++) { out[t] += k; t = t + 2; out[t - 1] += 1; } };
  assert.equal(await matchesJS(on, plus2, [0, 1, 3, 4, 5]), 2);
  const down = function down(out: Int32Array, n: number) { let t = 7; for (let k = 0; k < n; k++) { out[t] = k; t = t - 1; } };
  assert.equal(await matchesJS(on, down, [0, 5, 8, 9]), 1);
  // The step is n - 4: negative, zero or positive, only known at run time.
  const byN = function byN(out: Int32Array, n: number) { let t = 3; for (let k = 0; k < 4; k++) { out[t] += 1; t = t + (n - 4); out[t & 7] += t; } };
  assert.equal(await matchesJS(on, byN, [2, 3, 4, 5, 6]), 2);
  // Read after the increment only (the index is one ahead).
  const ahead = function ahead(out: Int32Array, n: number) { let t = -1; for (let k = 0; k < n; k++) { t = t + 1; out[t] = k * 3; } };
  assert.equal(await matchesJS(on, ahead, [0, 8, 9]), 1);
});

dtest("carried locals that are not induction variables keep their checks: swaps, t = k * s + b after use, t = t * 2", async (on) => {
  const swap = function swap(out: Int32Array, n: number) {
    let u = 0, v = n - 6;
    for (let k = 0; k < 6; k++) { out[u] += k; const tmp = u; u = v; v = tmp; }
  };
  assert.equal(await matchesJS(on, swap, [6, 7, 5, 14, 15]), 3);
  const late = function late(out: Int32Array, n: number) { let t = n; for (let k = 0; k < 6; k++) { out[t] = k; t = k * 2 - 1; } };
  assert.equal(await matchesJS(on, late, [0, 1, 8]), 3);
  const doubling = function doubling(out: Int32Array, n: number) { let t = 1; for (let k = 0; k < n; k++) { out[t] = k; t = t * 2; } };
  assert.equal(await matchesJS(on, doubling, [3, 4]), 1);
  // Two running offsets chasing each other.
  const chase = function chase(out: Int32Array, n: number) { let a = 0, b = n; for (let k = 0; k < 4; k++) { out[a] = b; a = b; b = b + 1; } };
  assert.equal(await matchesJS(on, chase, [0, 3, 5, 6]), 1);
});

dtest("temporaries computed in the body (r = k * s + b) are linear after their definition", async (on) => {
  const temp = function temp(out: Int32Array, n: number) { for (let k = 0; k < n; k++) { const r = k * 2 - 1 + (n & 1); out[r + 1] = k; } };
  assert.equal(await matchesJS(on, temp, [0, 3, 4, 5, 6]), 2);
  const shifted = function shifted(out: Int32Array, n: number) { for (let k = 0; k < n; k++) { const r = (k << 1) - 2; out[-r + 6] = k; } };
  assert.equal(await matchesJS(on, shifted, [0, 4, 5]), 2);
});

dtest("nested loops: a row offset, and a running offset that continues across the inner loop", async (on) => {
  const rows = function rows(out: Int32Array, n: number) {
    for (let i = 0; i < n; i++) { const row = i * 4; for (let j = 0; j < 4; j++) out[row + j] = i + j; }
  };
  assert.equal(await matchesJS(on, rows, [0, 1, 4, 5], { len: 16 }), 1);
  const running = function running(out: Int32Array, n: number) {
    let t = 0;
    for (let i = 0; i < n; i++) { for (let j = 0; j <= i; j++) { out[t] = j; t = t + 1; } out[t - 1] += 100; }
  };
  assert.equal(await matchesJS(on, running, [0, 3, 5, 6], { len: 15 }), 1);
});

dtest("an index computed by a helper from a carried local", async (on) => {
  function hx(v: number) { return v * 2 + 1; }
  const viaHelper = function viaHelper(out: Int32Array, n: number) { let t = n - 9; for (let k = 0; k < 3; k++) { out[hx(t)] = k; t = k; } };
  assert.equal(await matchesJS(on, viaHelper, [8, 9, 12], { scope: { hx } }), 1);
  const running = function running(out: Int32Array, n: number) { let t = 0; for (let k = 0; k < n; k++) { out[hx(t)] = k; t = t + 1; } };
  assert.equal(await matchesJS(on, running, [0, 3, 4, 5], { scope: { hx } }), 1);
});

dtest("early exits (break, return) and a continue before the increment", async (on) => {
  const early = function early(out: Int32Array, n: number) {
    let t = 0;
    for (let k = 0; k < 20; k++) { if (k === n) break; out[t] = k; t = t + 1; if (t > 6 && n === 7) return; }
  };
  assert.equal(await matchesJS(on, early, [0, 7, 8, 9]), 1);
  // `continue` skips the increment on even iterations: t is not k-linear (its check stays).
  const skip = function skip(out: Int32Array, n: number) {
    let t = 0;
    for (let k = 0; k < n; k++) { out[t] += 1; if ((k & 1) === 0) continue; t = t + 1; }
  };
  assert.equal(await matchesJS(on, skip, [0, 5, 16, 17]), 1);
  // `continue` after the increment does not skip it.
  const after = function after(out: Int32Array, n: number) {
    let t = 0;
    for (let k = 0; k < n; k++) { out[t] += 1; t = t + 1; if ((k & 1) === 0) continue; out[t - 1] += 10; }
  };
  assert.equal(await matchesJS(on, after, [0, 5, 8, 9]), 1);
});

// Found by fuzz --bounds on WebGPU (lavapipe), 1 kernel in 2,000: `if (r > 8) break;` after
// `r = 1 + r` was not taken with r = 10, so the loop ran on (and reported out[12]). Not gpuc's
// code: Mesa's loop analysis skips an exit test on an induction variable with a non-constant start
// or step without marking it unknown, so a loop that also has a counted test (q < 4) runs exactly
// that many times (SPIR-V right, SwiftShader right). The WGSL back end makes every exit test but
// the loop's head opaque to that analysis (emit.ts, exitTest); these are the shapes that failed.
dtest("a running offset with an early exit after its step, in a loop the fast test rejects", async (on) => {
  const exit = function exit(out: Int32Array, n: number) { let r = n - 1; for (let q = 2; q < 4; q++) { out[r] += 1; r = 1 + r; if (r > 8) break; out[r + q] += 1; } };
  assert.equal(await matchesJS(on, exit, [10], { len: 10 }), 0);
});

dtest("early exits on an induction variable that starts or steps at a run-time value, beside a counted test", async ({ dev, same }) => {
  // Each ran past its exit on Dawn/lavapipe before the exit tests were made opaque.
  const kernels: [Function, number[]][] = [
    [function plainExit(out: Int32Array, n: number) { let r = n - 1; let q = 2; for (; q < 4; q++) { out[0] = r; r = 1 + r; if (r > 8) break; out[1] = r + q; } }, [9, 0, 0]],
    [function twoExits(out: Int32Array, n: number) { let r = n - 1; for (let q = 2; q < 4; q++) { if (n === 12345) break; out[0] = r; r = 1 + r; if (r > 8) break; out[1] = r + q; } }, [9, 0, 0]],
    [function longLoop(out: Int32Array, n: number) { let r = n - 1; for (let q = 2; q < 400; q++) { if (n === 12345) break; out[0] = r; r = r + 1; if (r > 8) break; out[1] = r + q; } }, [9, 0, 0]],
    [function byTwo(out: Int32Array, n: number) { let r = n - 1; for (let q = 2; q < 4; q++) { out[0] = r; r = 2 + r; if (r > 8) break; out[1] = r + q; } }, [9, 0, 0]],
    [function aheadTest(out: Int32Array, n: number) { let r = n - 1; for (let q = 2; q < 4; q++) { out[0] = r; if (r + 1 > 8) break; r = 1 + r; out[1] = r + q; } }, [9, 0, 0]],
    [function byN(out: Int32Array, n: number) { let r = 5; for (let q = 0; q < 3; q++) { out[0] = r; r = r + (n - 9); if (r > 5) break; out[1] = r; } }, [5, 0, 0]],
    [function negated(out: Int32Array, n: number) { let r = n - 1; for (let q = 2; q < 4; q++) { out[0] = r; r = 1 + r; if (!(r <= 8)) break; out[1] = r + q; } }, [9, 0, 0]],
    [function returns(out: Int32Array, n: number) { let r = n - 1; for (let q = 2; q < 4; q++) { out[0] = r; r = 1 + r; if (r > 8) return; out[1] = r + q; } }, [9, 0, 0]],
    [function counted(out: Int32Array, n: number) { let j = 0; for (let k = n - 8; k < 7; k++) { out[0] = k; if (j >= 3) break; j = j + 1; out[1] = j; } }, [5, 3, 0]],
    [function doWhile(out: Int32Array, n: number) { let r = n - 1; let q = 0; do { out[0] = r; r = r + 1; if (r > 8) break; out[1] = r; q++; } while (q < 3); }, [9, 0, 0]],
  ];
  for (const [fn, want] of kernels) {
    const out = new Int32Array(3);
    await kernel(fn, { boundsCheck: false }).launch(dev, { blocks: 1, threads: 1 }, out, 10);
    same(out, want, fn.name);
  }
});

test("WGSL: a loop's head test stays as written, its other exit tests are opaque to the driver's loop analysis", async () => {
  const k = kernel(function twoExits(out: Int32Array, n: number) { let r = n - 1; for (let q = 2; q < 4; q++) { out[0] = r; r = 1 + r; if (r > 8) break; for (let i = 0; i < n; i++) { if (i > r) break; out[1] = i; } } }, { boundsCheck: false });
  const code = (await k.compile({ target: "wgsl", types: ["i32[]", "i32"] })).code as string;
  assert.match(code, /gpuc_zero: u32,/);
  assert.match(code, /if \(\(!\(v_q < 4i\)\)\) \{/);
  assert.match(code, /if \(\(\(select\(0u, 1u, \(v_r > 8i\)\) \^ params\.gpuc_zero\) != 0u\)\) \{/);
  assert.match(code, /if \(\(\(select\(0u, 1u, \(v_i > v_r\)\) \^ params\.gpuc_zero\) != 0u\)\) \{/);
  // A loop with no exit but its head has no opaque test and no extra field.
  const plain = await kernel(function plain(out: Int32Array, n: number) { for (let q = 0; q < n; q++) out[q] = q; }).compile({ target: "wgsl", types: ["i32[]", "i32"] });
  assert.doesNotMatch(plain.code as string, /gpuc_zero/);
});

dtest("loops that only read (sums of loads): the checked copy is a scan of the checks alone, which reports the first access out of range as the checked loop would", async (on) => {
  // Both ends at once: k = 0 reads out[0] then out[n - 1] (past the end for n = 9).
  const dot = function dot(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) s = (s + out[k] * out[n - 1 - k]) | 0; out[0] = s; };
  assert.equal(await matchesJS(on, dot, [0, 1, 8, 9, 12]), 2);
  // A stride only known at run time, zero and negative too (t = 1, 1 + n, 1 + 2n, …).
  const stride = function stride(out: Int32Array, n: number) { let s = 0, t = 1; for (let k = 0; k < 6; k++) { s = (s + out[t]) | 0; t = t + n; } out[1] = s; };
  assert.equal(await matchesJS(on, stride, [-1, 0, 1, 2, 3]), 3);
  // A break and a continue on the counter before the read: the scan leaves and skips where the loop does.
  const early = function early(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < 12; k++) { if (k === n) break; s = (s + out[k + 1]) | 0; } out[2] = s; };
  assert.equal(await matchesJS(on, early, [0, 6, 7, 8, 11]), 2);
  const odd = function odd(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) { if ((k & 1) === 1) continue; s = (s ^ out[k]) + k | 0; } out[3] = s; };
  assert.equal(await matchesJS(on, odd, [0, 7, 8, 9, 11]), 2);
  // A switch on the counter (a fall-through, a default that reads past the end only when k > 5).
  const cases = function cases(out: Int32Array, n: number) {
    let s = 0;
    for (let k = 0; k < n; k++) {
      switch (k & 3) {
        case 0: s = (s + out[k]) | 0; break;
        case 1: s = (s ^ out[k]) | 0; // falls through
        case 2: s = (s + k) | 0; break;
        default: if (k > 5) s = (s - out[k + 1]) | 0;
      }
    }
    out[5] = s;
  };
  assert.equal(await matchesJS(on, cases, [0, 5, 7, 8, 9]), 2);
  // Nested: an inner sum along a row, the row offset from the outer counter.
  const rows = function rows(out: Int32Array, n: number) { let s = 0; for (let i = 0; i < n; i++) { const row = i * 4; for (let j = 0; j < 4; j++) s = (s + out[row + j] * j) | 0; } out[4] = s; };
  assert.equal(await matchesJS(on, rows, [0, 1, 4, 5], { len: 16 }), 1);
  // A user throw in the loop, before and after the read that fails at the same iteration.
  const before = function before(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) { if (k === 3) throw new Error("three"); s = (s + out[k * 3]) | 0; } out[0] = s; };
  const after = function after(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) { s = (s + out[k * 3]) | 0; if (k === 3) throw new Error("three"); } out[0] = s; };
  await assert.rejects(kernel(before).launch(on.dev, { blocks: 1, threads: 1 }, new Int32Array(8), 10), (e: unknown) => e instanceof KernelError && e.kind === "exception" && /three/.test(e.message));
  await assert.rejects(kernel(after).launch(on.dev, { blocks: 1, threads: 1 }, new Int32Array(8), 10), (e: unknown) =>
    e instanceof KernelError && e.kind === "bounds" && /index 9 out of bounds for array 'out' of length 8/.test(e.message));
  const out = new Int32Array([1, 2, 3, 4, 5, 6, 7, 8]);
  await kernel(after).launch(on.dev, { blocks: 1, threads: 1 }, out, 3);
  on.same(out, [12, 2, 3, 4, 5, 6, 7, 8]);
});

// ---- what the pass does to the IR ----

async function dceText(fn: Function, types: string[]): Promise<string> {
  let text = "";
  await kernel(fn).compile({ target: "js", types, dump: ["dce"], dumpSink: (_s, t) => { text = t; } });
  return text.slice(text.indexOf("kernel #"));
}

test("a running offset's loop is versioned: the fast copy has no check, the other keeps it", async () => {
  const text = await dceText(function c(out: Int32Array, n: number) { let t = 0; for (let k = 0; k < n; k++) { out[t] = k; t = t + 1; } }, ["i32[]", "i32"]);
  assert.equal((text.match(/loop \{/g) ?? []).length, 2, text);
  assert.equal((text.match(/check\.bounds ge\.u32\(u32\(%\d+:t\), u32\(length\(%0:out\)\)\)/g) ?? []).length, 1, text);
});

test("loops whose indices are linear in the iteration are versioned: descending, one ahead, temporaries, shifts, negation, inner loops", async () => {
  const versioned: [Function, number][] = [
    [function down(out: Int32Array, n: number) { let t = 7; for (let k = 0; k < n; k++) { out[t] = k; t = t - 1; } }, 2],
    [function ahead(out: Int32Array, n: number) { let t = -1; for (let k = 0; k < n; k++) { t = t + 1; out[t] = k * 3; } }, 2],
    [function byN(out: Int32Array, n: number) { let t = 3; for (let k = 0; k < 4; k++) { out[t] += 1; t = t + (n - 4); } }, 2],
    [function shifted(out: Int32Array, n: number) { for (let k = 0; k < n; k++) { const r = (k << 1) - 2; out[-r + 6] = k; } }, 2],
    // The inner loop is versioned (the row offset is invariant there); the outer loop is not (its index moves with j).
    [function rows(out: Int32Array, n: number) { for (let i = 0; i < n; i++) { const row = i * 4; for (let j = 0; j < 4; j++) out[row + j] = i + j; } }, 3],
  ];
  for (const [fn, loops] of versioned) {
    const text = await dceText(fn, ["i32[]", "i32"]);
    assert.equal((text.match(/loop \{/g) ?? []).length, loops, text);
  }
});

test("a carried index (read before its assignment) is not versioned", async () => {
  const text = await dceText(function a(out: Int32Array, n: number) { let t = -5; for (let k = 0; k < n; k++) { out[t] = 1; t = k; } }, ["i32[]", "i32"]);
  assert.equal((text.match(/loop \{/g) ?? []).length, 1, text);
  assert.match(text, /check\.bounds ge\.u32\(u32\(%\d+:t\), u32\(length\(%0:out\)\)\)/);
});

test("a loop that only reads is versioned with a scan: its checks in a copy without loads, before the one fast copy; effects, a loaded or float test, a return keep the checked copy", async () => {
  const dot = function dot(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) s = (s + out[k] * out[n - 1 - k]) | 0; out[0] = s; };
  const text = await dceText(dot, ["i32[]", "i32"]);
  assert.equal((text.match(/loop \{/g) ?? []).length, 2, text);
  assert.doesNotMatch(text, /\} else \{\n\s*loop/, text);
  const [scan, fast] = text.split(/^  loop \{/m);
  assert.equal((scan.match(/check\.bounds/g) ?? []).length, 2, text);
  assert.doesNotMatch(scan, /%0:out\[/, "the scan loads nothing");
  assert.match(fast, /%0:out\[%\d+:k\]/);
  assert.doesNotMatch(fast.slice(0, fast.indexOf("} continuing")), /check\.bounds/, "the fast copy has no check");
  const kept: Function[] = [
    function stores(out: Int32Array, n: number) { for (let k = 0; k < n; k++) out[k] = out[k] + 1; },
    function loadedExit(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) { if (out[k] < 0) break; s = (s + out[k]) | 0; } out[0] = s; },
    function sumExit(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) { s = (s + out[k]) | 0; if (s > 100) break; } out[0] = s; },
    function floatExit(out: Int32Array, n: number) { let s = 0, f = 0.5; for (let k = 0; k < n; k++) { f = f * 1.5; if (f > 9) break; s = (s + out[k]) | 0; } out[0] = s; },
    function returns(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) { if (k === 5) return; s = (s + out[k]) | 0; } out[0] = s; },
  ];
  for (const fn of kept) assert.match(await dceText(fn, ["i32[]", "i32"]), /\} else \{\n\s*loop \{/, fn.name);
  // A switch's selector decides the path: it is in the scan (a switch on the counter is integer arithmetic).
  const cases = function cases(out: Int32Array, n: number) { let s = 0; for (let k = 0; k < n; k++) { switch (k & 3) { case 0: s = (s + out[k]) | 0; break; default: s = (s - out[k + 1]) | 0; } } out[5] = s; };
  const withSwitch = await dceText(cases, ["i32[]", "i32"]);
  assert.doesNotMatch(withSwitch, /\} else \{\n\s*loop/, withSwitch);
  assert.equal((withSwitch.match(/switch /g) ?? []).length, 2, withSwitch);
});

test("a long chain of temporaries compiles quickly and correctly (the walk through definitions is bounded)", async () => {
  const body = ["let u0 = k;", ...Array.from({ length: 40 }, (_, i) => `const u${i + 1} = (u${i} + u${i}) | 0;`), "out[u40 & 7] += 1; out[u3] += 1;"].join(" ");
  const fn = new Function(`return function chain(out, n) { for (let k = 0; k < n; k++) { ${body} } }`)();
  const started = performance.now();
  const dev = await device("cpu");
  const out = new Int32Array(8);
  await kernel(fn).launch(dev, { blocks: 1, threads: 1 }, out, 1);
  assert.deepEqual(Array.from(out), [2, 0, 0, 0, 0, 0, 0, 0]);
  await assert.rejects(kernel(fn).launch(dev, { blocks: 1, threads: 1 }, out, 2), (e: unknown) =>
    e instanceof KernelError && /index 8 out of bounds/.test(e.message));
  assert.ok(performance.now() - started < 5000, "compiled within 5 s");
  dev.close();
});

// ---- loop counters' ranges (ir/passes/ranges.ts) ----

/** The tiled matmul of examples/matmul.ts; `kEnd` is the k loop's bound (17: one past the tile). */
function tiledMatmul(kEnd: number) {
  return kernel(function matmul(c: Float32Array, a: Float32Array, b: Float32Array, n: number) {
    const as = shared(Float32Array, 256);
    const bs = shared(Float32Array, 256);
    const tx = threadIdx.x, ty = threadIdx.y;
    const row = blockIdx.y * 16 + ty;
    const col = blockIdx.x * 16 + tx;
    let acc = 0;
    for (let t = 0; t < n; t += 16) {
      as[ty * 16 + tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0;
      bs[ty * 16 + tx] = col < n && t + ty < n ? b[(t + ty) * n + col] : 0;
      syncthreads();
      for (let k = 0; k < kEnd; k++) acc += as[ty * 16 + k] * bs[k * 16 + tx]; // @K_LOOP
      syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = acc;
  }, { scope: { kEnd } });
}

async function dceWith(k: ReturnType<typeof kernel>, target: string, types: string[], requiredThreads?: [number, number, number]): Promise<string> {
  let text = "";
  await k.compile({ target, types, features: requiredThreads ? { requiredThreads } : undefined, dump: ["dce"], dumpSink: (_s, t) => { text = t; } });
  return text.slice(text.indexOf("kernel #"));
}

test("the tiled matmul's k loop compiled for 16×16 threads (as WebGPU launches compile it): k is in [0, 15], no check on the shared tiles and no versioning", async () => {
  const types = ["f32[]", "f32[]", "f32[]", "i32"];
  const ir = await dceWith(tiledMatmul(16), "wgsl", types, [16, 16, 1]);
  assert.equal((ir.match(/loop \{/g) ?? []).length, 2, ir);
  assert.doesNotMatch(ir, /check\.bounds ge\.u32\([^\n]*, 256:u32\)/);
  const code = (await tiledMatmul(16).compile({ target: "wgsl", types, features: { requiredThreads: [16, 16, 1] } })).code as string;
  const body = code.slice(code.indexOf("fn gpuc_kernel("));
  assert.equal((body.match(/\bloop \{/g) ?? []).length, 2, body);
  assert.equal((code.match(/gpuc_raise\(\d/g) ?? []).length, 3, "a, b and c keep theirs");
  // Without a known block size ty may reach 1023: the tiles' checks stay (and the k loop is versioned).
  assert.match(await dceWith(tiledMatmul(16), "wgsl", types), /check\.bounds ge\.u32\([^\n]*, 256:u32\)/);
  // One past the tile: k reaches 16, as[ty * 16 + 16] is past the end for ty = 15: the checks stay.
  assert.match(await dceWith(tiledMatmul(17), "wgsl", types, [16, 16, 1]), /check\.bounds ge\.u32\([^\n]*, 256:u32\)/);
});

dtest("the tiled matmul at 16×16 threads: results as plain JS's; one step past the tile is still reported, at its line", async ({ dev, same }) => {
  const n = 32, r = (i: number) => ((i * 7919) % 13) - 6;
  const a = Float32Array.from({ length: n * n }, (_, i) => r(i)), b = Float32Array.from({ length: n * n }, (_, i) => r(i + 5));
  const want = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { let acc = 0; for (let k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j]; want[i * n + j] = acc; }
  const c = new Float32Array(n * n);
  await tiledMatmul(16).launch(dev, { blocks: [2, 2], threads: [16, 16] }, c, a, b, n);
  same(c, want);
  const err = await kernelError(tiledMatmul(17).launch(dev, { blocks: [2, 2], threads: [16, 16] }, c, a, b, n), "bounds");
  assert.match(err.message, /index 256 out of bounds for array '(as|bs)' of length 256/);
  assertLocation(err.location, lineOf("K_LOOP"));
});

test("a counter that the body assigns too, or whose bound the body changes, or that may wrap, keeps its checks", async () => {
  const kept = (text: string) => (text.match(/check\.bounds ge\.u32\([^\n]*, 16:u32\)/g) ?? []).length;
  const cases: Function[] = [
    function jumps(o: Int32Array, n: number) { const s = shared(Int32Array, 16); for (let k = 0; k < 16; k++) { s[k] += 1; if (o[k & 7] > n) k = k + 3; } o[0] = s[1]; },
    function inner(o: Int32Array, n: number) { const s = shared(Int32Array, 16); for (let k = 0; k < 16; k++) { s[k] += 1; for (let z = 0; z < 2; z++) if (o[z] > n) k++; } o[0] = s[1]; },
    function bound(o: Int32Array, n: number) { const s = shared(Int32Array, 16); let m = 16; for (let k = 0; k < m; k++) { s[k] += 1; if (o[k & 7] > n) m = m + 1; } o[0] = s[1]; },
    function wraps(o: Int32Array, n: number) { const s = shared(Int32Array, 16); for (let k = 2147483640; k <= 2147483647; k = (k + 1) | 0) { s[(k - 2147483640) | 0] += 1; if (k === n) break; } o[0] = s[1]; },
  ];
  for (const fn of cases) assert.equal(kept(await dceWith(kernel(fn), "wgsl", ["i32[]", "i32"], [16, 1, 1])), 1, fn.name);
  // In range and counted, the same check goes.
  assert.equal(kept(await dceWith(kernel(function counted(o: Int32Array) { const s = shared(Int32Array, 16); for (let k = 0; k < 16; k++) s[k] += 1; o[0] = s[1]; }), "wgsl", ["i32[]"], [16, 1, 1])), 0);
});

dtest("a counter's last value is past its bound by what the body added; a first test that leaves by continue reaches the step: both reported", async ({ dev }) => {
  // k ends at 11 (7 + 3, then k++): s[k + 5] is s[16].
  const jump = kernel(function jump(o: Int32Array) {
    const s = shared(Int32Array, 16);
    let k = 0;
    for (; k < 8; k++) { if (k === 7) k = k + 3; }
    s[k + 5] += 1; // @AFTER_JUMP
    o[0] = s[15];
  });
  const err = await kernelError(jump.launch(dev, { blocks: 1, threads: 1 }, new Int32Array(1)), "bounds");
  assert.match(err.message, /index 16 out of bounds for array 's' of length 16/);
  assertLocation(err.location, lineOf("AFTER_JUMP"));
  // The first test leaves once by continue (k++ runs: k is 9), then by break: s[k + 7] is s[16].
  const once = kernel(function once(o: Int32Array) {
    const s = shared(Int32Array, 16);
    let k = 0, r = 0;
    for (;; k++) { if (k >= 8) { if (r > 0) break; r = 1; continue; } s[k] = 1; }
    s[k + 7] = 1; // @AFTER_CONTINUE
    o[0] = k;
  });
  const err2 = await kernelError(once.launch(dev, { blocks: 1, threads: 1 }, new Int32Array(1)), "bounds");
  assert.match(err2.message, /index 16 out of bounds for array 's' of length 16/);
  assertLocation(err2.location, lineOf("AFTER_CONTINUE"));
});

test("a test whose other branch assigns what it compared gives no fact after it (the check stays and fires)", async () => {
  const fn = function early(y: Int32Array) {
    let i = threadIdx.x;
    if (i >= y.length) { return; } else { i = threadIdx.x + 5; }
    y[i] = 1; // @EARLY_ELSE
  };
  assert.match(await dceWith(kernel(fn), "js", ["i32[]"]), /check\.bounds ge\.u32\(u32\(%\d+:i\), u32\(length\(%0:y\)\)\)/);
  const dev = await device("cpu");
  const err = await kernelError(kernel(fn).launch(dev, { blocks: 1, threads: 4 }, new Int32Array(4)), "bounds");
  assert.match(err.message, /index 5 out of bounds for array 'y' of length 4/);
  assertLocation(err.location, lineOf("EARLY_ELSE"));
  dev.close();
});

test("a difference under the test that orders it (a scan's buf[t - offset] under t >= offset) needs no check; ordered the other way, the check stays and reports", async () => {
  const scanStep = (right: boolean) => kernel(right
    ? function scanRight(y: Int32Array) {
      const buf = shared(Int32Array, 64);
      const t = threadIdx.x;
      buf[t] = y[t];
      for (let offset = 1; offset < blockDim.x; offset *= 2) {
        syncthreads();
        const v = t >= offset ? buf[t - offset] : 0;
        syncthreads();
        buf[t] += v;
      }
      y[t] = buf[t];
    }
    : function scanWrong(y: Int32Array) {
      const buf = shared(Int32Array, 64);
      const t = threadIdx.x;
      buf[t] = y[t];
      for (let offset = 1; offset < blockDim.x; offset *= 2) {
        syncthreads();
        const v = t <= offset ? buf[t - offset] : 0;
        syncthreads();
        buf[t] += v;
      }
      y[t] = buf[t];
    });
  // (buf[t] needs none at 64 threads; the difference goes through a temporary.)
  const onBuf = /check\.bounds ge\.u32\(u32\(%\d+:tmp\), 64:u32\)/;
  assert.doesNotMatch(await dceWith(scanStep(true), "wgsl", ["i32[]"], [64, 1, 1]), onBuf);
  assert.match(await dceWith(scanStep(false), "wgsl", ["i32[]"], [64, 1, 1]), onBuf);
  const dev = await device("cpu", { threads: 1 });
  const y = Int32Array.from({ length: 64 }, (_, i) => i);
  await scanStep(true).launch(dev, { blocks: 1, threads: 64 }, y);
  assert.equal(y[63], (63 * 64) / 2, "an inclusive scan");
  const err = await kernelError(scanStep(false).launch(dev, { blocks: 1, threads: 64 }, new Int32Array(64)), "bounds");
  assert.match(err.message, /index -1 out of bounds for array 'buf' of length 64/);
  dev.close();
});

test("a shared array sized at launch from blockDim.x has that length where the block is exact: reduce3's tree keeps no check on it", async () => {
  const reduce3 = kernel(function reduce3(g_idata: Float32Array, g_odata: Float32Array, n: number) {
    const sdata = shared(Float32Array, blockDim.x);
    const tid = threadIdx.x;
    const i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    let mySum = i < n ? g_idata[i] : 0;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    syncthreads();
    for (let s = blockDim.x / 2 | 0; s > 0; s >>= 1) {
      if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
      syncthreads();
    }
    if (tid === 0) g_odata[blockIdx.x] = mySum;
  });
  const types = ["f32[]", "f32[]", "i32"];
  const onShared = /check\.bounds ge\.u32\([^\n]*length\(shared @sdata\)/g;
  assert.equal((await dceWith(reduce3, "wgsl", types, [256, 1, 1])).match(onShared)?.length ?? 0, 0);
  // Launch bounds that are only a maximum: blockDim.x may be 1, and sdata[tid] past its end: the checks stay.
  let text = "";
  await reduce3.compile({ target: "ptx", types, features: { maxThreads: [256, 1, 1] }, dump: ["dce"], dumpSink: (_s, t) => { text = t; } });
  assert.equal(text.match(onShared)?.length, 3);
});

dtest("a parameter assigned under a test keeps its other values: its check stays and reports", async ({ dev }) => {
  const k = kernel(function reassigned(o: Int32Array, n: number) {
    const s = shared(Int32Array, 8);
    if (n > 100) n = 5;
    s[n] = 1; // @REASSIGNED
    o[0] = s[5];
  });
  const out = new Int32Array(1);
  await k.launch(dev, { blocks: 1, threads: 1 }, out, 200);
  assert.equal(out[0], 1);
  const err = await kernelError(k.launch(dev, { blocks: 1, threads: 1 }, out, 50), "bounds");
  assert.match(err.message, /index 50 out of bounds for array 's' of length 8/);
  assertLocation(err.location, lineOf("REASSIGNED"));
});

dtest("a local a read may see before any assignment is undefined there (`j ?? 0` is 0): the check of an index made from it stays and reports", async ({ dev }) => {
  const k = kernel(function unassigned(o: Int32Array, c: number) {
    const s = shared(Int32Array, 8);
    for (let q = 0; q < 8; q++) s[q] = q;
    let j: number | undefined;
    if (c > 0) j = 5;
    o[0] = s[(j ?? 0) - 1]; // @UNASSIGNED
  }, { types: { c: "i32" } });
  const out = new Int32Array(1);
  await k.launch(dev, { blocks: 1, threads: 1 }, out, 1);
  assert.equal(out[0], 4);
  const err = await kernelError(k.launch(dev, { blocks: 1, threads: 1 }, out, 0), "bounds");
  assert.match(err.message, /index -1 out of bounds for array 's' of length 8/);
  assertLocation(err.location, lineOf("UNASSIGNED"));
});

test("a versioned loop's test reads the counter's starting constant, not the counter: k = 0 before the loop folds its k >= 0 and + 0 away", async () => {
  const k = kernel(function rowDot(o: Float32Array, a: Float32Array, b: Float32Array, n: number) {
    const row = blockIdx.x, col = threadIdx.x;
    let acc = 0;
    for (let q = 0; q < n; q++) acc += a[row * n + q] * b[q * n + col];
    o[row * n + col] = acc;
  }, { types: { n: "i32" } });
  const code = (await k.compile({ target: "wgsl", types: ["f32[]", "f32[]", "f32[]", "i32"] })).code as string;
  const test = code.split("\n").find((l) => /^\s*if \(.*params\.v_a_len/.test(l));
  assert.ok(test, code);
  assert.doesNotMatch(test, /v_q/, "the test reads no counter");
  assert.match(test, /\(v_row \* params\.v_n\) >= 0i/, "row * n + 0 is row * n");
  // The loop still runs as before, and the checked copy still reports.
  const cpu = await device("cpu", { threads: 1 });
  const n = 4, a = Float32Array.from({ length: n * n }, (_, i) => i), bb = Float32Array.from({ length: n * n }, (_, i) => 1 + (i % 3)), o = new Float32Array(n * n);
  await k.launch(cpu, { blocks: n, threads: n }, o, a, bb, n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    let want = 0;
    for (let q = 0; q < n; q++) want = Math.fround(want + Math.fround(a[r * n + q] * bb[q * n + c]));
    assert.equal(o[r * n + c], want);
  }
  await assert.rejects(k.launch(cpu, { blocks: n, threads: n }, o, a, bb.subarray(0, n * n - 1), n), /index 15 out of bounds for array 'b' of length 15/);
  cpu.close();
});

test("a check that stays proves the same check after it: the reduction's s[t] before its loop, again in it, is checked once", async () => {
  const blockSums = kernel(function blockSums(sums: Float32Array, x: Float32Array) {
    const s = shared(Float32Array, 256);
    const t = threadIdx.x;
    const i = blockIdx.x * blockDim.x + t;
    s[t] = i < x.length ? x[i] : 0;
    syncthreads();
    for (let stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
      if (t < stride) s[t] += s[t + stride];
      syncthreads();
    }
    if (t === 0) sums[blockIdx.x] = s[0];
  });
  // For any block size (WGSL's block is a pipeline constant): s[t] once, s[t + stride] once; sums[b].
  const ir = await dceWith(blockSums, "wgsl", ["f32[]", "f32[]"]);
  assert.equal((ir.match(/check\.bounds ge\.u32\([^\n]*256:u32\)/g) ?? []).length, 2, ir);
});

dtest("a check that passed covers its own array, while its index is unchanged: the next array's, or the changed index's, still reports", async ({ dev }) => {
  const toShorter = kernel(function toShorter(o: Int32Array) {
    const s = shared(Int32Array, 16);
    const k = threadIdx.x;
    s[k] = 1;
    for (let q = 0; q < 2; q++) o[k] += s[k] + q; // @TO_SHORTER
  });
  const err1 = await kernelError(toShorter.launch(dev, { blocks: 1, threads: 16 }, new Int32Array(10)), "bounds");
  assert.match(err1.message, /index 1\d out of bounds for array 'o' of length 10/);
  assertLocation(err1.location, lineOf("TO_SHORTER"));

  const changed = kernel(function changed(o: Int32Array) {
    let k = threadIdx.x;
    o[k] = 1;
    if (k > 2) k = k + 4;
    o[k] += 2; // @CHANGED
  });
  const err2 = await kernelError(changed.launch(dev, { blocks: 1, threads: 8 }, new Int32Array(8)), "bounds");
  assert.match(err2.message, /index (8|9|10|11) out of bounds for array 'o' of length 8/);
  assertLocation(err2.location, lineOf("CHANGED"));
  const out = new Int32Array(8);
  await changed.launch(dev, { blocks: 1, threads: 4 }, out);
  assert.deepEqual([...out], [3, 3, 3, 1, 0, 0, 0, 2]);
});

dtest("a versioned loop's test keeps only the stride's sign its guard allows: under row < n with row >= 0, n >= 1 (n == 0 and n <= -1 fold away)", async ({ dev, same }) => {
  const fn = function naiveMatmul(c: Float32Array, a: Float32Array, b: Float32Array, n: number) {
    const row = blockIdx.y * blockDim.y + threadIdx.y;
    const col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
      let acc = 0;
      for (let k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col]; // @NAIVE_K
      c[row * n + col] = acc;
    }
  };
  const types = ["f32[]", "f32[]", "f32[]", "i32"];
  const ir = await dceWith(kernel(fn), "wgsl", types);
  assert.match(ir, /loop \{[\s\S]*loop \{/, "the loop is still versioned");
  assert.doesNotMatch(ir, /eq\.i32\(%3:n, 0:i32\)|le\.i32\(%3:n, -1:i32\)|ge\.i32\(%3:n, 1:i32\)/, ir);
  // Without the guard nothing bounds n's sign: the test keeps its cases.
  const unguarded = await dceWith(kernel(function rowDot(o: Float32Array, a: Float32Array, b: Float32Array, n: number) {
    const row = blockIdx.x, col = threadIdx.x;
    let acc = 0;
    for (let q = 0; q < n; q++) acc += a[row * n + q] * b[q * n + col];
    o[row * n + col] = acc;
  }), "wgsl", types);
  assert.match(unguarded, /le\.i32\(%3:n, -1:i32\)/, unguarded);
  // Results as plain JS's, on every device; a b one short still reports, at its line.
  const k = kernel(fn), n = 20;
  const A = Float32Array.from({ length: n * n }, (_, i) => (i % 7) - 3), B = Float32Array.from({ length: n * n }, (_, i) => (i % 5) * 0.5);
  const C = new Float32Array(n * n), want = new Float32Array(n * n);
  await k.launch(dev, { blocks: [2, 2], threads: [16, 16] }, C, A, B, n);
  for (let r = 0; r < n; r++) for (let col = 0; col < n; col++) {
    let acc = 0;
    for (let q = 0; q < n; q++) acc = Math.fround(acc + Math.fround(A[r * n + q] * B[q * n + col]));
    want[r * n + col] = acc;
  }
  same(C, want);
  const err = await kernelError(k.launch(dev, { blocks: [2, 2], threads: [16, 16] }, C, A, B.subarray(0, n * n - 1), n), "bounds");
  assert.match(err.message, /out of bounds for array 'b' of length 399/);
  assertLocation(err.location, lineOf("NAIVE_K"));
});
