// The public surface of gpuc and nothing else: the runtime (runtime-only.ts) and
// the compiler, loaded on the first compile.

import { provideCompiler } from "./specializer.js";
import { compiling } from "./compiling.js";
import { provideDeviceModules } from "./devices/index.js";
import { provideSourceMaps } from "./cache/fingerprint.js";
import { provideDiskModule } from "./cache/persistent.js";
import * as disk from "./cache/disk.js";
import * as cpu from "./devices/cpu.js";
import * as common from "./devices/common.js";
import * as sourceMap from "./frontend/source-map.js";
import { provideTSParser } from "./frontend/ts-parser.js";

export * from "./runtime-only.js";

// The compiler script with gpuc's code cache where the package has one (a build), else the ES
// modules (gpuc run from its sources, GPUC_CODE_CACHE=0, or a script that failed to load). The
// loader is an entry of the Node bundle that nothing imports statically (scripts/bundle-node.mjs):
// its own file, which finds the script beside it. With it, what a kernel does only where there
// is a compiler (compiling.ts, which gpuc/runtime never holds: imported here, not with the
// compiler, as a lazily loaded chunk was one more file on the way to a first compile, ~1%).
provideCompiler(async () => compiling((await import("./cache/compiler-script.js").then((s) => s.loadCompilerScript()).catch(() => null)) ?? (await import("./compiler/compile.js"))));
// What gpuc/runtime loads on first use for a small start (a browser bundle's concern) loads here
// with the package: in Node each lazily loaded chunk is one more module load, in sequence, on
// the way to the first result (BENCHMARKS §i1: the CPU device's warm-disk first result was 4 ms later).
provideDeviceModules({ cpu, common });
provideDiskModule(disk);
// The annotation reader's TypeScript parser, for the compiler to load when it reads a .ts file.
provideTSParser(() => import("./frontend/oxc.js"));
provideSourceMaps(sourceMap);
