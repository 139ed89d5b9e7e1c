package policies

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kafkalint/kafkalint/loader"
)

// fuzzStructural are the keys that make the loader see nodes, quorums,
// listeners and clients; with the keys the rules declare (custom.keys) they
// are what the fuzzer writes, so that its lines reach the rules rather than
// the "unknown key" check.
var fuzzStructural = []string{
	"process.roles", "node.id", "broker.id", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
	"listeners", "advertised.listeners", "listener.security.protocol.map", "controller.listener.names",
	"inter.broker.listener.name", "zookeeper.connect", "log.dirs", "bootstrap.servers", "security.protocol",
	"sasl.jaas.config", "ssl.keystore.password", "num.partitions", "unknown.kafka.setting",
}

// fuzzValues are the values it writes: numbers around the rules'
// thresholds, booleans, protocols, roles, voters, placeholders, junk.
var fuzzValues = []string{
	"0", "1", "2", "3", "-1", "5", "100", "1000", "86400000", "true", "false", "yes", "",
	"broker", "controller", "broker,controller", "1@a:9093", "1@a:9093,2@b:9093,3@c:9093", "1@a:9093,2@b:9093",
	"PLAINTEXT://:9092", "PLAINTEXT://:9092,CONTROLLER://:9093", "SASL_SSL://0.0.0.0:9094", "CONTROLLER",
	"PLAINTEXT", "SASL_SSL", "SSL", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT", "a:2181", "/var/kafka",
	"all", "gzip", "none", "${env:SECRET}", "hunter2", "x password=\"s3cret\";", "org.x.Y", "1h", "0.5",
}

// fuzzFiles are the files its lines go to: three nodes of one production
// cluster, a development node, a producer and a consumer.
var fuzzFiles = []string{
	"prod/kafka-1/server.properties", "prod/kafka-2/server.properties", "prod/kafka-3/server.properties",
	"dev/kafka/server.properties", "prod/app/producer.properties", "prod/app/consumer.properties",
}

var fuzzKeys = sync.OnceValue(func() []string {
	e, err := Builtin()
	if err != nil {
		panic(err)
	}
	keys := slices.Clone(fuzzStructural)
	for _, r := range e.Rules() {
		keys = append(keys, r.Keys...)
	}
	slices.Sort(keys)
	return slices.Compact(keys)
})

// fuzzSources turns bytes into properties files: each 3 bytes are one line
// (file, key, value), so every input is a plausible configuration.
func fuzzSources(data []byte) []loader.Source {
	keys := fuzzKeys()
	text := make([]strings.Builder, len(fuzzFiles))
	for i := 0; i+2 < len(data); i += 3 {
		f := int(data[i]) % len(fuzzFiles)
		text[f].WriteString(keys[int(data[i+1])%len(keys)] + "=" + fuzzValues[int(data[i+2])%len(fuzzValues)] + "\n")
	}
	var out []loader.Source
	for i, t := range text {
		if t.Len() > 0 {
			out = append(out, loader.Source{Name: fuzzFiles[i], Data: []byte(t.String())})
		}
	}
	return out
}

// FuzzPlanMatchesInterpreter: on configurations built from arbitrary bytes
// and loaded by the loader, every rule's report set from the VM equals the
// interpreter's (or both engines fail).
func FuzzPlanMatchesInterpreter(f *testing.F) {
	f.Add([]byte{0, 0, 0})
	prog := rulesProgram(f)
	interp := interpreterReports(f)
	data := paramsValue(f)
	e, err := Builtin()
	if err != nil {
		f.Fatal(err)
	}
	opts := loader.Options{DefaultKeys: e.DefaultKeys()}
	f.Fuzz(func(t *testing.T, in []byte) {
		srcs := fuzzSources(in)
		if len(srcs) == 0 {
			return
		}
		res, err := loader.LoadSources(srcs, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Clusters {
			compareEngines(t, prog, interp, data, c)
		}
	})
}
