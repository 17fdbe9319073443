package cli

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layerDebt lists the imports of go-git and crypto/ that files of this package still make, each to move into a
// capability package (gitext, notes, record, signing, …). The list only shrinks: TestCLIOnlyAdapts fails on a
// new one, and on one listed here that the file no longer makes.
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
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		var layered []string
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/go-git/") || strings.HasPrefix(path, "crypto/") || path == "crypto" {
				layered = append(layered, path)
			}
		}
		debt := layerDebt[name]
		for _, p := range layered {
			if !slices.Contains(debt, p) {
				t.Errorf("%s imports %s: the CLI only adapts; do it in a capability package", name, p)
			}
		}
		for _, p := range debt {
			if !slices.Contains(layered, p) {
				t.Errorf("%s no longer imports %s: remove it from layerDebt", name, p)
			}
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range []string{"os.Open(", "os.ReadFile(", "os.OpenFile("} {
			if strings.Contains(string(src), call) && !slices.Contains(fileDebt[name], call) {
				t.Errorf("%s calls %s: open files through regularfile, nofollow or a capability package", name,
					strings.TrimSuffix(call, "("))
			}
		}
		for _, call := range fileDebt[name] {
			if !strings.Contains(string(src), call) {
				t.Errorf("%s no longer calls %s: remove it from fileDebt", name, strings.TrimSuffix(call, "("))
			}
		}
		// The run's surroundings come through Env: its clock (Env.Now) and its standard error (the command's
		// ErrWriter); the process's garbage collector is main's to pace (Env.LongHeap).
		for _, use := range []string{"time.Now", "os.Stderr", "os.Stdout", "debug.SetGCPercent"} {
			if strings.Contains(string(src), use) {
				t.Errorf("%s uses %s: take the run's from Env (the clock, stderr) or leave it to main", name, use)
			}
		}
	}
}
