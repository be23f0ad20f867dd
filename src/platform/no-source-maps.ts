// Source maps in a browser (scripts/build-browser.mjs swaps this module in for
// frontend/source-map.ts): a map is Node's own or read from the generated file (node:module,
// node:fs), neither of which a page has, so there no file has one and a kernel's annotations and
// locations come from its function alone, as they would in Node without a map.

export function sourceMapOf(_path: string): null { return null; }

export function isTypeScriptFile(path: string): boolean {
  return /\.[cm]?tsx?$/.test(path);
}
