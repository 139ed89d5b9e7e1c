package config

import (
	"errors"
	"path"
	"slices"
	"strings"
)

// Glob is a slash-separated path pattern relative to the configuration
// file's directory. Each segment is a path.Match pattern (`*`, `?`,
// `[...]`, `\` escapes; `*` never crosses a `/`), and a segment that is
// exactly `**` matches any number of segments, none included. The pattern
// matches the whole path: `*.properties` matches only files beside the
// configuration file, `**/*.properties` matches them at any depth.
type Glob struct {
	Pattern string
	segs    []string
}

// CompileGlob checks a pattern and prepares it for matching.
func CompileGlob(pattern string) (*Glob, error) {
	p := strings.TrimPrefix(pattern, "./")
	switch {
	case strings.TrimSpace(p) == "":
		return nil, errors.New("empty glob")
	case strings.HasPrefix(p, "/"):
		return nil, errors.New("globs are relative to the directory of the configuration file; remove the leading /")
	}
	segs := strings.Split(p, "/")
	for _, s := range segs {
		switch {
		case s == "" || s == ".":
			return nil, errors.New("empty path segment (a // or /./)")
		case s == "..":
			return nil, errors.New("`..` cannot be used: globs only match files under the configuration file's directory")
		case s == "**":
			continue
		case strings.Contains(s, "**"):
			return nil, errors.New("`**` must be a whole path segment, as in `a/**/b`; inside a segment use `*`")
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, errors.New("malformed pattern (check [ ] brackets and trailing \\)")
		}
	}
	return &Glob{Pattern: pattern, segs: segs}, nil
}

// Match reports whether rel, a slash-separated path relative to the
// configuration file's directory, matches the glob.
func (g *Glob) Match(rel string) bool {
	return matchSegs(g.segs, strings.Split(rel, "/"))
}

// matchSeg is path.Match(pat, name) for one segment (name holds no /),
// without path.Match's scan for the two commonest forms: a literal, and a
// star followed by a literal (*.tf, an extension), tried on every file.
func matchSeg(pat, name string) bool {
	const meta = `*?[\`
	if !strings.ContainsAny(pat, meta) {
		return pat == name
	}
	if rest, ok := strings.CutPrefix(pat, "*"); ok && !strings.ContainsAny(rest, meta) {
		return strings.HasSuffix(name, rest)
	}
	ok, _ := path.Match(pat, name)
	return ok
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// Collapse runs of ** and try every split point.
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			// Without another **, the rest of the pattern matches exactly
			// as many segments as it has: only the last ones can match
			// (an exclude glob such as **/*.tf is tried on every file).
			if !slices.Contains(pat, "**") {
				return len(name) >= len(pat) && matchSegs(pat, name[len(name)-len(pat):])
			}
			for i := range name {
				if matchSegs(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if !matchSeg(pat[0], name[0]) {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
