package properties

import (
	"errors"
	"strings"
	"unique"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Read reads a .properties file as a doc (Format "properties", no Kind:
// what the file is, the loader decides from its keys): the last value of
// each key in order of first occurrence, every repetition a duplicate
// that lists each earlier occurrence, and the comment lines when one of
// them is a directive. A file that does not
// parse is a doc with Err. tooOften is the error for the first
// key set more than maxRepeats times, nil when none is: whether it
// applies is the caller's (a Jinja template repeats keys in branches).
func Read(file string, data []byte, maxRepeats int) (d doc.Doc, tooOften *doc.Error) {
	return read(file, data, maxRepeats, false)
}

// ReadOwned is Read of data the caller hands over and never changes or
// reads again (a file the loader read itself): the text is data itself,
// not a copy, and the comments may share its bytes.
func ReadOwned(file string, data []byte, maxRepeats int) (d doc.Doc, tooOften *doc.Error) {
	return read(file, data, maxRepeats, true)
}

func read(file string, data []byte, maxRepeats int, owned bool) (d doc.Doc, tooOften *doc.Error) {
	pf, err := parse(data, false, owned)
	if err != nil {
		e := &doc.Error{File: file, Line: 1, Message: err.Error()}
		var pe *doc.Error
		if errors.As(err, &pe) {
			e.Line, e.Column, e.Message = pe.Line, pe.Column, pe.Message
		}
		e.Message = "invalid properties file: " + e.Message
		// No File: as before the doc model was shared, the loader counts
		// such a file as skipped too (kept so output stays the same).
		return doc.Doc{Err: e}, nil
	}
	d = doc.Doc{Format: "properties", File: file, Comments: pf.Comments, Settings: make([]doc.Setting, 0, len(pf.Entries))}
	last := make(map[string]int, len(pf.Entries))
	earlier := map[string][]doc.Location{}
	repeated := map[string]int{}
	for _, e := range pf.Entries {
		// Keys and values are substrings of the whole file text, comments
		// included; copy them so that text is not kept for the whole run
		// (keys interned: a bulk tree repeats the same few thousand).
		e.Key, e.Value = unique.Make(e.Key).Value(), strings.Clone(e.Value)
		loc := doc.Location{File: file, Line: e.Line, Column: e.Column}
		j, ok := last[e.Key]
		if !ok {
			last[e.Key] = len(d.Settings)
			d.Settings = append(d.Settings, doc.Setting{Key: e.Key, Value: e.Value, Loc: loc})
			continue
		}
		repeated[e.Key]++
		if repeated[e.Key] == maxRepeats && tooOften == nil {
			tooOften = doc.Errorf(loc, "invalid properties file: key %s is set more than %d times (the limit of repetitions of one key)", Quote(e.Key), maxRepeats)
		}
		// Each duplicate lists every earlier occurrence: they share one
		// growing array (a full slice expression keeps a later append
		// from writing into an earlier duplicate's list), so memory stays
		// linear in the entries.
		prev := earlier[e.Key]
		if len(prev) == 0 {
			prev = append(prev, d.Settings[j].Loc)
		}
		d.Duplicates = append(d.Duplicates, doc.Duplicate{Key: e.Key, Loc: loc, Previous: prev[:len(prev):len(prev)]})
		earlier[e.Key] = append(prev, loc)
		d.Settings[j] = doc.Setting{Key: e.Key, Value: e.Value, Loc: loc}
	}
	return d, tooOften
}
