package loader

import (
	"path/filepath"
	"strings"
)

// adapter reads one source format into Docs.
type adapter struct {
	name string
	// match reports whether a file found while walking a directory is read
	// by this adapter (by name; content checks belong in load).
	match func(path string) bool
	// perDir: load gets all matching files of one directory at once.
	perDir bool
	// load parses a unit. A file it cannot parse yields a Doc with Err; a
	// file that holds no Kafka configuration yields nothing (it is counted
	// as skipped).
	load func(files []Input) []*Doc
}

// adapters in precedence order: the first whose match accepts a file reads it.
var adapters = []*adapter{propertiesAdapter, terraformAdapter, yamlAdapter}

var propertiesAdapter = &adapter{name: "properties", match: hasSuffix(".properties"), load: loadProperties}

// fallback reads files named on the command line that no adapter matches.
var fallback = propertiesAdapter

func hasSuffix(suffixes ...string) func(string) bool {
	return func(path string) bool {
		name := strings.ToLower(filepath.Base(path))
		for _, s := range suffixes {
			if strings.HasSuffix(name, s) {
				return true
			}
		}
		return false
	}
}

func adapterFor(path string, explicit bool) *adapter {
	for _, a := range adapters {
		if a.match(path) {
			return a
		}
	}
	if explicit {
		return fallback
	}
	return nil
}

func loadProperties(files []Input) []*Doc {
	var out []*Doc
	for _, f := range files {
		data, errDoc := readInput(f)
		if errDoc != nil {
			out = append(out, errDoc)
			continue
		}
		out = append(out, parseProperties(f.Display, data))
	}
	return out
}
