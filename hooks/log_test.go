package hooks_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/hooks"
)

// The hook log is appended to on every merge: a symlink or hard link planted at its name must not make it write
// to the file behind it; a plain log is appended to and a missing one made.
func TestAppendLogWritesOnlyItsOwnFile(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	victim := func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "profile")
		if err := os.WriteFile(p, []byte("export PATH=/usr/bin\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, log, victim string) error
		want  string // in the error; "" for a log written
	}{
		{"missing", func(*testing.T, string, string) error { return nil }, ""},
		{"plain", func(_ *testing.T, log, _ string) error { return os.WriteFile(log, []byte("old\n"), 0o644) }, ""},
		{"symlink", func(_ *testing.T, log, v string) error { return os.Symlink(v, log) }, "symbolic link"},
		{"hard link", func(_ *testing.T, log, v string) error { return os.Link(v, log) }, "more than one name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.name == "hard link" && runtime.GOOS == "windows" {
				t.Skip("the link count is not read on Windows")
			}
			log := hooks.LogPath(t.TempDir())
			if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
				t.Fatal(err)
			}
			v := victim(t)
			if err := tc.plant(t, log, v); err != nil {
				t.Skipf("cannot plant a %s here: %v", tc.name, err)
			}
			err := hooks.AppendLog(log, at, "bundle failed")
			if b, _ := os.ReadFile(v); string(b) != "export PATH=/usr/bin\n" {
				t.Fatalf("the file behind the log was written: %q", b)
			}
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), log) {
					t.Fatalf("AppendLog = %v, want an error naming %s and %q", err, log, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(log)
			if !strings.HasSuffix(string(b), "2026-12-02T03:00:00Z post-merge: bundle failed\n") {
				t.Errorf("log holds %q", b)
			}
		})
	}
}
