package report

import (
	"bufio"
	"cmp"
	"io"
	"slices"
	"strings"
)

// Fit says how a table column gives way when the table is wider than its
// line.
type Fit int

const (
	// Keep: never narrowed (ids, severities, counts).
	Keep Fit = iota
	// Cut: cells too long are cut, ending with "…".
	Cut
	// Wrap: cells too long are word-wrapped onto more lines of the row.
	Wrap
)

// Column is a table column: its header and how it fits.
type Column struct {
	Header string
	Fit    Fit
}

// tableGap is the space between two columns (as text/tabwriter's padding 2).
const tableGap = 2

// minColumn is the narrowest a Cut or Wrap column is made (or its
// header's width, when wider).
const minColumn = 8

// WriteTable writes a table of rows under the columns' headers, each
// column as wide as its widest cell and two spaces apart, like
// text/tabwriter. When that is wider than width (0: DefaultWidth), first
// the headers wrap at their spaces ("LOAD ERRORS" on two lines), then the
// Cut and Wrap columns are narrowed, the narrowest needs first served
// (each gets its own width, or an equal share of what is left), never
// below minColumn, and their long cells cut or wrapped. The Keep columns
// are never narrowed, so a table of only those may still run over. Cells
// must be printable already (OneLine); lines carry no trailing blanks.
func WriteTable(w io.Writer, width int, cols []Column, rows [][]string) error {
	widths := make([]int, len(cols))
	for _, r := range rows {
		for i := range cols {
			if i < len(r) {
				widths[i] = max(widths[i], runes(r[i]))
			}
		}
	}
	fitWidths(widths, cols, lineWidth(width))
	b := bufio.NewWriter(w)
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.Header
	}
	for k, r := range append([][]string{header}, rows...) {
		cells := make([][]string, len(cols))
		height := 1
		for i, c := range cols {
			text := ""
			if i < len(r) {
				text = r[i]
			}
			switch {
			case runes(text) <= widths[i]:
				cells[i] = []string{text}
			case k == 0: // a header wraps at its spaces (its words fit)
				cells[i] = wrapCell(text, widths[i])
			case c.Fit == Cut:
				cells[i] = []string{cutCell(text, widths[i])}
			default:
				cells[i] = wrapCell(text, widths[i])
			}
			height = max(height, len(cells[i]))
		}
		for l := range height {
			var line strings.Builder
			for i := range cols {
				text := ""
				if l < len(cells[i]) {
					text = cells[i][l]
				}
				line.WriteString(text)
				if i < len(cols)-1 {
					line.WriteString(strings.Repeat(" ", widths[i]-runes(text)+tableGap))
				}
			}
			_, _ = b.WriteString(strings.TrimRight(line.String(), " "))
			_ = b.WriteByte('\n')
		}
	}
	return b.Flush()
}

// fitWidths turns widths, each column's widest cell, into the columns'
// widths: wide enough for their headers too when the table fits width;
// else as WriteTable says.
func fitWidths(widths []int, cols []Column, width int) {
	natural, wordy := tableGap*(len(cols)-1), tableGap*(len(cols)-1)
	for i, c := range cols {
		natural += max(widths[i], runes(c.Header))
		wordy += max(widths[i], longestWord(c.Header))
	}
	if natural <= width {
		for i, c := range cols {
			widths[i] = max(widths[i], runes(c.Header))
		}
		return
	}
	for i, c := range cols {
		widths[i] = max(widths[i], longestWord(c.Header))
	}
	if wordy <= width {
		return
	}
	left := width - tableGap*(len(cols)-1)
	var flex []int
	for i, c := range cols {
		if c.Fit == Keep {
			left -= widths[i]
		} else {
			flex = append(flex, i)
		}
	}
	// The columns needing least go first: one that needs less than an
	// equal share keeps its width, and the others share what it leaves.
	slices.SortStableFunc(flex, func(a, b int) int { return cmp.Compare(widths[a], widths[b]) })
	for k, i := range flex {
		share := left / (len(flex) - k)
		widths[i] = min(widths[i], max(share, minColumn, longestWord(cols[i].Header)))
		left -= widths[i]
	}
}

func longestWord(s string) int {
	n := 0
	for w := range strings.FieldsSeq(s) {
		n = max(n, runes(w))
	}
	return n
}

// cutCell cuts text to width characters, the last one "…".
func cutCell(text string, width int) string {
	n := 0
	for i := range text {
		if n == width-1 {
			return text[:i] + "…"
		}
		n++
	}
	return text
}

// wrapCell word-wraps text to lines of at most width characters (a word
// longer than that is cut, as wrap cuts it).
func wrapCell(text string, width int) []string {
	return wrapTo("", text, width, 1)
}
