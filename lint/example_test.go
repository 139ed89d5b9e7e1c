package lint_test

import (
	"context"
	"fmt"

	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/loader"
)

// ExampleRun lints a broker configuration held in memory, as an editor
// would its unsaved buffer; a program linting files on disk passes their
// paths instead of Sources.
func ExampleRun() {
	broker := "process.roles=broker\n" +
		"node.id=4\n" +
		"controller.quorum.bootstrap.servers=c1.example.com:9093\n" +
		"controller.listener.names=CONTROLLER\n" +
		"controlled.shutdown.enable=true\n" +
		"offsets.topic.replication.factor=1\n"
	rep, err := lint.Run(context.Background(), nil, lint.Options{
		Sources: []loader.Source{{Name: "prod/server.properties", Data: []byte(broker)}},
	})
	if err != nil {
		panic(err) // invalid options
	}
	for _, f := range rep.Findings {
		if f.ID == "KFK1001" { // the finding this example is about
			fmt.Printf("%s:%d %s %s %s\n", f.File, f.Line, f.Severity, f.ID, f.Slug)
		}
	}
	fmt.Println(len(rep.Errors), "errors")
	// Output:
	// prod/server.properties:6 error KFK1001 offsets-topic-replication-factor-one
	// 0 errors
}
