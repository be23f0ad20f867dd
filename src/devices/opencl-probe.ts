// PoCL's kernel compiler run first in a child process, so that an assertion in it ends the child
// and not the user's process. Node only (the OpenCL device's).
//
// (OpenCL C and the llvm target's SPIR alike: PoCL forms the regions of both the same way.)
//
// Why: PoCL builds a kernel's work-group function (its passes cut the kernel into regions between
// barriers) at the first enqueue of each block size, not at clBuildProgram, and an assertion there
// (PoCL 3.1 is built with them) aborts the whole process: SIGABRT, nothing to catch. It also writes
// a CFG dump (`gpuc_<kernel>.dot`) into the current directory first (ParallelRegion::Verify calls
// dumpCFG with a relative name; no setting turns it off). gpuc emits OpenCL C that PoCL takes
// (opencl/emit.ts says which shapes it avoids), but a driver bug gpuc does not know of yet should
// cost one KernelError, not the process.
//
// How: before a process enqueues a kernel with barriers for a block size it has not used, a child
// process (cwd: a fresh temporary folder, so PoCL's dumps land there and are removed) builds the
// same code with the same options on the same platform and device and enqueues it with the same
// block size and grid. PoCL compiles the work-group function before it marks the command running;
// the child's callback for CL_RUNNING (which PoCL calls synchronously on its scheduler thread,
// before it hands out work-groups) says so on stdout and kills the child: the kernel never runs
// there, so its arguments can be placeholders. If the child dies before saying so, the reason is
// what it wrote to stderr (PoCL's assertion). The work is not lost: with PoCL's kernel cache (on
// by default) the parent's own enqueue finds the program and the work-group function the child
// compiled. The child is started when the kernel is loaded (PoCLProber.warm: Node's start and
// PoCL's initialization overlap with the parent's own build) and told what to build at the launch;
// a block size PoCL built is recorded in the user's gpuc cache directory (BuiltSizes), and later
// processes do not probe it again. A probe that cannot tell (the child could not open the device,
// say) lets the launch go on as without it.
//
// Why the child's verdict holds for the parent: PoCL's kernel compiler is deterministic in its
// input, which is the program (code and build options, on one device), the block size, and
// whether the global offset is zero (always, here); the grid's size (its "smallgrid"
// specialization) reaches only the passes after the regions are formed, and the child uses the
// parent's grid anyway. PoCL's settings (POCL_WORK_GROUP_METHOD, …) come from the environment,
// which the child inherits (PoCL reads some of them once, when it starts: one that changes after
// the parent opened the device may build differently there than in the child).

import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultCacheDir, directoryProblem, storeDir } from "../cache/dir.js";
import { sha256 } from "../sha256.js";

/** A kernel argument as the child passes it: a value of `size` zero bytes, a buffer (placeholder), or `__local` memory of `size` bytes. */
export interface ProbeArg { kind: "value" | "buffer" | "local"; size: number }

/** Where the child finds OpenCL: the ICD loader, the koffi module's URL (its cwd is a temporary folder: it resolves nothing itself), the platform and device by index. */
export interface ProbeTarget { library: string; koffi: string; platform: number; device: number }

/**
 * One build to try: the program (OpenCL C `code`, or a SPIR `binary` in base64), its kernel's
 * entry and arguments, the block size and grid (in threads).
 */
export interface ProbeRequest { code: string; binary?: string; options: string; entry: string; args: ProbeArg[]; local: number[]; global: number[] }

/**
 * What the probe found: the driver built the work-group function; or the child died first
 * (`reason`: its last words on stderr, PoCL's assertion; `end`: how it ended; `dumps`: the
 * folder it ran in, where kept); or the probe could not tell (`why`).
 */
export type ProbeVerdict = { built: true } | { built: false; reason: string; end: string; dumps: string | null } | { built: null; why: string };

/** The child's stdout line once PoCL has built the work-group function. */
const BUILT = "gpuc-probe: built";
const INCONCLUSIVE = "gpuc-probe: inconclusive: ";

interface Child { process: ChildProcess; cwd: string; verdict: Promise<ProbeVerdict> }

/**
 * The probes of one device. A child is started ahead of its request (`warm`, when a kernel with
 * barriers is loaded), so that Node's start and PoCL's initialization, most of a probe's cost,
 * overlap with the parent's own build; each child serves one request and ends.
 */
export class PoCLProber {
  private spare: Child | null = null;

  /** `keep`: leave the child's folder (PoCL's dumps) when it dies (GPUC_DEBUG). */
  constructor(private readonly target: ProbeTarget, private readonly keep: boolean) {}

  /** Start a child for the next request, unless one waits already. */
  warm(): void {
    if (!this.spare) this.spare = this.start();
  }

  /** Run `r` in the spare child (or a new one). */
  run(r: ProbeRequest): Promise<ProbeVerdict> {
    // (A spare that ended early, its platform gone or killed, is not asked.)
    const spare = this.spare && this.spare.process.exitCode === null && this.spare.process.signalCode === null ? this.spare : null;
    const child = spare ?? this.start();
    this.spare = null;
    holdsParent(child.process, true);
    child.process.stdin?.end(JSON.stringify(r) + "\n");
    return child.verdict;
  }

  /** End the spare child (the device closes; a child whose parent ends sees its stdin close and ends too). */
  close(): void {
    const spare = this.spare;
    this.spare = null;
    if (!spare) return;
    spare.process.kill("SIGKILL");
    rmSync(spare.cwd, { recursive: true, force: true });   // (it built nothing: no dumps to keep)
  }

  private start(): Child {
    const cwd = mkdtempSync(join(tmpdir(), "gpuc-pocl-"));
    const env = { ...process.env };
    delete env.NODE_OPTIONS;   // (a loader the parent was started with has nothing to do in the child)
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, JSON.stringify(this.target)], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    // A child waiting for a request keeps neither the parent's event loop nor its exit waiting
    // (run() lets it hold them once it has one).
    holdsParent(child, false);
    const verdict = new Promise<ProbeVerdict>((resolve) => {
      let out = "", err = "", settled = false;
      const finish = (v: ProbeVerdict): void => {
        if (settled) return;
        settled = true;
        if (!this.keep || v.built !== false) rmSync(cwd, { recursive: true, force: true });
        if (this.spare?.process === child) this.spare = null;
        resolve(v);
      };
      child.stdout.setEncoding("utf8").on("data", (s: string) => {
        out += s;
        // Built: nothing more to learn (the child kills itself; this is in case it cannot).
        if (out.includes(BUILT)) child.kill("SIGKILL");
      });
      child.stderr.setEncoding("utf8").on("data", (s: string) => { err += s; });
      child.stdin.on("error", () => {});   // (a child that died early closed it)
      child.on("error", (e) => finish({ built: null, why: `the child process could not be started: ${e.message}` }));
      child.on("close", (code, signal) => {
        if (out.includes(BUILT)) return finish({ built: true });
        const said = out.split("\n").find((l) => l.startsWith(INCONCLUSIVE));
        if (said) return finish({ built: null, why: said.slice(INCONCLUSIVE.length) });
        const lines = err.split("\n").map((l) => l.trim()).filter(Boolean);
        // An assertion reads `node: ./lib/…/File.cc:399: … Assertion '…' failed.` (the program's name first).
        const reason = lines.find((l) => /Assertion .* failed/.test(l))?.replace(/^[^\s:]+: (?=\S+:\d+: )/, "") ?? (lines.slice(-3).join(" ") || "no output");
        finish({ built: false, reason, end: signal ? `was killed by ${signal}` : `exited with status ${code}`, dumps: this.keep ? cwd : null });
      });
    });
    return { process: child, cwd, verdict };
  }
}

/**
 * The block sizes for which PoCL built a program's work-group functions, in this process and in
 * earlier ones: `v2/pocl/<program>.built` in the user's gpuc cache directory (the disk cache's
 * store: `gpuc cache clear` removes them), one block size a line; this process's only where
 * GPUC_CACHE=0 or the directory is refused. A block size found here is not probed again. Sound:
 * the program's name is the hash of everything PoCL's kernel compiler reads (programKey), and
 * the same input builds the same way (see the top); a line planted there (the directory is the
 * user's own, 0700) can only cost a probe's protection, never change a result.
 */
export class BuiltSizes {
  private readonly known = new Map<string, Set<string>>();

  private constructor(private readonly dir: string | null) {}

  static open(): BuiltSizes {
    const root = process.env.GPUC_CACHE === "0" ? null : defaultCacheDir();
    return new BuiltSizes(root && !directoryProblem(root) ? join(storeDir(root), "pocl") : null);
  }

  /** The block sizes (`64x1x1`) recorded for a program (its programKey). */
  sizes(program: string): ReadonlySet<string> {
    let set = this.known.get(program);
    if (!set) {
      set = new Set();
      if (this.dir) {
        try { for (const line of readFileSync(join(this.dir, `${program}.built`), "utf8").split("\n")) if (/^\d+x\d+x\d+$/.test(line)) set.add(line); } catch { /* none yet */ }
      }
      this.known.set(program, set);
    }
    return set;
  }

  add(program: string, size: string): void {
    const set = this.sizes(program) as Set<string>;
    if (set.has(size)) return;
    set.add(size);
    if (!this.dir) return;
    // (Appends of one short line are atomic: processes recording at once each add theirs.)
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      appendFileSync(join(this.dir, `${program}.built`), `${size}\n`, { mode: 0o600 });
    } catch { /* read-only: probed again next time */ }
  }
}

/**
 * A program's name for BuiltSizes: the hash of what PoCL's kernel compiler reads — the driver
 * (platform, its version, which names PoCL's build and LLVM's, and the device), PoCL's settings
 * (the POCL_* environment), the build options, the kernel's entry and its code.
 */
export function programKey(driver: string, options: string, entry: string, code: string): string {
  const settings = Object.entries(process.env).filter(([k]) => k.startsWith("POCL_")).sort(([a], [b]) => (a < b ? -1 : 1));
  return sha256(JSON.stringify([driver, settings, options, entry, code]));
}

/** Whether a child (its process and pipes) keeps the parent's event loop alive. */
function holdsParent(child: ChildProcess, on: boolean): void {
  for (const h of [child, child.stdin, child.stdout, child.stderr] as unknown as ({ ref?: () => void; unref?: () => void } | null)[]) {
    if (on) h?.ref?.(); else h?.unref?.();
  }
}

/**
 * The child: opens the platform and device `process.argv[1]` names, then reads the request (one
 * line of stdin; at the end of stdin without one — its parent ended — it removes its folder and
 * ends), builds, enqueues with an event whose CL_RUNNING callback
 * writes BUILT and kills the process (koffi runs the callback on the main thread while PoCL's
 * scheduler thread waits for it, so no work-group starts). A step that fails before the enqueue
 * is inconclusive (the parent's own build of the same code succeeded, or it would not launch).
 * If the driver never calls the callback, the event's status is polled instead.
 */
const CHILD = String.raw`
import { rmSync, writeSync } from "node:fs";
const t = JSON.parse(process.argv[1]);
const say = (line) => writeSync(1, line + "\n");
const stop = (why) => { say("${INCONCLUSIVE}" + why); process.exit(0); };
const m = await import(t.koffi);
const koffi = m.default ?? m;
const lib = koffi.load(t.library);
const f = (p) => lib.func(p);
const clGetPlatformIDs = f("int clGetPlatformIDs(uint32_t n, _Out_ uint64_t *platforms, _Out_ uint32_t *count)");
const clGetDeviceIDs = f("int clGetDeviceIDs(uint64_t platform, uint64_t type, uint32_t n, _Out_ uint64_t *devices, _Out_ uint32_t *count)");
const clCreateContext = f("uint64_t clCreateContext(void *props, uint32_t n, uint64_t *devices, void *notify, void *user, _Out_ int *err)");
const clCreateCommandQueue = f("uint64_t clCreateCommandQueue(uint64_t context, uint64_t device, uint64_t props, _Out_ int *err)");
const clCreateBuffer = f("uint64_t clCreateBuffer(uint64_t context, uint64_t flags, size_t size, void *host, _Out_ int *err)");
const clCreateProgramWithSource = f("uint64_t clCreateProgramWithSource(uint64_t context, uint32_t count, const char **strings, const size_t *lengths, _Out_ int *err)");
const clCreateProgramWithBinary = f("uint64_t clCreateProgramWithBinary(uint64_t context, uint32_t n, uint64_t *devices, const size_t *lengths, const uint8_t **binaries, _Out_ int *status, _Out_ int *err)");
const clBuildProgram = f("int clBuildProgram(uint64_t program, uint32_t n, uint64_t *devices, const char *options, void *notify, void *user)");
const clCreateKernel = f("uint64_t clCreateKernel(uint64_t program, const char *name, _Out_ int *err)");
const clSetKernelArg = f("int clSetKernelArg(uint64_t kernel, uint32_t index, size_t size, const void *value)");
const clEnqueueNDRangeKernel = f("int clEnqueueNDRangeKernel(uint64_t queue, uint64_t kernel, uint32_t dims, const size_t *offset, const size_t *global, const size_t *local, uint32_t n, void *wait, _Out_ uint64_t *event)");
const clFlush = f("int clFlush(uint64_t queue)");
const clGetEventInfo = f("int clGetEventInfo(uint64_t event, uint32_t param, size_t size, _Out_ int32_t *value, _Out_ size_t *ret)");
const Notify = koffi.proto("void GpucProbeNotify(uint64_t event, int status, void *user)");
const clSetEventCallback = f("int clSetEventCallback(uint64_t event, int type, GpucProbeNotify *notify, void *user)");
const count = [0], err = [0];
if (clGetPlatformIDs(0, null, count) !== 0 || count[0] <= t.platform) stop("no such platform");
const platforms = new BigUint64Array(count[0]);
clGetPlatformIDs(platforms.length, platforms, count);
if (clGetDeviceIDs(platforms[t.platform], 0xffffffffn, 0, null, count) !== 0 || count[0] <= t.device) stop("no such device");
const devices = new BigUint64Array(count[0]);
clGetDeviceIDs(platforms[t.platform], 0xffffffffn, devices.length, devices, count);
const device = new BigUint64Array([devices[t.device]]);
const context = clCreateContext(null, 1, device, null, null, err);
if (err[0] !== 0) stop("clCreateContext: " + err[0]);
const queue = clCreateCommandQueue(context, device[0], 0n, err);
if (err[0] !== 0) stop("clCreateCommandQueue: " + err[0]);
let input = "";
process.stdin.setEncoding("utf8");
for await (const c of process.stdin) { input += c; if (input.includes("\n")) break; }
if (!input.includes("\n")) { rmSync(process.cwd(), { recursive: true, force: true }); process.exit(0); }
const r = JSON.parse(input.slice(0, input.indexOf("\n")));
const binary = r.binary ? Buffer.from(r.binary, "base64") : null;
const program = binary ? clCreateProgramWithBinary(context, 1, device, new BigUint64Array([BigInt(binary.length)]), [binary], [0], err) : clCreateProgramWithSource(context, 1, [r.code], null, err);
if (err[0] !== 0) stop((binary ? "clCreateProgramWithBinary: " : "clCreateProgramWithSource: ") + err[0]);
let rc = clBuildProgram(program, 1, device, r.options, null, null);
if (rc !== 0) stop("clBuildProgram: " + rc);
const kernel = clCreateKernel(program, r.entry, err);
if (err[0] !== 0) stop("clCreateKernel: " + err[0]);
const placeholder = clCreateBuffer(context, 1n, 16, null, err);
if (err[0] !== 0) stop("clCreateBuffer: " + err[0]);
r.args.forEach((a, i) => {
  const rc = a.kind === "buffer" ? clSetKernelArg(kernel, i, 8, new BigUint64Array([BigInt(placeholder)]))
    : a.kind === "local" ? clSetKernelArg(kernel, i, a.size, null) : clSetKernelArg(kernel, i, a.size, new Uint8Array(a.size));
  if (rc !== 0) stop("clSetKernelArg(" + i + "): " + rc);
});
let reported = false;
const built = () => { if (reported) return; reported = true; say("${BUILT}"); process.kill(process.pid, "SIGKILL"); };
const notify = koffi.register(() => built(), koffi.pointer(Notify));
const event = [0n];
rc = clEnqueueNDRangeKernel(queue, kernel, 3, null, new BigUint64Array(r.global.map(BigInt)), new BigUint64Array(r.local.map(BigInt)), 0, null, event);
if (rc !== 0) stop("clEnqueueNDRangeKernel: " + rc);
if (clSetEventCallback(event[0], 1, notify, null) !== 0) { /* polled below */ }
clFlush(queue);
const status = [0];
setInterval(() => {
  if (clGetEventInfo(event[0], 0x11d3, 4, status, null) !== 0) return;
  if (status[0] < 0) stop("the command failed: " + status[0]);
  if (status[0] <= 1) built();
}, 5);
`;
