package gitext_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/ratchet"
)

// goGitDebt lists the files outside gitext/ that still import go-git, each with what it imports. It is empty:
// add to it only where moving a file's git work into gitext would be a large change, and say why. The list only
// shrinks (package ratchet): TestOnlyGitextImportsGoGit fails on a new import, and on a listed one that the file
// no longer makes.
var goGitDebt = map[string][]string{}

// TestOnlyGitextImportsGoGit: gitext is the module's one door to git. No Go file outside gitext/ (tests too)
// imports go-git or go-billy; they read and write git through gitext's own types and methods, so that what
// go-git is, and whether it stays, is gitext's business alone.
func TestOnlyGitextImportsGoGit(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not gitext's parent: %v", err)
	}
	rule := &ratchet.Ratchet{Name: "goGitDebt", Verb: "imports", Debt: goGitDebt,
		Fix: "only gitext uses go-git; read git through gitext (add what you need there)"}
	isGoGit := func(p string) bool { return strings.HasPrefix(p, "github.com/go-git/") }
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel == "gitext" || path != root && (name == "testdata" || name == "vendor" || name == "node_modules" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		files++
		gogit, err := ratchet.Imports(fset, path, isGoGit)
		if err != nil {
			return err
		}
		rule.Check(t, rel, gogit)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files found outside gitext/ under %s: the walk missed the module", files, root)
	}
	rule.Done(t)
}

// TestAPISpeaksGitext: gitext's exported functions, methods and types are spelled in gitext's own types (Hash,
// RefName, ObjectType are documented aliases, declared in ids.go), never in go-git's, so callers need not
// import go-git to use them. Backend is the one exception: its key can only be made under gitext/.
func TestAPISpeaksGitext(t *testing.T) {
	t.Parallel()
	allowed := map[string]bool{"Repo.Backend": true}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		gogit := map[string]bool{} // the names this file gives go-git's packages
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, "github.com/go-git/") {
				continue
			}
			n := p[strings.LastIndex(p, "/")+1:]
			if n == "v5" {
				n = "git"
			}
			if imp.Name != nil {
				n = imp.Name.Name
			}
			gogit[n] = true
		}
		check := func(what string, node ast.Node) {
			if allowed[what] {
				return
			}
			ast.Inspect(node, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && gogit[x.Name] {
						t.Errorf("%s: %s is spelled with go-git's %s.%s; use gitext's own type", name, what, x.Name,
							sel.Sel.Name)
					}
				}
				return true
			})
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				what := d.Name.Name
				if d.Recv != nil {
					recv := d.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					id, ok := recv.(*ast.Ident)
					if !ok || !id.IsExported() {
						continue
					}
					what = id.Name + "." + what
				}
				check(what, d.Type)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() {
						continue
					}
					if ts.Assign.IsValid() {
						if name != "ids.go" {
							t.Errorf("%s: alias %s: gitext's aliases of go-git types live, documented, in ids.go",
								name, ts.Name.Name)
						}
						continue
					}
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, fld := range st.Fields.List {
							for _, fn := range fld.Names {
								if fn.IsExported() {
									check(ts.Name.Name+"."+fn.Name, fld.Type)
								}
							}
						}
						continue
					}
					check(ts.Name.Name, ts.Type)
				}
			}
		}
	}
}
