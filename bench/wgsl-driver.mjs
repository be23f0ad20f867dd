// What each part of gpuc's WGSL costs the driver (BENCHMARKS.md §m; issue #35, item 4): Dawn's
// shader module and pipeline, then the first dispatch — where lavapipe compiles the shader — for
// the peers harness's three kernels (saxpy, the naive matmul, per-block sums), each as gpuc emits
// it for the harness's WebGPU launch: its block size (256, 16×16, 256: the launch's block size is
// the kernel's requiredThreads) and, where the launch's arguments and grid prove the checks
// outside the kernel's loops, the variant without them (ARCHITECTURE.md, "Checks a launch
// proves"); then as compiled (what a launch that proves nothing runs), without its exception
// record (main's store of the record left out: what the record costs), without the checked copy
// or scan of each versioned loop (what loop versioning costs), with `boundsCheck: false`, and
// hand-written (bench/wgsl.mjs). The cut
// variants are measurements only: they are dispatched once on small buffers, never checked for
// results.
//
// `npm run build && node bench/wgsl-driver.mjs [rounds]` (Mesa's shader cache is switched off
// for this process; every shader gets a comment of its own, so Dawn's cache misses too).
process.env.MESA_SHADER_CACHE_DISABLE = "true";
const { create, globals } = await import("webgpu");
Object.assign(globalThis, globals);
const gpu = create([]);
const adapter = await gpu.requestAdapter();
if (!adapter) { console.error("no WebGPU adapter (Dawn found no Vulkan driver)"); process.exit(1); }
const device = await adapter.requestDevice();
const gpucPath = new URL("../dist/index.js", import.meta.url).href;
const { kernel } = await import(gpucPath);
const { KERNELS } = await import("./kernels.mjs");
const { SAXPY_WGSL, MATMUL_NAIVE_WGSL, BLOCK_SUMS_WGSL } = await import("./wgsl.mjs");

const rounds = Number(process.argv[2] ?? 9);
const { provesLaunch } = await import(new URL("../dist/ir/launch-proof.js", import.meta.url).href);
// Each with the peers harness's launch (its arguments' values and lengths, and its grid): where
// that launch proves the kernel's checks outside its loops, it runs the kernel's variant without
// them (ARCHITECTURE.md, "Checks a launch proves"), which is then what gpuc emits for it.
const N = 1 << 20, M = 256;
const CASES = [
  { name: "saxpy", fn: KERNELS.saxpy.fn, types: ["f32", "f32[]", "f32[]"], threads: [256, 1, 1], hand: SAXPY_WGSL, args: [2, { length: N }, { length: N }], blocks: [N / 256, 1, 1] },
  { name: "matmul (naive)", fn: KERNELS.matmul.fn, types: ["f32[]", "f32[]", "f32[]", "i32"], threads: [16, 16, 1], hand: MATMUL_NAIVE_WGSL, args: [{ length: M * M }, { length: M * M }, { length: M * M }, M], blocks: [M / 16, M / 16, 1] },
  { name: "per-block sums", fn: KERNELS.blockSums.fn, types: ["f32[]", "f32[]"], threads: [256, 1, 1], hand: BLOCK_SUMS_WGSL, args: [{ length: N / 256 }, { length: N }], blocks: [N / 256, 1, 1] },
];

/** The WGSL with the exception record's store left out of main (its claim and texel stores; the checks stay). */
function withoutRecord(code) {
  const out = code.replace(/\n  if \(gpuc_exc\.x != 0i && atomicAdd[^\n]*\n(    textureStore[^\n]*\n)+  \}/, "");
  return out === code ? null : out;
}

/**
 * The WGSL with each versioned loop's checked copy removed: an `if (…) {` whose body is a `loop`
 * and whose `else` is another `loop` (ir/passes/hoist-checks.ts's shape) keeps its first arm only;
 * a scan — `if ((!…)) {`, the copies of its locals, a `loop`, then `}` and the fast `loop` — goes.
 */
function withoutCheckedCopies(code) {
  const lines = code.split("\n");
  const out = [];
  const indent = (l) => l.length - l.trimStart().length;
  /** The line that closes the block opened at line `j` (a `}` at its indent). */
  const closing = (j) => {
    let k = j + 1;
    while (k < lines.length && !(indent(lines[k]) === indent(lines[j]) && lines[k].trim() === "}")) k++;
    return k;
  };
  const isLoop = (l, at) => /^\s*loop \{$/.test(l ?? "") && indent(l) === at;
  let cut = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^\s*if \(\(!.*\) \{$/.test(l)) {
      let j = i + 1;
      while (/^\s*v_\w+ = [^;]*;$/.test(lines[j] ?? "")) j++;
      const k = closing(i);
      if (isLoop(lines[j], indent(l) + 2) && closing(j) === k - 1 && isLoop(lines[k + 1], indent(l))) {
        i = k;
        cut = true;
        continue;
      }
    }
    if (/^\s*\} else \{$/.test(l) && /^\s*loop \{$/.test(lines[i + 1] ?? "")) {
      // Find where this if began: the line at the same indent that opens it, whose next line is a loop.
      let j = out.length - 1;
      while (j >= 0 && !(indent(out[j]) === indent(l) && /^\s*if \(.*\) \{$/.test(out[j]))) j--;
      if (j >= 0 && /^\s*loop \{$/.test(out[j + 1] ?? "")) {
        const k = closing(i);
        out.push(lines[k] ?? "}");
        i = k;
        cut = true;
        continue;
      }
    }
    out.push(l);
  }
  return cut ? out.join("\n") : null;
}

let serial = 0;
/** Module and pipeline (ms), then with the first dispatch of one workgroup waited for. */
async function firstDispatch(code, threads) {
  code = `// ${serial++} ${Math.random()}\n${code}`;
  const decls = [...code.matchAll(/@binding\((\d+)\) var<(uniform|storage, read_write|storage, read)>/g)].map((m) => ({ binding: +m[1], kind: m[2] }));
  // The exception record's texture (targets/wgsl/emit.ts, RECORD), as the WebGPU device binds it.
  const record = /@binding\((\d+)\) var gpuc_record: texture_storage_1d<rgba32sint, write>/.exec(code);
  const t0 = performance.now();
  const module = device.createShaderModule({ code });
  const bgl = device.createBindGroupLayout({ entries: [
    ...decls.map((d) => ({ binding: d.binding, visibility: 4, buffer: { type: d.kind === "uniform" ? "uniform" : d.kind === "storage, read" ? "read-only-storage" : "storage" } })),
    ...(record ? [{ binding: +record[1], visibility: 4, storageTexture: { access: "write-only", format: "rgba32sint", viewDimension: "1d" } }] : []),
  ] });
  const overrides = code.includes("override wgx") ? { constants: { wgx: threads[0], wgy: threads[1], wgz: threads[2] } } : {};
  const pipeline = device.createComputePipeline({ layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute: { module, entryPoint: "main", ...overrides } });
  const t1 = performance.now();
  const entries = [
    ...decls.map((d) => ({ binding: d.binding, resource: { buffer: device.createBuffer({ size: d.kind === "uniform" ? 64 : 4096, usage: d.kind === "uniform" ? 0x40 : 0x80 }) } })),
    ...(record ? [{ binding: +record[1], resource: device.createTexture({ size: [2], dimension: "1d", format: "rgba32sint", usage: 0x08 }).createView() }] : []),
  ];
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: bgl, entries }));
  pass.dispatchWorkgroups(1);
  pass.end();
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  return [t1 - t0, performance.now() - t0];
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const num = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
console.log(`| kernel | WGSL | characters | module + pipeline, ms | with the first dispatch, ms | ÷ hand-written |\n|---|---|---:|---:|---:|---:|`);
for (const c of CASES) {
  // As a WebGPU launch of this block size compiles it (wgsl/info.ts specializeThreads: the
  // launch's block size is the kernel's requiredThreads).
  const features = { requiredThreads: c.threads };
  const compiled = await kernel(c.fn).compile({ target: "wgsl", types: c.types, features });
  const proven = compiled.launchProof && provesLaunch(compiled.launchProof, { args: c.args, threads: c.threads, blocks: c.blocks });
  const launched = proven ? (await kernel(c.fn).compile({ target: "wgsl", types: c.types, features: { ...features, provenChecks: true } })).code : compiled.code;
  const emitted = compiled.code;
  const unchecked = (await kernel(c.fn, { boundsCheck: false }).compile({ target: "wgsl", types: c.types, features })).code;
  const variants = [
    ["as the harness's launch runs it" + (proven ? " (its checks proven: the variant)" : ""), launched],
    ["as compiled (a launch that proves nothing)", proven ? emitted : null],
    ["without the exception record", withoutRecord(emitted)],
    ["without versioned loops' checked copies (scans)", withoutCheckedCopies(emitted)],
    ["`boundsCheck: false`", unchecked],
    ["hand-written", c.hand],
  ].filter(([, code]) => code !== null);
  await firstDispatch(c.hand, c.threads);   // (Dawn's and lavapipe's own first use)
  const times = variants.map(() => []);
  for (let r = 0; r < rounds; r++) for (const [i, [, code]] of variants.entries()) times[i].push(await firstDispatch(code, c.threads));
  const hand = median(times.at(-1).map((t) => t[1]));
  variants.forEach(([what, code], i) => {
    const first = median(times[i].map((t) => t[1]));
    console.log(`| ${c.name} | ${what} | ${code.length} | ${num(median(times[i].map((t) => t[0])))} | ${num(first)} | ${(first / hand).toFixed(2)}× |`);
  });
}
device.destroy();
process.exit(0);
