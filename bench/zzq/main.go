// Temporary experiment (not committed): query shapes.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
)

func main() {
	dir := os.Args[1]
	engine, _ := policies.Builtin()
	res, _ := loader.Load([]string{dir}, loader.Options{Dir: dir, DefaultKeys: engine.DefaultKeys()})
	mods, _ := policies.BundleModules(false)
	parsed, _ := policies.ParseModules(mods)
	c, _ := policies.NewCompiler()
	c.Compile(parsed)
	var inputs []ast.Value
	for _, cl := range res.Clusters {
		v, _ := ast.InterfaceToValue(cl)
		inputs = append(inputs, v)
	}
	fmt.Println("clusters", len(inputs))
	for _, q := range os.Args[2:] {
		pq, err := rego.New(rego.Compiler(c), rego.Query(q)).PrepareForEval(context.Background())
		if err != nil {
			panic(err)
		}
		t := time.Now()
		n, errs := 0, 0
		for _, in := range inputs {
			rs, err := pq.Eval(context.Background(), rego.EvalParsedInput(in))
			if err != nil {
				errs++
			}
			n += len(rs)
		}
		fmt.Printf("%-70s %v results=%d errors=%d\n", q, time.Since(t), n, errs)
	}
}
