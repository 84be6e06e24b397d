#!/usr/bin/env bash
# Puts Node 24 first on PATH. When the `node` on PATH is missing or older than 24, installs the
# official Node 24 binary from the npm registry into .tools/ (npm package node-linux-<arch>).
#
#   source scripts/ensure-node.sh    # in your shell or in a script: PATH now has Node 24
#   scripts/ensure-node.sh           # prints the folder to put first on PATH
#
# Needs an existing `npm` (any version) when Node 24 is not there yet.

_circle55_ensure_node() {
  local root required=24 major arch pkg bin
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

  _circle55_node_major() {
    command -v node >/dev/null 2>&1 || { echo 0; return; }
    node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
  }

  major="$(_circle55_node_major)"
  if [ "$major" -ge "$required" ] 2>/dev/null; then
    CIRCLE55_NODE_BIN="$(dirname "$(command -v node)")"
    return 0
  fi

  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "ensure-node: unsupported CPU $(uname -m); install Node $required yourself" >&2; return 1 ;;
  esac
  pkg="node-linux-$arch"
  bin="$root/.tools/node_modules/$pkg/bin"

  if [ ! -x "$bin/node" ] || [ "$("$bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$required" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "ensure-node: Node $required is required (found: ${major/#0/none}) and npm is not available to fetch it." >&2
      echo "ensure-node: install Node $required (see .nvmrc) and try again." >&2
      return 1
    fi
    echo "ensure-node: Node ${major/#0/none} found; installing Node $required into .tools/ …" >&2
    mkdir -p "$root/.tools"
    npm install --no-save --no-audit --no-fund --prefix "$root/.tools" "$pkg@$required" >&2 || {
      echo "ensure-node: npm install $pkg@$required failed" >&2
      return 1
    }
  fi

  local got
  got="$("$bin/node" --version 2>/dev/null || true)"
  case "$got" in
    "v$required".*) ;;
    *) echo "ensure-node: $bin/node does not run as Node $required (got '${got:-nothing}')" >&2; return 1 ;;
  esac
  export PATH="$bin:$PATH"
  hash -r 2>/dev/null || true
  CIRCLE55_NODE_BIN="$bin"
  echo "ensure-node: using Node $got from .tools/" >&2
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: change the caller's PATH; report failure without exiting the caller's shell.
  _circle55_ensure_node
  _circle55_status=$?
  unset -f _circle55_ensure_node _circle55_node_major
  # shellcheck disable=SC2317
  return "$_circle55_status" 2>/dev/null || true
else
  set -euo pipefail
  _circle55_ensure_node
  echo "$CIRCLE55_NODE_BIN"
fi
