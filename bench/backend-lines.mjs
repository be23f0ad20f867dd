// Lines of code of each GPU back end's folder (src/targets/<name>/*.ts, blank lines and comments
// left out), against another checkout (#31: each folder a quarter shorter than at cd74458).
// Usage: node bench/backend-lines.mjs [<before checkout>]
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const BACK_ENDS = ["wgsl", "ptx", "opencl", "spirv"];
const here = fileURLToPath(new URL("..", import.meta.url)), before = process.argv[2] && resolve(process.argv[2]);

/** Non-blank lines that are not comments (block comments removed first, then `//` lines). */
function codeLines(root, target) {
  const dir = join(root, "src/targets", target);
  return readdirSync(dir).filter((f) => f.endsWith(".ts")).reduce((n, f) => {
    const text = readFileSync(join(dir, f), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    return n + text.split("\n").filter((l) => l.trim() && !l.trim().startsWith("//")).length;
  }, 0);
}

console.log(`| back end | ${before ? `${before} | ` : ""}this checkout |${before ? " ratio |" : ""}\n|---|${before ? "---:|" : ""}---:|${before ? "---:|" : ""}`);
for (const t of BACK_ENDS) {
  const now = codeLines(here, t);
  if (!before) { console.log(`| ${t} | ${now} |`); continue; }
  const then = codeLines(before, t);
  console.log(`| ${t} | ${then} | ${now} | ${(now / then).toFixed(2)}× |`);
}
