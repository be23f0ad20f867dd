// The bundler plugin's compiler: the kernel() calls of one module's text, found without running it
// (cli/file-kernels.ts), compiled for the build's targets into the image being generated (each by
// a specializer of its own, as a launch would: the same jobs, owners and entry records), and the
// module's text with each compiled call's id and name written into its options. A kernel the file
// alone does not define (options or scope values it cannot read) is left as it is, with a note.

import { CompileError, quoteName } from "../errors.js";
import { buildPlan, fileKernels, type FileKernel, type KernelCall } from "../cli/file-kernels.js";
import { Specializer } from "../specializer.js";
import { compileJob } from "../compiler/job.js";
import { typeNameOf } from "../compiler/compile.js";
import { idFingerprint } from "../cache/fingerprint.js";
import { targetInfo, TARGET_NAMES } from "../targets/index.js";
import type { LoweredKernel } from "../compiler/job.js";
import type { Signature } from "../cache/entry.js";
import type { TargetFeatures } from "../targets/target.js";
import { isPersistable, type RelocationStrategy } from "../reloc/manifest.js";

/** A target the build compiles for: "wgsl", "js", "ptx" (its oldest architecture) or "ptx:sm_80". */
interface BuildTarget { target: string; arch?: string }

/** The build's targets, from the plugin's option (`["wgsl", "js", "ptx:sm_75"]`); a name that is not one is an invalid-option error. */
export function buildTargets(names: readonly string[]): BuildTarget[] {
  return names.map((n) => {
    const [target, arch] = String(n).split(":");
    const info = targetInfo(target);
    if (!info) throw CompileError.single("invalid-option", `gpuc plugin: unknown target ${quoteName(String(n))} (targets: ${TARGET_NAMES.join(", ")}; an architecture as ptx:sm_80)`);
    if (arch !== undefined && !info.arches?.includes(arch))
      throw CompileError.single("invalid-option", `gpuc plugin: ${quoteName(arch)} is not an architecture of target '${target}'${info.arches ? ` (available: ${info.arches.join(", ")})` : ""}`);
    return arch === undefined ? { target } : { target, arch };
  });
}

/** What the build did with one module. */
interface ModuleKernels {
  /** The module's text with the compiled calls' ids written in, or null if no call changed. */
  code: string | null;
  /** Kernels left to compile at run time, each with why (the build says so as a warning). */
  notes: { message: string; line: number; column: number }[];
  /** The compiled kernels' names. */
  compiled: string[];
}

/**
 * Compile the kernel() calls of a module (its path and text) for the targets, into the image
 * being generated (cache/image.ts: startGenerating before, stopGenerating after all modules).
 * A kernel's compile error is thrown (a CompileError located in the module).
 */
export async function buildModuleKernels(path: string, text: string, targets: readonly BuildTarget[], imageOnly = false): Promise<ModuleKernels> {
  const notes: ModuleKernels["notes"] = [];
  /** Text to write at `at` (over what is there up to `end`). */
  const edits: { at: number; end?: number; text: string }[] = [];
  const compiled: string[] = [];
  /** Each scope helper nothing but kernels reach (KernelCall.helpers): its body, the calls naming it, and how many of them lost their bodies. */
  const helpers = new Map<string, { body: { start: number; end: number }; calls: number; stripped: number }>();
  for (const k of fileKernels(path, text)) {
    const call = k.call;
    if (!call) continue;
    for (const h of call.helpers) {
      const seen = helpers.get(h.name) ?? { body: h.body, calls: 0, stripped: 0 };
      seen.calls++;
      helpers.set(h.name, seen);
    }
    const note = (why: string) => notes.push({ message: `kernel ${quoteName(k.name)} is compiled at run time, not at build time: ${why}`, line: call.line, column: call.column });
    const plan = buildPlan(k, call);
    if ("why" in plan) { note(plan.why); continue; }
    const lowered = plan.lowered;
    const unkept = await compileCall(k, call, lowered, targets);
    if (unkept.length) notes.push({ message: `kernel ${quoteName(k.name)} is compiled at run time for ${unkept.join(", ")}: its code there binds its tables when loaded (relocation 'bake': nothing an image can keep); give it relocation: "table"`, line: call.line, column: call.column });
    compiled.push(k.name);
    // Device code stays out of the app's JavaScript: where the module runs kernels from images
    // only (it imports gpuc/runtime), a kernel nothing but its call reaches (KernelCall.body) keeps
    // its parameters and loses its body, whose code is in the image (its lines kept: the module's
    // source map stays right).
    const strip = imageOnly && call.body !== null && !unkept.length;
    if (strip) {
      edits.push(emptied(text, call.body!));
      for (const h of call.helpers) helpers.get(h.name)!.stripped++;
    }
    edits.push(idEdit(k, call, strip));
  }
  // A helper whose every kernel lost its body is device code too: its body goes (a kernel with an
  // id records a helper of its scope as IN_ID, never by its text, so nothing at run time reads it).
  for (const h of helpers.values()) if (h.calls === h.stripped) edits.push(emptied(text, h.body));
  let code: string | null = null;
  if (edits.length) {
    code = text;
    for (const e of edits.sort((a, b) => b.at - a.at)) code = code.slice(0, e.at) + e.text + code.slice(e.end ?? e.at);
  }
  return { code, notes, compiled };
}

/**
 * Compile one kernel for every target, as a launch of its declared types would (the entries go
 * into the image being generated). Returns the targets whose code no image can keep (session-local
 * relocations): there the kernel compiles at run time.
 */
async function compileCall(k: FileKernel, call: KernelCall, lowered: LoweredKernel, targets: readonly BuildTarget[]): Promise<string[]> {
  const types = lowered.declared.map((t) => typeNameOf(t!) as string);
  const signature: Signature = { paramNames: lowered.paramNames, declared: types };
  // (As the kernel's options will have it at run time: `types: {}` is not no types option.)
  const declaredTypes = call.typed ? k.types : undefined;
  const specs = new Specializer({
    name: k.name,
    id: call.id,
    imageOnly: false,
    scope: {},
    scopeDeps: call.deps,
    fingerprint: async () => idFingerprint(call.id, k.name, declaredTypes),
    imageAlias: async () => null,
    lowered: async () => lowered,
    signature: () => signature,
    specialized: () => {},
  });
  const lit = call.literals;
  const unkept: string[] = [];
  for (const t of targets) {
    const features: TargetFeatures = {};
    if (t.arch) features.arch = t.arch;
    if (lit.fastMath === true) features.fastMath = true;
    // A relocation strategy the target lacks is the launch's error there, not the build's: that target keeps its default.
    const relocation = lit.relocation as RelocationStrategy | undefined;
    if (relocation !== undefined && targetInfo(t.target)!.relocations.includes(relocation)) features.relocation = relocation;
    const job = compileJob({
      kernel: k.name, target: t.target, features, types,
      boundsCheck: lit.boundsCheck !== false, debugLevel: (lit.debugLevel as 0 | 1 | 2 | undefined) ?? 1, forImage: true,
    });
    if (!isPersistable((await specs.get(job)).artifact)) unkept.push(t.target);
  }
  return unkept;
}

/** The edit that empties a function's body, keeping its lines (the module's source map stays right). */
function emptied(text: string, body: { start: number; end: number }): { at: number; end: number; text: string } {
  return { at: body.start, end: body.end, text: `{${"\n".repeat(text.slice(body.start, body.end).split("\n").length - 1)}}` };
}

/** The text that writes a compiled call's id (and its name, which a minifier would change; imageOnly where its body was left out) into its options. */
function idEdit(k: FileKernel, call: KernelCall, imageOnly: boolean): { at: number; text: string } {
  const fields = `id: ${JSON.stringify(call.id)}${call.named ? "" : `, name: ${JSON.stringify(k.name)}`}${imageOnly ? ", imageOnly: true" : ""}`;
  return call.options ? { at: call.options.start + 1, text: ` ${fields},` } : { at: call.fnEnd, text: `, { ${fields} }` };
}
