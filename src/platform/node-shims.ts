// Stand-ins for the Node modules gpuc touches only to render error locations (reading source
// files, V8's inspector, source maps): in a browser they find nothing, and gpuc falls back to
// function-relative locations.

export function readFileSync(): never {
  throw new Error("no file system in the browser");
}

export class Session {
  connect(): void { throw new Error("no inspector in the browser"); }
  disconnect(): void {}
  on(): void {}
  post(): void {}
}

export function findSourceMap(): undefined { return undefined; }
export class SourceMap {
  readonly payload = { sources: [] as string[] };
  findEntry(): object { return {}; }
}

/** `import("webgpu")` (Dawn) has no place in a browser: navigator.gpu is used instead. */
export const create = undefined;
export const globals = {};

/** `import("koffi")` (the FFI for the CUDA driver): no native libraries in a browser. */
export function load(): never { throw new Error("no native libraries in the browser"); }

/** The disk cache (cache/disk.ts) is Node only: in a browser it is never opened. */
const noDisk = (): never => { throw new Error("no disk cache in the browser"); };
export const closeSync = noDisk, mkdirSync = noDisk, openSync = noDisk, readdirSync = noDisk, renameSync = noDisk, rmSync = noDisk,
  statSync = noDisk, unlinkSync = noDisk, utimesSync = noDisk, writeSync = noDisk, homedir = noDisk, readSync = noDisk, tmpdir = noDisk, mkdtempSync = noDisk, appendFileSync = noDisk;
export function join(...parts: string[]): string { return parts.join("/"); }
export function dirname(p: string): string { return p.slice(0, p.lastIndexOf("/")); }

/** node:crypto is used by the disk cache's tags (Node only) and image signatures (browsers use WebCrypto). */
const noCrypto = (): never => { throw new Error("no node:crypto in the browser"); };
export const createHmac = noCrypto, randomBytes = noCrypto, timingSafeEqual = noCrypto, sign = noCrypto, verify = noCrypto, generateKeyPairSync = noCrypto;
export function relative(from: string, to: string): string { return to.startsWith(`${from}/`) ? to.slice(from.length + 1) : `../${to}`; }
export function isAbsolute(p: string): boolean { return p.startsWith("/"); }
export function resolve(...parts: string[]): string { return parts.join("/"); }

/**
 * `import("node:worker_threads")` (the CPU device's workers, in Node only): a browser bundle must
 * not name a Node module (a bundler of the app warns of it, or fails).
 */
export class Worker {
  constructor() { throw new Error("no worker threads in the browser: the CPU device runs on the page's thread"); }
}

/** `node:child_process` (the OpenCL device's probe of PoCL, in Node only). */
export function spawn(): never { throw new Error("no child processes in the browser"); }
/** node:module's createRequire: the OpenCL device's (Node only) way to koffi's file. */
export function createRequire(): never { throw new Error("no modules to require in the browser"); }
