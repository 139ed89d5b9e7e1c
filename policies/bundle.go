// Package policies holds kafkalint's Rego rules (embedded) and the engine
// that compiles them once, prepares the query once and evaluates it per
// cluster.
package policies

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

//go:embed kafkalint schemas/cluster.json
var bundleFS embed.FS

// clusterSchema is the JSON Schema of the policies' input.
func clusterSchema() []byte {
	b, err := bundleFS.ReadFile("schemas/cluster.json")
	if err != nil {
		panic(err) // embedded at build time
	}
	return b
}

// Module is a Rego source file.
type Module struct {
	Path string
	Text string
}

// fixturesFile holds the builders of model fixtures (data.kafkalint.lib.testing),
// used only by tests: the built-in rules' and custom policies' (kafkalint
// test). Leaving it out of the runtime bundle saves compiling it at every
// start (about a tenth of a one-file run).
const fixturesFile = "kafkalint/lib/testing.rego"

// bundleModules returns the embedded Rego modules: the rules and libraries,
// and with withTests also their tests and the test fixtures.
func bundleModules(withTests bool) ([]Module, error) {
	var mods []Module
	err := fs.WalkDir(bundleFS, "kafkalint", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		if !withTests && (strings.HasSuffix(p, "_test.rego") || p == fixturesFile) {
			return nil
		}
		b, err := bundleFS.ReadFile(p)
		if err != nil {
			return err
		}
		mods = append(mods, Module{Path: "policies/" + p, Text: string(b)})
		return nil
	})
	return mods, err
}

// ParseModules parses Rego v1 modules with their METADATA annotations.
func ParseModules(mods []Module) (map[string]*ast.Module, error) {
	// Parsing is a third of the start-up cost of every run (a one-file
	// pre-commit lint included) and each module parses on its own: spread
	// it over the cores.
	parsed := make([]*ast.Module, len(mods))
	errs := make([]error, len(mods))
	opts := ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(mods), 1)) {
		wg.Go(func() {
			for i := range next {
				parsed[i], errs[i] = ast.ParseModuleWithOpts(mods[i].Path, mods[i].Text, opts)
			}
		})
	}
	for i := range mods {
		next <- i
	}
	close(next)
	wg.Wait()
	out := make(map[string]*ast.Module, len(mods))
	for i, m := range mods {
		if errs[i] != nil {
			return nil, fmt.Errorf("parse %s: %w", m.Path, errs[i])
		}
		out[m.Path] = parsed[i]
	}
	return out, nil
}

// NewCompiler returns a compiler configured as the engine uses it: strict,
// with the cluster schema for `schemas` annotations and kafkalint's
// capabilities (capabilities.go).
func NewCompiler() (*ast.Compiler, error) {
	ss := ast.NewSchemaSet()
	var doc any
	if err := json.Unmarshal(clusterSchema(), &doc); err != nil {
		return nil, fmt.Errorf("cluster schema: %w", err)
	}
	ss.Put(ast.MustParseRef("schema.cluster"), doc)
	return ast.NewCompiler().
		WithStrict(true).
		WithSchemas(ss).
		WithUseTypeCheckAnnotations(true).
		WithCapabilities(capabilities()).
		WithEnablePrintStatements(false), nil
}

// testFixtures is the fixtures module (fixturesFile), for running tests
// over the runtime bundle.
func testFixtures() Module {
	b, err := bundleFS.ReadFile(fixturesFile)
	if err != nil {
		panic(err) // embedded at build time
	}
	return Module{Path: "policies/" + fixturesFile, Text: string(b)}
}
