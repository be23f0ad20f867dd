// The CPU device's worker pool in a browser (scripts/build-browser.mjs swaps this module in for
// devices/cpu-workers.ts): the pool runs on node:worker_threads, so in a page the CPU device has
// one thread (devices/cpu.ts, workersAvailable) and never opens it; none of its code ships there,
// nor the code of a launch on it.

const none = (): never => { throw new Error("the CPU device has no worker threads in a page (it runs on the page's thread)"); };

export class CpuWorkers {
  constructor() { none(); }
}

export function launchOnWorkers(): Promise<void> { return none(); }
