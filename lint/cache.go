package lint

import (
	"crypto/sha256"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// Cache keeps the findings of the clusters a run evaluated, so that the
// next run with the same engine evaluates only the clusters whose model
// changed (an editor's lint after an edit re-evaluates the clusters of the
// edited file). It is safe for concurrent use; the zero value is empty and
// ready. What it holds is bounded by the last run: an entry that run did
// not use is dropped when it ends.
//
// Caching the evaluation is exact: a cluster's findings are a function of
// the engine and the cluster's model, which the key covers entirely (the
// model's JSON encoding holds every field, and policies read nothing
// else); severity overrides, directives and baselines are applied after
// evaluation, on every run.
type Cache struct {
	mu      sync.Mutex
	entries map[cacheKey][]report.Finding
	// evaluated counts the clusters evaluated rather than taken from the
	// cache, over the cache's life (Evaluated).
	evaluated atomic.Int64
}

// cacheKey is what a cluster's findings depend on. The engine pointer
// stands for its rules and data: an engine is immutable once compiled,
// and an entry holding it keeps it from being freed and its address
// reused.
type cacheKey struct {
	engine *policies.Engine
	model  [sha256.Size]byte
}

// Evaluated is how many clusters the runs using the cache evaluated
// (cache misses), in total.
func (c *Cache) Evaluated() int64 { return c.evaluated.Load() }

// cacheRun is one run's use of a cache: the entries it used or added,
// which replace the cache's when the run ends.
type cacheRun struct {
	cache *Cache
	mu    sync.Mutex
	used  map[cacheKey][]report.Finding
}

func (c *Cache) begin() *cacheRun {
	if c == nil {
		return nil
	}
	return &cacheRun{cache: c, used: map[cacheKey][]report.Finding{}}
}

// key is the cache key of cluster m evaluated by engine; ok is false when
// the model cannot be encoded (then it is not cached).
func (r *cacheRun) key(engine *policies.Engine, m *loader.Cluster) (k cacheKey, ok bool) {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(m); err != nil {
		return k, false
	}
	k.engine = engine
	h.Sum(k.model[:0])
	return k, true
}

// get returns the cached findings of k, if any.
func (r *cacheRun) get(k cacheKey) ([]report.Finding, bool) {
	r.cache.mu.Lock()
	fs, ok := r.cache.entries[k]
	r.cache.mu.Unlock()
	if ok {
		r.put(k, fs)
	}
	return slices.Clone(fs), ok
}

// put records the findings of k for the next run.
func (r *cacheRun) put(k cacheKey, fs []report.Finding) {
	r.mu.Lock()
	r.used[k] = slices.Clip(slices.Clone(fs))
	r.mu.Unlock()
}

// end makes what the run used the cache's content: entries of clusters
// that no longer exist (or changed) are dropped. An interrupted run (a
// newer edit's lint supersedes it) saw only some clusters: it adds its
// entries and drops none.
func (r *cacheRun) end(interrupted bool) {
	if r == nil {
		return
	}
	r.cache.mu.Lock()
	defer r.cache.mu.Unlock()
	if interrupted {
		if r.cache.entries == nil {
			r.cache.entries = map[cacheKey][]report.Finding{}
		}
		maps.Copy(r.cache.entries, r.used)
		return
	}
	r.cache.entries = r.used
}
