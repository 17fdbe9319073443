package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEPackageTable: README's layout table ("| package | job |") names every package of the module that
// has non-test Go files, so the table shows the layout as it is. A name "…/x" in a row stands for a package
// ending in /x under an earlier name of the same row (or that name's folder).
func TestREADMEPackageTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "| package | job |")
	if start < 0 {
		t.Fatal("README has no | package | job | table")
	}
	code := regexp.MustCompile("`([^`]+)`")
	var rows [][]string
	for _, line := range strings.Split(text[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		cell := strings.SplitN(line, " | ", 2)[0]
		var names []string
		for _, m := range code.FindAllStringSubmatch(cell, -1) {
			names = append(names, strings.TrimSuffix(m[1], "/"))
		}
		rows = append(rows, names)
	}
	listed := func(pkg string) bool {
		for _, names := range rows {
			for i, n := range names {
				if n == pkg {
					return true
				}
				tail, ok := strings.CutPrefix(n, "…/")
				if !ok || !strings.HasSuffix(pkg, "/"+tail) {
					continue
				}
				for _, before := range names[:i] {
					if strings.HasPrefix(pkg, before+"/") || strings.HasPrefix(pkg, path.Dir(before)+"/") {
						return true
					}
				}
			}
		}
		return false
	}
	pkgs := map[string]bool{}
	err = filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "build" || strings.HasPrefix(d.Name(), ".") && p != "../..") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel("../..", filepath.Dir(p))
			pkgs[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 40 {
		t.Fatalf("found only %d packages: is the walk wrong?", len(pkgs))
	}
	for pkg := range pkgs {
		if pkg != "." && !listed(pkg) {
			t.Errorf("README's package table does not name %s: add a row (or a …/ name in its parent's row)", pkg)
		}
	}
}
