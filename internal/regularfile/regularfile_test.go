package regularfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
)

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := fifotest.Make(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	reg := filepath.Join(dir, "reg")
	if err := os.WriteFile(reg, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want error
	}{
		{fifo, ErrNotRegular},
		{link, ErrNotRegular},
		{dir, ErrNotRegular},
		{"/dev/zero", ErrNotRegular},
		{filepath.Join(dir, "missing"), os.ErrNotExist},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(tc.path, "card", 1<<20); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, tc.want) {
				t.Errorf("ReadFile(%s) = %v, want %v", tc.path, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("ReadFile(%s) hangs", tc.path)
		}
	}
	if data, err := ReadFile(reg, "card", 10); err != nil || string(data) != "0123456789" {
		t.Errorf("ReadFile(reg, 10) = %q, %v", data, err)
	}
	if _, err := ReadFile(reg, "card", 9); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile(reg, 9) = %v, want ErrTooLarge", err)
	}
}

// OpenOwn refuses what ReadFile refuses, and a symlink even to a regular file: a file of ours is never one.
func TestOpenOwnRefusesASymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg")
	if err := os.WriteFile(reg, []byte("ours"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(reg, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := fifotest.Make(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, tc := range []struct {
		path, says string
	}{{link, "it is a symlink"}, {fifo, "it is a FIFO (named pipe)"}, {dir, "it is a directory"}} {
		done := make(chan error, 1)
		go func() {
			f, _, err := OpenOwn(tc.path)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || err.Error() != tc.says+": "+ErrNotRegular.Error() {
				t.Errorf("OpenOwn(%s) = %v, want %q wrapping ErrNotRegular", tc.path, err, tc.says)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("OpenOwn(%s) hangs", tc.path)
		}
	}
	f, st, err := OpenOwn(reg)
	if err != nil || st.Size() != 4 {
		t.Fatalf("OpenOwn(reg) = %v, %v", st, err)
	}
	f.Close()
}
