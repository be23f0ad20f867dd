// The CPU device's options from the environment, in a browser (scripts/build-browser.mjs swaps this
// module in for devices/cpu-environment.ts): a page has no process.env, so none are set.

export function cpuEnvironment(): { threads?: number; parallel?: "auto" | "always"; wasm?: boolean | "always"; sanitize?: boolean } {
  return {};
}
