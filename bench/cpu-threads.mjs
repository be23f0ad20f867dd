// The multi-threaded CPU device (issue #17 item 4): matmul, the tiled matmul (barriers, shared
// memory) and the ~100-line Mandelbrot of bench/kernels.mjs on device("cpu", { threads }) with
// 1 thread against N (default: 2), with device arrays (the kernel's run) and with host arrays
// (copied into SharedArrayBuffers and back on N threads). `parallel: "always"`, so each N-thread
// launch runs on the workers. Not part of `npm test`.
//
//   npm run build && node bench/cpu-threads.mjs [threads] [rounds]
//
// Prints a markdown table: medians in ms (after warm-up launches, alternating 1 and N threads
// round by round so both see the same machine), and the speed-up.

import os from "node:os";
import { device, kernel } from "gpuc";
import { KERNELS } from "./kernels.mjs";

const N = Number(process.argv[2] ?? 2);
const ROUNDS = Number(process.argv[3] ?? 15);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const rand = (n, seed) => { let s = seed; return Float32Array.from({ length: n }, () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1); };

const n = 256;
const a = rand(n * n, 1), b = rand(n * n, 2);
const W = 512, H = 512;
const cases = [
  { name: `matmul ${n}×${n} (16×16 blocks)`, k: kernel(KERNELS.matmul.fn), cfg: { blocks: [n / 16, n / 16], threads: [16, 16] }, args: () => [a, b, new Float32Array(n * n), n], out: 2 },
  { name: `matmul ${n}×${n}, 16×16 tiles in shared memory`, k: kernel(KERNELS.matmulTiled.fn), cfg: { blocks: [n / 16, n / 16], threads: [16, 16] }, args: () => [new Float32Array(n * n), a, b, n], out: 0 },
  { name: `Mandelbrot ${W}×${H}, 256 iterations (the ~100-line kernel)`, k: kernel(KERNELS.mandelbrot.fn, { scope: KERNELS.mandelbrot.scope }), cfg: { blocks: [W / 16, H / 16], threads: [16, 16] }, args: () => [new Uint32Array(W * H), W, H, -0.5, 0, 3, 256, 1], out: 0 },
];

/** The machine's busy and total CPU time (ms, all cores). */
const machineCpu = () => os.cpus().reduce((acc, c) => {
  const t = c.times;
  return { busy: acc.busy + t.user + t.nice + t.sys + t.irq, all: acc.all + t.user + t.nice + t.sys + t.irq + t.idle };
}, { busy: 0, all: 0 });
const ownCpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
/** The share of the machine's CPU time that other processes used between two samples. */
const otherShare = (a, b, ownMs) => (b.all > a.all ? Math.max(0, (b.busy - a.busy - ownMs) / (b.all - a.all)) : 0);

const idle0 = machineCpu(), own0 = ownCpu();
await new Promise((r) => setTimeout(r, 1000));
const before = otherShare(idle0, machineCpu(), ownCpu() - own0);
const dev1 = await device("cpu", { threads: 1 });
const devN = await device("cpu", { threads: N, parallel: "always" });
console.log(`## CPU device: 1 thread against ${N}\n\nCommand: \`npm run build && node bench/cpu-threads.mjs ${N} ${ROUNDS}\`; ${os.availableParallelism()} cores (${os.cpus()[0]?.model}), Node.js ${process.versions.node}; other processes used ${(100 * before).toFixed(0)}% of the CPU in the second before${before > 0.1 ? " (noisy)" : ""}\n`);
const run0 = machineCpu(), runOwn0 = ownCpu();
const rows = [];
for (const c of cases) {
  for (const arrays of ["device", "host"]) {
    const setup = (dev) => {
      const args = c.args();
      return arrays === "device" ? args.map((x) => (ArrayBuffer.isView(x) ? dev.array(x) : x)) : args;
    };
    const args1 = setup(dev1), argsN = setup(devN);
    const t1 = [], tN = [];
    for (let r = 0; r < ROUNDS + 3; r++) {
      for (const [dev, args, out] of [[dev1, args1, t1], [devN, argsN, tN]]) {
        const t0 = performance.now();
        await c.k.launch(dev, c.cfg, ...args);
        if (r >= 3) out.push(performance.now() - t0);
      }
    }
    // The same result on both.
    const read = async (x) => (ArrayBuffer.isView(x) ? x : await x.read());
    const r1 = await read(args1[c.out]), rN = await read(argsN[c.out]);
    const equal = r1.length === rN.length && r1.every((v, i) => Object.is(v, rN[i]));
    const m1 = median(t1), mN = median(tN);
    rows.push([c.name, `${arrays} arrays`, m1.toFixed(1), mN.toFixed(1), `${(m1 / mN).toFixed(2)}×`, equal ? "yes" : "NO"]);
  }
}
dev1.close();
devN.close();
console.log(`| kernel | arrays | 1 thread, ms | ${N} threads, ms | speed-up | same result |\n|---|---|---|---|---|---|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
const during = otherShare(run0, machineCpu(), ownCpu() - runOwn0);
console.log(`\nOther processes used ${(100 * during).toFixed(0)}% of the CPU during the runs${during > 0.1 ? " (noisy: the N-thread figures suffer most)" : ""}.`);
