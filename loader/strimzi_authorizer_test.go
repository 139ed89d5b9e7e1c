package loader

import (
	"fmt"
	"slices"
	"testing"
)

// TestStrimziAuthorizationManagesAuthorizer: spec.kafka.authorization makes
// the operator set authorizer.class.name (so allow.everyone.if.no.acl.found
// matters, KFK2002); without it the broker runs no authorizer, since
// spec.kafka.config may not set authorizer.* (KafkaClusterSpec's forbidden
// prefixes).
func TestStrimziAuthorizationManagesAuthorizer(t *testing.T) {
	const kafka = `apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: c
  annotations:
    strimzi.io/kraft: enabled
    strimzi.io/node-pools: enabled
spec:
  kafka:
%s    config:
      allow.everyone.if.no.acl.found: true
---
apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaNodePool
metadata:
  name: pool
  labels:
    strimzi.io/cluster: c
spec:
  replicas: 3
  roles: [broker, controller]
`
	for _, tc := range []struct {
		name, authorization string
		want                bool
	}{
		{"simple", "    authorization:\n      type: simple\n", true},
		{"custom", "    authorization:\n      type: custom\n      authorizerClass: com.example.Authz\n", true},
		{"none", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := LoadSources([]Source{{Name: "prod/kafka.yaml", Data: []byte(fmt.Sprintf(kafka, tc.authorization))}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			nodes := 0
			for _, c := range res.Clusters {
				for _, n := range c.Nodes {
					nodes++
					if got := slices.Contains(n.ManagedKeys, "authorizer.class.name"); got != tc.want {
						t.Errorf("%s: authorizer.class.name managed = %v, want %v (managed keys %v)", n.File, got, tc.want, n.ManagedKeys)
					}
				}
			}
			if nodes == 0 {
				t.Fatal("no node loaded")
			}
		})
	}
}
