// Command kafkalint lints Apache Kafka cluster configuration.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/kafkalint/kafkalint/cmd/kafkalint/cli"
)

// atExit runs before the process exits (profile.go, a contributors' build).
var atExit = func() {}

func main() {
	stopTuning := tuneGC(os.Args[1:], os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], cli.Streams{Out: os.Stdout, Err: os.Stderr})
	stop()
	stopTuning()
	atExit()
	os.Exit(code)
}
