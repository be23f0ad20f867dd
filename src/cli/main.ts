#!/usr/bin/env node
// The `gpuc` command: compile kernels from a file, list devices.

import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { CompileError, KernelError } from "../errors.js";
import { device, listDevices } from "../devices/index.js";
import { parseTypeName, typeName, type Type } from "../ir/types.js";
import { DUMP_STAGES, compileModule, defaultInline, type DumpStage } from "../compiler/pipeline.js";
import { TARGET_NAMES } from "../targets/index.js";
import * as compilerModule from "../compiler/compile.js";
import { useLoadedCompiler } from "../specializer.js";
import { compiling } from "../compiling.js";
import { provideTSParser } from "../frontend/ts-parser.js";
import { compileJob } from "../compiler/job.js";
import type { TargetFeatures } from "../targets/target.js";
import { RELOCATION_STRATEGIES, type RelocationStrategy } from "../reloc/manifest.js";
import { readFileKernels } from "./file-kernels.js";
import { cacheCommand, CommandError, inspectImage, keygen, precompile, signImageFile } from "./cache-commands.js";

// The CLI imports the compiler's ES modules itself (their functions, the targets): they are the
// process's compiler, not the package entry's compiler script.
useLoadedCompiler(compiling(compilerModule));
provideTSParser(() => import("../frontend/oxc.js"));

const USAGE = `usage:
  gpuc compile <file.ts> [--kernel NAME] [--target ${TARGET_NAMES.join("|")}] [--types a=f32,x=f32[]] [--dump=STAGE[,STAGE]]
               [--no-opt] [--no-bounds-check] [--debug=0|1|2] [--arch ARCH] [--fast-math]
               [--relocation bake|patch|table] [--emit code|manifest|spirv-asm] [--validate]
  gpuc devices
  gpuc cache ls|stats|clear|verify
  gpuc precompile <workload.(ts|js|mjs)> -o <image file> [--pin <module.js>]
  gpuc image inspect <image file> [--public-key <pem>]
  gpuc image sign <image file> --key <private key pem>
  gpuc image keygen <name>
  gpuc demo [--sanitize]
  gpuc --help

compile prints the target code of one kernel of the file (or, with --dump, the IR after the named
stages: ${DUMP_STAGES.join(", ")}, or all; with --emit=manifest, the relocation manifest as JSON;
SPIR-V is binary: --emit=spirv-asm prints spirv-dis's text of it, and code prints it in base64).
Parameter types come from TypeScript annotations
(a: f32, x: Float32Array), from the kernel's \`types\` option, or from --types.`;

/** Exit codes: 0 ok, 1 compile error, 2 usage error (bad arguments, missing file, unknown kernel or target), 70 internal error. */
class UsageError extends Error {
  /** Whether the command line itself was malformed (then the usage is printed too). */
  constructor(message: string, readonly showUsage = true) { super(message); }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(USAGE + "\n");
    return command ? 0 : 2;
  }
  switch (command) {
    case "compile": return compile(rest);
    case "devices":
      if (rest.length) throw new UsageError(`devices takes no arguments, got '${rest.join(" ")}'`);
      return devices();
    case "cache": return cacheCommand(rest, (l) => process.stdout.write(l + "\n"));
    case "precompile": {
      const { values, positionals } = parseCommandArgs(rest, { output: { type: "string", short: "o" }, pin: { type: "string" } });
      if (positionals.length !== 1 || !values.output) throw new UsageError("precompile needs a workload module and -o <image file>");
      return precompile(positionals[0], values.output as string, (l) => process.stdout.write(l + "\n"), values.pin as string | undefined);
    }
    case "image": {
      const print = (l: string) => process.stdout.write(l + "\n");
      const sub = rest[0];
      if (sub === "inspect") {
        const { values, positionals } = parseCommandArgs(rest.slice(1), { "public-key": { type: "string" } });
        if (positionals.length !== 1) throw new UsageError("usage: gpuc image inspect <image file> [--public-key <pem>]");
        return inspectImage(positionals[0], values["public-key"] as string | undefined, print);
      }
      if (sub === "sign") {
        const { values, positionals } = parseCommandArgs(rest.slice(1), { key: { type: "string" } });
        if (positionals.length !== 1 || !values.key) throw new UsageError("usage: gpuc image sign <image file> --key <private key pem>");
        return signImageFile(positionals[0], values.key as string, print);
      }
      if (sub === "keygen") {
        if (rest.length !== 2) throw new UsageError("usage: gpuc image keygen <name>   (writes <name>.pem and <name>.pub.pem)");
        return keygen(rest[1], print);
      }
      throw new UsageError("usage: gpuc image inspect|sign|keygen …");
    }
    case "demo": return demo(rest);
    default: throw new UsageError(`unknown command '${command}'`);
  }
}

async function compile(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        kernel: { type: "string", short: "k" },
        target: { type: "string", short: "t", default: "js" },
        types: { type: "string" },
        dump: { type: "string" },
        "no-opt": { type: "boolean", default: false },
        "no-bounds-check": { type: "boolean", default: false },
        debug: { type: "string", default: "1" },
        arch: { type: "string" },
        "fast-math": { type: "boolean", default: false },
        relocation: { type: "string" },
        emit: { type: "string", default: "code" },
        validate: { type: "boolean", default: false },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `expected one file, got ${positionals.length}` : "missing the file to compile");
  const target = await compilerModule.loadTarget(values.target!);
  if (!target) throw new UsageError(`unknown target '${values.target}' (available: ${TARGET_NAMES.join(", ")})`, false);
  const dump = parseDump(values.dump);

  if (!existsSync(positionals[0])) throw new UsageError(`cannot read '${positionals[0]}': no such file`, false);
  const kernels = readFileKernels(positionals[0]);
  if (!kernels.length) throw new UsageError(`no kernels in '${positionals[0]}' (no kernel(…) calls or function declarations)`, false);
  let k = kernels[0];
  if (values.kernel) {
    const found = kernels.find((x) => x.name === values.kernel);
    if (!found) throw new UsageError(`no kernel named '${values.kernel}' in '${positionals[0]}' (kernels: ${kernels.map((x) => x.name).join(", ")})`, false);
    k = found;
  } else if (kernels.length > 1) {
    throw new UsageError(`'${positionals[0]}' has ${kernels.length} kernels (${kernels.map((x) => x.name).join(", ")}): choose one with --kernel`, false);
  }

  const ufn = k.lower();
  const names = ufn.params.map((p) => ufn.vars[p].name);
  const given = { ...k.types, ...parseTypes(values.types) };
  for (const n of Object.keys(given)) if (!names.includes(n)) throw new UsageError(`--types: '${n}' is not a parameter of '${k.name}' (parameters: ${names.join(", ")})`);
  const types: Type[] = names.map((n, i) => {
    const written = given[n] ?? ufn.vars[ufn.params[i]].declared;
    const t = written ? parseTypeName(written) : null;
    if (!t) throw CompileError.single("invalid-argument", `parameter '${n}' of '${k.name}' has no type: annotate it (${n}: f32) or pass --types ${n}=f32`, ufn.source.locate(ufn.vars[ufn.params[i]].span.start));
    if (written) ufn.vars[ufn.params[i]].declared = written as never;
    return t;
  });

  const out: string[] = [];
  const debugLevel = Number(values.debug);
  if (debugLevel !== 0 && debugLevel !== 1 && debugLevel !== 2) throw new UsageError(`--debug must be 0, 1 or 2, got '${values.debug}'`);
  const features: TargetFeatures = {};
  if (values.arch !== undefined) {
    if (!target.arches?.includes(values.arch)) throw new UsageError(`--arch '${values.arch}' is not an architecture of target '${target.name}'${target.arches ? ` (${target.arches.join(", ")})` : " (it has none)"}`, false);
    features.arch = values.arch;
  }
  if (values["fast-math"]) features.fastMath = true;
  if (values.relocation !== undefined) {
    if (!(RELOCATION_STRATEGIES as readonly string[]).includes(values.relocation)) throw new UsageError(`--relocation must be one of ${RELOCATION_STRATEGIES.join(", ")}, got '${values.relocation}'`);
    features.relocation = values.relocation as RelocationStrategy;
  }
  if (values.emit !== "code" && values.emit !== "manifest" && values.emit !== "spirv-asm") throw new UsageError(`--emit must be 'code', 'manifest' or 'spirv-asm', got '${values.emit}'`);
  if (values.emit === "spirv-asm" && target.name !== "spirv") throw new UsageError(`--emit=spirv-asm is for --target spirv, not '${target.name}'`);
  const job = compileJob({ kernel: k.name, target: target.name, features, types: types.map(typeName), boundsCheck: !values["no-bounds-check"], debugLevel });
  const { artifact } = compileModule(ufn, job, {
    target,
    optimize: !values["no-opt"],
    inline: defaultInline,
    dump: dump.size ? { stages: dump, sink: (stage, text) => out.push(`;; ---- IR after ${stage} ----\n${text}`) } : undefined,
  });
  if (dump.size) process.stdout.write(out.join("\n"));
  else if (values.emit === "manifest") process.stdout.write(JSON.stringify(artifact.manifest, null, 2) + "\n");
  else if (values.emit === "spirv-asm") {
    const { disassembleSPIRV } = await import("../targets/spirv/spirv-tools.js");
    const text = await disassembleSPIRV(artifact.code as Uint8Array);
    if (text === null) throw new UsageError("--emit=spirv-asm needs spirv-dis (spirv-tools) on the PATH, or SPIRV_DIS set", false);
    process.stdout.write(text);
  }
  else process.stdout.write(typeof artifact.code === "string" ? artifact.code : Buffer.from(artifact.code).toString("base64") + "\n");
  if (values.validate && artifact.target === "opencl") {
    // The OpenCL driver builds it: a build it refuses is a CompileError (exit 1) with its log.
    const dev = await device("opencl").catch((e: Error) => { throw new UsageError(`--validate needs an OpenCL device to build the OpenCL C: ${e.message}`, false); });
    try { dev.load(artifact); } finally { dev.close(); }
    process.stderr.write(`built by ${dev.name}\n`);
  } else if (values.validate && artifact.target === "spirv") {
    const { spirvValAvailable, validateSPIRV, SPIRV_TARGET_ENV } = await import("../targets/spirv/spirv-tools.js");
    if (!(await spirvValAvailable())) throw new UsageError("--validate needs spirv-val (spirv-tools) on the PATH, or SPIRV_VAL set", false);
    const r = await validateSPIRV(artifact.code as Uint8Array);
    if (!r.ok) { process.stderr.write(`spirv-val: ${r.log}\n`); return 1; }
    process.stderr.write(`valid under spirv-val --target-env ${SPIRV_TARGET_ENV}\n`);
  } else if (values.validate && artifact.target === "llvm") {
    const { checkLLVM, llvmToolsAvailable } = await import("../targets/llvm/llvm-tools.js");
    if (!llvmToolsAvailable()) throw new UsageError("--validate needs LLVM 16's opt, llc and ld.lld (Debian's llvm-16 and lld-16), or GPUC_LLVM_BIN set to their folder", false);
    const r = await checkLLVM(artifact);
    if (!r.ok) { process.stderr.write(`${r.log}\n`); return 1; }
    const arch = features.arch ?? target.arches![0];
    process.stderr.write(arch === "spir64" ? "verified by opt\n" : `verified by opt, optimized by opt -O2 and compiled by llc for ${arch}, linked by ld.lld: a code object of ${r.codeObject!.byteLength} bytes (what the AMD GPU device loads)\n`);
  } else if (values.validate) {
    if (artifact.target !== "ptx") throw new UsageError(`--validate checks PTX with ptxas, OpenCL C with the OpenCL driver, SPIR-V with spirv-val and LLVM IR with LLVM's tools; target '${artifact.target}' has no validator here`, false);
    const { assemblePTX, formatPtxasErrors, ptxasAvailable } = await import("../targets/ptx/ptxas.js");
    if (!(await ptxasAvailable())) throw new UsageError("--validate needs ptxas (the CUDA toolkit) on the PATH, or PTXAS set", false);
    const r = await assemblePTX(artifact);
    if (!r.ok) { process.stderr.write(`${formatPtxasErrors(r)}\n`); return 1; }
    for (const u of r.usage) process.stderr.write(`ptxas ${features.arch ?? target.arches![0]}: ${u.function}: ${u.registers} registers, ${u.spillBytes} bytes spilled, ${u.stackBytes} bytes of stack\n`);
  }
  return 0;
}

function parseCommandArgs(args: string[], options: Record<string, { type: "string" | "boolean"; short?: string }>) {
  try {
    return parseArgs({ args, allowPositionals: true, options });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function parseDump(spec: string | undefined): Set<DumpStage> {
  if (!spec) return new Set();
  const stages = new Set<DumpStage>();
  for (const s of spec.split(",").map((x) => x.trim()).filter(Boolean)) {
    if (s === "all") DUMP_STAGES.forEach((d) => stages.add(d));
    else if ((DUMP_STAGES as readonly string[]).includes(s)) stages.add(s as DumpStage);
    else throw new UsageError(`unknown stage '${s}' for --dump (stages: ${DUMP_STAGES.join(", ")}, all)`);
  }
  return stages;
}

function parseTypes(spec: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!spec) return out;
  // (Split at the commas outside braces: an object type has its own.)
  const parts: string[] = [];
  let depth = 0, from = 0;
  for (let i = 0; i <= spec.length; i++) {
    const c = spec[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (i === spec.length || (c === "," && depth === 0)) { parts.push(spec.slice(from, i).trim()); from = i + 1; }
  }
  for (const part of parts.filter(Boolean)) {
    const m = /^([A-Za-z_$][\w$]*)=(.+)$/.exec(part);
    if (!m) throw new UsageError(`--types: expected name=type, got '${part}'`);
    if (!parseTypeName(m[2])) throw new UsageError(`--types: unknown type '${m[2]}' for '${m[1]}' (bool, i32, u32, f32, f64, an array such as f32[], an object such as { x: f32, n: i32 }, or an array of objects such as { x: f64 }[])`);
    out[m[1]] = m[2];
  }
  return out;
}

/**
 * The demo: the repository's examples (TypeScript, run through tsx, a dev dependency), compiled
 * for every target and run on every device present.
 */
async function demo(args: string[]): Promise<number> {
  const unknown = args.find((a) => a !== "--sanitize");
  if (unknown !== undefined) throw new UsageError(`demo: unknown option '${unknown}' (the demo takes --sanitize: every example on the CPU device under the sanitizer too)`);
  const file = new URL("../../examples/demo.ts", import.meta.url);
  if (!existsSync(file)) throw new UsageError("the demo's examples are not part of this installation: run it from a clone of the gpuc repository", false);
  try {
    const { register } = await import("tsx/esm/api");
    register();
  } catch {
    throw new UsageError("the demo runs the TypeScript examples through tsx: run `npm ci` in the gpuc repository first", false);
  }
  const { runDemo } = (await import(file.href)) as { runDemo: (log: (line: string) => void, options: { sanitize: boolean }) => Promise<boolean> };
  return (await runDemo(console.log, { sanitize: args.includes("--sanitize") })) ? 0 : 1;
}

async function devices(): Promise<number> {
  for (const d of await listDevices()) process.stdout.write(`${d.available ? "*" : " "} ${d.kind.padEnd(7)} ${d.detail}\n`);
  return 0;
}

// A reader that stops early (`gpuc cache ls | head -1`) is not an error: the output just ends.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (e: NodeJS.ErrnoException) => { if (e.code === "EPIPE") process.exit(process.exitCode ?? 0); throw e; });

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => {
    if (e instanceof UsageError) { process.stderr.write(`gpuc: ${e.message}\n${e.showUsage ? `\n${USAGE}\n` : ""}`); process.exitCode = 2; return; }
    if (e instanceof CompileError) {
      process.stderr.write(`${e.message}\n`);
      process.exitCode = 1;
      return;
    }
    if (e instanceof KernelError) { process.stderr.write(`gpuc: ${e.message}\n`); process.exitCode = 1; return; }
    if (e instanceof CommandError) { process.stderr.write(`gpuc: ${e.message}\n${e.usage ? `\n${USAGE}\n` : ""}`); process.exitCode = e.usage ? 2 : 1; return; }
    process.stderr.write(`gpuc: internal error (a bug in gpuc):\n${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 70;
  },
);
