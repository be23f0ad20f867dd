// The types of build.mjs (the test imports it).
export interface BuildOptions { minify: boolean; targets?: string[] }
export interface Metafile { inputs: Record<string, unknown>; outputs: Record<string, { bytes: number }> }
export function buildApp(outDir?: string, opts?: BuildOptions): Promise<{ web: Metafile; node: Metafile }>;
export function buildWeb(outDir?: string, opts?: BuildOptions): Promise<Metafile>;
export function buildNode(outDir?: string, opts?: BuildOptions): Promise<Metafile>;
