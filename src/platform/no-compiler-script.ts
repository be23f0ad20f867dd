// The browser build's cache/compiler-script.ts: no code cache, no script (the compiler is part of
// the bundle).

export async function loadCompilerScript(): Promise<null> { return null; }
