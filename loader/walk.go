package loader

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/kafkalint/kafkalint/loader/safefs"
)

// The linted root of a path argument is what every read for it stays
// inside (after resolving symlinks): Options.Dir (the working directory,
// or an audited repository) when the path is inside it, else the path
// itself when it is a directory, else the directory holding the file.
// Files beside an input (.env, Chart.yaml, Terraform's file()) and the
// targets of symlinks met while walking must be inside it too.

// rootSet opens each linted root once per load.
type rootSet struct {
	max   int64
	byDir map[string]*safefs.Root
}

func (rs *rootSet) forPath(p, dir string) (*safefs.Root, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	rootDir := dir
	if rel, err := filepath.Rel(dir, abs); err != nil || !filepath.IsLocal(rel) {
		// Only the type is looked at here; the read itself is confined.
		if info, err := os.Stat(abs); err == nil && info.IsDir() {
			rootDir = abs
		} else {
			rootDir = filepath.Dir(abs)
		}
	}
	if r := rs.byDir[rootDir]; r != nil {
		return r, nil
	}
	r, err := safefs.OpenRoot(rootDir, rs.max)
	if err != nil {
		return nil, err
	}
	rs.byDir[rootDir] = r
	return r, nil
}

func (rs *rootSet) close() {
	for _, r := range rs.byDir {
		_ = r.Close()
	}
}

// walker expands path arguments into inputs. A directory is walked in
// lexical order; a symlink inside it is followed when its target stays
// inside the linted root: a file is read under the link's name, a
// directory is walked after the real directories (so files are shown under
// their real names first) unless it was walked already (which also stops
// loops and keeps a tree of links from multiplying the work). Links that
// are not followed are listed in Result.SkippedLinks.
type walker struct {
	ctx     context.Context
	dir     string // Options.Dir, for display paths
	res     *Result
	seen    map[string]bool // absolute paths of the files added
	visited map[string]bool // symlink-resolved directories walked
	links   []string        // symlinked directories still to walk
	out     []Input
}

// add adds p; listed: its directory's listing said it is a regular file.
func (w *walker) add(p string, explicit, listed bool, root *safefs.Root) {
	abs, err := root.Abs(p)
	if err != nil || w.seen[abs] {
		return
	}
	w.seen[abs] = true
	a := formatFor(p, explicit)
	var data []byte
	if a == nil && isConfigName(p) {
		// A *.config file is read when its content is a client config;
		// the sniffed content is what gets parsed.
		if data = clientConfigData(root, p); data != nil {
			a = propertiesFormat{}
		}
	}
	if a == nil {
		return
	}
	w.out = append(w.out, Input{Path: p, abs: abs, listed: listed, Display: displayPath(abs, w.dir), Explicit: explicit, format: a, root: root, data: data})
}

func (w *walker) walk(root *safefs.Root, top string) {
	realDir, err := filepath.EvalSymlinks(top)
	if err != nil {
		w.res.Errors = append(w.res.Errors, &Error{File: displayPath(top, w.dir), Message: readError(err)})
		return
	}
	if w.visited == nil {
		w.visited = map[string]bool{}
	}
	w.walkDir(root, top, realDir)
	for len(w.links) > 0 && w.ctx.Err() == nil {
		link := w.links[0]
		w.links = w.links[1:]
		w.follow(root, link)
	}
	slices.SortFunc(w.res.SkippedLinks, func(a, b SkippedLink) int { return strings.Compare(a.Path, b.Path) })
}

// walkDir walks dir, whose symlink-resolved path is realDir.
func (w *walker) walkDir(root *safefs.Root, dir, realDir string) {
	if w.ctx.Err() != nil {
		return // the caller reports ctx's error
	}
	if w.visited[realDir] {
		// Below a followed link: a directory already walked under its
		// own name.
		return
	}
	w.visited[realDir] = true
	entries, err := root.ReadDir(dir)
	if err != nil {
		w.res.Errors = append(w.res.Errors, &Error{File: displayPath(dir, w.dir), Message: readMessage(err)})
	}
	for _, e := range entries {
		if w.ctx.Err() != nil {
			return
		}
		p := safefs.Join(dir, e.Name())
		switch t := e.Type(); {
		case t.IsDir():
			if !skipDirs[e.Name()] {
				w.walkDir(root, p, safefs.Join(realDir, e.Name()))
			}
		case t&fs.ModeSymlink != 0:
			w.symlink(root, p)
		default:
			// A named pipe, socket or device named like a configuration
			// file is an input too: reading it is refused with the reason.
			w.add(p, false, t.IsRegular(), root)
		}
	}
}

// symlink decides what to do with a symlink met while walking.
func (w *walker) symlink(root *safefs.Root, p string) {
	info, err := root.Stat(p)
	switch {
	case err == nil && info.IsDir():
		if !skipDirs[filepath.Base(p)] {
			w.links = append(w.links, p)
		}
		return
	case err == nil:
		w.add(p, false, false, root)
		return
	}
	var reason string
	switch {
	case errors.Is(err, safefs.ErrOutside):
		reason = "symlink leaves the root"
	case errors.Is(err, fs.ErrNotExist):
		reason = "symlink target does not exist"
	case errors.Is(err, syscall.ELOOP):
		reason = "symlink loop"
	default:
		w.res.Errors = append(w.res.Errors, &Error{File: displayPath(p, w.dir), Message: readMessage(err)})
		return
	}
	if w.relevant(p) {
		w.skip(p, reason)
	}
}

// relevant: a link not followed is listed only when it would have been
// read: its name is a configuration file's, or it points to a directory.
// (A dangling README link is no news.) Stat looks at the type only.
func (w *walker) relevant(p string) bool {
	if formatFor(p, false) != nil {
		return true
	}
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

func (w *walker) skip(p, reason string) {
	w.res.SkippedLinks = append(w.res.SkippedLinks, SkippedLink{Path: displayPath(p, w.dir), Reason: reason})
}

// follow walks a symlinked directory (checked to be inside the root)
// unless its target was walked already.
func (w *walker) follow(root *safefs.Root, link string) {
	realDir, err := filepath.EvalSymlinks(link)
	if err != nil {
		w.res.Errors = append(w.res.Errors, &Error{File: displayPath(link, w.dir), Message: readError(err)})
		return
	}
	if w.visited[realDir] {
		reason := "symlink to a directory already walked"
		if parent, err := filepath.EvalSymlinks(filepath.Dir(link)); err == nil {
			if rel, err := filepath.Rel(realDir, parent); err == nil && filepath.IsLocal(rel) {
				reason = "symlink loop" // the link points to one of its own ancestors
			}
		}
		w.skip(link, reason)
		return
	}
	w.walkDir(root, link, realDir)
}
