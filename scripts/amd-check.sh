#!/usr/bin/env bash
# The AMD GPU check: on a machine with an AMD GPU (gfx90a, gfx940 or gfx1100) and ROCm's HIP
# runtime, run the test suites on the AMD GPU device (with the CPU device as the reference), the
# examples (`gpuc demo`), and the differential fuzzers against the CPU device. Installs nothing:
# it needs Node.js 20+ and the repository's node_modules and dist/ (or the .gpu/ bundle that
# scripts/gpu-pack.sh prepares), ROCm (libamdhip64.so; GPUC_LIBHIP names another) and LLVM's
# llc and ld.lld, which make each kernel's code object (ROCm's own in /opt/rocm/llvm/bin, or
# Debian's llvm-16 and lld-16; GPUC_LLVM_BIN names another folder). Logs go to $OUT when it is set,
# else to /tmp. Not yet run on an AMD GPU: no machine here has one (the device's calls into HIP are
# checked on a stand-in runtime by test/amdgpu-ffi.test.ts).
set -uo pipefail
source "$(dirname "$0")/gpu-env.sh"
echo "node $(node --version); $( (command -v rocminfo >/dev/null && rocminfo | grep -m2 -E '^\s+Name:\s+gfx' ) || echo 'rocminfo not found')"
status=0

echo "== 1. the suites on the AMD GPU device (GPUC_REQUIRE_DEVICES=cpu,amdgpu: a missing GPU fails)"
GPUC_TEST_DEVICES=cpu,amdgpu GPUC_REQUIRE_DEVICES=cpu,amdgpu,llvm \
  node --import tsx --test --test-reporter=spec test/devices.test.ts test/lang-*.test.ts test/launch.test.ts test/overlays.test.ts test/reloc.test.ts test/captured-tables.test.ts test/llvm-sqrt.test.ts \
  > "$logs/amd-tests.log" 2>&1 || status=1
grep -E '^ℹ (tests|pass|fail|skipped|todo)' "$logs/amd-tests.log"
grep -E '^✖|^  ✖' "$logs/amd-tests.log" | head -30

echo "== 2. the examples on every device present (gpuc demo)"
node dist/cli/main.js demo 2>&1 | tee "$logs/amd-demo.log" | tail -25 || status=1
[ "${PIPESTATUS[0]}" = 0 ] || status=1

echo "== 3. differential fuzzing on the AMD GPU against the CPU device: 300 kernels of arithmetic (exact), 100 of array indices, 100 of control flow, 100 with barriers, 100 with atomics, 100 with subgroup operations"
fuzz_device amdgpu "$logs/amd-fuzz.log" || status=1
exit $status
