package cli

import (
	"io"
	"os"
	"strconv"

	"github.com/kafkalint/kafkalint/report"
)

// terminalSize is the width of the terminal w writes to, 0 when w is not
// a terminal or its size is unknown (a variable, so tests can pretend).
var terminalSize = func(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(w) {
		return 0
	}
	return terminalWidth(f)
}

// outputWidth is the width text output to w is wrapped to, and whether w
// is a terminal: the terminal's width, else COLUMNS when it is a positive
// number, else report.DefaultWidth (80).
func outputWidth(w io.Writer) (width int, terminal bool) {
	if n := terminalSize(w); n > 0 {
		return n, true
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n, false
	}
	return report.DefaultWidth, false
}
