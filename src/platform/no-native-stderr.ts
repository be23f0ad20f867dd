// Dawn's stderr filter in a browser (scripts/build-browser.mjs swaps this module in for
// devices/native-stderr.ts): a page's WebGPU is the browser's, with no native output to filter.

export type StderrFilter = <T>(call: () => T) => T;

export async function nativeStderrFilter(): Promise<StderrFilter> { return (call) => call(); }
export function debugOutput(): boolean { return false; }
