package loader

import "github.com/kafkalint/kafkalint/loader/properties"

// The limits on what one file may hold, in one place (docs/model.md,
// "Limits"). Real configurations stay far below each; past one the file
// is an errors[] entry naming the line and the limit, and everything else
// is still linted. Below them every stage of loading is linear in the
// size of the file.
const (
	// MaxKeysPerFile is the number of key lines (duplicates included) of
	// one .properties file, or of a properties text inside another format.
	MaxKeysPerFile = properties.MaxEntries
	// MaxLineBytes is the length of one logical properties line
	// (continuations joined).
	MaxLineBytes = properties.MaxLineBytes
	// MaxKeyRepeats is how often one key may be written in one .properties
	// file (Jinja templates, whose branches repeat keys, excepted). Every
	// repetition is a duplicate-key finding that lists each earlier one,
	// so the report grows with the square of this number.
	MaxKeyRepeats = 20
	// MaxListEntries is the number of entries of one list value the
	// loader takes apart (controller.quorum.voters,
	// controller.quorum.bootstrap.servers, listeners,
	// advertised.listeners, listener.security.protocol.map,
	// bootstrap.servers, process.roles): the rules compare the entries
	// with each other.
	MaxListEntries = 1_000
)

// listKeys are the list values MaxListEntries bounds.
var listKeys = []string{
	"controller.quorum.voters", "controller.quorum.bootstrap.servers", "listeners", "advertised.listeners",
	"listener.security.protocol.map", "controller.listener.names", "bootstrap.servers", "process.roles",
}
