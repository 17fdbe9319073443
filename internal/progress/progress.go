// Package progress reports long work on stderr while it runs, only when stderr is a terminal: scripts and
// hooks that capture stderr see nothing but warnings and errors.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// Meter prints "label: n unit" at most ten times a second on one line, and clears it when done.
type Meter struct {
	w     io.Writer
	label string
	unit  string
	mu    sync.Mutex
	last  time.Time
	shown bool
}

// New returns a meter writing to w when w is a terminal; nil (which ignores every call) otherwise.
func New(w io.Writer, label, unit string) *Meter {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || os.Getenv("TERM") == "dumb" {
		return nil
	}
	return &Meter{w: w, label: label, unit: unit}
}

// Set reports n units done so far.
func (m *Meter) Set(n int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if now := time.Now(); now.Sub(m.last) >= 100*time.Millisecond {
		m.last = now
		m.shown = true
		fmt.Fprintf(m.w, "\r\x1b[K%s: %d %s", m.label, n, m.unit)
	}
}

// Stage reports a stage of known size: "label: done/total unit".
func (m *Meter) Stage(label string, done, total int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if now := time.Now(); now.Sub(m.last) >= 100*time.Millisecond || done == total {
		m.last = now
		m.shown = true
		fmt.Fprintf(m.w, "\r\x1b[K%s: %d/%d %s", label, done, total, m.unit)
	}
}

// Done clears the line.
func (m *Meter) Done() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.shown {
		fmt.Fprint(m.w, "\r\x1b[K")
	}
}
