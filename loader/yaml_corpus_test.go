package loader

import (
	"strings"
	"testing"
)

// TestCorpusYAML loads the real-world Strimzi, Helm values and compose
// files: no load error, and each file is read as its format or skipped
// for a stated reason.
func TestCorpusYAML(t *testing.T) {
	root := corpusDir(t)
	// Files the loader does not read, and why.
	notRead := map[string]string{
		"helm-values/confluentinc__cp-helm-charts__charts__cp-kafka__values.yaml":                                          "not the Bitnami chart",
		"helm-values/confluentinc__cp-helm-charts__charts__cp-zookeeper__values.yaml":                                      "not the Bitnami chart",
		"helm-values/confluentinc__cp-helm-charts__values.yaml":                                                            "not the Bitnami chart",
		"helm-values/helm__charts__incubator__kafka__values__chart-0.21.5.yaml":                                            "not the Bitnami chart",
		"helm-values/helm__charts__incubator__kafka__values__v2017-07.yaml":                                                "not the Bitnami chart",
		"helm-values/strimzi__strimzi-kafka-operator__packaging__helm-charts__helm3__strimzi-kafka-operator__values.yaml":  "operator chart, no Kafka cluster",
		"helm-values/mojaloop__iac-aws-platform__terraform__k8s-apps-setup__state-setup__templates__values-kafka.yaml.tpl": "a .tpl template, not a YAML file",
		"docker-compose/IBM__sarama__docker-compose.yml":                                                                   "custom image sarama/fv-kafka",
		"docker-compose/confluentinc__examples__multiregion__docker-compose.yml":                                           "custom image localbuild/cp-server-tc",
		"docker-compose/debezium__debezium-examples__tutorial__docker-compose-kafka-cluster.yaml":                          "quay.io/debezium/kafka maps its environment differently",
		"docker-compose/debezium__debezium-examples__tutorial__docker-compose-mysql.yaml":                                  "quay.io/debezium/kafka maps its environment differently",
	}
	wantFormat := map[string]string{"strimzi": "strimzi", "helm-values": "helm", "docker-compose": "compose"}
	for folder, format := range wantFormat {
		t.Run(folder, func(t *testing.T) {
			files, loaded, res := loadCorpusFolder(t, root, folder, true)
			got := map[string]string{}
			for path, f := range loaded {
				got[path] = f.Format
			}
			for _, rel := range files {
				if why, ok := notRead[rel]; ok {
					if got[rel] != "" {
						t.Errorf("%s: read as %s, want it skipped (%s)", rel, got[rel], why)
					}
					continue
				}
				if got[rel] != format {
					t.Errorf("%s: format %q, want %q", rel, got[rel], format)
				}
			}
			if want := len(files) - countPrefix(notRead, folder+"/"); len(got) != want {
				t.Errorf("%d files read, want %d", len(got), want)
			}
			if want := len(files) - len(got); res.Skipped+countSuffix(notRead, folder+"/", ".tpl") != want {
				t.Errorf("%d files skipped, want %d", res.Skipped, want)
			}
		})
	}
}

func countPrefix(m map[string]string, prefix string) int {
	return countSuffix(m, prefix, "")
}

// countSuffix counts the keys of m with a prefix and a suffix.
func countSuffix(m map[string]string, prefix, suffix string) int {
	n := 0
	for k := range m {
		if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, suffix) {
			n++
		}
	}
	return n
}
