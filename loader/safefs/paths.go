package safefs

import (
	"path/filepath"
	"strings"
)

// Join is filepath.Join(dir, name), Rel filepath.Rel(base, target) and Abs
// filepath.Abs(p),
// without cleaning paths that are clean already: a load joins and
// relativises every path of the tree several times (filepath's cleaning
// of them was 1.7 % of a .properties lint's instructions). Any other
// input, and every input on a system whose separator is not '/', takes
// filepath's own way; TestPathsAsFilepath and FuzzPaths compare both.

// Join is filepath.Join(dir, name).
func Join(dir, name string) string {
	if filepath.Separator == '/' && cleanLocal(name) && cleanDir(dir) {
		if dir == "/" {
			return "/" + name
		}
		return dir + "/" + name
	}
	return filepath.Join(dir, name)
}

// Abs is filepath.Abs(p).
func Abs(p string) (string, error) {
	if filepath.Separator == '/' && strings.HasPrefix(p, "/") && cleanDir(p) {
		return p, nil
	}
	return filepath.Abs(p)
}

// Rel is filepath.Rel(base, target).
func Rel(base, target string) (string, error) {
	if filepath.Separator == '/' && len(target) > len(base)+1 && target[len(base)] == '/' &&
		strings.HasPrefix(target, base) && cleanDir(base) && base != "/" && cleanLocal(target[len(base)+1:]) {
		return target[len(base)+1:], nil
	}
	return filepath.Rel(base, target)
}

// cleanDir holds for a path filepath.Clean leaves as it is, other than
// ".": "/", an absolute or a relative one whose every element is a name.
func cleanDir(p string) bool {
	if p == "/" {
		return true
	}
	return cleanLocal(strings.TrimPrefix(p, "/"))
}

// cleanLocal holds for a relative slash path whose every element is a
// name: not empty, "." or "..".
func cleanLocal(p string) bool {
	if p == "" {
		return false
	}
	for p != "" {
		elem, rest, _ := strings.Cut(p, "/")
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
		if rest == "" && len(elem) < len(p) {
			return false // a trailing slash
		}
		p = rest
	}
	return true
}
