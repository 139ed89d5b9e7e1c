# METADATA
# title: Suppression directive without a reason
# description: |
#   A `# kafkalint:ignore` or `# kafkalint:ignore-file` directive has no
#   reason after `--`. It suppresses nothing until it says why the finding
#   is acceptable, so every exception in the repository stays explained.
# related_resources:
#   - description: kafkalint docs, inline suppression
#     ref: https://github.com/kafkalint/kafkalint/blob/main/docs/configuration.md#inline-suppression
# schemas:
#   - input: schema.cluster
# custom:
#   fix: "Give the reason after the rule ids: `kafkalint:ignore KFK1001 -- single-broker test cluster`."
#   id: KFK9002
#   severity: warning
#   scope: all
#   applies_to: [broker, controller, producer, consumer, admin, client, mirrormaker, meta, topic]
#   keys: []
#   since: unreleased
#   engine: go
package kafkalint.rules.hygiene["suppression-without-reason"]

# Computed in Go (cmd/kafkalint/cli/suppress.go): directives are comments,
# which the cluster model does not carry. Tests: TestKFK9002* in
# cmd/kafkalint/cli/suppress_test.go.
