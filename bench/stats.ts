// Statistics, Markdown formatting and the machine's description, shared by the benchmarks
// (bench/run.ts, webgpu.ts, ttfk.ts, cuda.ts). Not part of gpuc.

import { spawnSync } from "node:child_process";
import os from "node:os";

export function sorted(xs: number[]): number[] { return [...xs].sort((a, b) => a - b); }
export function median(xs: number[]): number {
  const s = sorted(xs), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
/** Nearest-rank percentile. */
export function pct(xs: number[], p: number): number {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
export function ms(x: number): string { return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2); }
export function signed(x: number): string { return (x < 0 ? "−" : "+") + ms(Math.abs(x)); }
export function num(x: number, digits = 2): string { return x.toFixed(digits); }
export function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}
export function section(title: string, body: string): void { console.log(`\n### ${title}\n\n${body}`); }
export function stats(xs: number[]) { return { median: median(xs), p90: pct(xs, 90), min: Math.min(...xs), max: Math.max(...xs), n: xs.length }; }

// ---- the machine --------------------------------------------------------------------------------

/** git's output in `root`, or null. */
export function git(root: string, args: string[]): string | null {
  const r = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** What a benchmark report says about where it ran. */
export function machineInfo(root: string) {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    date: new Date().toISOString(),
    loadAverageAtStart: os.loadavg().map((x) => +x.toFixed(2)),
    gitCommit: git(root, ["rev-parse", "--short", "HEAD"]) ?? "unknown",
    srcModified: (git(root, ["status", "--porcelain", "--", "src"]) ?? "") !== "",
  };
}

/** The machine's busy and total CPU time (ms, all cores). */
export function machineCpu(): { busy: number; all: number } {
  return os.cpus().reduce((acc, c) => {
    const t = c.times;
    return { busy: acc.busy + t.user + t.nice + t.sys + t.irq, all: acc.all + t.user + t.nice + t.sys + t.irq + t.idle };
  }, { busy: 0, all: 0 });
}

/** Fraction of the machine's CPU time used by other processes over `ms` while this one sleeps. */
export async function otherCpuLoad(ms: number): Promise<number> {
  const a = machineCpu();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineCpu();
  return b.all > a.all ? (b.busy - a.busy) / (b.all - a.all) : 0;
}

/** This process's own CPU time, ms (worker threads, such as lavapipe's, included). */
export function ownCpu(): number { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }
