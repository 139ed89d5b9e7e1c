// Package docs embeds the rule pages so `kafkalint explain` can print them.
package docs

import (
	"embed"
	"fmt"
)

//go:embed rules/*.md
var rules embed.FS

// Rule returns the docs page of a rule id (e.g. KFK1001).
func Rule(id string) (string, error) {
	b, err := rules.ReadFile("rules/" + id + ".md")
	if err != nil {
		return "", fmt.Errorf("no docs page for %s", id)
	}
	return string(b), nil
}
