package lint

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// Rules computed here rather than in Rego: directives are comments, which
// the cluster model does not carry.
const (
	idSuppressionWithoutReason = "KFK9002"
	idUnusedSuppression        = "KFK9003"
)

// directiveUse is a well-formed directive with a reason and, per rule id
// it names, whether it suppressed something.
type directiveUse struct {
	d    loader.Directive
	ids  []string
	used []bool
}

// applyDirectives moves the findings that inline directives (by file)
// suppress to rep.Suppressed and reports the directives themselves when
// they lack a reason (KFK9002) or suppress nothing (KFK9003). Rules turned
// off neither count as unused nor are reported.
func applyDirectives(rep *report.Report, directives map[string][]loader.Directive, clusters []clusterFiles, engine *policies.Engine, severity map[string]string) {
	where := fileContext(clusters)
	var uses []*directiveUse
	byFile := map[string][]*directiveUse{}
	var extra []report.Finding
	emit := func(id string, d loader.Directive, key, msg string) {
		r := engine.Rule(id)
		if r == nil || severity[id] == Off {
			return
		}
		ctx := where[d.File]
		extra = append(extra, report.Finding{
			ID: r.ID, Slug: r.Slug, Severity: r.Severity, Message: msg, Why: r.Why(), Fix: r.Fix, File: d.File, Line: d.Line, Column: 1,
			Environment: ctx.env, Cluster: ctx.cluster, DocsURL: r.DocsURL, Key: key,
		})
	}
	for _, file := range slices.Sorted(maps.Keys(directives)) {
		for _, d := range directives[file] {
			switch {
			case d.Problem != "":
				emit(idUnusedSuppression, d, d.Text(), fmt.Sprintf("%s suppresses nothing: %s", d.Text(), d.Problem))
				continue
			case d.ReasonHint != "":
				emit(idSuppressionWithoutReason, d, d.Text(), fmt.Sprintf("%s has no reason, so it suppresses nothing: %s", d.Text(), d.ReasonHint))
				continue
			}
			u := &directiveUse{d: d}
			for _, name := range d.Rules {
				r := engine.Rule(name)
				if r == nil {
					emit(idUnusedSuppression, d, "kafkalint:"+d.Kind+" "+name,
						fmt.Sprintf("%s names %q, which is not a rule", d.Text(), name))
					continue
				}
				if !slices.Contains(u.ids, r.ID) {
					u.ids = append(u.ids, r.ID)
				}
			}
			u.used = make([]bool, len(u.ids))
			uses = append(uses, u)
			byFile[file] = append(byFile[file], u)
		}
	}
	kept := rep.Findings[:0]
	for _, f := range rep.Findings {
		reason, ok := suppressedBy(byFile[f.File], f)
		if !ok {
			kept = append(kept, f)
			continue
		}
		f.Suppression = &report.Suppression{Kind: report.SuppressedInSource, Justification: reason}
		rep.Suppressed = append(rep.Suppressed, f)
	}
	rep.Findings = kept
	for _, u := range uses {
		for i, id := range u.ids {
			if u.used[i] || severity[id] == Off {
				continue
			}
			msg := fmt.Sprintf("kafkalint:ignore %s suppressed nothing: no %s finding on line %d", id, id, u.d.Target)
			if u.d.Kind == loader.DirectiveIgnoreFile {
				msg = fmt.Sprintf("kafkalint:ignore-file %s suppressed nothing: no %s finding in this file", id, id)
			}
			emit(idUnusedSuppression, u.d, "kafkalint:"+u.d.Kind+" "+id, msg)
		}
	}
	rep.Findings = append(rep.Findings, extra...)
}

// suppressedBy finds the directives of f's file that cover f, marks them
// used and returns the first one's reason.
func suppressedBy(uses []*directiveUse, f report.Finding) (reason string, ok bool) {
	for _, u := range uses {
		if u.d.Kind == loader.DirectiveIgnore && u.d.Target != f.Line {
			continue
		}
		for i, id := range u.ids {
			if id == f.ID {
				u.used[i] = true
				if !ok {
					reason, ok = u.d.Reason, true
				}
			}
		}
	}
	return reason, ok
}

type fileCtx struct{ env, cluster string }

// fileContext maps each file to its environment and its (first) cluster,
// for findings computed outside the policies.
func fileContext(clusters []clusterFiles) map[string]fileCtx {
	out := map[string]fileCtx{}
	for _, c := range clusters {
		for _, f := range c.files {
			if _, ok := out[f.Path]; !ok {
				out[f.Path] = fileCtx{env: f.Environment, cluster: c.name}
			}
		}
	}
	return out
}
