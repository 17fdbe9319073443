package gittest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Template is a fixture repository built once per test binary, by the first test that asks for it, and copied
// for every test that asks: a history of tens of git processes then costs each test one copy of its files (no
// git process), and each test still has a repository of its own to change. Everything under the repository's
// temp folder is copied, so files a Build writes beside the repository (keys, cards) come along. The package's
// TestMain calls Remove once the tests are done.
type Template[V any] struct {
	// Build makes the repository's history in r and returns what the tests need to know of it (commit ids).
	Build func(r *Repo) V

	mu    sync.Mutex // guards the fields below: tests ask in parallel
	root  string
	tick  int
	value V
}

// Copy returns a copy of the template's repository in t's temp folder, with its own HOME and the template's
// clock, and what Build returned. The first call builds it (failing t if Build fails).
func (tp *Template[V]) Copy(t testing.TB) (*Repo, V) {
	t.Helper()
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.root == "" {
		root, err := os.MkdirTemp("", "gittest-template-")
		if err != nil {
			t.Fatal(err)
		}
		r := newIn(t, root)
		value := tp.Build(r)
		tp.root, tp.tick, tp.value = root, r.tick, value
	}
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(tp.root)); err != nil {
		t.Fatalf("copy the template repository: %v", err)
	}
	return &Repo{T: t, Dir: filepath.Join(dst, "repo"), Env: Env(filepath.Join(dst, "home")), tick: tp.tick}, tp.value
}

// Remove deletes the built repository (TestMain calls it after m.Run).
func (tp *Template[V]) Remove() {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.root != "" {
		os.RemoveAll(tp.root)
		tp.root = ""
	}
}
