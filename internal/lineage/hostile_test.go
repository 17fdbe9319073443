package lineage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
)

// A store file that is a FIFO or a symlink to /dev/zero once hung verify and show, or ran them out of memory:
// both must now answer at once, naming the file.
func TestStoreRefusesFilesThatAreNotRegular(t *testing.T) {
	t.Parallel()
	child := filepath.Join("children", refChildHex+".jsonl")
	tests := []struct {
		name string
		file string // relative to the store root
		make func(path string) error
	}{
		{"parent.jsonl is a FIFO", "parent.jsonl", func(p string) error { return fifotest.Make(p, 0o644) }},
		{"parent.jsonl links to /dev/zero", "parent.jsonl", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"a child file is a FIFO", child, func(p string) error { return fifotest.Make(p, 0o644) }},
		{"a child file links to /dev/zero", child, func(p string) error { return os.Symlink("/dev/zero", p) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := writeReferenceStore(t)
			path := filepath.Join(root, tt.file)
			os.Remove(path)
			if err := tt.make(path); err != nil {
				t.Skipf("cannot make the hostile file: %v", err)
			}
			s := Open(root, PublicKey())
			type answer struct {
				res VerifyResult
				err error
			}
			done := make(chan answer, 1)
			go func() {
				res := s.Verify(VerifyOptions{})
				_, err := s.Replay("T")
				done <- answer{res, err}
			}()
			var a answer
			select {
			case a = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("verify or show hangs")
			}
			if a.res.OK || len(a.res.Failures) == 0 || !strings.Contains(strings.Join(a.res.Messages(), "\n"), "not a regular file") {
				t.Errorf("verify: %+v, want a failure saying the file is not a regular file", a.res)
			}
			if a.err == nil || !strings.Contains(a.err.Error(), path) || !strings.Contains(a.err.Error(), "not a regular file") {
				t.Errorf("show: %v, want an error naming %s", a.err, path)
			}
		})
	}
}

// TestAppendRefusesFIFOAndSymlink: a FIFO or a symlink in place of parent.jsonl or a child file makes append fail
// at once, naming the file, instead of blocking or writing through the link.
func TestAppendRefusesFIFOAndSymlink(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"fifo", "symlink", "child-fifo"} {
		root := t.TempDir()
		st := Open(root, PublicKey())
		if err := os.MkdirAll(filepath.Join(root, "children"), 0o755); err != nil {
			t.Fatal(err)
		}
		want := "parent.jsonl"
		switch kind {
		case "child-fifo":
			_, body := refRecords()
			sha, err := body.ChildSHA()
			if err != nil {
				t.Fatal(err)
			}
			path, err := st.ChildPath(sha)
			if err != nil {
				t.Fatal(err)
			}
			if err := fifotest.Make(path, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			want = filepath.Base(path)
		case "fifo":
			if err := fifotest.Make(st.ParentPath(), 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		case "symlink":
			target := filepath.Join(t.TempDir(), "elsewhere.jsonl")
			os.WriteFile(target, nil, 0o600)
			if err := os.Symlink(target, st.ParentPath()); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		go func() {
			ref, body := refRecords()
			_, _, err := st.Append(ref, body)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: append = %v, want an error naming %s", kind, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: append blocks", kind)
		}
	}
}
