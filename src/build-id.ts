// Which build of gpuc this is: a hash of its sources, written into dist/build-id.js (and into the
// browser bundle) by scripts/build-id.mjs at `npm run build`. Part of every cache owner, so code
// compiled by another build — a changed compiler under the same version number — is never
// revived. Running from the sources (tsx) it is "dev".
declare const __GPUC_BUILD__: string | undefined;
export const GPUC_BUILD: string = typeof __GPUC_BUILD__ === "string" ? __GPUC_BUILD__ : "dev";
