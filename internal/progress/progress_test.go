package progress

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestQuietUnlessTerminal(t *testing.T) {
	var b bytes.Buffer
	m := New(&b, "Reading history", "commits")
	if m != nil {
		t.Fatal("a meter for a buffer")
	}
	m.Set(10) // a nil meter ignores calls
	m.Done()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	if New(f, "x", "y") != nil {
		t.Fatal("a meter for a regular file")
	}
}

func TestMeterLine(t *testing.T) {
	var b bytes.Buffer
	m := &Meter{w: &b, label: "Reading history", unit: "commits"}
	m.Set(4096)
	m.Set(8192) // within 100 ms: not shown
	m.Done()
	if got := b.String(); got != "\r\x1b[KReading history: 4096 commits\r\x1b[K" || strings.Contains(got, "8192") {
		t.Errorf("%q", got)
	}
}

func TestStageShowsTheLastStep(t *testing.T) {
	var b bytes.Buffer
	m := &Meter{w: &b, unit: "files"}
	m.Stage("Packing", 1, 3)
	m.Stage("Packing", 2, 3) // throttled
	m.Stage("Packing", 3, 3) // the last step is always shown
	if got := b.String(); got != "\r\x1b[KPacking: 1/3 files\r\x1b[KPacking: 3/3 files" {
		t.Errorf("%q", got)
	}
	var nilMeter *Meter
	nilMeter.Stage("x", 1, 1)
}
