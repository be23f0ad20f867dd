#!/usr/bin/env node
// Fuzzing what gpuc reads back (everything read back is untrusted input: ARCHITECTURE.md,
// "Caches"): kernel images and disk-cache files, mutated at random — bytes flipped, inserted,
// dropped, the file cut; and, inside a valid container (checksums fixed, the file re-tagged with
// the user's key), the records edited field by field: a field removed, given a value of another
// type or size, swapped with another entry's. Each mutant goes through the paths a process takes —
// loadImage's file checks and each entry's validation on first use, the disk cache's check of a
// file — and through `gpuc image inspect`'s (all entries at once). Nothing may throw but an
// invalid-image KernelError for a file that is not a usable image; every verdict is an entry or a
// reason. An accepted JavaScript entry must also load on the CPU device (its code parses and names
// only what it is given); of an accepted WGSL entry, the WebGPU device (on a stand-in GPU that keeps
// what it is given) makes the variants of its shader for one buffer passed to all its array
// parameters, at offsets: each is made or refused as an internal error, never a crash. Not part of
// `npm test` in full (test/trust.test.ts runs a short seed).
//
//   node scripts/fuzz-stores.mjs [--count N] [--seed S] [--verbose]
//
// Exit status 1 when a path throws what it must not; each such mutant is printed.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHmac } from "node:crypto";
import { KernelError, device } from "gpuc";
import { openImage, checkImageEntry, parseImage } from "../dist/cache/image-file.js";
import { DiskCache } from "../dist/cache/disk.js";
import { reviveArtifact } from "../dist/cache/entry.js";
import { sha256 } from "../dist/sha256.js";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i < 0 ? dflt : args[i + 1]; };
const count = Number(opt("count", 2000));
const verbose = args.includes("--verbose");
let state = (Number(opt("seed", 1)) * 2654435761) >>> 0;
/** mulberry32 */
function rnd() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const ri = (n) => Math.floor(rnd() * n);
const pick = (a) => a[ri(a.length)];

// ---- material: an image of the cache fixture's package (js, wgsl, ptx entries) ----------------
const root = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gpuc-fuzz-stores-"));
const imagePath = join(dir, "good.gpucimg");
const made = spawnSync(process.execPath, [join(root, "dist/cli/main.js"), "precompile", join(root, "test/fixtures/cache/workload.mjs"), "-o", imagePath], { encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
if (made.status !== 0) throw new Error(`gpuc precompile failed: ${made.stderr}`);
const good = readFileSync(imagePath);
const body = JSON.parse(good.toString("utf8").split("\n")[1]);
const key = Buffer.alloc(32, 7);
const auth = {
  tag: (b) => createHmac("sha256", key).update(b).digest("hex"),
  verify: (b, t) => createHmac("sha256", key).update(b).digest("hex") === t,
};
const disk = new DiskCache(join(dir, "cache"), auth);
const cpu = await device("cpu");
/** A GPU that records what the WebGPU device asks of it (the variants' code) and runs nothing. */
const standIn = {
  requestAdapter: async () => ({
    limits: {}, features: new Set(), info: { description: "stand-in" },
    requestDevice: async () => ({
      limits: { maxStorageBuffersPerShaderStage: 64 }, features: new Set(), queue: { writeBuffer() {} },
      createBuffer: () => ({ destroy() {} }), createShaderModule: ({ code }) => ({ code }),
      createBindGroupLayout: () => ({}), createPipelineLayout: () => ({}), destroy() {},
      pushErrorScope() {}, popErrorScope: async () => null,
    }),
  }),
};
const webgpu = await device("webgpu", { gpu: standIn });

// ---- mutations -----------------------------------------------------------------------------------
const values = () => pick([null, true, 0, -1, 1.5, 2 ** 31, -(2 ** 53), "", "x", "gpuc_missing", "f32[]", "a".repeat(5000), [], [1, "2", null], {}, { k: 1 }, [[[]]]]);

/** Every path to a value inside `v` (objects and arrays). */
function paths(v, at = [], out = []) {
  if (v && typeof v === "object") for (const k of Object.keys(v)) { out.push([...at, k]); if (out.length < 4000) paths(v[k], [...at, k], out); }
  return out;
}
const get = (v, p) => p.reduce((o, k) => (o == null ? undefined : o[k]), v);

/**
 * Edit one field of a record (a deep copy): remove it, retype it, take another record's value
 * there, or move a number by one or two (what stays valid to a schema: an offset, a length).
 * `under`: edit a field below that path only, where the record has one (a WGSL layout's sites).
 */
function editRecord(rec, other, under = []) {
  const r = structuredClone(rec);
  const all = paths(r), below = all.filter((p) => under.every((k, i) => p[i] === k) && p.length > under.length);
  const ps = below.length ? below : all;
  if (!ps.length) return r;
  const p = pick(ps), parent = get(r, p.slice(0, -1)), k = p[p.length - 1];
  const what = rnd();
  if (what < 0.25) { if (Array.isArray(parent)) parent.splice(Number(k), 1); else delete parent[k]; }
  else if (what < 0.45 && typeof parent[k] === "number") parent[k] += pick([-2, -1, 1, 2]);
  else if (what < 0.6) parent[k] = values();
  else if (what < 0.8) { const o = get(other, p); parent[k] = o === undefined ? values() : structuredClone(o); }
  else if (typeof parent[k] === "string" && parent[k].length) { const s = parent[k], i = ri(s.length); parent[k] = s.slice(0, i) + pick(["(", ")", "{", "}", ";", "gpuc_x(", "\n", "\u0000", "`", "'", "process."]) + s.slice(i + ri(3)); }
  else if (Array.isArray(parent[k])) parent[k] = [...parent[k], ...structuredClone(parent[k])];
  else parent[k] = values();
  return r;
}

/** Bytes: flip, insert, drop, cut. */
function editBytes(b) {
  const out = Buffer.from(b);
  const what = rnd();
  if (what < 0.4) { for (let i = 0, n = 1 + ri(4); i < n; i++) out[ri(out.length)] ^= 1 << ri(8); return out; }
  const at = ri(out.length);
  if (what < 0.6) return Buffer.concat([out.subarray(0, at), Buffer.from(Array.from({ length: 1 + ri(8) }, () => ri(256))), out.subarray(at)]);
  if (what < 0.8) return Buffer.concat([out.subarray(0, at), out.subarray(Math.min(out.length, at + 1 + ri(64)))]);
  return out.subarray(0, at);
}

const imageOf = (doc) => { const text = JSON.stringify(doc); return Buffer.from(`gpuc-image 2 ${sha256(text)}\n${text}`); };

// ---- the paths a process takes -----------------------------------------------------------------
let bad = 0, accepted = 0, rejected = 0, invalid = 0, loaded = 0, variants = 0, refusedVariants = 0;
function report(what, e, sample) {
  bad++;
  console.log(`THROWS (${what}): ${e?.constructor?.name}: ${String(e?.message).split("\n")[0]}`);
  if (verbose) console.log(`  ${String(sample).slice(0, 400)}`);
}

async function throughImage(bytes, label) {
  let image;
  try { image = await openImage(new Uint8Array(bytes), label); }
  catch (e) { if (e instanceof KernelError && e.kind === "invalid-image") { invalid++; return; } report(`loadImage ${label}`, e, bytes.subarray(0, 300)); return; }
  for (const raw of image.entries) {
    let verdict;
    try { verdict = await checkImageEntry(raw); } catch (e) { report(`image entry ${label}`, e, JSON.stringify(raw.entry)); continue; }
    if (!verdict || (verdict.ok !== true && typeof verdict.reason !== "string")) { report(`image entry verdict ${label}`, new Error("neither an entry nor a reason"), JSON.stringify(verdict)); continue; }
    if (!verdict.ok) { rejected++; continue; }
    accepted++;
    if (verdict.value.owner.target === "js") {
      try { cpu.load(reviveArtifact(verdict.value.artifact), new Map()); loaded++; }
      catch (e) { if (!(e instanceof KernelError)) report(`CPU load of an accepted entry ${label}`, e, verdict.value.artifact.code); }
    }
    if (verdict.value.owner.target === "wgsl") throughVariants(verdict.value.artifact, label);
  }
  try { await parseImage(new Uint8Array(bytes), label); } catch (e) { if (!(e instanceof KernelError && e.kind === "invalid-image")) report(`inspect ${label}`, e, ""); }
}

/** The variants the WebGPU device makes of a WGSL artifact's shader for one buffer passed to all its array parameters (merged; at offsets). */
function throughVariants(a, label) {
  const params = a.layout.bindings.filter((b) => b.role === "param");
  const kept = params.find((b) => !b.readOnly);
  if (!kept) return;
  const merge = new Map(params.filter((b) => b !== kept).map((b) => [b.binding, kept.binding]));
  for (const [m, shift] of [[merge, new Map()], [new Map(), new Map(params.map((b) => [b.binding, 3]))], [merge, new Map(params.map((b, i) => [b.binding, i + 1]))]]) {
    try { webgpu.variant(a, a.layout, m, shift); variants++; }
    catch (e) { if (e?.name === "InternalCompilerError") refusedVariants++; else report(`WebGPU variant of an accepted entry ${label}`, e, JSON.stringify(a.layout.sites)); }
  }
}

async function throughDisk(record, label) {
  const text = JSON.stringify(record);
  const file = `gpuc-cache 2 ${auth.tag(text)}\n${text}`;
  for (const authenticated of [false, true]) {
    try {
      const v = await disk.check(file, "entry", { key: record?.key, authenticated });
      if (v.ok) accepted++; else rejected++;
    } catch (e) { report(`disk check ${label} (authenticated: ${authenticated})`, e, text); }
  }
}

const entries = body.entries.map((x) => x.entry);
for (let it = 0; it < count; it++) {
  const r = rnd();
  if (r < 0.3) {
    await throughImage(editBytes(good), `bytes #${it}`);
  } else if (r < 0.75) {
    const doc = structuredClone(body);
    const i = ri(doc.entries.length);
    // (A third of the WGSL entries' mutants edit the layout's sites, where the device's own check
    // of them — not the schema — has the last word.)
    const sites = doc.entries[i].entry.owner?.target === "wgsl" && rnd() < 1 / 3 ? ["artifact", "layout", "sites"] : [];
    doc.entries[i].entry = editRecord(doc.entries[i].entry, pick(entries), sites);
    // Most mutants keep a right checksum (a valid container holding a bad record); some do not.
    if (rnd() < 0.85) doc.entries[i].checksum = sha256(JSON.stringify(doc.entries[i].entry));
    await throughImage(imageOf(doc), `record #${it}`);
  } else if (r < 0.85) {
    await throughImage(imageOf(editRecord(body, body)), `envelope #${it}`);
  } else {
    await throughDisk(editRecord(pick(entries), pick(entries)), `record #${it}`);
  }
}
cpu.close();
webgpu.close();
rmSync(dir, { recursive: true, force: true });
console.log(`${count} mutants of kernel images and disk-cache files: ${bad} threw, ${invalid} files refused as not an image, ${accepted} entries accepted (${loaded} JS entries loaded on the CPU device), ${rejected} rejected with a reason; of accepted WGSL entries, ${variants} WebGPU variants made, ${refusedVariants} refused (seed ${opt("seed", 1)})`);
process.exit(bad ? 1 : 0);
