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
# bench/compare.sh trees (generated as compare.sh generates them, and
# reused from its work directory, BENCH_DIR, when present). PGO changes
# how the compiler inlines and devirtualizes, never what the program does:
# refresh the profile after a large change of the engine or the rules; a
# stale one only optimizes less.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export GOWORK=off

WORK="${BENCH_DIR:-${TMPDIR:-/tmp}/kafkalint-bench}"
CORPUS="$ROOT/../shared/corpus/real-world"
FILES_PER_REPO=10 # as bench/compare.sh
SEED=1
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
	# bench/compare.sh's .properties-only configuration
	echo 'exclude: ["**/*.tf", "**/*.tf.json", "**/*.tfvars", "**/*.tfvars.json", "**/*.yaml", "**/*.yml"]' >"$tmp/properties-only.yaml"
	for layout in separate shared; do
		dir="$WORK/tree-$layout-1000"
		[[ -d "$dir" ]] || "$tmp/gentree" -out "$dir" -layout "$layout" -repos 1000 -files "$FILES_PER_REPO" -seed "$SEED" -corpus "$CORPUS" >&2
		profile "$dir" .
		profile "$dir" --config "$tmp/properties-only.yaml" .
	done
fi

go tool pprof -proto "$tmp"/p*.cpu >"$OUT"
echo "wrote $OUT ($(wc -c <"$OUT") bytes, $n runs)" >&2
