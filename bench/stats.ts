// Statistics and Markdown formatting shared by the benchmarks (bench/run.ts, webgpu.ts, ttfk.ts,
// cuda.ts). Not part of gpuc.

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
