package loader

import (
	"slices"
	"strings"
)

// Environment sources.
const (
	EnvFromFlag = "flag"
	EnvFromPath = "path"
	// EnvFromConfig: the source itself names the environment (a tag, a label).
	EnvFromConfig = "config"
	EnvUnknown    = "unknown"
)

// envWords maps a path segment (or a -/_/. separated part of one) to the
// environment it names.
var envWords = map[string]string{
	"prod": "production", "production": "production", "prd": "production", "live": "production",
	"stage": "staging", "staging": "staging", "stg": "staging", "preprod": "staging", "uat": "staging",
	"dev": "development", "development": "development", "local": "development", "test": "development",
	"tests": "development", "sandbox": "development",
}

// sampleWords are path segments (or parts of one) that name no
// environment but say the file is sample or test material: nobody runs
// a cluster from a repository's examples/ or a test's fixtures/. (Real
// repositories put 84 of 86 Kafka files under such paths with no
// environment word at all.)
var sampleWords = map[string]bool{
	"example": true, "examples": true, "demo": true, "demos": true, "documentation": true,
	"tutorial": true, "tutorials": true, "quickstart": true, "quickstarts": true,
	"testresources": true, "fixture": true, "fixtures": true, "e2e": true,
}

// testKinds prefix "test" in a compound segment that names tests
// ("systemtest", "integrationtests"). Only these: most words ending in
// "test" are not about tests ("latest", "contest", "fastest").
var testKinds = []string{
	"unit", "integration", "system", "e2e", "smoke", "load", "perf", "performance", "stress",
	"acceptance", "functional", "component", "contract", "regression", "it",
}

// environmentOf returns a file's environment: the forced one, else the one
// named by the path segment nearest to the file (the file name first, then
// its directories from the innermost out), else development when a segment
// names sample or test material (isSample), else "unknown". A word that
// names an environment wins over sample words anywhere in the path, so
// examples/production/... stays production.
func environmentOf(file, forced string) (env, source string) {
	if forced != "" {
		return forced, EnvFromFlag
	}
	segs := strings.Split(strings.ToLower(file), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if e := envNamed(segs[i]); e != "" {
			return e, EnvFromPath
		}
	}
	if slices.ContainsFunc(segs, isSample) {
		return "development", EnvFromPath
	}
	return EnvUnknown, EnvUnknown
}

// envNamed returns the environment a lower-case name (a path segment, a
// namespace, a label value) names, or "": the whole name, else its last
// -/_/. separated part that is an environment word.
func envNamed(name string) string {
	if e, ok := envWords[name]; ok {
		return e
	}
	parts := nameParts(name)
	for j := len(parts) - 1; j >= 0; j-- {
		if e, ok := envWords[parts[j]]; ok {
			return e
		}
	}
	return ""
}

// isSample reports a lower-case path segment naming sample or test
// material: it, or one of its -/_/. separated parts, is a sample word,
// starts with "test" ("testdata", "testing") or is a test kind followed
// by "test" or "tests" ("systemtest").
func isSample(seg string) bool {
	return slices.ContainsFunc(append(nameParts(seg), seg), func(p string) bool {
		if sampleWords[p] || strings.HasPrefix(p, "test") {
			return true
		}
		rest, ok := strings.CutSuffix(p, "tests")
		if !ok {
			rest, ok = strings.CutSuffix(p, "test")
		}
		return ok && slices.Contains(testKinds, rest)
	})
}

func nameParts(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
}
