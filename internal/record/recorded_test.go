package record

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/notes"
)

// LocalCopyOf: the bundles folder's copy of a noted archive matches its digest, differs, is missing, or is
// refused (a symlink is never followed).
func TestLocalCopyOf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := RecordedPath(dir, "jira", "ENG-1", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.tar.gz", "archive")
	sum, err := FileSHA256(good)
	if err != nil {
		t.Fatal(err)
	}
	write("changed.tar.gz", "another archive")
	entry := func(name string) notes.Entry {
		return notes.Entry{Tracker: "jira", Ticket: "ENG-1", Bundle: name, BundleSHA256: sum}
	}
	cases := []struct{ name, state string }{
		{"good.tar.gz", LocalMatch},
		{"changed.tar.gz", LocalDiffers},
		{"gone.tar.gz", LocalMissing},
	}
	if runtime.GOOS != "windows" {
		if err := os.Symlink(good, RecordedPath(dir, "jira", "ENG-1", "link.tar.gz")); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct{ name, state string }{"link.tar.gz", LocalRefused})
	}
	for _, tc := range cases {
		lc := LocalCopyOf(dir, entry(tc.name))
		if lc.State != tc.state || lc.Path != RecordedPath(dir, "jira", "ENG-1", tc.name) {
			t.Errorf("%s: %+v, want %s", tc.name, lc, tc.state)
		}
		if (lc.State == LocalRefused) != (lc.Why != "") {
			t.Errorf("%s: why %q with state %s", tc.name, lc.Why, lc.State)
		}
	}
	if lc := LocalCopyOf(dir, entry("link.tar.gz")); lc.State == LocalRefused && !strings.Contains(lc.Why, "link") {
		t.Errorf("the refusal does not name the file: %s", lc.Why)
	}
}
