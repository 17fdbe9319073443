package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// renderPackages are the packages a command may call besides its one capability call: the settings it reads
// flags into, and the helpers that render (words, terminal-safe text, progress, JSON, the --out file, the
// version).
var renderPackages = map[string]bool{
	"settings": true, "plural": true, "termtext": true, "progress": true, "jsonout": true, "atomicfile": true,
	"buildinfo": true,
}

// settingReaders are the settings read outside package settings, each by the package that uses it (see
// settings' doc): a command resolves them into its request like any other setting.
var settingReaders = map[string]bool{"notes.RefFrom": true}

// orchestrationDebt lists the commands that still call more than one capability function, with how many; each
// is to become flags → one call → render. The list only shrinks: TestCommandsCallOneCapability fails on a
// command over its number, and on one under it (lower the number, or drop the entry at one).
var orchestrationDebt = map[string]int{
	"runAudit":                    3, // audit.go
	"runCardSSH":                  3, // card.go
	"runCommits":                  4, // commits.go
	"runExtract":                  3, // extract.go
	"runFetch":                    3, // share.go
	"runGet":                      3, // get.go
	"runKeygen":                   6, // keygen.go
	"runKeygenSSH":                5, // keygen_ssh.go
	"runLineageAppend":            3, // lineage.go
	"runLineageCheckpoint":        2, // lineage_checkpoint.go
	"runLineageExport":            4, // lineage.go
	"runLineageShow":              3, // lineage.go
	"runLineageV1Log":             5, // lineage_v1.go
	"runLineageV1Verify":          4, // lineage_v1.go
	"runLineageVerify":            2, // lineage.go
	"runLineageVerifyCheckpoints": 4, // lineage_checkpoint.go
	"runPush":                     9, // share.go
	"runRecord":                   7, // record.go
	"runVerify":                   6, // verify.go
	"runVerifyNoted":              3, // verify_noted.go
	"runVerifyPage":               2, // verifypage.go
	"runVerifyRelease":            3, // verify_release.go
	"runView":                     3, // view.go
}

// TestCommandsCallOneCapability: a command (a run… function) reads its flags, makes one call into a
// capability package and renders. Counted are the distinct functions of this module's internal packages (but
// renderPackages and settingReaders) that the run function calls, itself or through the functions and methods of its own file
// that it calls; the shared adapters of other files (session, settings, signing flags) read flags and
// configuration and are not counted.
func TestCommandsCallOneCapability(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	got := map[string]int{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for run, calls := range capabilityCalls(f) {
			if len(calls) > 1 {
				got[run] = len(calls)
			}
			if n := orchestrationDebt[run]; len(calls) > max(n, 1) {
				t.Errorf("%s (%s) calls %d capability functions (%s): move the orchestration into the "+
					"capability package, so the command makes one call", run, name, len(calls), strings.Join(calls, ", "))
			}
		}
	}
	for run, n := range orchestrationDebt {
		switch {
		case got[run] == 0:
			t.Errorf("%s now calls at most one capability function: drop it from orchestrationDebt", run)
		case got[run] < n:
			t.Errorf("%s now calls %d capability functions: lower orchestrationDebt[%q] to it", run, got[run], run)
		}
	}
}

// capabilityCalls maps each run… function of f to the capability functions it calls, sorted.
func capabilityCalls(f *ast.File) map[string][]string {
	imports := map[string]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		local := filepath.Base(path)
		if imp.Name != nil {
			local = imp.Name.Name
		}
		const internal = "github.com/git-bernstein/git-bernstein/internal/"
		if strings.HasPrefix(path, internal) && !renderPackages[filepath.Base(path)] {
			imports[local] = filepath.Base(path)
		}
	}
	decls := map[string]*ast.FuncDecl{} // functions by name, methods by "." and name
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			key := fd.Name.Name
			if fd.Recv != nil {
				key = "." + key
			}
			decls[key] = fd
		}
	}
	out := map[string][]string{}
	for key, fd := range decls {
		if fd.Recv != nil || !strings.HasPrefix(key, "run") {
			continue
		}
		calls := map[string]bool{}
		seen := map[string]bool{}
		var walk func(key string)
		walk = func(key string) {
			if seen[key] {
				return
			}
			seen[key] = true
			ast.Inspect(decls[key], func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok && imports[id.Name] != "" {
						name := imports[id.Name] + "." + x.Sel.Name
						if _, isCall := callOf(decls[key], x); isCall && !settingReaders[name] {
							calls[name] = true
						}
					} else if _, ok := decls["."+x.Sel.Name]; ok {
						walk("." + x.Sel.Name)
					}
				case *ast.Ident:
					if _, ok := decls[x.Name]; ok {
						walk(x.Name)
					}
				}
				return true
			})
		}
		walk(key)
		list := make([]string, 0, len(calls))
		for c := range calls {
			list = append(list, c)
		}
		sort.Strings(list)
		out[key] = list
	}
	return out
}

// callOf finds the call whose function is sel in fd.
func callOf(fd *ast.FuncDecl, sel *ast.SelectorExpr) (*ast.CallExpr, bool) {
	var found *ast.CallExpr
	ast.Inspect(fd, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c.Fun == sel {
			found = c
		}
		return found == nil
	})
	return found, found != nil
}
