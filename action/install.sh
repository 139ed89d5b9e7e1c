#!/usr/bin/env bash
# Installs kafkalint for the GitHub Action (action.yml); tested by
# cmd/kafkalint/cli/action_test.go.
#
#   install.sh release  Download the release archive for this runner's OS and
#                       architecture and verify it against the release's
#                       checksums file. A mismatch fails. When there is no
#                       release to use (the Action pinned to a commit or a
#                       branch, a release still being published, a platform
#                       without an archive), write build=true and the key of
#                       the binary cache instead.
#   install.sh build    Build kafkalint from the Action's own source into the
#                       cache directory, unless the cache step restored it.
#
# Nothing is added to the job: no PATH or environment change reaches later
# steps; the binary's path is the step output `path`.
#
# Environment: KAFKALINT_VERSION (release tag; empty = the Action's ref when
# that is a release tag), ACTION_REF, ACTION_REPOSITORY, ACTION_PATH,
# GITHUB_SERVER_URL, RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_OUTPUT;
# KAFKALINT_DOWNLOAD_URL replaces …/OWNER/REPO/releases/download (tests).
set -euo pipefail

# Release tags: v1.2.3, v1.2.3-rc.1. Anything else is not looked up (and
# cannot put a path or query into the download URL).
release_tag='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'

output() { echo "$1=$2" >>"$GITHUB_OUTPUT"; }

# sha256sum, or shasum where macOS has only that.
sha256=(sha256sum)
if ! command -v sha256sum >/dev/null; then sha256=(shasum -a 256); fi

# The runner's platform in Go's names; empty when no release has it.
case "${RUNNER_OS:-}" in
Linux) os=linux ;;
macOS) os=darwin ;;
Windows) os=windows ;;
*) os= ;;
esac
case "${RUNNER_ARCH:-}" in
X64) arch=amd64 ;;
ARM64) arch=arm64 ;;
*) arch= ;;
esac
exe=kafkalint
if [ "$os" = windows ]; then exe=kafkalint.exe; fi
# The Action's path is …/_actions/OWNER/REPO/REF: github.action_ref and
# github.action_repository can be empty in composite actions
# (actions/runner#2473), the path is not.
ref="${ACTION_REF:-$(basename "$ACTION_PATH")}"
repo="${ACTION_REPOSITORY:-$(basename "$(dirname "$(dirname "$ACTION_PATH")")")/$(basename "$(dirname "$ACTION_PATH")")}"
download="${KAFKALINT_DOWNLOAD_URL:-${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download}"

# fallback writes the outputs that make the next steps build kafkalint:
# the cache key is the Action's source (every file of its checkout, so a
# branch that moved builds again) and the platform.
fallback() {
	echo "kafkalint: $1; building it from the Action's source (cached per commit)"
	local key
	key="$(cd "$ACTION_PATH" && find . -path ./.git -prune -o -type f -print0 | LC_ALL=C sort -z |
		xargs -0 "${sha256[@]}" | "${sha256[@]}" | cut -c1-32)"
	local dir="$RUNNER_TEMP/kafkalint-build/$key"
	output build true
	output cache-key "kafkalint-build-${RUNNER_OS:-unknown}-${RUNNER_ARCH:-unknown}-$key"
	output cache-dir "$dir"
	output path "$dir/$exe"
}

release() {
	local tag="${KAFKALINT_VERSION:-}"
	if [ -n "$tag" ] && ! [[ "$tag" =~ $release_tag ]]; then
		echo "::error title=kafkalint::version input \"$tag\" is not a release tag (vMAJOR.MINOR.PATCH)"
		exit 1
	fi
	if [ -z "$tag" ]; then
		if ! [[ "$ref" =~ $release_tag ]]; then
			fallback "the Action's ref \"$ref\" is not a release tag"
			return
		fi
		tag="$ref"
	fi
	if [ -z "$os" ] || [ -z "$arch" ]; then
		fallback "no release archive for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}"
		return
	fi
	local version="${tag#v}" ext=tar.gz
	if [ "$os" = windows ]; then ext=zip; fi
	local archive="kafkalint_${version}_${os}_${arch}.$ext" sums="kafkalint_${version}_checksums.txt"
	local url="${download%/}/$tag" tmp
	tmp="$(mktemp -d "$RUNNER_TEMP/kafkalint-download.XXXXXX")"
	if ! curl -fsSL --retry 3 -o "$tmp/$sums" "$url/$sums"; then
		fallback "no release $tag (could not download $url/$sums)"
		return
	fi
	local want
	want="$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/$sums")"
	if [ -z "$want" ]; then
		fallback "release $tag has no $archive"
		return
	fi
	# From here on the release exists: a failure is an error, never a
	# quiet switch to building.
	if ! curl -fsSL --retry 3 -o "$tmp/$archive" "$url/$archive"; then
		echo "::error title=kafkalint::could not download $url/$archive, listed in $sums"
		exit 1
	fi
	local got
	got="$("${sha256[@]}" "$tmp/$archive" | cut -d' ' -f1)"
	if [ "$got" != "$want" ]; then
		echo "::error title=kafkalint::checksum mismatch for $archive: sha256 $got, $sums says $want"
		exit 1
	fi
	local dir="$RUNNER_TEMP/kafkalint-release/$tag"
	mkdir -p "$dir"
	if [ "$ext" = zip ]; then
		unzip -o -q "$tmp/$archive" "$exe" -d "$dir"
	else
		tar -xzf "$tmp/$archive" -C "$dir" "$exe"
	fi
	rm -rf "$tmp"
	echo "kafkalint: installed release $tag ($archive, sha256 $got)"
	output build false
	output path "$dir/$exe"
}

build() {
	local bin="$1"
	if [ -x "$bin" ]; then
		echo "kafkalint: using the build restored from the cache"
		return
	fi
	local go=go
	if ! command -v go >/dev/null; then
		# GitHub's images keep Go versions in the tool cache, named by
		# GOROOT_1_24_X64-style variables: take the newest, for this
		# script only.
		local goroot
		goroot="$(env | sed -n 's/^GOROOT_\([0-9]*\)_\([0-9]*\)_[A-Z0-9]*=/\1.\2 /p' | sort -V | tail -n 1 | cut -d' ' -f2-)"
		go="$goroot/bin/go"
		if [ -z "$goroot" ] || { ! [ -x "$go" ] && ! [ -x "$go.exe" ]; }; then
			echo "::error title=kafkalint::no release binary to download and no Go on the runner to build one: pin the Action to a release tag (uses: kafkalint/kafkalint@vX.Y.Z), set its version input, or install Go first"
			exit 1
		fi
	fi
	local ldflags=""
	if [[ "$ref" =~ ^[0-9a-f]{40}$ ]]; then
		ldflags="-X github.com/kafkalint/kafkalint/cmd/kafkalint/cli.Commit=$ref"
	fi
	echo "kafkalint: go build at ${ref:-its checkout} with $("$go" version)"
	mkdir -p "$(dirname "$bin")"
	(cd "$ACTION_PATH" && "$go" build -ldflags="$ldflags" -o "$bin" ./cmd/kafkalint)
}

case "${1:-}" in
release) release ;;
build) build "${2:?install.sh build BINARY}" ;;
*)
	echo "usage: install.sh release | build BINARY" >&2
	exit 2
	;;
esac
