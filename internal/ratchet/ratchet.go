// Package ratchet checks the module's layering rules for tests: what each file does that a rule forbids (an
// import, a call) must be listed in the rule's debt, and the debt only shrinks. A file doing something its debt
// does not list fails, and so does a listed item the file no longer does and a listed file that is gone, so the
// list stays exactly what is left to move.
package ratchet

import (
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// Ratchet is one rule and its debt.
type Ratchet struct {
	Name string              // the debt variable's name, for the message that says to shrink it ("goGitDebt")
	Verb string              // what a file does that breaks the rule, as the message says it: "imports", "calls"
	Fix  string              // what to do instead, said after a new breach
	Debt map[string][]string // file → what it still does against the rule
	seen map[string]bool
}

// Check compares what file does against the rule (found) with its debt: each found item not listed fails with
// Fix, and each listed item not found fails asking to remove it.
func (r *Ratchet) Check(t testing.TB, file string, found []string) {
	t.Helper()
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[file] = true
	debt := r.Debt[file]
	for _, f := range found {
		if !slices.Contains(debt, f) {
			t.Errorf("%s %s %s: %s", file, r.Verb, f, r.Fix)
		}
	}
	for _, d := range debt {
		if !slices.Contains(found, d) {
			t.Errorf("%s no longer %s %s: remove it from %s", file, r.Verb, d, r.Name)
		}
	}
}

// Done fails for each file the debt lists that Check never saw: it is gone, or no longer one the rule covers.
func (r *Ratchet) Done(t testing.TB) {
	t.Helper()
	for file := range r.Debt {
		if !r.seen[file] {
			t.Errorf("%s lists %s, which is gone: remove it", r.Name, file)
		}
	}
}

// Imports returns the import paths of the Go file at path that keep accepts, in the file's order.
func Imports(fset *token.FileSet, path string, keep func(string) bool) ([]string, error) {
	f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); keep(p) {
			out = append(out, p)
		}
	}
	return out, nil
}
