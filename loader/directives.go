package loader

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Inline suppression directives, written in a source file's comments:
//
//	# kafkalint:ignore KFK1001[,KFK1002|slug...] -- reason
//	# kafkalint:ignore-file KFK4002 -- reason
//
// `ignore` applies to the next line that is not a comment line (stacked
// comments between are fine, a blank line is not) or, written after code
// on the same line (YAML, HCL), to that line. In .properties a '#' after a
// value is part of the value, so only the line-above form exists there;
// '!' comments work too. `ignore-file` must come before the file's first
// setting and applies to the whole file (the form for findings about a
// missing key). The reason after `--` is required. This file only parses;
// what a directive suppresses is decided after evaluation (the CLI).

// Directive kinds.
const (
	DirectiveIgnore     = "ignore"
	DirectiveIgnoreFile = "ignore-file"
)

// Directive is one `kafkalint:` comment.
type Directive struct {
	File string
	// Line is where the comment is written.
	Line int
	// Target is the line an `ignore` applies to; 0 for `ignore-file`.
	Target int
	Kind   string
	// Rules are the rule ids or slugs as written.
	Rules []string
	// Reason is the text after `--`; empty when missing.
	Reason string
	// Problem, when set, says why the directive cannot apply at all
	// (malformed, misplaced); such a directive suppresses nothing.
	Problem string
	// ReasonHint explains a missing reason (e.g. text without `--`).
	ReasonHint string
}

// Text is the directive as it is shown in messages and keys:
// "kafkalint:ignore KFK1001,KFK1002".
func (d Directive) Text() string {
	s := "kafkalint:" + cmp.Or(d.Kind, DirectiveIgnore)
	if len(d.Rules) > 0 {
		s += " " + strings.Join(d.Rules, ",")
	}
	return s
}

// directivePrefix starts every directive comment.
const directivePrefix = doc.DirectivePrefix

// isDirective reports whether a comment is a directive (well formed or not):
// ParseDirectives looks at no other comment but to skip comment lines
// between a directive and its target.
func isDirective(c Comment) bool { return doc.IsDirective(c.Text) }

var (
	directiveRE = regexp.MustCompile(`^kafkalint:\s*([A-Za-z][A-Za-z-]*)(.*)$`)
	ruleTokenRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*$`)
	ruleIDRE    = regexp.MustCompile(`(?i)^KFK\d{4}$`)
)

// ParseDirectives finds the directives among a file's comments.
// firstSetting is the line of the file's first setting (0 when unknown):
// an `ignore-file` directive must come before it.
func ParseDirectives(file string, comments []Comment, firstSetting int) []Directive {
	commentLine := map[int]bool{}
	for _, c := range comments {
		if !c.Trailing {
			commentLine[c.Line] = true
		}
	}
	var out []Directive
	for _, c := range comments {
		d, ok := parseDirective(strings.TrimSpace(c.Text))
		if !ok {
			continue
		}
		d.File, d.Line = file, c.Line
		switch {
		case d.Problem != "":
		case d.Kind == DirectiveIgnoreFile && c.Trailing:
			d.Problem = "kafkalint:ignore-file must be a comment line of its own, before the file's first setting"
		case d.Kind == DirectiveIgnoreFile && firstSetting > 0 && c.Line > firstSetting:
			d.Problem = fmt.Sprintf("kafkalint:ignore-file must come before the file's first setting (line %d); move it to the top of the file", firstSetting)
		case d.Kind == DirectiveIgnore && c.Trailing:
			d.Target = c.Line
		case d.Kind == DirectiveIgnore:
			t := c.Line + 1
			for commentLine[t] {
				t++
			}
			d.Target = t
		}
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b Directive) int { return cmp.Compare(a.Line, b.Line) })
	return out
}

// parseDirective reads a comment's text (marker removed, trimmed). ok is
// false for comments that are not directives at all.
func parseDirective(text string) (d Directive, ok bool) {
	m := directiveRE.FindStringSubmatch(text)
	if m == nil {
		return d, false
	}
	word, rest := m[1], m[2]
	spaced := len(text) > len("kafkalint:") && (text[len("kafkalint:")] == ' ' || text[len("kafkalint:")] == '\t')
	switch {
	case spaced && !strings.HasPrefix(strings.ToLower(word), "ignore"):
		return d, false // prose such as "kafkalint: checked by CI"
	case word == DirectiveIgnore || word == DirectiveIgnoreFile:
		d.Kind = word
	default:
		d.Kind = DirectiveIgnore
		d.Problem = fmt.Sprintf("unknown directive %q: write `kafkalint:ignore RULE -- reason` or `kafkalint:ignore-file RULE -- reason`", "kafkalint:"+word)
		return d, true
	}
	if spaced {
		d.Problem = fmt.Sprintf("write `kafkalint:%s` without a space after the colon", word)
		return d, true
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		d.Problem = fmt.Sprintf("unknown directive %q: write `kafkalint:ignore RULE -- reason` or `kafkalint:ignore-file RULE -- reason`", "kafkalint:"+word+strings.Fields(rest)[0])
		return d, true
	}
	list, reason, hasReason := strings.Cut(rest, "--")
	d.Reason = strings.TrimSpace(reason)
	// The rule list is comma-separated; the first word after it that is
	// not part of the list is stray text.
	var stray []string
	for item := range strings.SplitSeq(list, ",") {
		fields := strings.Fields(item)
		if len(fields) == 0 {
			continue
		}
		if len(stray) > 0 {
			stray = append(stray, fields...)
			continue
		}
		d.Rules = append(d.Rules, fields[0])
		stray = append(stray, fields[1:]...)
	}
	for _, r := range d.Rules {
		if !ruleTokenRE.MatchString(r) {
			d.Problem = fmt.Sprintf("%q is not a rule id or slug", r)
			return d, true
		}
	}
	switch {
	case len(d.Rules) == 0:
		d.Problem = fmt.Sprintf("kafkalint:%s names no rule: write `kafkalint:%s KFKxxxx -- reason`", d.Kind, d.Kind)
	case len(stray) > 0 && ruleIDRE.MatchString(stray[0]):
		d.Problem = "separate rule ids with commas, as in `kafkalint:ignore KFK1001,KFK1002 -- reason`"
	case len(stray) > 0 && hasReason:
		d.Problem = fmt.Sprintf("unexpected %q between the rule list and `--`", strings.Join(stray, " "))
	case len(stray) > 0:
		d.ReasonHint = "the reason must follow `--`, as in `" + d.Text() + " -- " + strings.Join(stray, " ") + "`"
	case !hasReason || d.Reason == "":
		d.ReasonHint = "add one after `--`, as in `" + d.Text() + " -- why this is acceptable here`"
	}
	return d, true
}

// collectDirectives parses the directives of every file that produced a
// doc. Docs of one file may carry the same comments; they are merged.
func collectDirectives(docs []*Doc) map[string][]Directive {
	comments := map[string][]Comment{}
	first := map[string]int{}
	setFirst := func(file string, loc Location) {
		if loc.File == file && loc.Line > 0 && (first[file] == 0 || loc.Line < first[file]) {
			first[file] = loc.Line
		}
	}
	for _, d := range docs {
		comments[d.File] = append(comments[d.File], d.Comments...)
		for _, s := range d.Settings {
			setFirst(d.File, s.Loc)
		}
		// A file that holds values of a doc of another file (a Strimzi
		// Kafka resource beside its pools) has its directives too.
		for _, a := range d.SourceComments {
			comments[a.File] = append(comments[a.File], a.Comments...)
			for _, s := range d.Settings {
				setFirst(a.File, s.Loc)
			}
		}
		for _, dup := range d.Duplicates {
			for _, loc := range dup.Previous {
				setFirst(d.File, loc)
			}
		}
	}
	out := map[string][]Directive{}
	for file, cs := range comments {
		slices.SortFunc(cs, func(a, b Comment) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Text, b.Text), boolCompare(a.Trailing, b.Trailing))
		})
		cs = slices.Compact(cs)
		if ds := ParseDirectives(file, cs, first[file]); len(ds) > 0 {
			out[file] = ds
		}
	}
	return out
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
