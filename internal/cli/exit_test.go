package cli

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// exitCode is the one error -> code map: each kind of error a command returns, wrapped or not, gives its
// code, and the message is printed once (nothing for errReported or an empty verdict).
func TestExitCode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"success", nil, ExitOK, ""},
		{"usage", usageError("--match names no source"), ExitUsage, "git-bernstein: --match names no source\n"},
		{"usage, wrapped", fmt.Errorf("bundle: %w", usageError("bad")), ExitUsage, "git-bernstein: bundle: bad\n"},
		{"verdict", verdict(3, ""), 3, ""},
		{"verdict with a message", verdict(2, "nothing was extracted"), 2, "git-bernstein: nothing was extracted\n"},
		{"verdict 0 is success", verdict(ExitOK, "ignored"), ExitOK, ""},
		{"audit's 4", verdict(4, ""), 4, ""},
		{"reported above", errReported, ExitError, ""},
		{"any other error", errors.New("open x: no such file"), ExitError, "git-bernstein: open x: no such file\n"},
	}
	for _, tc := range cases {
		var stderr bytes.Buffer
		if got := exitCode(tc.err, &stderr); got != tc.code || stderr.String() != tc.stderr {
			t.Errorf("%s: exit %d, stderr %q; want %d, %q", tc.name, got, stderr.String(), tc.code, tc.stderr)
		}
	}
}
