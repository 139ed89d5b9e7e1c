package gen

import (
	"regexp"
	"strings"
)

// props edits a .properties file line by line, keeping its comments,
// blank lines, separators and multi-line (backslash-continued) values, so
// that a mutated file still reads like the real one it came from.
type props struct {
	lines []propLine
}

// propLine is one logical line: a comment, a blank line, or an entry that
// may span several physical lines.
type propLine struct {
	physical []string
	key      string // "" for comments and blank lines
	sep      string // as written: "=", " = ", ":", " "
	removed  bool
}

var entryRE = regexp.MustCompile(`^\s*([^\s=:#!]+)(\s*[=:]\s*|\s+)(.*)$`)

func parseProps(data string) *props {
	p := &props{}
	physical := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
	if n := len(physical); n > 0 && physical[n-1] == "" {
		physical = physical[:n-1]
	}
	for i := 0; i < len(physical); i++ {
		text := physical[i]
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == '!' {
			p.lines = append(p.lines, propLine{physical: []string{text}})
			continue
		}
		l := propLine{physical: []string{text}}
		if m := entryRE.FindStringSubmatch(text); m != nil {
			l.key, l.sep = m[1], m[2]
		}
		for continues(physical[i]) && i+1 < len(physical) {
			i++
			l.physical = append(l.physical, physical[i])
		}
		p.lines = append(p.lines, l)
	}
	return p
}

// continues: a line ending in an odd number of backslashes goes on.
func continues(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

func (p *props) find(key string) *propLine {
	var found *propLine
	for i := range p.lines {
		if p.lines[i].key == key && !p.lines[i].removed {
			found = &p.lines[i] // the last one wins, as in Java
		}
	}
	return found
}

// get returns the value of a single-line entry.
func (p *props) get(key string) (string, bool) {
	l := p.find(key)
	if l == nil {
		return "", false
	}
	m := entryRE.FindStringSubmatch(l.physical[0])
	if m == nil {
		return "", false
	}
	return strings.TrimSuffix(m[3], "\\"), true
}

// set rewrites key's entry (every occurrence) or appends it.
func (p *props) set(key, value string) {
	found := false
	for i := range p.lines {
		l := &p.lines[i]
		if l.key == key && !l.removed {
			l.physical = []string{key + sepOr(l.sep) + value}
			found = true
		}
	}
	if !found {
		p.lines = append(p.lines, propLine{physical: []string{key + "=" + value}, key: key, sep: "="})
	}
}

func sepOr(sep string) string {
	if sep == "" {
		return "="
	}
	return sep
}

// setOrRename sets key, turning the first of the alternative keys into it
// when key is absent and dropping the other alternatives.
func (p *props) setOrRename(alternatives []string, key, value string) {
	have := p.find(key) != nil
	for i := range p.lines {
		l := &p.lines[i]
		for _, alt := range alternatives {
			if l.key != alt || l.removed {
				continue
			}
			if have {
				l.removed = true
				continue
			}
			l.key = key
			l.physical = []string{key + sepOr(l.sep) + value}
			have = true
		}
	}
	p.set(key, value)
}

func (p *props) remove(keys ...string) {
	for i := range p.lines {
		for _, k := range keys {
			if p.lines[i].key == k {
				p.lines[i].removed = true
			}
		}
	}
}

// mapValues rewrites single-line entries whose value f changes.
func (p *props) mapValues(f func(key, value string) (string, bool)) {
	for i := range p.lines {
		l := &p.lines[i]
		if l.key == "" || l.removed || len(l.physical) != 1 {
			continue
		}
		m := entryRE.FindStringSubmatch(l.physical[0])
		if m == nil {
			continue
		}
		if v, changed := f(l.key, strings.TrimSpace(m[3])); changed {
			l.physical = []string{l.key + sepOr(l.sep) + v}
		}
	}
}

// endpointRE finds host:port pairs in listener, voter, bootstrap and
// ZooKeeper values; the host may be empty (PLAINTEXT://:9092).
var endpointRE = regexp.MustCompile(`(^|[,\s/@=])(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9_.\-]*):(\d+)`)

// mapHosts rewrites the hosts of the given keys' values.
func (p *props) mapHosts(keys []string, f func(host string) string) {
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	for i := range p.lines {
		l := &p.lines[i]
		if !want[l.key] || l.removed {
			continue
		}
		for j, text := range l.physical {
			prefix := ""
			if j == 0 {
				m := entryRE.FindStringSubmatchIndex(text)
				if m == nil {
					continue
				}
				prefix, text = text[:m[6]], text[m[6]:]
			}
			l.physical[j] = prefix + endpointRE.ReplaceAllStringFunc(text, func(s string) string {
				sub := endpointRE.FindStringSubmatch(s)
				host := sub[2]
				if host == "" {
					return s
				}
				return sub[1] + f(host) + ":" + sub[3]
			})
		}
	}
}

// appendLines adds a comment and entries at the end of the file.
func (p *props) appendLines(comment string, entries ...string) {
	p.lines = append(p.lines, propLine{physical: []string{""}}, propLine{physical: []string{comment}})
	for _, e := range entries {
		key, _, _ := strings.Cut(e, "=")
		p.lines = append(p.lines, propLine{physical: []string{e}, key: key, sep: "="})
	}
}

func (p *props) String() string {
	var b strings.Builder
	for _, l := range p.lines {
		if l.removed {
			continue
		}
		for _, text := range l.physical {
			b.WriteString(text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
