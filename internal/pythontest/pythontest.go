// Package pythontest runs python3 as an independent judge in tests: our JSON encodings must give what Python's
// json module gives.
package pythontest

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// Lines runs `python3 -c script` with each of in on a line of its standard input and returns what it printed, a
// line for each input line. script must print exactly one line for each line it reads. The test is skipped when
// python3 is not installed, and fails when python3 fails or prints another number of lines.
func Lines(t testing.TB, script string, in [][]byte) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(append(bytes.Join(in, []byte("\n")), '\n'))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(in) {
		t.Fatalf("python3 printed %d lines for %d input lines", len(lines), len(in))
	}
	return lines
}
