// The error classes users see (CompileError, KernelError) and the internal one (bugs).
//
// Errors are data: a kind, a message, a location and a call chain, rendered once here.

/** A point in user source, already resolved to a file (or kernel) name, line and column (1-based). */
export interface SourceLocation {
  /** File path when the source could be located on disk, otherwise the function's name. */
  file: string;
  line: number;
  column: number;
}

/** One frame of the call chain from the kernel down to the offending call. */
export interface Frame {
  function: string;
  location: SourceLocation | null;
}

export type CompileErrorKind =
  | "syntax"              // the parser rejected the source
  | "unsupported-syntax"  // a JS/TS construct outside the kernel language
  | "undefined-name"      // a free name that resolves to nothing
  | "dynamic-call"        // a call that cannot be resolved statically
  | "type"                // operand or assignment types that do not fit
  | "unsupported-type"    // a type the target (or gpuc) cannot represent
  | "unsupported-feature" // a feature the device lacks (subgroups on a WebGPU adapter without them)
  | "recursion"           // recursion on a target without a call stack
  | "generator-error"     // a generated function's generator threw
  | "unsupported-value"   // a scope value that cannot enter a kernel
  | "invalid-assignment"  // assignment to a const, an array, a parameter array
  | "invalid-option"      // an option gpuc does not know (misspelt) or cannot use, of any call that takes
                          // options: kernel(), compile(), device(), loadImage(), the bundler plugin
  | "invalid-argument"    // a value the CLI cannot use (a file it cannot read, a parameter without a type)
  // Mistakes in a call's arguments (launch(), compile({ args }) or compile({ types })), located at
  // the user's call. Before these kinds existed they were all "invalid-argument".
  | "arity"               // a wrong number of arguments (or of types)
  | "argument-type"       // an argument whose type does not fit the declared one, or a value gpuc cannot pass
  | "unsupported-array"   // an array kind kernels do not take (BigInt64Array, DataView, a plain Array, a Proxy)
  | "unknown-target"      // compile() for a target gpuc does not have
  | "runtime-signature"   // a runtime-library function compiled to another signature than declared
  | "relocation";         // two values under one relocation-site name, or a strategy the target lacks

/**
 * A name (a kernel's, a parameter's) as messages quote it: 'saxpy' for a plain name, a JSON
 * string with every character outside printable ASCII escaped for any other
 * (`Object.defineProperty(fn, "name", { value: "a\nb" })` is quoted "a\nb"), so a message stays
 * one readable line and a generated comment stays a comment.
 */
export function quoteName(name: string): string {
  if (/^[\w$.-]+$/.test(name)) return `'${name}'`;
  return JSON.stringify(name).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function formatLocation(loc: SourceLocation | null): string {
  return loc ? `${loc.file}:${loc.line}:${loc.column}` : "<unknown>";
}

/**
 * What an options object holds that the call does not know: the message of its first unknown key,
 * with the known option it most likely misspells and every known one (`unknown option 'thread'
 * (did you mean 'threads'?) (options: print, threads, …)`); null when every key is known. The
 * keys are read with Object.keys (which a revoked Proxy makes throw: the caller says so).
 */
export function unknownOption(given: object, known: readonly string[], what = "option"): string | null {
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue;
    const near = known.filter((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= Math.max(1, Math.min(2, k.length >> 2)));
    return `unknown ${what} ${quoteName(key)}${near.length ? ` (did you mean ${near.map(quoteName).join(" or ")}?)` : ""} (${what}s: ${known.join(", ")})`;
  }
  return null;
}

/** Levenshtein distance (short option names only). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** One diagnosed problem; a CompileError carries one or more of these. */
export interface Diagnostic {
  kind: CompileErrorKind;
  message: string;
  location: SourceLocation | null;
  frames: Frame[];
  hint?: string;
  /** The original error, for a generator that threw. */
  cause?: unknown;
}

function renderDiagnostic(d: Diagnostic): string {
  let text = d.location ? `${formatLocation(d.location)}: ${d.message}` : d.message;
  // The first frame is the function the error is in; the rest are its callers up to the kernel.
  for (const f of d.frames.slice(1)) text += `\n    called from '${f.function}' at ${formatLocation(f.location)}`;
  if (d.hint) text += `\n    hint: ${d.hint}`;
  return text;
}

/** A user error found while compiling a kernel. Holds every problem found (collect, then throw once). */
export class CompileError extends Error {
  readonly kind: CompileErrorKind;
  readonly location: SourceLocation | null;
  readonly frames: Frame[];
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    const first = diagnostics[0];
    const more = diagnostics.length > 1 ? `\n(${diagnostics.length} errors)` : "";
    super(diagnostics.map(renderDiagnostic).join("\n") + more, { cause: diagnostics.find((d) => d.cause !== undefined)?.cause });
    this.name = "CompileError";
    this.kind = first.kind;
    this.location = first.location;
    this.frames = first.frames;
    this.diagnostics = diagnostics;
  }
  static single(kind: CompileErrorKind, message: string, location: SourceLocation | null = null, hint?: string): CompileError {
    return new CompileError([{ kind, message, location, frames: [], hint }]);
  }
}

export type KernelErrorKind =
  | "exception"           // a `throw` on the device
  | "bounds"              // an out-of-bounds array access
  | "launch-config"       // a bad launch(device, { blocks, threads }): not a device, missing, malformed, over the
                          // limits of every device or of this one, outside the kernel's launch bounds (was "launch")
  | "launch"              // a launch the device cannot run (shared memory, storage buffers), misuse of device arrays
  | "device-unavailable"  // the requested device is not present
  | "cancelled"           // a launch stopped by its AbortSignal or its time limit (launch options signal, timeoutMs)
  | "invalid-image"       // loadImage() got something that is not a usable kernel image
  | "not-precompiled"     // a kernel the runtime-only entry (gpuc/runtime) runs is not in the loaded images
  | "divergence"          // threads that must meet do not all get there: syncthreads() under a condition that differs
                          // between the threads of a block, subgroupBarrier() reached by only some lanes (sanitizer)
  | "race"                // the sanitizer (device("cpu", { sanitize: true })): two unordered accesses of one element
  | "uninitialized";      // the sanitizer: a read of shared memory no thread of the block wrote

/** One access the sanitizer reports: a read, a write or an atomic update, where, and by which thread of which block. */
export interface SanitizerAccess { access: "read" | "write" | "atomic"; location: SourceLocation | null; thread: Dim3; block: Dim3 }

/**
 * One of the sanitizer's findings (KernelError.reports): a race names both accesses (`first`, the
 * earlier in the order the CPU device ran them), an uninitialized read or a divergent
 * subgroupBarrier() the one access (`first` null). `array` and `element` say which element (the
 * kernel parameter's or shared array's name, the index into it).
 */
export interface SanitizerReport {
  kind: "race" | "uninitialized" | "divergence";
  array: string | null;
  element: number | null;
  first: SanitizerAccess | null;
  second: SanitizerAccess;
  message: string;
}

export type Dim3 = { x: number; y: number; z: number };

/** An error raised by a kernel on the device (or by the launch itself), reported on the host. */
export class KernelError extends Error {
  readonly kind: KernelErrorKind;
  readonly location: SourceLocation | null;
  readonly thread: Dim3 | null;
  readonly block: Dim3 | null;
  /** The sanitizer's findings, every one (kinds race, uninitialized, divergence from the sanitizer); else absent. */
  readonly reports?: readonly SanitizerReport[];
  constructor(kind: KernelErrorKind, message: string, opts: { location?: SourceLocation | null; thread?: Dim3 | null; block?: Dim3 | null } = {}) {
    super(message);
    this.name = "KernelError";
    this.kind = kind;
    this.location = opts.location ?? null;
    this.thread = opts.thread ?? null;
    this.block = opts.block ?? null;
  }
}

/** A failure inside gpuc itself. Never a user's fault: each one is a bug. */
export class InternalCompilerError extends Error {
  constructor(message: string) {
    super(`internal compiler error: ${message} (this is a bug in gpuc)`);
    this.name = "InternalCompilerError";
  }
}
