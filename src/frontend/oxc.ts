// gpuc's one way into oxc-parser (the kernel parser, the annotation reader, the code check of
// JavaScript read back from caches): its native binding and the wrapper that turns the binding's
// JSON into the ESTree AST, imported directly. They are exported subpaths of the pinned version;
// together they are exactly what the package's `parseSync` runs without its experimental options.
// The package's main entry also loads its visitor and raw-transfer modules, which gpuc does not
// use: importing it took 12–14 ms in a fresh process, these two 6 ms (and its first parse 3–8 ms
// against 2.5), on the first compile and on the first check of an unsigned image's JS alike.
// Browsers get acorn behind the same two names (scripts/build-browser.mjs).

import { parseSync as parseBinding } from "oxc-parser/src-js/bindings";
import { wrap } from "oxc-parser/src-js/wrap";

export const parseSync: typeof import("oxc-parser").parseSync = (filename, sourceText, options) => wrap(parseBinding(filename, sourceText, options));
