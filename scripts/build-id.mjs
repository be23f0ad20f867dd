// Writes dist/build-id.js: a hash of gpuc's sources and version (see src/build-id.ts). Prints it.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
export function buildId() {
  const h = createHash("sha256");
  h.update(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version);
  const files = readdirSync(join(root, "src"), { recursive: true }).map(String).filter((f) => f.endsWith(".ts")).sort();
  for (const f of files) { h.update(f); h.update(readFileSync(join(root, "src", f))); }
  return h.digest("hex").slice(0, 16);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const id = buildId();
  writeFileSync(join(root, "dist/build-id.js"), `// Written by scripts/build-id.mjs.\nexport const GPUC_BUILD = ${JSON.stringify(id)};\n`);
  console.log(`dist/build-id.js: ${id}`);
}
