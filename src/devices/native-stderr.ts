// Dawn's log lines, hidden unless GPUC_DEBUG asks for them (Node on Linux only). Dawn's native
// code writes its warnings straight to file descriptor 2 — on lavapipe, every process's first
// requestAdapter prints "Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced
// …" — so no JavaScript hook sees them: for the length of one synchronous call, descriptor 2 is
// pointed at a temporary file (dup2, through koffi, which gpuc has for CUDA anyway); afterwards
// every line of it that is not a Dawn warning is written to stderr again, so nothing else a
// native library prints meanwhile is lost.

import { closeSync, openSync, readSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Runs a synchronous call with the lines `drop` matches removed from what native code writes to stderr meanwhile. */
export type StderrFilter = <T>(call: () => T) => T;

const passThrough: StderrFilter = (call) => call();

/** Whether GPUC_DEBUG asks for Dawn's own output (any value but "" and "0"). */
export function debugOutput(): boolean {
  const v = process.env.GPUC_DEBUG;
  return v !== undefined && v !== "" && v !== "0";
}

/** The filter, or a pass-through where it cannot work here (not Linux, no koffi or libc, GPUC_DEBUG set). */
export async function nativeStderrFilter(drop: RegExp): Promise<StderrFilter> {
  if (process.platform !== "linux" || debugOutput()) return passThrough;
  let libc: { dup: (fd: number) => number; dup2: (from: number, to: number) => number; close: (fd: number) => number };
  try {
    const m = (await import("koffi")) as unknown as { default?: typeof import("koffi") };
    const koffi = m.default ?? (m as unknown as typeof import("koffi"));
    const lib = koffi.load("libc.so.6");
    libc = { dup: lib.func("int dup(int)"), dup2: lib.func("int dup2(int, int)"), close: lib.func("int close(int)") };
  } catch {
    return passThrough;
  }
  return (call) => {
    let file: number, path: string;
    try {
      path = join(tmpdir(), `gpuc-stderr-${process.pid}-${Date.now()}.log`);
      file = openSync(path, "wx+", 0o600);
      unlinkSync(path);
    } catch {
      return call();
    }
    const saved = libc.dup(2);
    if (saved < 0 || libc.dup2(file, 2) < 0) {
      if (saved >= 0) libc.close(saved);
      closeSync(file);
      return call();
    }
    try {
      return call();
    } finally {
      libc.dup2(saved, 2);
      libc.close(saved);
      const chunks: Buffer[] = [];
      const buf = Buffer.alloc(1 << 16);
      for (let pos = 0, n; (n = readSync(file, buf, 0, buf.length, pos)) > 0; pos += n) chunks.push(Buffer.from(buf.subarray(0, n)));
      closeSync(file);
      const kept = Buffer.concat(chunks).toString("utf8").split(/(?<=\n)/).filter((line) => !drop.test(line)).join("");
      if (kept) process.stderr.write(kept);
    }
  };
}
