// Types of the two oxc-parser subpaths gpuc imports (exported by the package, untyped there).
declare module "oxc-parser/src-js/bindings" {
  export function parseSync(filename: string, sourceText: string, options?: import("oxc-parser").ParserOptions | null): unknown;
}
declare module "oxc-parser/src-js/wrap" {
  export function wrap(result: unknown): import("oxc-parser").ParseResult;
}
