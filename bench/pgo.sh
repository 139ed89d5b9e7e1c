#!/usr/bin/env bash
# bench/pgo.sh — refresh cmd/kafkalint/default.pgo, the CPU profile Go's
# profile-guided optimization builds the command with (`go build` uses a
# main package's default.pgo unless told -pgo=off).
#
# Usage: bash bench/pgo.sh      (a few minutes; run it on an idle machine)
#
# The profile is what kafkalint spends its time on in the runs users make:
# a lint of examples/ and of the real-world corpus (repeated, as they are
# short), and the whole-tree and .properties-only lints of both
# bench/compare.sh trees (bench/trees.sh: reused from its work directory,
# BENCH_DIR, when current, else generated there). PGO changes
# how the compiler inlines and devirtualizes, never what the program does:
# refresh the profile after a large change of the engine or the rules; a
# stale one only optimizes less.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export GOWORK=off

# shellcheck source=bench/trees.sh
source bench/trees.sh # WORK, CORPUS, tree, properties_only_config: compare.sh's trees
OUT="$ROOT/cmd/kafkalint/default.pgo"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$WORK"

echo "building the profiling binary..." >&2
go build -pgo=off -tags kafkalint_prof -o "$tmp/kafkalint" ./cmd/kafkalint
go build -o "$tmp/gentree" ./bench/gentree

# profile NAME DIR ARGS...: one CPU profile of `kafkalint lint ARGS` in DIR.
n=0
profile() {
	local dir="$1"
	shift
	n=$((n + 1))
	(cd "$dir" && KAFKALINT_CPUPROFILE="$tmp/p$n.cpu" "$tmp/kafkalint" lint --format json "$@" >/dev/null 2>&1) || true
}

for _ in 1 2 3 4 5; do
	profile "$ROOT" examples
	if [[ -d "$CORPUS" ]]; then
		profile "$(dirname "$CORPUS")" real-world
	fi
done
if [[ -d "$CORPUS" ]]; then
	properties_only_config "$tmp/properties-only.yaml"
	for layout in separate shared; do
		dir="$(tree "$tmp/gentree" "$layout" 1000)"
		profile "$dir" .
		profile "$dir" --config "$tmp/properties-only.yaml" .
	done
fi

go tool pprof -proto "$tmp"/p*.cpu >"$OUT"
echo "wrote $OUT ($(wc -c <"$OUT") bytes, $n runs)" >&2
