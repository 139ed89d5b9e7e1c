package yamlsrc

import (
	"bufio"
	"bytes"
	"strings"
)

// ParseDotEnv reads a compose `.env` file: KEY=VALUE lines, `#` comments,
// an optional `export ` prefix, and values in single or double quotes.
func ParseDotEnv(data []byte) map[string]string {
	vars := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		name, value, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if !ok || !isVarName(name) {
			continue
		}
		value = strings.TrimSpace(value)
		switch {
		case len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0]:
			value = value[1 : len(value)-1]
		default:
			if i := strings.Index(value, " #"); i >= 0 {
				value = strings.TrimSpace(value[:i])
			}
		}
		vars[name] = value
	}
	return vars
}

func isVarName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// Interpolate applies compose variable substitution to s: $VAR, ${VAR},
// ${VAR:-default}, ${VAR-default}, ${VAR:?msg}, ${VAR?msg}, ${VAR:+alt},
// ${VAR+alt} and `$$` for a literal `$`. A variable takes its value from
// vars (the .env file); one that is not there takes the default written
// with it, else the result is unknown. For an unknown result, placeholder
// keeps every unresolved variable as ${NAME}, so later stages see a
// placeholder.
func Interpolate(s string, vars map[string]string) (value string, unknown bool) {
	var out strings.Builder
	unknown = interpolate(s, vars, &out, 0)
	return out.String(), unknown
}

func interpolate(s string, vars map[string]string, out *strings.Builder, depth int) (unknown bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			out.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '$':
			out.WriteByte('$')
			i++
		case next == '{':
			end := matchingBrace(s, i+1)
			if end < 0 {
				out.WriteString(s[i:])
				return true
			}
			if substitute(s[i+2:end], vars, out, depth) {
				unknown = true
			}
			i = end
		case next == '_' || (next >= 'A' && next <= 'Z') || (next >= 'a' && next <= 'z'):
			j := i + 1
			for j < len(s) && (s[j] == '_' || (s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= '0' && s[j] <= '9')) {
				j++
			}
			name := s[i+1 : j]
			if v, ok := vars[name]; ok {
				out.WriteString(v)
			} else {
				out.WriteString("${" + name + "}")
				unknown = true
			}
			i = j - 1
		default:
			out.WriteByte(c)
		}
	}
	return unknown
}

// matchingBrace returns the index of the '}' closing the '{' at open,
// counting nested ${...}.
func matchingBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// substitute writes the value of one ${...} expression.
func substitute(expr string, vars map[string]string, out *strings.Builder, depth int) (unknown bool) {
	n := 0
	for n < len(expr) && (expr[n] == '_' || (expr[n] >= 'A' && expr[n] <= 'Z') || (expr[n] >= 'a' && expr[n] <= 'z') || (n > 0 && expr[n] >= '0' && expr[n] <= '9')) {
		n++
	}
	name, rest := expr[:n], expr[n:]
	v, set := vars[name]
	op, arg := "", ""
	for _, o := range []string{":-", ":?", ":+", "-", "?", "+"} {
		if strings.HasPrefix(rest, o) {
			op, arg = o, rest[len(o):]
			break
		}
	}
	if name == "" || (op == "" && rest != "") || depth > maxDepth {
		out.WriteString("${" + expr + "}")
		return true
	}
	nested := func() bool {
		var b strings.Builder
		u := interpolate(arg, vars, &b, depth+1)
		out.WriteString(b.String())
		return u
	}
	switch op {
	case "":
		if set {
			out.WriteString(v)
			return false
		}
	case ":-":
		if set && v != "" {
			out.WriteString(v)
			return false
		}
		return nested()
	case "-":
		if set {
			out.WriteString(v)
			return false
		}
		return nested()
	case ":+":
		if set && v != "" {
			return nested()
		}
		return false // unset or empty: the expression is empty
	case "+":
		if set {
			return nested()
		}
		return false
	case ":?":
		if set && v != "" {
			out.WriteString(v)
			return false
		}
	case "?":
		if set {
			out.WriteString(v)
			return false
		}
	}
	// Unset (or empty where that matters) with no default: compose would
	// take the shell's environment, which a linter cannot know.
	out.WriteString("${" + name + "}")
	return true
}
