#!/usr/bin/env bash
# swift-format over the package's hand-written Swift (generated views are left as the generator
# writes them): `.ci/format.sh` rewrites the files, `.ci/format.sh --check` fails on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.swift' | grep -v '/Generated/')
if [ "${1:-}" = "--check" ]; then
  swift-format lint --strict --configuration .swift-format "${files[@]}"
else
  swift-format format --in-place --configuration .swift-format "${files[@]}"
fi
