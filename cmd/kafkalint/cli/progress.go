package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress draws a one-line progress bar (done/total, rate, ETA) on a
// terminal, redrawing it in place at most every progressEvery. A nil
// *progress draws nothing, which is what callers get when the stream is
// not a terminal or --quiet is set.
type progress struct {
	w     io.Writer
	what  string
	total int
	done  int
	start time.Time
	drawn time.Time
	now   func() time.Time
}

const (
	progressEvery = 100 * time.Millisecond
	progressWidth = 28
)

// newProgress returns a progress bar on w when w is a terminal and not
// quiet, else nil.
func newProgress(w io.Writer, what string, total int, quiet bool) *progress {
	if quiet || !isTerminal(w) {
		return nil
	}
	return startProgress(w, what, total, time.Now)
}

func startProgress(w io.Writer, what string, total int, now func() time.Time) *progress {
	p := &progress{w: w, what: what, total: total, now: now, start: now()}
	p.draw()
	return p
}

// step counts one more item done.
func (p *progress) step() {
	if p == nil {
		return
	}
	p.done++
	if p.done == p.total || p.now().Sub(p.drawn) >= progressEvery {
		p.draw()
	}
}

// finish draws the final state and ends the line, so later output starts
// on a fresh one.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.draw()
	fmt.Fprintln(p.w)
}

func (p *progress) draw() {
	now := p.now()
	p.drawn = now
	filled := progressWidth
	if p.total > 0 {
		filled = p.done * progressWidth / p.total
	}
	bar := strings.Repeat("=", filled)
	if filled < progressWidth {
		bar += ">" + strings.Repeat(" ", progressWidth-filled-1)
	}
	line := fmt.Sprintf("[%s] %d/%d %s", bar, p.done, p.total, p.what)
	elapsed := now.Sub(p.start)
	if p.done > 0 && elapsed > 0 {
		rate := float64(p.done) / elapsed.Seconds()
		line += fmt.Sprintf("  %.1f/s", rate)
		if left := p.total - p.done; left > 0 {
			line += "  ETA " + clock(time.Duration(float64(left)/rate*float64(time.Second)))
		} else {
			line += "  in " + clock(elapsed)
		}
	}
	// \r returns to the start of the line, \x1b[K clears what a longer
	// previous line left behind.
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
}

// clock formats a duration as m:ss (h:mm:ss past an hour).
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
