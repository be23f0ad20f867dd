// The public surface of gpuc (DESIGN §1), and nothing else: the runtime (runtime-only.ts) and
// the compiler, loaded on the first compile.

import { provideCompiler } from "./specializer.js";

export * from "./runtime-only.js";

provideCompiler(() => import("./compiler/compile.js"));
