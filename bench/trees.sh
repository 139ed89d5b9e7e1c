# bench/trees.sh — sourced by bench/compare.sh and bench/pgo.sh (after they
# set ROOT and cd to it): where the bench trees live, what they are
# generated from, and the .properties-only configuration the comparison
# with conftest lints them with.

WORK="${BENCH_DIR:-${TMPDIR:-/tmp}/kafkalint-bench}"
CORPUS="$ROOT/../shared/corpus/real-world"
FILES_PER_REPO=10
SEED=1

# tree GENTREE LAYOUT REPOS: prints the directory holding that tree,
# generated with the GENTREE binary (bench/gentree) unless the one there was
# generated from the same generator, corpus and parameters (its stamp), and
# read once so that every tool then reads it from the page cache.
tree() {
	local gentree="$1" layout="$2" n="$3" dir="$WORK/tree-$2-$3" key
	key="$({ cat bench/gen/*.go; ls -l "$CORPUS"/*/; echo "$FILES_PER_REPO $SEED"; } | sha256sum | cut -c1-16)"
	if [[ "$(cat "$dir.stamp" 2>/dev/null)" != "$key" ]]; then
		rm -rf "$dir" "$dir.stamp"
		"$gentree" -out "$dir" -layout "$layout" -repos "$n" -files "$FILES_PER_REPO" -seed "$SEED" -corpus "$CORPUS" >&2
		echo "$key" >"$dir.stamp"
	fi
	find "$dir" -type f -exec cat {} + >/dev/null
	echo "$dir"
}

# properties_only_config FILE writes the configuration that lints only
# the .properties files, the ones conftest reads.
properties_only_config() {
	cat >"$1" <<'CONFIG'
# bench/compare.sh: lint only the .properties files, the ones conftest reads.
exclude: ["**/*.tf", "**/*.tf.json", "**/*.tfvars", "**/*.tfvars.json", "**/*.yaml", "**/*.yml"]
CONFIG
}
