// Command gentree writes a synthetic bulk tree of Kafka configuration
// repositories for kafkalint's benchmarks (see package bench/gen):
//
//	go run ./bench/gentree -out /tmp/tree -repos 1000 -files 10 -seed 1 [-layout shared]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/kafkalint/kafkalint/bench/gen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gentree:", err)
		os.Exit(1) //nolint:forbidigo // a command of its own, not the kafkalint CLI
	}
}

func run() error {
	var opts gen.Options
	out := flag.String("out", "", "directory to write the tree into (created; must be empty or absent)")
	flag.IntVar(&opts.Repos, "repos", 1000, "number of repositories")
	flag.IntVar(&opts.Files, "files", 10, "files per repository")
	flag.Uint64Var(&opts.Seed, "seed", 1, "random seed")
	flag.StringVar(&opts.Layout, "layout", gen.LayoutSeparate, "how repositories relate: "+gen.LayoutSeparate+" (own hosts each) or "+gen.LayoutShared+" (copies of a few real clusters' configs, joined into large clusters)")
	flag.StringVar(&opts.Corpus, "corpus", "", "real-world corpus directory (default: ../shared/corpus/real-world beside the repository root)")
	flag.Parse()
	if *out == "" {
		return errors.New("-out is required")
	}
	stats, err := gen.Write(*out, opts)
	if err != nil {
		return err
	}
	fmt.Printf("gentree: %d repositories, %d files (%s), layout %s, in %s\n", opts.Repos, opts.Repos*opts.Files, stats, opts.Layout, *out)
	return nil
}
