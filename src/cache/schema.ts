// The schemas of what gpuc reads back (valibot): cache entries, kernel signatures, image bodies.
// Loaded by the validator only when it checks a record's shape (validate.ts says when), so that
// a warm start that reads its own tagged entries never loads it. The build inlines valibot here,
// tree-shaken (scripts/bundle-node.mjs).

import * as v from "valibot";
import type { CacheEntry, Signature } from "./entry.js";
import type { ResolvedLocation } from "../runtime/tables.js";
import { SIZE_CMPS, SIZE_OPS, type SizeExpr } from "../ir/size.js";
import { launchProofProblem } from "../ir/launch-proof.js";
import type { ReadBack, SchemaKit } from "../targets/target.js";

export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

const Scalar = v.picklist(["bool", "i32", "u32", "f32", "f64"]);
const Elem = v.picklist(["bool", "i32", "u32", "f32", "f64", "i8", "u8", "u8c", "i16", "u16"]);
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Dims = v.nullable(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.length(3)));

const OwnerSchema = v.strictObject({
  gpuc: v.string(), target: v.string(), arch: v.nullable(v.string()), fastMath: v.boolean(),
  maxThreads: Dims, requiredThreads: Dims, relocation: v.picklist(["bake", "patch", "table"]),
  boundsCheck: v.boolean(), debugLevel: v.picklist([0, 1, 2]), alwaysInline: v.boolean(), sanitize: v.boolean(), provenChecks: v.boolean(),
});

const SignatureSchema = v.strictObject({ paramNames: v.array(v.string()), declared: v.array(v.nullable(v.string())) });

const LocationSchema: v.GenericSchema<ResolvedLocation> = v.strictObject({
  file: v.string(), line: Count, column: Count, function: v.string(),
  inlinedAt: v.nullable(v.lazy(() => LocationSchema)),
});

const SiteSchema = v.strictObject({ name: v.string(), kind: v.literal("table"), elem: Scalar, length: Count, symbol: v.string() });
/** A folded table: its indices and the values the code holds there (numbers as text: "-0", "NaN", "Infinity" too), one each. */
const FoldedSchema = v.pipe(
  v.strictObject({ name: v.string(), indices: v.pipe(v.array(Count), v.minLength(1)), values: v.array(v.pipe(v.string(), v.regex(/^(-?(\d+(\.\d+)?(e[+-]\d+)?|Infinity)|NaN|-0)$/))) }),
  v.check((t) => t.values.length === t.indices.length, "a folded table has one value per index"),
);
const ManifestSchema = v.strictObject({ strategy: v.picklist(["bake", "patch", "table"]), sites: v.array(SiteSchema), folded: v.optional(v.pipe(v.array(FoldedSchema), v.minLength(1))), codeHash: v.string() });

const SizeSchema: v.GenericSchema<SizeExpr> = v.variant("k", [
  v.strictObject({ k: v.literal("param"), index: Count }),
  v.strictObject({ k: v.literal("blockDim"), axis: v.picklist([0, 1, 2]) }),
  v.strictObject({ k: v.literal("const"), value: v.pipe(v.number(), v.integer()) }),
  v.strictObject({ k: v.literal("op"), op: v.picklist(SIZE_OPS), args: v.tuple([v.lazy(() => SizeSchema), v.lazy(() => SizeSchema)]) }),
  v.strictObject({ k: v.literal("select"), cmp: v.picklist(SIZE_CMPS), args: v.tuple([v.lazy(() => SizeSchema), v.lazy(() => SizeSchema)]), a: v.lazy(() => SizeSchema), b: v.lazy(() => SizeSchema) }),
]);

const ArtifactSchema = v.strictObject({
  target: v.string(), kernel: v.string(), entry: v.string(), code: v.string(), binary: v.optional(v.literal(true)),
  params: v.array(v.strictObject({ name: v.string(), type: v.string(), readOnly: v.optional(v.literal(true)), fills: v.optional(v.literal(true)) })),
  bindings: v.array(v.string()),
  manifest: ManifestSchema,
  layout: v.optional(v.unknown()),   // the target's own schema checks it (parseEntry)
  dynamicShared: v.optional(v.array(v.strictObject({ name: v.string(), elem: Elem, size: SizeSchema }))),
  launchProof: v.optional(v.unknown()),   // checked by launchProofProblem (parseEntry)
  runtime: v.strictObject({
    debugLevel: v.picklist([0, 1, 2]),
    messages: v.array(v.strictObject({ text: v.string(), kind: v.picklist(["bounds", "exception"]) })),
    locations: v.array(v.nullable(LocationSchema)),
    // (A print format's pieces: text after a quote, or a value's type; ir/module.ts PrintPart.)
    formats: v.array(v.strictObject({ parts: v.array(v.union([v.picklist(["i32", "u32", "bool", "f32", "f64", "f32s", "f64s"]), v.pipe(v.string(), v.startsWith("'"))])) })),
  }),
});

const EntrySchema = v.strictObject({
  key: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  owner: OwnerSchema,
  kernel: v.string(),
  fingerprint: v.string(),
  types: v.array(v.string()),
  signature: SignatureSchema,
  deps: v.array(v.tuple([v.string(), v.string()])),
  methods: v.array(v.tuple([v.string(), v.string()])),
  runtime: v.string(),
  artifact: ArtifactSchema,
});

/** The first schema problem, as `at <path>: <message>`. */
function schemaProblem(issues: readonly v.BaseIssue<unknown>[], within = ""): string {
  const first = issues[0];
  const path = [within, v.getDotPath(first) ?? ""].filter(Boolean).join(".");
  return `malformed record${path ? ` at '${path}'` : ""}: ${first.message}`;
}

/** What a target's layout schema is made with (named, so that the bundle keeps only these). */
const kit: SchemaKit = {
  array: v.array, boolean: v.boolean, integer: v.integer, literal: v.literal, minValue: v.minValue, number: v.number,
  optional: v.optional, picklist: v.picklist, pipe: v.pipe, strictObject: v.strictObject, string: v.string, tuple: v.tuple,
};

/** Each target's layout schema, made once. */
const layoutSchemas = new Map<NonNullable<ReadBack["layoutSchema"]>, v.GenericSchema>();

/**
 * The record as a typed cache entry, or its first schema problem. `layout` is the schema of the
 * layout of the entry's target (from its ReadBack), or null for a target without one.
 */
export function parseEntry(raw: unknown, layout: ReadBack["layoutSchema"]): Verdict<CacheEntry> {
  const parsed = v.safeParse(EntrySchema, raw);
  if (!parsed.success) return { ok: false, reason: schemaProblem(parsed.issues) };
  const a = parsed.output.artifact;
  if (a.layout !== undefined && layout) {
    let schema = layoutSchemas.get(layout);
    if (!schema) layoutSchemas.set(layout, (schema = layout(kit)));
    const l = v.safeParse(schema, a.layout);
    if (!l.success) return { ok: false, reason: schemaProblem(l.issues, "artifact.layout") };
  }
  // (Data the host evaluates at launch: bounded in size, indices within the parameters.)
  if (a.launchProof !== undefined) {
    const why = launchProofProblem(a.launchProof, a.params) ?? ((a.launchProof as { assumed: boolean }).assumed !== parsed.output.owner.provenChecks ? "not the variant its owner names" : null);
    if (why) return { ok: false, reason: `malformed record at 'artifact.launchProof': ${why}` };
  }
  return { ok: true, value: parsed.output as CacheEntry };
}

/** The record as a kernel signature, or its first schema problem. */
export function parseSignature(raw: unknown): Verdict<Signature> {
  const parsed = v.safeParse(SignatureSchema, raw);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, reason: schemaProblem(parsed.issues) };
}

const ImageSchema = v.strictObject({
  gpuc: v.string(),
  entries: v.array(v.strictObject({ checksum: v.string(), entry: v.unknown() })),
});

/** Accept `raw` as a kernel image's body (its entries each still to be checked with checkEntry), or say why not. */
export function parseImageDocument(raw: unknown): Verdict<{ gpuc: string; entries: { checksum: string; entry: unknown }[] }> {
  const parsed = v.safeParse(ImageSchema, raw);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, reason: schemaProblem(parsed.issues) };
}

