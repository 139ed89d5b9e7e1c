package loader

import (
	"path/filepath"
	"strings"
)

// A format reads one kind of source into Docs: its format package
// (loader/properties, loader/terraform, loader/yamlsrc) parses, and
// returns loader/doc's types; the format does the reading (files beside
// an input, a module's file() calls) and decides what the loader alone
// knows (which hint names an environment). Adding a format is a type here
// and an entry in formats.
type format interface {
	// name names the format (and a directory's unit of it).
	name() string
	// match reports whether a file found while walking a directory is
	// read by this format (by name; content checks belong in load).
	match(path string) bool
	// perDir: load gets all matching files of one directory at once.
	perDir() bool
	// load parses a unit. A file it cannot parse yields a Doc with Err; a
	// file that holds no Kafka configuration yields nothing (it is
	// counted as skipped).
	load(files []Input) []*Doc
}

// A joiner is a format whose units can hold parts of one source object
// that other units complete (Strimzi resources of one cluster spread over
// the directories of a tree): load returns those parts as docs with held
// set, and join, called once every unit is loaded, turns all of them into
// docs. dir is Options.Dir.
type joiner interface {
	join(held []*Doc, dir string) []*Doc
}

// formats in precedence order: the first whose match accepts a file reads it.
var formats = []format{propertiesFormat{}, terraformFormat{}, yamlFormat{}}

// fallback reads files named on the command line that no format matches.
var fallback format = propertiesFormat{}

// hasSuffix reports whether path's file name ends in one of suffixes,
// whatever its case.
func hasSuffix(path string, suffixes ...string) bool {
	name := strings.ToLower(filepath.Base(path))
	for _, s := range suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

func formatFor(path string, explicit bool) format {
	for _, f := range formats {
		if f.match(path) {
			return f
		}
	}
	if explicit {
		return fallback
	}
	return nil
}
