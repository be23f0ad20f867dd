// node:url in the browser build: a module of its own, since the runtime's start imports it (to
// tell its own stack frames from the caller's) and the other stand-ins (node-shims.ts) load only
// with what loads later.

export function fileURLToPath(url: string | URL): string { return new URL(url).pathname; }
export function pathToFileURL(path: string): URL { return new URL(`file://${path}`); }
