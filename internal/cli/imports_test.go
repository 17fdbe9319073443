package cli

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/ratchet"
)

// layerDebt lists the imports of go-git and crypto/ that files of this package still make, each to move into a
// capability package (gitext, notes, record, signing, …). The list only shrinks (package ratchet):
// TestCLIOnlyAdapts fails on a new one, and on one listed here that the file no longer makes.
var layerDebt = map[string][]string{}

// fileDebt lists the files of this package that still open a file themselves.
var fileDebt = map[string][]string{}

// TestCLIOnlyAdapts: the CLI reads flags, calls capability packages and renders. Its non-test files import
// neither go-git (git is gitext's) nor crypto/ (keys and digests are sign's, signing's, sshsig's, attest's),
// and open no file themselves (os.Open, os.ReadFile, os.OpenFile: files are read through regularfile,
// nofollow and the capability packages), but for the debts listed above.
func TestCLIOnlyAdapts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	layers := &ratchet.Ratchet{Name: "layerDebt", Verb: "imports", Debt: layerDebt,
		Fix: "the CLI only adapts; do it in a capability package"}
	opens := &ratchet.Ratchet{Name: "fileDebt", Verb: "calls", Debt: fileDebt,
		Fix: "open files through regularfile, nofollow or a capability package"}
	layered := func(p string) bool {
		return strings.HasPrefix(p, "github.com/go-git/") || strings.HasPrefix(p, "crypto/") || p == "crypto"
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		imports, err := ratchet.Imports(fset, name, layered)
		if err != nil {
			t.Fatal(err)
		}
		layers.Check(t, name, imports)
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var calls []string
		for _, call := range []string{"os.Open", "os.ReadFile", "os.OpenFile"} {
			if strings.Contains(string(src), call+"(") {
				calls = append(calls, call)
			}
		}
		opens.Check(t, name, calls)
		// The run's surroundings come through Env: its clock (Env.Now) and its standard error (the command's
		// ErrWriter); the process's garbage collector is main's to pace (Env.LongHeap).
		for _, use := range []string{"time.Now", "os.Stderr", "os.Stdout", "debug.SetGCPercent"} {
			if strings.Contains(string(src), use) {
				t.Errorf("%s uses %s: take the run's from Env (the clock, stderr) or leave it to main", name, use)
			}
		}
	}
	layers.Done(t)
	opens.Done(t)
}
