// The example page built by vite with gpuc's plugin: `npx vite build --config examples/app/vite.config.mjs`
// (into examples/app/dist/vite; `npx vite preview --config examples/app/vite.config.mjs` serves it).
import { fileURLToPath } from "node:url";
import gpuc from "gpuc/plugin";

export default {
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",   // (relative URLs: the page works from any directory it is served from)
  build: { outDir: "dist/vite", emptyOutDir: true },
  plugins: [gpuc.vite({ targets: ["wgsl", "js"] })],
};
