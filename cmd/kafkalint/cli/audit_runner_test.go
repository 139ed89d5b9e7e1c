package cli

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAuditRecoversPanics: a panic while one repository loads is that
// repository's error; the audit reports every other repository and exits
// 2. (A panic while a cluster is evaluated is that cluster's error: the
// lint package's TestEvaluationPanicIsAnError.)
func TestAuditRecoversPanics(t *testing.T) {
	auditTree(t)
	beforeRepo = func(_ context.Context, path string) {
		if path == "repos/alpha" {
			panic("injected load panic")
		}
	}
	t.Cleanup(func() { beforeRepo = nil })
	code, repos, _, _ := auditReport(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "json", "repos")
	if code != ExitError {
		t.Errorf("exit %d, want 2", code)
	}
	byPath := map[string]int{}
	for i, r := range repos {
		byPath[r.Path] = i
	}
	alpha := repos[byPath["repos/alpha"]]
	if !alpha.Summary.Failed || len(alpha.Errors) != 1 || !strings.Contains(alpha.Errors[0].Message, "internal error (please report it): injected load panic") {
		t.Errorf("repos/alpha = %+v, want its panic as its error", alpha)
	}
	if got := repoFindings(repos[byPath["repos/gitrepo"]]); len(got) != 1 {
		t.Errorf("repos/gitrepo = %v, want its finding despite the panic elsewhere", got)
	}
}

// TestAuditRepoTimeoutStopsTheWork: a repository past --repo-timeout is
// recorded once its work has stopped; nothing of it goes on in the
// background while the audit moves on (or after it returns).
func TestAuditRepoTimeoutStopsTheWork(t *testing.T) {
	auditTree(t)
	var finished atomic.Bool
	beforeRepo = func(ctx context.Context, path string) {
		if path == "repos/alpha" {
			<-ctx.Done()
			time.Sleep(300 * time.Millisecond) // what honoring the context still costs
			finished.Store(true)
		}
	}
	t.Cleanup(func() { beforeRepo = nil })
	code, repos, _, _ := auditReport(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "json", "--repo-timeout", "200ms", "repos")
	if !finished.Load() {
		t.Error("the audit returned while repos/alpha was still working")
	}
	if code != ExitError || !repos[0].Summary.Failed || repos[0].Errors[0].Message != "not analyzed: timed out after 200ms (--repo-timeout)" {
		t.Errorf("exit %d, repos/alpha = %+v: want it recorded as timed out", code, repos[0])
	}
}
