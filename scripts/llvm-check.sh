#!/usr/bin/env bash
# Every kernel the execution suites run, compiled for the llvm target for SPIR and all three AMD
# GPUs (gfx90a, gfx940, gfx1100), each verified by LLVM 16's opt and, for the GPUs, compiled by llc
# and linked by ld.lld, in one run (npm test checks the same kernels for all of them too: spir64 and
# gfx90a in its main run, gfx940 and gfx1100 in its two threaded runs).
# The CPU device runs the suites (the reference); LLVM's tools are required.
#   bash scripts/llvm-check.sh            (about 8 minutes on two cores)
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build >/dev/null
GPUC_LLVM_ARCHES=spir64,gfx90a,gfx940,gfx1100 GPUC_TEST_DEVICES=cpu GPUC_REQUIRE_DEVICES=llvm GPUC_CACHE=0 GPUC_CHECK_IR=1 \
  node --import tsx --test --test-reporter=dot test/lang-*.test.ts test/aggregates.test.ts test/examples.test.ts test/launch.test.ts \
  test/loops.test.ts test/narrow.test.ts test/captured-tables.test.ts
echo "llvm-check: every kernel of the suites verified for spir64 and compiled and linked for gfx90a, gfx940 and gfx1100"
