package lineage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnabled: BERNSTEIN_LINEAGE_V2 when set decides, else bernstein.yaml's lineage.version in the project root;
// a bernstein.yaml that does not parse is an error naming it.
func TestEnabled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	check := func(want bool) {
		t.Helper()
		if got, err := Enabled(dir, getenv); err != nil || got != want {
			t.Errorf("got %v %v, want %v", got, err, want)
		}
	}
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, ProjectFile), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check(false)
	write("lineage:\n  version: 2\n")
	check(true)
	env[EnableEnv] = "0"
	check(false)
	env[EnableEnv] = "1"
	write("lineage:\n  version: 1\n")
	check(true)
	delete(env, EnableEnv)
	check(false)
	if got, err := Enabled("", getenv); err != nil || got {
		t.Errorf("no project root: %v %v", got, err)
	}
	write("lineage: [\n")
	if _, err := Enabled(dir, getenv); err == nil || !strings.Contains(err.Error(), ProjectFile) {
		t.Errorf("bad YAML: %v", err)
	}
}
