# METADATA
# title: Suppression directive that suppresses nothing
# description: |
#   A `# kafkalint:ignore` or `# kafkalint:ignore-file` directive matched no
#   finding: the problem was fixed, the directive sits on the wrong line,
#   names an unknown rule, or is malformed. A stale exception hides the next
#   real finding on that line, so remove or fix it.
# related_resources:
#   - description: kafkalint docs, inline suppression
#     ref: https://github.com/kafkalint/kafkalint/blob/main/docs/configuration.md#inline-suppression
# schemas:
#   - input: schema.cluster
# custom:
#   fix: Remove the directive if the problem is fixed, or put it directly above the flagged line with a rule id or slug from `kafkalint rules`.
#   id: KFK9003
#   severity: info
#   scope: all
#   applies_to: [broker, controller, producer, consumer, admin, client, mirrormaker, meta, topic]
#   keys: []
#   since: unreleased
#   engine: go
package kafkalint.rules.hygiene["unused-suppression"]

# Computed in Go (cmd/kafkalint/cli/suppress.go): directives are comments,
# which the cluster model does not carry. Tests: TestKFK9003* in
# cmd/kafkalint/cli/suppress_test.go.
