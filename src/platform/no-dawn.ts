// Dawn in a browser (scripts/build-browser.mjs swaps this module in for devices/dawn.ts): a page's
// WebGPU is the browser's navigator.gpu, and where it has none there is no Dawn to load either.

export async function loadDawn(): Promise<null> { return null; }
export function releaseDawn(_gpu: unknown): void {}
export function dawnQuiet(_instance: unknown): <T>(call: () => T) => T { return (call) => call(); }
