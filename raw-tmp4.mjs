import { create, globals } from "webgpu";
Object.assign(globalThis, globals);
const gpu = create([]);
const adapter = await gpu.requestAdapter();
const dev = await adapter.requestDevice();
const body = process.argv[2];
const code = `
struct P { n: i32, z: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read_write> out: array<i32>;
fn ox(c: bool) -> bool { return (select(0u, 1u, c) ^ p.z) != 0u; }
@compute @workgroup_size(1) fn main() { let n = p.n; ${body} }`;
const mod = dev.createShaderModule({ code });
for (const m of (await mod.getCompilationInfo()).messages) console.log(m.type, m.message);
const pipe = dev.createComputePipeline({ layout: "auto", compute: { module: mod, entryPoint: "main" } });
const u = dev.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
dev.queue.writeBuffer(u, 0, new Int32Array([10, 0, 0, 0]));
const s = dev.createBuffer({ size: 40, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
const r = dev.createBuffer({ size: 40, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
const bg = dev.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: u } }, { binding: 1, resource: { buffer: s } }] });
const enc = dev.createCommandEncoder(); const pa = enc.beginComputePass(); pa.setPipeline(pipe); pa.setBindGroup(0, bg); pa.dispatchWorkgroups(1); pa.end();
enc.copyBufferToBuffer(s, 0, r, 0, 40); dev.queue.submit([enc.finish()]);
await r.mapAsync(GPUMapMode.READ); const res = [...new Int32Array(r.getMappedRange().slice(0))]; r.unmap();
console.log(JSON.stringify(res.slice(0, 3)));
process.exit(0);
