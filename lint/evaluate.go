package lint

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/kafkalint/kafkalint/baseline"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// clusterFiles is what the steps after evaluation need of a cluster: its
// name and files, not its model.
type clusterFiles struct {
	name    string
	version string // the cluster's target Kafka version
	files   []*loader.SourceFile
}

// evaluated is one cluster's outcome.
type evaluated struct {
	clusterFiles
	findings []report.Finding
	err      error
	errText  string // err as reported: no secret of the cluster in it
	// builtinOnly: the custom policies were skipped on this cluster (see
	// evaluate).
	builtinOnly bool
}

// beforeEvaluate, when set (by tests), runs as a cluster's evaluation
// starts.
var beforeEvaluate func(c *loader.Cluster)

// evaluate runs the engine on the clusters of res on a pool of workers
// and builds the report (not yet finished: directives, severities and the
// baseline come next). values, when not nil, gets the values written in
// each cluster's files (baselines hash them).
//
// The clusters are consumed one at a time: res.Clusters is emptied as they
// are handed out, a worker types its cluster's settings (the loader left
// them untyped) and drops the model once it is converted into the rules'
// input, so that the garbage collector frees every model as soon as it is
// evaluated (a 10,000-file tree holds about 100 MB of typed model). What
// it returns of them is their names and files, in res's order.
//
// Nothing that goes wrong on one cluster hides the others: a custom policy
// over its timeout or failing, a panic, an interruption each become an
// errors entry saying what was not evaluated, and every finding that was
// computed is reported.
func evaluate(ctx context.Context, engine *policies.Engine, res *loader.Result, values baseline.Values, cache *Cache) (*report.Report, []clusterFiles) {
	rep := &report.Report{Summary: report.Summary{Files: res.Files, Skipped: res.Skipped}}
	for _, l := range res.SkippedLinks {
		rep.Summary.SkippedLinks = append(rep.Summary.SkippedLinks, report.SkippedLink(l))
	}
	for _, e := range res.Errors {
		rep.Errors = append(rep.Errors, *e)
	}
	// A custom policy that runs out of time on one cluster usually does on
	// all: after the first timeout the others run the built-in rules only,
	// so that a runaway policy costs one budget, not one per cluster.
	var timedOut atomic.Pointer[policies.CustomError]
	builtinOnly := engine.BuiltinOnly()
	type job struct {
		i int
		c *loader.Cluster
	}
	run := cache.begin()
	work := make(chan job)
	var mu sync.Mutex // out and values
	var out []evaluated
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(res.Clusters), 1)) {
		wg.Go(func() {
			for j := range work {
				var done func()
				if policies.EvaluatedAlone(j.c) {
					done = evaluatingLarge()
				}
				// The loader left the cluster untyped (lint.Run): its typed
				// settings live while it is evaluated, not the whole run.
				j.c.Type()
				if values != nil { // before evaluation, while the model is whole
					mu.Lock()
					values.Add(j.c)
					mu.Unlock()
				}
				r := evaluateCached(ctx, run, engine, builtinOnly, &timedOut, j.c)
				if done != nil {
					done()
				}
				mu.Lock()
				if len(out) <= j.i {
					out = append(out, make([]evaluated, j.i+1-len(out))...)
				}
				out[j.i] = r
				mu.Unlock()
			}
		})
	}
	rep.Summary.UnknownEnvironment = unknownEnvironmentFiles(res.Clusters)
	// The large clusters, evaluated alone, go last: while one is, the live
	// heap is then its input and the other large clusters' untyped
	// documents, not the whole tree's (the peak of a lint of a monorepo of
	// copied configs, bench/compare.sh's shared layout). The report keeps
	// res's order.
	var alone []int
	for i, c := range res.Clusters {
		if len(c.Nodes) > 0 {
			rep.Summary.Clusters++
		}
		if policies.EvaluatedAlone(c) {
			alone = append(alone, i)
			continue
		}
		res.Clusters[i] = nil // the worker holds the only reference
		work <- job{i, c}
	}
	for _, i := range alone {
		c := res.Clusters[i]
		res.Clusters[i] = nil
		work <- job{i, c}
	}
	res.Clusters = nil
	close(work)
	wg.Wait()
	run.end(ctx.Err() != nil)
	files := make([]clusterFiles, len(out))
	nSkipped, nFindings := 0, len(rep.Findings)
	for _, r := range out {
		nFindings += len(r.findings)
	}
	rep.Findings = slices.Grow(rep.Findings, nFindings-len(rep.Findings)) // one copy of a bulk run's many
	for i, r := range out {
		files[i] = r.clusterFiles
		// A custom policy's failure keeps the cluster's built-in findings.
		rep.Findings = append(rep.Findings, r.findings...)
		if r.builtinOnly && r.err == nil {
			nSkipped++
		}
		if r.err != nil {
			rep.Errors = append(rep.Errors, report.LoadError{File: clusterFile(r.clusterFiles), Message: r.errText})
		}
	}
	if ce := timedOut.Load(); ce != nil && nSkipped > 0 {
		rep.Errors = append(rep.Errors, report.LoadError{File: ".", Message: fmt.Sprintf(
			"the custom policies were not run on %d more %s, after they exceeded --policy-timeout on cluster %s; the built-in rules were",
			nSkipped, plural(nSkipped, "cluster"), ce.Cluster)})
	}
	return rep, files
}

// evaluatingLarge waits until no other large cluster is typed or
// evaluated (it would wait for the engine's gate anyway, holding its typed
// model meanwhile: policies.EvaluatedAlone) and, while TuneGC raises the
// collector's target for throughput (the command line does,
// cmd/kafkalint), lowers it to largeGCPercent for the cluster: its input
// (some 60 MB for 2,000 parties) is most of the live heap then, and the
// tuner's 300 would let the heap grow to four times that. Without a tuner
// the target in force stays. The function it returns undoes both.
func evaluatingLarge() (done func()) {
	return setGCPercent(func(prev int) int {
		if prev >= 0 && activeTuner.Load() != nil {
			return min(prev, largeGCPercent)
		}
		return prev
	})
}

// largeGCPercent caps the collector's target while a large cluster is
// evaluated. On bench/compare.sh's shared layout the cap does not bind:
// for a large cluster's live heap the tuner's own target is already about
// Go's 100 (the lint made the same 13-15 collections with a cap of 150 and
// of 300, GODEBUG=gctrace=1), and the whole-tree lint's peak RSS over 8
// runs read 226-262 MB with a cap of 100 and 221-262 MB with 150. It binds
// where the tuner's budget is large for the cluster (many small files
// beside it). When the lint still held every file's text, 85 gave 236 MB,
// 100 259 MB and 130 265-281 MB.
const largeGCPercent = 150

// evaluateCached is evaluateOne through run's cache (none when nil).
// Only a complete evaluation is cached: an error is an interruption, a
// custom policy's timeout (which depends on the machine's load) or a bug,
// and evaluating again is what an uncached run does.
func evaluateCached(ctx context.Context, run *cacheRun, engine, builtinOnly *policies.Engine, timedOut *atomic.Pointer[policies.CustomError], c *loader.Cluster) evaluated {
	if run == nil {
		return evaluateOne(ctx, engine, builtinOnly, timedOut, c)
	}
	k, ok := run.key(engine, c)
	if ok {
		if fs, hit := run.get(k); hit {
			return evaluated{clusterFiles: clusterFiles{name: c.Name, version: c.KafkaVersion, files: c.Files}, findings: fs}
		}
	}
	run.cache.evaluated.Add(1)
	r := evaluateOne(ctx, engine, builtinOnly, timedOut, c)
	if ok && r.err == nil && !r.builtinOnly {
		run.put(k, r.findings)
	}
	return r
}

// evaluateOne evaluates c with engine, or with builtinOnly once the
// custom policies have timed out on some cluster (timedOut, which it sets
// on the first timeout). It reads c only until it is prepared: the
// caller holds no other reference, so a large cluster's model is garbage
// while its rules run (policies.Prepared).
func evaluateOne(ctx context.Context, engine, builtinOnly *policies.Engine, timedOut *atomic.Pointer[policies.CustomError], c *loader.Cluster) evaluated {
	r := evaluated{clusterFiles: clusterFiles{name: c.Name, version: c.KafkaVersion, files: c.Files}}
	e := engine
	if timedOut.Load() != nil && engine.HasCustom() {
		e, r.builtinOnly = builtinOnly, true
	}
	// p stays nil when c is not evaluated: then no text quotes c.
	var p *policies.Prepared
	if r.err = ctx.Err(); r.err == nil { // interrupted: skip the rest
		p, r.findings, r.err = evaluateCluster(ctx, e, c)
	}
	if ce, ok := errors.AsType[*policies.CustomError](r.err); ok && ce.TimedOut {
		timedOut.CompareAndSwap(nil, ce)
	}
	if r.err != nil {
		r.errText = p.Redact(clusterErrorText(ctx, engine, r.name, r.err))
	}
	return r
}

// evaluateCluster prepares and evaluates one cluster; a panic (a bug, in
// kafkalint or OPA) becomes that cluster's error.
func evaluateCluster(ctx context.Context, engine *policies.Engine, c *loader.Cluster) (p *policies.Prepared, fs []report.Finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, fmt.Errorf("internal error (please report it): %v", r)
		}
	}()
	if beforeEvaluate != nil {
		beforeEvaluate(c)
	}
	p = policies.Prepare(c)
	fs, err = engine.EvaluatePrepared(ctx, p)
	return p, fs, err
}

// clusterErrorText says what was not evaluated on a cluster, and why.
func clusterErrorText(ctx context.Context, engine *policies.Engine, cluster string, err error) string {
	if ce, ok := errors.AsType[*policies.CustomError](err); ok {
		if ce.TimedOut {
			return fmt.Sprintf("cluster %s: the custom policies did not finish within --policy-timeout %s of CPU time (a policy that iterates over every combination of a large input?); their findings on this cluster are missing, the built-in rules' are reported; fix the policy, or raise --policy-timeout",
				cluster, engine.Timeout())
		}
		return fmt.Sprintf("cluster %s: the custom policies failed, their findings on this cluster are missing (the built-in rules' are reported): %v", cluster, ce.Err)
	}
	if ctx.Err() != nil {
		return fmt.Sprintf("cluster %s was not evaluated: %v", cluster, context.Cause(ctx))
	}
	return fmt.Sprintf("cluster %s was not evaluated: %v", cluster, err)
}

// plural is word, or its plural for n other than 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// unknownEnvironmentFiles counts the files of unknown environment (the
// summary says once that they are treated as production).
func unknownEnvironmentFiles(clusters []*loader.Cluster) int {
	files := map[string]bool{}
	for _, c := range clusters {
		for _, f := range c.Files {
			if f.Environment == loader.EnvUnknown {
				files[f.Path] = true
			}
		}
	}
	return len(files)
}
