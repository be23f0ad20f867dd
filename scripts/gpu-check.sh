#!/usr/bin/env bash
# The one GPU check: on a machine with an NVIDIA GPU and its driver, run the test suites on the
# CUDA device (with the CPU device as the reference), the examples (`gpuc demo`), and the timings
# of bench/cuda.ts (saxpy and a reduction against the copy bandwidth, the tiled 4096² matmul
# against nvcc's PTX of the same algorithm). Installs nothing: it needs Node.js 20+ and the
# repository's node_modules and dist/, or the .gpu/ bundle that scripts/gpu-pack.sh prepares
# (Node and the modules the tests need, for a machine without Node). About 2–3 minutes on an H200.
# Logs go to $OUT when it is set (the device tool), else to /tmp.
set -uo pipefail
source "$(dirname "$0")/gpu-env.sh"
echo "node $(node --version); $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi not found')"
status=0

echo "== 1. the suites on the CUDA device (GPUC_REQUIRE_DEVICES=cpu,cuda: a missing GPU fails)"
GPUC_TEST_DEVICES=cpu,cuda GPUC_REQUIRE_DEVICES=cpu,cuda \
  node --import tsx --test --test-reporter=spec test/devices.test.ts test/lang-*.test.ts test/launch.test.ts test/overlays.test.ts test/ptx.test.ts test/reloc.test.ts test/captured-tables.test.ts \
  > "$logs/gpu-tests.log" 2>&1 || status=1
grep -E '^ℹ (tests|pass|fail|skipped|todo)' "$logs/gpu-tests.log"
grep -E '^✖|^  ✖' "$logs/gpu-tests.log" | head -30

echo "== 2. the examples on every device present (gpuc demo)"
node dist/cli/main.js demo 2>&1 | tee "$logs/gpu-demo.log" | tail -15 || status=1
[ "${PIPESTATUS[0]}" = 0 ] || status=1

echo "== 3. timings"
node --import tsx bench/cuda.ts 2>&1 | tee "$logs/gpu-bench.log" || status=1
[ "${PIPESTATUS[0]}" = 0 ] || status=1
echo "== 4. differential fuzzing on CUDA against the CPU device: 300 kernels of arithmetic (exact), 100 of array indices, 100 of control flow, 100 with barriers, 100 with atomics, 100 with subgroup operations"
fuzz_device cuda "$logs/gpu-fuzz.log" || status=1
exit $status
