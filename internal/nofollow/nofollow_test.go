package nofollow

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// tree makes root/{sdd/{traces/{a.log,link.log->secret,fifo},linked->outside,real/deep/f},outside/f,secret}
// and a symlink root/alias -> root/sdd.
func tree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"sdd/traces", "sdd/real/deep", "outside"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{"sdd/traces/a.log": "a\n", "sdd/real/deep/f": "deep\n", "outside/f": "outside\n", "secret": "KEY\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"sdd/traces/link.log": filepath.Join(root, "secret"),
		"sdd/linked": filepath.Join(root, "outside"), "alias": filepath.Join(root, "sdd")} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := fifotest.Make(filepath.Join(root, "sdd/traces/fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return root
}

func TestOpenNeverFollowsASymlink(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	root := tree(t)
	for _, perComponent := range []bool{false, true} {
		sdd, err := OpenDir(filepath.Join(root, "sdd"))
		if err != nil {
			t.Fatal(err)
		}
		sdd.perComponent = perComponent
		for _, tc := range []struct {
			rel     string
			dir     bool
			want    error // nil: opens
			content string
		}{
			{rel: "traces/a.log", content: "a\n"},
			{rel: "real/deep/f", content: "deep\n"},
			{rel: "real/deep", dir: true},
			{rel: "traces/link.log", want: ErrSymlink},
			{rel: "linked/f", want: ErrSymlink},
			{rel: "linked", dir: true, want: ErrSymlink},
			{rel: "traces/fifo", want: regularfile.ErrNotRegular},
			{rel: "traces", want: regularfile.ErrNotRegular},
			{rel: "traces/missing", want: fs.ErrNotExist},
		} {
			var err error
			var got string
			if tc.dir {
				var d *Dir
				if d, err = sdd.OpenDir(tc.rel); err == nil {
					d.Close()
				}
			} else {
				var f *os.File
				if f, _, err = sdd.Open(tc.rel); err == nil {
					b, _ := io.ReadAll(f)
					got = string(b)
					f.Close()
				}
			}
			switch {
			case tc.want == nil && (err != nil || got != tc.content):
				t.Errorf("perComponent=%v %s: %q, %v", perComponent, tc.rel, got, err)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Errorf("perComponent=%v %s: %v, want %v", perComponent, tc.rel, err, tc.want)
			}
		}
		for _, bad := range []string{"../secret", "/etc/passwd", "", ".", "traces/../../secret"} {
			if f, _, err := sdd.Open(bad); err == nil {
				f.Close()
				t.Errorf("Open(%q) escaped the folder", bad)
			}
		}
		sdd.Close()
	}

	// The folder itself must not be a symlink; the path leading to it may be.
	if _, err := OpenDir(filepath.Join(root, "alias")); !errors.Is(err, ErrSymlink) {
		t.Errorf("OpenDir(symlink to a folder) = %v, want ErrSymlink", err)
	}
	d, err := OpenDir(filepath.Join(root, "alias", "traces"))
	if err != nil {
		t.Fatalf("a symlink before the last component is the caller's choice: %v", err)
	}
	ents, err := d.ReadDir()
	d.Close()
	if err != nil || len(ents) != 3 || ents[0].Name() != "a.log" || ents[1].Name() != "fifo" || ents[2].Name() != "link.log" {
		t.Errorf("ReadDir = %v, %v", ents, err)
	}
}

func TestReopenCatchesASwap(t *testing.T) {
	t.Parallel()
	root := tree(t)
	traces := filepath.Join(root, "sdd", "traces")
	d, err := OpenDir(traces)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f, st, err := d.Open("a.log")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if f, err := d.Reopen("a.log", st); err != nil {
		t.Fatalf("unchanged file: %v", err)
	} else {
		f.Close()
	}
	for _, tc := range []struct {
		name string
		swap func(path string) error
		want error
	}{
		{"another file renamed over it", func(p string) error {
			os.WriteFile(p+".new", []byte("b\n"), 0o644)
			return os.Rename(p+".new", p)
		}, ErrReplaced},
		{"a symlink to a secret", func(p string) error {
			os.Remove(p)
			return os.Symlink(filepath.Join(root, "secret"), p)
		}, ErrSymlink},
	} {
		if err := tc.swap(filepath.Join(traces, "a.log")); err != nil {
			t.Fatal(err)
		}
		f, err := d.Reopen("a.log", st)
		if f != nil {
			f.Close()
		}
		if !errors.Is(err, tc.want) || !errors.Is(err, ErrReplaced) {
			t.Errorf("%s: Reopen = %v, want %v and ErrReplaced", tc.name, err, tc.want)
		}
	}
}
