// The runtime library's fingerprint as cache entries record it, without the library itself: the
// runtime's start (the specializer) needs only this, and the library's sources (functions.ts)
// load with the compiler, or with whoever redefines a function of it.

/**
 * runtimeFingerprint() of the built-in library, none of it redefined (test/overlays.test.ts checks
 * that functions.ts computes the same).
 */
export const BUILT_IN_RUNTIME_FINGERPRINT = "8410effebf69f3466d87babf8a32ea5e0f66413cc057ffe25d11315df1db0a7f";

let fingerprint: () => string = () => BUILT_IN_RUNTIME_FINGERPRINT;

/**
 * A fingerprint of the runtime library as it is now. Until functions.ts is loaded no function of
 * it can have been redefined, so it is the built-in library's.
 */
export function runtimeFingerprint(): string {
  return fingerprint();
}

/** functions.ts, as it loads: the fingerprint from here on is what it computes. */
export function fingerprintRuntimeWith(compute: () => string): void {
  fingerprint = compute;
}
