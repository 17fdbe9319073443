package settings

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite README's configuration table from Keys")

const readme = "../../README.md"

// TestReadmeTableIsKeys: README's configuration table is exactly Table() (go test -update rewrites it).
func TestReadmeTableIsKeys(t *testing.T) {
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "| key | meaning | default |\n")
	if start < 0 {
		t.Fatal("README has no configuration table")
	}
	end := start + strings.Index(text[start:], "\n\n") + 1
	if got, want := text[start:end], Table(); got != want {
		if *update {
			if err := os.WriteFile(readme, []byte(text[:start]+want+text[end:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("README's configuration table is not settings.Keys (go test ./internal/settings -update):\n--- README\n%s--- Keys\n%s", got, want)
	}
}

// TestEveryKeyReadIsListed: every bernstein.* name the code reads is in Keys, so none is undocumented.
func TestEveryKeyReadIsListed(t *testing.T) {
	t.Parallel()
	name := regexp.MustCompile(`"(bernstein\.[A-Za-z]+)"`)
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range name.FindAllStringSubmatch(string(src), -1) {
			if m[1] == "bernstein.yaml" {
				continue // the project file, not a git config key
			}
			if _, ok := Lookup(m[1]); !ok {
				t.Errorf("%s reads %s, which settings.Keys (and so README) does not list", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
