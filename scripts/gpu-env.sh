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
