package policies

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kafkalint/kafkalint/report"
)

// withCall is customRuleText whose finding also needs expr to hold.
func withCall(expr string) string {
	return strings.Replace(customRuleText, "\ts.value == true\n", "\ts.value == true\n\t"+expr+"\n", 1)
}

func loadCustom(t *testing.T, text string) *Engine {
	t.Helper()
	e, err := Load(t.Context(), Options{Policies: []string{writePolicies(t, map[string]string{"r.rego": text})}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

const prodBroker = "process.roles=broker\nnode.id=1\nauto.create.topics.enable=true\n"

// TestCustomTimeoutKeepsBuiltinFindings: --policy-timeout bounds the
// custom rules of one cluster; the built-in findings of that cluster are
// still returned, with a *CustomError that says it timed out.
func TestCustomTimeoutKeepsBuiltinFindings(t *testing.T) {
	// About 9 million steps: seconds of evaluation, far past 100ms, and
	// finite, so that a broken budget still ends the test.
	e := loadCustom(t, withCall("count([x | some a in numbers.range(1, 3000); some b in numbers.range(1, 3000); x := a * b]) > 0")).
		WithTimeout(100 * time.Millisecond)
	start := time.Now()
	fs, err := e.Evaluate(t.Context(), cluster(t, "prod/server.properties", prodBroker))
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("evaluation went on for %s past a 100ms budget", d)
	}
	var ce *CustomError
	if !errors.As(err, &ce) || !ce.TimedOut || ce.Budget != 100*time.Millisecond {
		t.Fatalf("err = %v, want a timed-out *CustomError", err)
	}
	builtinFindings, custom := 0, 0
	for _, f := range fs {
		switch {
		case f.ID == "ACME100":
			custom++
		case strings.HasPrefix(f.ID, "KFK"):
			builtinFindings++
		}
	}
	if builtinFindings == 0 || custom != 0 {
		t.Errorf("%d built-in and %d custom findings, want the built-in ones only: %+v", builtinFindings, custom, fs)
	}
	// The same engine without a budget finds the custom finding too: the
	// budget, not the rule, ended it (and the rule is otherwise sound).
	quick := loadCustom(t, withCall("count(numbers.range(1, 10)) == 10")).WithTimeout(10 * time.Second)
	fs, err = quick.Evaluate(t.Context(), cluster(t, "prod/server.properties", prodBroker))
	if err != nil || !hasFinding(fs, "ACME100") {
		t.Errorf("quick rule: err %v, findings %+v", err, fs)
	}
}

func hasFinding(fs []report.Finding, id string) bool {
	for _, f := range fs {
		if f.ID == id {
			return true
		}
	}
	return false
}

// TestCPUBudgetIsCPUTime: the budget counts the evaluating thread's CPU
// time, not time spent waiting (a loaded machine), and a spinning function
// is stopped.
func TestCPUBudgetIsCPUTime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the CPU clock is Linux's; elsewhere the budget is wall time")
	}
	err := withCPUBudget(t.Context(), 50*time.Millisecond, func(ctx context.Context) error {
		select {
		case <-time.After(300 * time.Millisecond): // no CPU used
			return nil
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	})
	if err != nil {
		t.Errorf("300ms of waiting ended a 50ms CPU budget: %v", err)
	}
	start := time.Now()
	err = withCPUBudget(t.Context(), 50*time.Millisecond, func(ctx context.Context) error {
		n := 0
		for ctx.Err() == nil && time.Since(start) < 5*time.Second {
			n++
		}
		_ = n
		return context.Cause(ctx)
	})
	if !errors.Is(err, errBudget) {
		t.Errorf("spinning: %v, want the budget to end it", err)
	}
}

// TestBuiltinLimits: each amplifying builtin is refused before it computes
// a result over the limits, and the evaluation ends with an error naming it
// (never an undefined call that silently drops the finding). Small limits
// keep every case fast even where a check is missing... as long as the
// arguments are small too: each case would need at most seconds unchecked.
func TestBuiltinLimits(t *testing.T) {
	small := limits{MaxElements: 100, MaxBytes: 1000, MaxBits: 64}
	cases := []struct{ expr, builtin string }{
		{"count(numbers.range(0, 1000)) > 0", "numbers.range"},
		{"count(numbers.range_step(0, 1000, 2)) > 0", "numbers.range_step"},
		{"bits.lsh(1, 100) > 0", "bits.lsh"},
		{"12345678901234567890123 * 12345678901234567890123 > 0", "mul"},
		{"count(array.concat(numbers.range(1, 60), numbers.range(1, 60))) > 0", "array.concat"},
		{`count(concat("", [x | some i in numbers.range(1, 90); x := "0123456789ab"])) > 0`, "concat"},
		{`count(sprintf("%5000d", [1])) > 0`, "sprintf"},
		{`count(sprintf("%[1]s%[1]s%[1]s", [concat("", [x | some i in numbers.range(1, 40); x := "0123456789"])])) > 0`, "sprintf"},
		{`count(replace("aaaaaaaaaa", "", concat("", [x | some i in numbers.range(1, 20); x := "0123456789"]))) > 0`, "replace"},
		{`count(strings.replace_n({"a": concat("", [x | some i in numbers.range(1, 20); x := "0123456789"])}, "aaaaaaaaaa")) > 0`, "strings.replace_n"},
		{`count(regex.replace("aaaaaaaaaa", "a", concat("", [x | some i in numbers.range(1, 20); x := "0123456789"]))) > 0`, "regex.replace"},
		// Any other builtin: its result is checked (base64 grows it by 4/3).
		{`count(base64.encode(concat("", [x | some i in numbers.range(1, 90); x := "0123456789"]))) > 0`, "base64.encode"},
	}
	// One module holds every case (compiling is most of the cost): case i
	// runs on a broker whose acme.case setting is i.
	var module strings.Builder
	header, _, _ := strings.Cut(customRuleText, "report contains")
	module.WriteString(strings.TrimSuffix(header, "\n"))
	for i, tt := range cases {
		fmt.Fprintf(&module, "\nreport contains result.fail(s, \"case %d\") if {\n\tsome node in input.nodes\n\ts := node.settings[\"acme.case\"]\n\ts.value == \"%d\"\n\t%s\n}\n", i, i, tt.expr)
	}
	limited := loadCustom(t, module.String()).withLimits(small).WithTimeout(5 * time.Second)
	for i, tt := range cases {
		t.Run(tt.builtin, func(t *testing.T) {
			c := cluster(t, "prod/server.properties", fmt.Sprintf("%sacme.case=%d\n", prodBroker, i))
			fs, err := limited.Evaluate(t.Context(), c)
			var ce *CustomError
			if !errors.As(err, &ce) || ce.TimedOut || !strings.Contains(err.Error(), tt.builtin+": ") || !strings.Contains(err.Error(), "limit") {
				t.Fatalf("err = %v, want a *CustomError naming %s and the limit", err, tt.builtin)
			}
			if len(fs) == 0 {
				t.Error("the built-in findings are missing")
			}
			// The default limits allow the same call, and the rule reports.
			fs, err = limited.withLimits(defaultLimits).Evaluate(t.Context(), c)
			if err != nil || !hasFinding(fs, "ACME100") {
				t.Errorf("default limits: %v", err)
			}
		})
	}
}

// TestBuiltinLimitsOnlyForCustomRules: the built-in rules' evaluation is
// not limited, so no limit can change a built-in finding.
func TestBuiltinLimitsOnlyForCustomRules(t *testing.T) {
	e := loadCustom(t, withCall("count(numbers.range(1, 5)) == 5")).withLimits(limits{MaxElements: 1, MaxBytes: 1, MaxBits: 1})
	c := cluster(t, "prod/server.properties", prodBroker)
	fs, err := e.Evaluate(t.Context(), c)
	var ce *CustomError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v: want the custom rule to fail under tiny limits", err)
	}
	b, _ := Builtin()
	want, err := b.Evaluate(t.Context(), c)
	if err != nil || len(want) == 0 || len(fs) != len(want) {
		t.Errorf("%d built-in findings under tiny limits, %d without (%v)", len(fs), len(want), err)
	}
}

// TestLocalTimeZoneRefused: the "Local" zone depends on the machine; a
// named zone does not (the zone database is embedded).
func TestLocalTimeZoneRefused(t *testing.T) {
	e := loadCustom(t, withCall(`time.format([0, "Local"]) != ""`))
	_, err := e.Evaluate(t.Context(), cluster(t, "prod/server.properties", prodBroker))
	if err == nil || !strings.Contains(err.Error(), `time.format: the "Local" time zone depends on the machine`) {
		t.Errorf("Local: err = %v", err)
	}
	e = loadCustom(t, withCall(`time.format([0, "Europe/Paris", "15:04"]) == "01:00"`))
	fs, err := e.Evaluate(t.Context(), cluster(t, "prod/server.properties", prodBroker))
	if err != nil || !hasFinding(fs, "ACME100") {
		t.Errorf("Europe/Paris: err %v, findings %+v", err, fs)
	}
}
