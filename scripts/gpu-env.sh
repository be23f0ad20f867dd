# Sourced by the GPU check scripts (gpu-check.sh, amd-check.sh): Node and the repository's modules
# from the .gpu/ bundle that scripts/gpu-pack.sh prepares, where it is there (a machine without
# Node); a check that dist/ is built; logs to $OUT when it is set (the device tool), else /tmp.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
logs="${OUT:-/tmp}"
if [ -d .gpu ]; then
  mkdir -p /tmp/gpuc-node
  [ -x /tmp/gpuc-node/node ] || { xz -dc .gpu/node.xz > /tmp/gpuc-node/node && chmod +x /tmp/gpuc-node/node; }
  export PATH="/tmp/gpuc-node:$PATH"
  [ -d node_modules ] || tar -xJf .gpu/node_modules.tar.xz
fi
command -v node >/dev/null || { echo "$(basename "$0"): Node.js 20+ is needed (or run scripts/gpu-pack.sh where it is, and bring .gpu/)"; exit 2; }
[ -f dist/index.js ] || { echo "$(basename "$0"): dist/ is missing: run 'npm run build' first (or scripts/gpu-pack.sh)"; exit 2; }
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"

# The differential fuzzers on GPU device $1 against the CPU device — 300 kernels of arithmetic
# (exact), 100 each of array indices, control flow, barriers, atomics and subgroup operations —
# into the log $2; then its differences and counts. Fails (returns 1) where a run failed.
fuzz_device() {
  local rc=0
  : > "$2"
  for mode in "" --bounds --control --barriers --atomics --subgroups; do
    node scripts/fuzz.mjs --device "$1" $mode --count "$([ -z "$mode" ] && echo 300 || echo 100)" >> "$2" 2>&1 || rc=1
  done
  grep -A3 -E '^(DIFFERS|FAILED)' "$2" | head -24
  grep -E ' kernels ' "$2"
  return $rc
}
