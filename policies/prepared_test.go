package policies

import (
	"runtime"
	"strings"
	"testing"
	"weak"
)

// TestPreparedReleasesTheModel: once a prepared cluster is evaluated, the
// Prepared no longer holds its model (a caller that drops its own
// reference lets the collector free it), a second evaluation is an error,
// and Redact still hides the cluster's secrets.
func TestPreparedReleasesTheModel(t *testing.T) {
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	c := cluster(t, "prod/server.properties", prodBroker+"ssl.key.password=hunter22\n")
	model := weak.Make(c)
	p := Prepare(c)
	c = nil //nolint:ineffassign,wastedassign // the test's own reference goes
	fs, err := e.EvaluatePrepared(t.Context(), p)
	if err != nil || len(fs) == 0 {
		t.Fatalf("evaluate: %v, %d findings", err, len(fs))
	}
	runtime.GC()
	if model.Value() != nil {
		t.Error("the model is still reachable from its Prepared after evaluation")
	}
	if got := p.Redact("the key password is hunter22"); strings.Contains(got, "hunter22") {
		t.Errorf("Redact = %q, quotes the secret", got)
	}
	if _, err := e.EvaluatePrepared(t.Context(), p); err == nil || !strings.Contains(err.Error(), "evaluated already") {
		t.Errorf("second evaluation: %v, want an error", err)
	}
	runtime.KeepAlive(p)
	var none *Prepared
	if got := none.Redact("text"); got != "text" {
		t.Errorf("nil Prepared: Redact = %q", got)
	}
}
