package loader

import (
	"maps"
	"testing"
)

// TestProtocolMap pins the effective listener.security.protocol.map to
// Kafka's AbstractKafkaConfig.effectiveListenerSecurityProtocolMap (4.3.1)
// and the KafkaConfig one of 3.9, and to the Kafka tests that exercise it.
func TestProtocolMap(t *testing.T) {
	defaults := map[string]string{"PLAINTEXT": "PLAINTEXT", "SSL": "SSL", "SASL_PLAINTEXT": "SASL_PLAINTEXT", "SASL_SSL": "SASL_SSL"}
	with := func(extra map[string]string) map[string]string {
		m := maps.Clone(defaults)
		maps.Copy(m, extra)
		return m
	}
	for _, tc := range []struct {
		name, props string
		want        map[string]string
	}{
		{"KafkaConfigTest#testControllerListenerNameMapsToPlaintextByDefaultForKRaft",
			"process.roles=broker\ncontroller.listener.names=CONTROLLER\nlisteners=PLAINTEXT://:9092\n",
			with(map[string]string{"CONTROLLER": "PLAINTEXT"})},
		{"KafkaConfigTest#testMultipleControllerListenerNamesMapToPlaintextByDefaultForKRaft",
			"process.roles=controller\ncontroller.listener.names=C1,C2\nlisteners=C1://:9093,C2://:9094\n",
			with(map[string]string{"C1": "PLAINTEXT", "C2": "PLAINTEXT"})},
		{"an SSL listener: no implicit mapping",
			"process.roles=broker\ncontroller.listener.names=CONTROLLER\nlisteners=SSL://:9092\n", defaults},
		{"a lower-case ssl listener is upper-cased first (parseListenerName)",
			"process.roles=broker\ncontroller.listener.names=CONTROLLER\nlisteners=ssl://:9092\n", defaults},
		{"an SSL controller listener name: no implicit mapping",
			"process.roles=controller\ncontroller.listener.names=SSL\nlisteners=SSL://:9093\n", defaults},
		{"advertised.listeners do not count",
			"process.roles=broker\ncontroller.listener.names=CONTROLLER\nlisteners=PLAINTEXT://:9092\nadvertised.listeners=SSL://b:9092\n",
			with(map[string]string{"CONTROLLER": "PLAINTEXT"})},
		{"a controller name is added as written (new ListenerName, not normalised)",
			"process.roles=controller\ncontroller.listener.names=controller\nlisteners=CONTROLLER://:9093\n",
			with(map[string]string{"controller": "PLAINTEXT"})},
		{"a lower-case ssl controller name is not SSL (compared as written)",
			"process.roles=controller\ncontroller.listener.names=ssl\nlisteners=CONTROLLER://:9093\n",
			with(map[string]string{"ssl": "PLAINTEXT"})},
		{"ZooKeeper mode (3.x): no implicit mapping",
			"zookeeper.connect=zk:2181\ncontroller.listener.names=CONTROLLER\nlisteners=PLAINTEXT://:9092\n", defaults},
		{"an explicit map replaces the default, names normalised",
			"process.roles=broker\ncontroller.listener.names=CONTROLLER\nlistener.security.protocol.map=internal:SSL\n",
			map[string]string{"INTERNAL": "SSL"}},
		{"a placeholder map is unknown",
			"process.roles=broker\nlistener.security.protocol.map=${env:MAP}\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := LoadSources([]Source{{Name: "dev/server.properties", Data: []byte(tc.props)}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Clusters[0].Nodes[0].ProtocolMap
			if !maps.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("protocol map = %v, want %v", got, tc.want)
			}
		})
	}
}
