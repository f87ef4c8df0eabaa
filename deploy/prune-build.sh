#!/bin/sh
# Prunes a built tree (after `tsc -b` and `npm prune --omit=dev`) down to what the runtime image runs.
# deploy/Dockerfile runs it in its build stage; test/src/container-image.test.ts runs it on a copy of a built tree.
#   sh deploy/prune-build.sh [root]      (root: the repository root, default .)
set -eu
cd "${1:-.}"

for w in shared policy privacy proxy; do
  # Compiled unit tests (policy's `test-support/*` exports point there: only the test workspace imports them)
  # and declarations run nowhere. Source maps stay: small, and they serve --enable-source-maps.
  rm -rf "$w/dist/test"
  find "$w/dist" \( -name '*.d.ts' -o -name '*.d.ts.map' \) -type f -exec rm -f {} +
done
# Build info, ours and the packages' (grpc-health-check ships one).
find shared/dist policy/dist proxy/dist node_modules -name '*.tsbuildinfo' -type f -exec rm -f {} +

# better-sqlite3: the addon and its JavaScript; not the SQLite/C++ sources, the compile tree or the test extension.
sqlite=node_modules/better-sqlite3
if [ -d "$sqlite" ]; then
  addon="$sqlite/build/Release/better_sqlite3.node"
  [ -f "$addon" ] || { echo "prune-build: $addon missing" >&2; exit 1; }
  mv "$addon" "$sqlite/better_sqlite3.node.keep"
  rm -rf "$sqlite/build" "$sqlite/deps" "$sqlite/src" "$sqlite/binding.gyp"
  mkdir -p "$sqlite/build/Release"
  mv "$sqlite/better_sqlite3.node.keep" "$addon"
fi

# Type declarations some production packages depend on (protobufjs: @types/node): nothing loads them.
rm -rf node_modules/@types

# Links to workspaces the image does not carry (names-model, test) would dangle there.
for link in node_modules/@gateway/*; do
  case "${link##*/}" in shared|policy|privacy|proxy) ;; *) rm -f "$link" ;; esac
done
