// The modules a page's runtime imports lazily (`import("node:fs")`, `"node:crypto"`, `"node:os"`,
// `"webgpu"`), each aliased here by scripts/build-browser.mjs rather than to node-shims.ts: a lazy
// import keeps the whole module it names, and these are all a page needs of them. Each call says
// what it is: none is reached in a browser (the callers test for Node, or catch and fall back).

const absent = (what: string) => (): never => { throw new Error(`no ${what} in the browser`); };

/** node:fs (fingerprint.ts's source files, image-file.ts's image files). */
export const readFileSync = absent("file system");
/** node:crypto (image-file.ts's signatures: a page uses WebCrypto). */
export const sign = absent("node:crypto"), verify = absent("node:crypto");
/** node:os (cpu.ts's count of cores: a page's CPU device has one thread). */
export const availableParallelism = absent("node:os"), cpus = absent("node:os");
/** webgpu (Dawn, Node's WebGPU: a page has navigator.gpu). */
export const create = undefined;
export const globals = {};
