package nofollow

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// OpenAppend writes only a plain file of its own: a symlink, a hard link or a FIFO at the name is refused at
// once (a FIFO without a reader must not hang the hook), a missing file is made, a plain one appended to.
func TestOpenAppendRefusesWhatIsNotItsOwnFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		plant func(name, other string) error
		want  error // nil: opened
	}{
		{"missing", func(string, string) error { return nil }, nil},
		{"plain", func(n, _ string) error { return os.WriteFile(n, []byte("old\n"), 0o644) }, nil},
		{"symlink", func(n, o string) error { return os.Symlink(o, n) }, ErrSymlink},
		{"hard link", func(n, o string) error { return os.Link(o, n) }, ErrHardLink},
		{"fifo", func(n, _ string) error { return fifotest.Make(n, 0o644) }, regularfile.ErrNotRegular},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if runtime.GOOS == "windows" && tc.name != "missing" && tc.name != "plain" && tc.name != "symlink" {
				t.Skip("no link count or FIFO here")
			}
			dir := t.TempDir()
			other := filepath.Join(dir, "other")
			if err := os.WriteFile(other, []byte("keep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, "log")
			if err := tc.plant(name, other); err != nil {
				t.Skipf("cannot plant a %s here: %v", tc.name, err)
			}
			f, err := OpenAppend(name, 0o644)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("new\n")
				f.Close()
				return
			}
			if f != nil {
				f.Close()
			}
			// A FIFO with no reader fails the non-blocking open itself (ENXIO) before its type is looked at.
			if err == nil || (!errors.Is(err, tc.want) && tc.name != "fifo") {
				t.Fatalf("OpenAppend = %v, want %v", err, tc.want)
			}
			if b, _ := os.ReadFile(other); string(b) != "keep\n" {
				t.Errorf("the other file was written: %q", b)
			}
		})
	}
}
