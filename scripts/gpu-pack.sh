#!/usr/bin/env bash
# Prepare .gpu/ for scripts/gpu-check.sh on a GPU machine that has no Node.js and cannot
# download (the device tool's machines): this machine's Node binary and the node_modules the
# tests need (not webgpu, playwright or typescript), compressed to fit the 64 MiB that travels.
# Then: run tool, carry [".gpu", "dist"], command "bash scripts/gpu-check.sh".
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build >/dev/null
rm -rf .gpu && mkdir .gpu
xz -T0 -6 -c "$(readlink -f "$(command -v node)")" > .gpu/node.xz
tar -cJf .gpu/node_modules.tar.xz --exclude=node_modules/webgpu --exclude=node_modules/playwright-core \
  --exclude=node_modules/typescript --exclude='node_modules/@typescript' --exclude='node_modules/@types' --exclude=node_modules/acorn node_modules
du -sh .gpu/* dist
