// Command genplan plans the built-in rules ahead of time and writes them
// as Go source: `go generate ./policies` runs it (policies/generate.go).
//
// It plans the built-in bundle with OPA's compile API (the plan target,
// kafkalint's capabilities, one entrypoint per Rego rule's report set),
// checks that the runtime (policies/plan) accepts the plan, and prints the
// plan and the rules' METADATA as Go composite literals in package
// builtinplan, which the built-in engine starts from. Anything the planner
// or the runtime rejects is an error naming the rule.
//
// It is built with the kafkalint_genplan tag, which leaves the generated
// file out of package builtinplan, so that a stale or broken output never
// stops its own regeneration.
package main

import (
	"flag"
	"log"
	"os"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("genplan: ")
	out := flag.String("o", "builtinplan/plan_gen.go", "output `FILE`")
	flag.Parse()
	src, err := generate()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
