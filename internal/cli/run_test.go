package cli

import (
	"bytes"
	"strings"
	"testing"
)

// runIn runs git-bernstein in-process from dir with env (KEY=VALUE pairs, e.g. gittest's) and returns what it
// printed and its exit code.
func runIn(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	old := getwd
	getwd = func() (string, error) { return dir, nil }
	defer func() { getwd = old }()
	var out, errb bytes.Buffer
	code = Run(append([]string{"git-bernstein"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}
