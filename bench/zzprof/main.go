// Temporary profiling harness (not committed).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
)

func main() {
	prof := flag.String("cpuprofile", "", "")
	mode := flag.String("mode", "all", "load|all")
	flag.Parse()
	dir := flag.Arg(0)
	engine, _ := policies.Builtin()
	if *prof != "" {
		f, _ := os.Create(*prof)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	t0 := time.Now()
	res, err := loader.Load([]string{dir}, loader.Options{Dir: dir, DefaultKeys: engine.DefaultKeys()})
	if err != nil {
		panic(err)
	}
	t1 := time.Now()
	fmt.Printf("load: %v files=%d clusters=%d\n", t1.Sub(t0), res.Files, len(res.Clusters))
	if *mode == "load" {
		return
	}
	var wg sync.WaitGroup
	work := make(chan *loader.Cluster)
	var mu sync.Mutex
	nerr := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for c := range work {
				if _, err := engine.Evaluate(context.Background(), c); err != nil {
					mu.Lock()
					nerr++
					mu.Unlock()
				}
			}
		})
	}
	for _, c := range res.Clusters {
		work <- c
	}
	close(work)
	wg.Wait()
	fmt.Printf("evaluate: %v errors=%d\n", time.Since(t1), nerr)
}
