#!/usr/bin/env bash
# Render the HTML report of `kafkalint audit` in a real browser (headless
# Chromium) and check it: it must load with nothing from the network, open in
# risk order, run its script (sorting, filtering by path, severity and rule —
# from the chart's bars too —, clearing the filters, opening a repository's
# findings) and show the hostile file name below as text. Then it times the
# load of a 1,000-repository report. Screenshots go to OUT_DIR for a person to
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
check "the link opens the repository's findings" grep -Eq "<details id=\"r-$index\"[^>]* open=\"\"" "$OUT/dom-hash.html"

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

# 4. Risk order and the filters: the table opens in risk order; a click on a
# bar of the chart shows only the repositories its rule hits (their findings
# below too) and the clear button; severity narrows it; clear shows all
# again; "Order by risk" undoes a column sort.
probe='
const rows = () => Array.from(document.querySelectorAll("#repo-table tbody tr"));
const paths = () => rows().filter(r => !r.hidden).map(r => r.cells[0].dataset.v);
const details = () => Array.from(document.querySelectorAll("#details ~ details")).filter(d => !d.hidden).map(d => d.id);
const clear = document.getElementById("clear");
const p = {initial: paths(), clearHiddenAtFirst: clear.hidden};
const bar = document.querySelector("svg.chart g.bar");
p.rule = bar.dataset.rule;
bar.dispatchEvent(new MouseEvent("click", {bubbles: true}));
p.byRule = paths(); p.detailsByRule = details(); p.clearShown = !clear.hidden;
p.shownByRule = document.getElementById("shown").textContent;
p.otherFindingsShown = Array.from(document.querySelectorAll("#details ~ details:not([hidden]) tr[data-hits]")).filter(f => !f.hidden).some(f => !f.dataset.hits.startsWith(p.rule + ":"));
const sev = document.getElementById("sev-filter"); sev.value = "error"; sev.dispatchEvent(new Event("change"));
p.byRuleError = paths();
clear.click();
p.afterClear = paths(); p.clearHiddenAfter = clear.hidden; p.ruleAfter = document.getElementById("rule-filter").value;
sev.value = "error"; sev.dispatchEvent(new Event("change"));
p.byError = paths();
clear.click();
document.querySelectorAll("#repo-table th button")[0].click();
p.byPath = paths();
document.getElementById("risk-order").click();
p.riskAgain = paths();
document.body.insertAdjacentHTML("beforeend", "<pre id=probe>" + JSON.stringify(p) + "</pre>");
'
with_script filters.html "$probe"
chrome --dump-dom "file://$OUT/filters.html" >"$OUT/dom-filters.html"
python3 - "$OUT/dom-filters.html" "$OUT/audit.json" <<'EOF' && filters=true || filters=false
import html, json, re, sys
m = re.search(r'<pre id="probe">(.*?)</pre>', open(sys.argv[1], encoding="utf-8").read(), re.S)
p = json.loads(html.unescape(m.group(1)))
repos = json.load(open(sys.argv[2]))["repos"]
def risk(r):
    s = r["summary"]["by_severity"]
    return (-s["error"], -s["warning"], -s["info"], -r["summary"]["errors"], r["path"])
by_risk = [r["path"] for r in sorted(repos, key=risk)]
index = {r["path"]: i for i, r in enumerate(repos)}
def hit(path, sev=None, rule=True):
    return any((not rule or f["id"] == p["rule"]) and sev in (None, f["severity"]) for f in repos[index[path]]["findings"])
checks = {
    "opens in risk order": p["initial"] == by_risk,
    "clear hidden while nothing is filtered": p["clearHiddenAtFirst"] and p["clearHiddenAfter"],
    "a bar filters by its rule": p["byRule"] == [x for x in by_risk if hit(x)] and p["byRule"] != by_risk,
    "its findings below too": p["detailsByRule"] == ["r-%d" % index[x] for x in p["byRule"]] and not p["otherFindingsShown"],
    "the clear button shows": p["clearShown"] and p["shownByRule"] == "%d of %d shown" % (len(p["byRule"]), len(repos)),
    "severity narrows the rule": p["byRuleError"] == [x for x in by_risk if hit(x, "error")],
    "severity alone": p["byError"] == [x for x in by_risk if hit(x, "error", rule=False)] and 0 < len(p["byError"]) < len(repos),
    "clear shows everything": p["afterClear"] == by_risk and p["ruleAfter"] == "",
    "a column sort, then back to risk order": p["byPath"] == sorted(by_risk, key=str.lower) and p["riskAgain"] == by_risk,
}
for k, v in checks.items():
    print(("ok   " if v else "FAIL ") + k)
print("rule %s: %d of %d repositories, %d with its errors; %d with errors" % (p["rule"], len(p["byRule"]), len(repos), len(p["byRuleError"]), len(p["byError"])))
sys.exit(0 if all(checks.values()) else 1)
EOF
check "risk order, rule and severity filters, clear" $filters
with_script filtered.html 'document.querySelector("svg.chart g.bar").dispatchEvent(new MouseEvent("click", {bubbles: true})); scrollTo(0, 0);'
chrome --window-size=1400,1400 --screenshot="$OUT/audit-filtered.png" "file://$OUT/filtered.html"

# 5. The hostile file name is text, not an element.
check "no injected element" bash -c "! grep -q '<img' '$OUT/dom-hash.html'"
check "the hostile file name is shown as text" grep -q '&lt;img src=x onerror=alert(1)&gt;.properties' "$OUT/dom-hash.html"

# 6. Load time of a 1,000-repository report: the repositories above copied
# under new names up to 1,000, rendered by `kafkalint audit merge`; the page
# records its navigation timing and how long a bar's filter takes.
python3 - "$OUT/audit.json" "$OUT/big.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
src = d["repos"]
d["repos"] = [dict(src[i % len(src)], path="big/%04d-%s" % (i, src[i % len(src)]["path"].split("/")[-1])) for i in range(1000)]
json.dump(d, open(sys.argv[2], "w"))
EOF
(cd "$OUT" && ./kafkalint audit merge --quiet --format html=big.html big.json) || true
timing='
addEventListener("load", () => setTimeout(() => {
  const n = performance.getEntriesByType("navigation")[0];
  const t0 = performance.now();
  document.querySelector("svg.chart g.bar").dispatchEvent(new MouseEvent("click", {bubbles: true}));
  const filter = performance.now() - t0;
  document.body.insertAdjacentHTML("beforeend", "<pre id=timing>" + JSON.stringify({rows: document.querySelectorAll("#repo-table tbody tr").length,
    interactive: Math.round(n.domInteractive), loaded: Math.round(n.loadEventEnd), filter: Math.round(filter)}) + "</pre>");
}, 0));
'
python3 - "$OUT/big.html" "$OUT/big-timed.html" "<script>$timing</script>" <<'EOF'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", sys.argv[3] + "\n</body>"))
EOF
chrome --dump-dom "file://$OUT/big-timed.html" >"$OUT/dom-big.html"
python3 - "$OUT/dom-big.html" "$OUT/big.html" <<'EOF' && big=true || big=false
import html, json, os, re, sys
m = re.search(r'<pre id="timing">(.*?)</pre>', open(sys.argv[1], encoding="utf-8").read(), re.S)
t = json.loads(html.unescape(m.group(1)))
print("1,000 repositories (%.1f MB): DOM interactive %d ms, load event done %d ms, a bar's filter %d ms"
      % (os.path.getsize(sys.argv[2]) / 1e6, t["interactive"], t["loaded"], t["filter"]))
# Generous bounds: a shared CI runner, not a benchmark.
sys.exit(0 if t["rows"] == 1000 and t["loaded"] < 5000 and t["filter"] < 1000 else 1)
EOF
check "a 1,000-repository report loads in under 5 s and filters in under 1 s" $big

echo "report:      $OUT/audit.html"
echo "screenshots: $OUT/audit.png $OUT/audit-full.png $OUT/audit-drilldown.png $OUT/audit-filtered.png"
exit $fail
