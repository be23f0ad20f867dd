// What captured tables cost a launch (issue #30; BENCHMARKS.md q): each launch compares the tables
// its kernel reads with the values it saw last, and uploads one that changed. Per device present
// (cpu, webgpu, opencl, cuda) and table size, the same kernel (`out[i] = T[i % T.length] + i`, one
// block of 64 threads, device arrays) launched warm in four ways, alternated round by round:
//   rewritable  T named in `rewritable`: never compared (the baseline: the launch as it was before)
//   unchanged   T compared at each launch, never changed
//   changed     T changed before each launch (one element): compared, copied, uploaded
//   setTable    T rewritable, replaced by setTable before each launch (the explicit form's upload)
// Figures: µs per launch (median of `rounds` batches of `batch` launches each) and the ratio of
// `unchanged` to `rewritable` (what the comparison costs an ordinary launch).
//
//   npm run build && node --import tsx bench/tables.ts [rounds] [batch]

import { writeFileSync } from "node:fs";
import { device, kernel, threadIdx, type Device, type DeviceArray } from "gpuc";
import { median, num, table, section, machineInfo } from "./stats.ts";

declare const T: Float32Array;
const rounds = Number(process.argv[2] ?? 9), batch = Number(process.argv[3] ?? 200);
const SIZES = [16, 1024, 65536, 1 << 20];
const KINDS = ["cpu", "webgpu", "opencl", "cuda"] as const;

function body(out: Float32Array) { const i = threadIdx.x; out[i] = T[i % T.length] + i; }

async function perDevice(dev: Device) {
  const rows: Record<string, number | string>[] = [];
  for (const n of SIZES) {
    const live = Float32Array.from({ length: n }, (_, i) => i * 0.5);
    const fixed = live.slice();
    const k = {
      rewritable: kernel(body, { scope: { T: live.slice() }, rewritable: ["T"], name: "rewritable" }),
      unchanged: kernel(body, { scope: { T: fixed }, name: "unchanged" }),
      changed: kernel(body, { scope: { T: live }, name: "changed" }),
      setTable: kernel(body, { scope: { T: live.slice() }, rewritable: ["T"], name: "setTable" }),
    };
    const out = dev.array(new Float32Array(64)) as DeviceArray;
    const cfg = { blocks: 1, threads: 64 };
    const replacement = live.slice();
    const step: Record<keyof typeof k, (r: number) => Promise<void>> = {
      rewritable: () => k.rewritable.launch(dev, cfg, out),
      unchanged: () => k.unchanged.launch(dev, cfg, out),
      changed: (r) => { live[r % n] += 1; return k.changed.launch(dev, cfg, out); },
      setTable: (r) => { replacement[r % n] += 1; k.setTable.setTable("T", replacement); return k.setTable.launch(dev, cfg, out); },
    };
    for (let w = 0; w < 300; w++) for (const name of Object.keys(k) as (keyof typeof k)[]) await step[name](w);   // compile, load, warm the JIT (alternated)
    const times: Record<string, number[]> = { rewritable: [], unchanged: [], changed: [], setTable: [] };
    let r = 0;
    for (let round = 0; round < rounds; round++) {
      for (const name of Object.keys(k) as (keyof typeof k)[]) {
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) await step[name](r++);
        times[name].push(((performance.now() - t0) * 1000) / batch);
      }
    }
    const m = Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, median(xs)]));
    rows.push({ bytes: n * 4, ...m, ratio: m.unchanged / m.rewritable });
  }
  return rows;
}

const results: Record<string, unknown> = { machine: machineInfo(new URL("..", import.meta.url).pathname), rounds, batch };
for (const kind of KINDS) {
  let dev: Device;
  try { dev = await device(kind, kind === "cpu" ? { threads: 1 } : {}); } catch (e) { console.log(`(${kind}: ${(e as Error).message})`); continue; }
  const rows = await perDevice(dev);
  dev.close();
  results[kind] = rows;
  section(`q. ${kind}: µs per launch by table size (median of ${rounds} batches of ${batch})`, table(
    ["table", "rewritable (no compare)", "unchanged (compared)", "changed each launch", "setTable each launch", "unchanged / rewritable"],
    rows.map((x) => [`${((x.bytes as number) / 1024).toFixed((x.bytes as number) < 1024 ? 3 : 0)} KiB`, num(x.rewritable as number), num(x.unchanged as number), num(x.changed as number), num(x.setTable as number), num(x.ratio as number)])));
}
writeFileSync(new URL("./results-tables.json", import.meta.url), JSON.stringify(results, null, 2));
