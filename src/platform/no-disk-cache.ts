// The disk cache in the browser build (scripts/build-browser.mjs swaps it in for cache/disk.ts):
// there is no user cache directory, so no disk cache, and none of its code (the store, the
// per-user key, the HMAC tags) in the bundle. persistent.ts opens it only in Node anyway.
// (gpuc/plugin writes the same stand-in for an app's Node bundle: src/plugin/index.ts.)

export function openDiskCache(): null {
  return null;
}
