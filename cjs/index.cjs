// require("gpuc") lands here: gpuc is an ES module (package.json "type": "module"), and Node 20
// cannot require() one. Where Node can (22.12 and later, a module graph without top-level await),
// this hands over to it; elsewhere it throws an error that says what to write instead.
"use strict";

if (process.features && process.features.require_module) {
  try {
    module.exports = require("../dist/index.js");
    return;
  } catch (e) {
    if (!e || (e.code !== "ERR_REQUIRE_ASYNC_MODULE" && e.code !== "ERR_REQUIRE_ESM")) throw e;
  }
}

const error = new Error(
  "gpuc is an ES module and cannot be loaded with require() on Node " + process.version + ". " +
  "In CommonJS code, load it with import(): `const { kernel, device } = await import(\"gpuc\");` " +
  "(inside an async function); or make your code an ES module (\"type\": \"module\" in package.json, or a .mjs/.mts file) " +
  "and write `import { kernel, device } from \"gpuc\";`.");
error.code = "ERR_REQUIRE_ESM";
throw error;
