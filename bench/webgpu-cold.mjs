// Child processes for bench/webgpu.ts (section f). Each prints one JSON line of timings (ms).
//
// `node bench/webgpu-cold.mjs`: time to the first kernel result in a fresh process. Imports gpuc
// from dist, opens the WebGPU device, compiles and launches saxpy on 1M floats (host arrays:
// copied in and back), launches it once more (the pipeline now cached) and checks the result.
//
// `node bench/webgpu-cold.mjs pipelines <n>`: n times, for saxpy and the tiled matmul, each as
// gpuc generates it, with `boundsCheck: false`, and hand-written (bench/wgsl.mjs, through the raw
// WebGPU API): a new kernel (its own name or a comment makes its WGSL new to Dawn), compiled to
// WGSL first for gpuc's, then the first launch (shader module, pipeline, dispatch) and a second
// one (dispatch only). Run in a child so that Mesa's shader cache can be switched off for it
// (MESA_SHADER_CACHE_DISABLE=true).

const t0 = performance.now(); // ms since the process started: Node's own start-up
const gpuc = await import("gpuc");
const t1 = performance.now();
const dev = await gpuc.device("webgpu");
const t2 = performance.now();

if (process.argv[2] === "pipelines") {
  const { KERNELS } = await import("./kernels.mjs");
  const { SAXPY_WGSL, MATMUL_WGSL } = await import("./wgsl.mjs");
  const gpu = dev.gpu;
  const n = Number(process.argv[3] ?? 3);
  const storage = (data) => {
    const buf = gpu.createBuffer({ size: data.byteLength, usage: 0x80 | 0x08 | 0x04 });
    gpu.queue.writeBuffer(buf, 0, data);
    return buf;
  };
  const uniform = (words) => {
    const buf = gpu.createBuffer({ size: 16, usage: 0x40 | 0x08 });
    gpu.queue.writeBuffer(buf, 0, words);
    return buf;
  };
  const x = dev.array(new Float32Array(1 << 16).fill(1)), y = dev.array(new Float32Array(1 << 16));
  const a = dev.array(new Float32Array(64 * 64).fill(1)), b = dev.array(new Float32Array(64 * 64).fill(1)), c = dev.array(new Float32Array(64 * 64));
  const handBuffers = {
    saxpy: [uniform(new Float32Array([2, 0, 0, 0])), x.buffer, storage(new Float32Array(1 << 16))],
    matmulTiled: [uniform(new Uint32Array([64, 0, 0, 0])), storage(new Float32Array(64 * 64)), a.buffer, b.buffer],
  };
  gpu.queue.writeBuffer(handBuffers.saxpy[0], 4, new Uint32Array([1 << 16])); // saxpy's n, a u32 after a
  const kinds = { saxpy: ["uniform", "read-only-storage", "storage"], matmulTiled: ["uniform", "storage", "read-only-storage", "read-only-storage"] };
  /** The hand-written kernel through the raw WebGPU API: module, pipeline, then dispatches. */
  function hand(key, i) {
    const code = `// ${i}\n` + (key === "saxpy" ? SAXPY_WGSL : MATMUL_WGSL);
    let pipeline, bindGroup;
    return async () => {
      if (!pipeline) {
        const bgl = gpu.createBindGroupLayout({ entries: kinds[key].map((type, binding) => ({ binding, visibility: 4, buffer: { type } })) });
        pipeline = gpu.createComputePipeline({ layout: gpu.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute: { module: gpu.createShaderModule({ code }), entryPoint: "main" } });
        bindGroup = gpu.createBindGroup({ layout: bgl, entries: handBuffers[key].map((buffer, binding) => ({ binding, resource: { buffer } })) });
      }
      const enc = gpu.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      if (key === "saxpy") pass.dispatchWorkgroups((1 << 16) / 256); else pass.dispatchWorkgroups(4, 4);
      pass.end();
      gpu.queue.submit([enc.finish()]);
      await gpu.queue.onSubmittedWorkDone();
    };
  }
  const result = {};
  for (let i = 0; i < n; i++) {
    for (const key of ["saxpy", "matmulTiled"]) {
      for (const variant of ["gpuc", "unchecked", "hand"]) {
        const r = (result[`${key}/${variant}`] ??= { compile: [], first: [], later: [] });
        let go;
        const s0 = performance.now();
        if (variant === "hand") go = hand(key, i);
        else {
          const k = gpuc.kernel(KERNELS[key].fn, { name: `${key}_${i}`, boundsCheck: variant === "gpuc" });
          await k.compile({ target: "wgsl", types: KERNELS[key].types });
          go = () => key === "saxpy"
            ? k.launch(dev, { blocks: (1 << 16) / 256, threads: 256 }, 2, x, y)
            : k.launch(dev, { blocks: [4, 4], threads: [16, 16] }, c, a, b, 64);
        }
        const s1 = performance.now();
        await go();
        const s2 = performance.now();
        await go();
        const s3 = performance.now();
        r.compile.push(s1 - s0);
        r.first.push(s2 - s1);
        r.later.push(s3 - s2);
      }
    }
  }
  if ((await c.read())[0] !== 64) throw new Error("wrong matmul result");
  dev.close();
  process.stdout.write(JSON.stringify(result) + "\n");
} else {
  const N = 1 << 20;
  const saxpy = gpuc.kernel(function saxpy(a, x, y) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < y.length) y[i] = a * x[i] + y[i];
  });
  const x = new Float32Array(N), y = new Float32Array(N);
  for (let i = 0; i < N; i++) { x[i] = i % 1000; y[i] = 1; }
  const t3 = performance.now();
  await saxpy.compile({ target: "wgsl", types: ["f32", "f32[]", "f32[]"] });
  const t4 = performance.now();
  await saxpy.launch(dev, { blocks: N / 256, threads: 256 }, 2, x, y);
  const t5 = performance.now();
  await saxpy.launch(dev, { blocks: N / 256, threads: 256 }, 2, x, y); // cached pipeline
  const t6 = performance.now();
  for (let i = 0; i < N; i++) if (y[i] !== 4 * (i % 1000) + 1) throw new Error(`wrong result at ${i}: ${y[i]}`);
  dev.close();
  const t7 = performance.now();
  process.stdout.write(JSON.stringify({
    startupMs: t0, importMs: t1 - t0, deviceMs: t2 - t1, compileMs: t4 - t3, firstLaunchMs: t5 - t4, secondLaunchMs: t6 - t5,
    deviceToResultMs: t5 - t1 - (t3 - t2), importToResultMs: t5 - t0 - (t3 - t2), closeMs: t7 - t6,
  }) + "\n");
}
