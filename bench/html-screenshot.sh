#!/usr/bin/env bash
# Render the HTML report of `kafkalint audit` in a real browser (headless
# Chromium) and check it: it must load with nothing from the network, run its
# script (sorting, filtering, opening a repository's findings) and show the
# hostile file name below as text. Screenshots go to OUT_DIR for a person to
# look at.
#
# Usage: bash bench/html-screenshot.sh [OUT_DIR]     (default: a new temporary directory)
#
# Needs Debian's chromium package (apt-get install -y chromium), or set
# CHROMIUM to another Chromium/Chrome binary. Kept out of `go test` so that
# CI stays fast and needs no browser.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$(mktemp -d)}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [[ -z "$CHROMIUM" ]]; then
	echo "chromium not found: apt-get install -y chromium (or set CHROMIUM)" >&2
	exit 1
fi

cd "$ROOT"
go build -o "$OUT/kafkalint" ./cmd/kafkalint

# The audited tree: every examples/ directory is a repository, plus one with
# a file that does not load and one whose file name and content try to
# inject markup.
tree="$OUT/tree"
rm -rf "$tree"
mkdir -p "$tree"
cp -R examples/. "$tree/"
mkdir -p "$tree/broken-repo/prod"
printf 'node.id=1\nlog.dirs=\\uZZZZ\n' >"$tree/broken-repo/prod/server.properties"
mkdir -p "$tree/evil-repo/prod"
printf 'process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1:9093\ncontroller.listener.names=CONTROLLER\noffsets.topic.replication.factor=1\n' \
	>"$tree/evil-repo/prod/<img src=x onerror=alert(1)>.properties"

status=0
(cd "$OUT" && ./kafkalint audit --quiet --format html=audit.html --format json=audit.json tree) || status=$?
if [[ $status -ne 2 ]]; then
	echo "kafkalint audit exited $status, want 2 (broken-repo has a load error)" >&2
	exit 1
fi

chrome() {
	# A fresh profile per run; no network, sync, updates or first-run UI.
	local profile
	profile="$(mktemp -d)"
	"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --hide-scrollbars --virtual-time-budget=3000 "$@" 2>/dev/null
	rm -rf "$profile"
}

fail=0
check() { # check DESCRIPTION COMMAND...
	if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1" >&2; fail=1; fi
}

# with_script PAGE SCRIPT: a copy of the report with SCRIPT run after its own.
with_script() {
	python3 - "$OUT/audit.html" "$OUT/$1" "<script>$2</script>" <<'EOF'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", sys.argv[3] + "\n</body>"))
EOF
}

# 1. Screenshots: the page as it opens; the whole page in a tall window; a
# repository's findings opened (moved to the top of a copy: headless
# Chromium screenshots a scrolled page blank).
index="$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([r["path"].endswith("/evil-repo") for r in d["repos"]].index(True))' "$OUT/audit.json")"
chrome --window-size=1400,1000 --screenshot="$OUT/audit.png" "file://$OUT/audit.html"
chrome --window-size=1400,2400 --screenshot="$OUT/audit-full.png" "file://$OUT/audit.html"
with_script drilldown.html "const d = document.getElementById('r-$index'); d.open = true; document.body.prepend(d);"
chrome --window-size=1400,700 --screenshot="$OUT/audit-drilldown.png" "file://$OUT/drilldown.html"
check "screenshots written" test -s "$OUT/audit.png" -a -s "$OUT/audit-full.png" -a -s "$OUT/audit-drilldown.png"

# 2. The script runs in the browser: following a repository's link opens its
# findings.
chrome --dump-dom "file://$OUT/audit.html#r-$index" >"$OUT/dom-hash.html"
check "the link opens the repository's findings" grep -q "<details id=\"r-$index\" open=\"\"" "$OUT/dom-hash.html"

# 3. Sorting and filtering: a copy of the page clicks "Errors" (largest
# first) and filters, then records the row order for the checks.
probe='
document.querySelectorAll("#repo-table th button")[3].click();
const order = Array.from(document.querySelectorAll("#repo-table tbody tr")).map(r => r.cells[0].dataset.v + "=" + r.cells[3].dataset.v);
const f = document.getElementById("filter"); f.value = "REPO"; f.dispatchEvent(new Event("input"));
const visible = Array.from(document.querySelectorAll("#repo-table tbody tr")).filter(r => !r.hidden).length;
document.body.insertAdjacentHTML("beforeend", "<pre id=probe>" + JSON.stringify({order, visible, sort: document.querySelectorAll("#repo-table th")[3].getAttribute("aria-sort"), shown: document.getElementById("shown").textContent}) + "</pre>");
'
with_script probe.html "$probe"
chrome --dump-dom "file://$OUT/probe.html" >"$OUT/dom-probe.html"
python3 - "$OUT/dom-probe.html" "$OUT/audit.json" <<'EOF' && sorted=true || sorted=false
import html, json, re, sys
m = re.search(r'<pre id="probe">(.*?)</pre>', open(sys.argv[1], encoding="utf-8").read(), re.S)
probe = json.loads(html.unescape(m.group(1)))
repos = json.load(open(sys.argv[2]))["repos"]
def errors(r):
    return -1 if r["summary"]["failed"] else r["summary"]["by_severity"]["error"]
want = [r["path"] + "=" + str(errors(r)) for r in sorted(repos, key=lambda r: (-errors(r), r["path"].lower()))]
ok = probe["order"] == want and probe["sort"] == "descending"
ok = ok and probe["visible"] == sum("repo" in r["path"].lower() for r in repos) == 2 and probe["shown"] == "2 of %d shown" % len(repos)
print(json.dumps(probe, indent=1))
sys.exit(0 if ok else 1)
EOF
check "sorting by errors (largest first) and filtering work" $sorted

# 4. The hostile file name is text, not an element.
check "no injected element" bash -c "! grep -q '<img' '$OUT/dom-hash.html'"
check "the hostile file name is shown as text" grep -q '&lt;img src=x onerror=alert(1)&gt;.properties' "$OUT/dom-hash.html"

echo "report:      $OUT/audit.html"
echo "screenshots: $OUT/audit.png $OUT/audit-full.png $OUT/audit-drilldown.png"
exit $fail
