package loader

import (
	"maps"
	"testing"

	"github.com/kafkalint/kafkalint/loader/doc"
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
		{"a blank map is known and maps nothing",
			"process.roles=broker\nlistener.security.protocol.map=\n", map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := LoadSources([]Source{{Name: "dev/server.properties", Data: []byte(tc.props)}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			n := res.Clusters[0].Nodes[0]
			if got, unknown := n.ProtocolMap, n.ProtocolMapUnknown; !maps.Equal(got, tc.want) || unknown != (tc.want == nil) || got == nil {
				t.Errorf("protocol map = %v (unknown %v), want %v (nil: unknown)", got, unknown, tc.want)
			}
		})
	}
}

// TestPlaceholderProtocolMapLeavesListenersUnmapped: with an unknown map no
// listener has a protocol, so no rule can judge one (KFK2001 once did, on a
// fixture that mapped PLAINTEXT to itself whatever the map said).
func TestPlaceholderProtocolMapLeavesListenersUnmapped(t *testing.T) {
	res, err := LoadSources([]Source{{Name: "prod/server.properties",
		Data: []byte("listeners=PLAINTEXT://:9092\nlistener.security.protocol.map=${env:MAP}\n")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := res.Clusters[0].Nodes[0]
	if !n.ProtocolMapUnknown || len(n.ProtocolMap) != 0 {
		t.Errorf("protocol map = %v (unknown %v), want unknown", n.ProtocolMap, n.ProtocolMapUnknown)
	}
	if len(n.Listeners) != 1 || n.Listeners[0].Name != "PLAINTEXT" || n.Listeners[0].Protocol != "" {
		t.Errorf("listeners = %+v, want PLAINTEXT with no protocol", n.Listeners)
	}
}

// TestManagedProtocolMapIsUnknown: a platform that sets the map itself
// (Amazon MSK) runs its own, not Kafka's implicit one.
func TestManagedProtocolMapIsUnknown(t *testing.T) {
	d := &Doc{Doc: doc.Doc{Format: "terraform", ManagedKeys: []string{"listener.security.protocol.map"}}}
	if m, known := protocolMap(d, nil, true); known || len(m) != 0 {
		t.Errorf("protocolMap = %v, %v; want unknown", m, known)
	}
	d.ManagedKeys = nil
	if m, known := protocolMap(d, nil, true); !known || m["SSL"] != "SSL" {
		t.Errorf("protocolMap = %v, %v; want the implicit map", m, known)
	}
}
