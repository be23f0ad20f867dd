// Dawn, Node's WebGPU (the `webgpu` package), for the WebGPU device (webgpu.ts) where there is no
// navigator.gpu. A page has the browser's: the browser build puts src/platform/no-dawn.ts in this
// module's place.

import { nativeStderrFilter, type StderrFilter } from "./native-stderr.js";

/**
 * Dawn's GPU object in Node (the `webgpu` package), or null when it cannot be loaded here. One
 * instance serves every device of the process.
 */
let dawn: { gpu: GPU; users: number; quiet: StderrFilter } | null = null;

/** Dawn's log lines: `Warning: …` (GPUC_DEBUG shows them). */
const DAWN_LOG_LINE = /^Warning: /;

/** Dawn's GPU object, or null when it cannot be loaded here. */
export async function loadDawn(): Promise<GPU | null> {
  if (dawn) { dawn.users++; return dawn.gpu; }
  try {
    const [{ create, globals }, quiet] = await Promise.all([
      import("webgpu") as unknown as Promise<{ create: (o: string[]) => GPU; globals: object }>,
      nativeStderrFilter(DAWN_LOG_LINE),
    ]);
    Object.assign(globalThis, globals);
    dawn = { gpu: create(process.env.GPUC_WEBGPU_BACKEND ? [`backend=${process.env.GPUC_WEBGPU_BACKEND}`] : []), users: 1, quiet };
    return dawn.gpu;
  } catch {
    return null;
  }
}

export function releaseDawn(gpu: unknown): void {
  // The instance itself stays for the process: Dawn aborts when an instance that had devices is
  // collected while its threads still run (seen as "futex"/"mutex" aborts). Destroying the
  // devices is what lets the process exit.
  if (dawn && dawn.gpu === gpu) dawn.users--;
}

/** What filters Dawn's warnings while calls on `instance` run (lavapipe: "… artificially reduced …"): Dawn's filter where it is Dawn's instance. */
export function dawnQuiet(instance: unknown): StderrFilter {
  return dawn && dawn.gpu === instance ? dawn.quiet : (call) => call();
}
