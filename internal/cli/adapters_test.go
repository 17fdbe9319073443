package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// renderPackages are the packages a command may call besides its one capability call: the settings it reads
// flags into, and the helpers that render (words, terminal-safe text, progress, JSON, the --out file, the
// version, where a commit landed shortened for people).
var renderPackages = map[string]bool{
	"settings": true, "plural": true, "termtext": true, "progress": true, "jsonout": true, "atomicfile": true,
	"buildinfo": true, "landing": true,
}

// settingReaders read a setting outside package settings, each by the package that uses it (settings' doc:
// bernstein.notesRef, bernstein.remote, the lineage v2 key file and switch, read as sign_flags.go reads signing
// keys; and record.Identity, git's user.name, user.email and GIT_COMMITTER_*), or parse or check a flag's value
// (a usage error): a command resolves them into its request like any other setting.
var settingReaders = map[string]bool{
	"notes.RefFrom": true, "record.Identity": true, "lineage.ResolveKey": true, "lineage.Enabled": true,
	"share.DefaultRemote": true, "verify.ParseSize": true, "sign.CheckKid": true, "ticketcommits.TrailerKeys": true,
}

// sharedAdapters are the files whose functions read flags, settings and the session for every command (the
// repository, the working folder, signing keys, the stores); a command's count does not follow calls into
// them. pr.go, which reads the pull request flags and settings into prcapture.Request, is counted: the
// capture is prcapture's, the client github.Settings'.
var sharedAdapters = []string{"app.go", "env.go", "exit.go", "output.go", "repo.go", "settings.go",
	"sign_flags.go", "store_settings.go"}

// orchestrationDebt lists the commands that still call more than one capability function, with how many; each
// is to become flags → one call → render. The list only shrinks (it is empty now: every command makes one
// call): TestCommandsCallOneCapability fails on a command over its number, and on one under it (lower the
// number, or drop the entry at one).
var orchestrationDebt = map[string]int{}

// TestCommandsCallOneCapability: a command (a run… function) reads its flags, makes one call into a
// capability package and renders. Counted are the distinct functions of this module's internal packages (but
// renderPackages and settingReaders) that the run function calls, itself or through the package's functions
// and methods it calls, but those of sharedAdapters. Methods of a capability's values (a lineage.Store's
// Verify) are not counted: the call that makes the value is.
func TestCommandsCallOneCapability(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	names := map[*ast.File]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		names[f] = name
	}
	got := map[string]int{}
	for run, calls := range capabilityCalls(parsed, names) {
		if len(calls) > 1 {
			got[run] = len(calls)
		}
		if n := orchestrationDebt[run]; len(calls) > max(n, 1) {
			t.Errorf("%s calls %d capability functions (%s): move the orchestration into the capability "+
				"package, so the command makes one call", run, len(calls), strings.Join(calls, ", "))
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

// capabilityCalls maps each run… function of the package's files to the capability functions it calls, sorted.
func capabilityCalls(files []*ast.File, names map[*ast.File]string) map[string][]string {
	type decl struct {
		fd      *ast.FuncDecl
		imports map[string]string // local name → capability package
		shared  bool              // in a sharedAdapters file: not followed
	}
	decls := map[string]decl{} // functions by name, methods by "." and name
	for _, f := range files {
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
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				key := fd.Name.Name
				if fd.Recv != nil {
					key = "." + key
				}
				decls[key] = decl{fd, imports, slices.Contains(sharedAdapters, names[f])}
			}
		}
	}
	out := map[string][]string{}
	for key, d := range decls {
		if d.fd.Recv != nil || !strings.HasPrefix(key, "run") {
			continue
		}
		calls := map[string]bool{}
		seen := map[string]bool{}
		var walk func(key string)
		walk = func(key string) {
			d := decls[key]
			// Another command's run function is counted as its own.
			if seen[key] || d.shared || (len(seen) > 0 && strings.HasPrefix(key, "run")) {
				return
			}
			seen[key] = true
			ast.Inspect(d.fd, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok && d.imports[id.Name] != "" {
						name := d.imports[id.Name] + "." + x.Sel.Name
						if _, isCall := callOf(d.fd, x); isCall && !settingReaders[name] {
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
