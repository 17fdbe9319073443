package controls

import (
	"fmt"
	"testing"
)

// The examples of GitHub's "About code owners" page, each with paths it owns and does not.
func TestCodeOwnersPatterns(t *testing.T) {
	for _, c := range []struct {
		pattern string
		yes, no []string
	}{
		{"*", []string{"a", "x/y/z.go"}, nil},
		{"*.js", []string{"a.js", "src/x/a.js"}, []string{"a.jsx", "js/a.go"}},
		{"/build/logs/", []string{"build/logs/a", "build/logs/x/y"}, []string{"x/build/logs/a", "build/logs"}},
		{"docs/*", []string{"docs/getting-started.md"}, []string{"docs/build-app/troubleshooting.md", "x/docs/a.md"}},
		{"apps/", []string{"apps/a", "x/apps/b/c"}, []string{"apps"}},
		{"/docs/", []string{"docs/a", "docs/x/y"}, []string{"x/docs/a"}},
		{"/scripts/", []string{"scripts/a.sh"}, []string{"src/scripts/a.sh"}},
		{"**/logs", []string{"logs", "build/logs", "deeply/nested/logs/a.txt"}, []string{"logsx"}},
		{"/apps/github", []string{"apps/github", "apps/github/a"}, []string{"x/apps/github"}},
	} {
		re, err := ownerPattern(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.yes {
			if !re.MatchString(p) {
				t.Errorf("%s should own %s (%s)", c.pattern, p, re)
			}
		}
		for _, p := range c.no {
			if re.MatchString(p) {
				t.Errorf("%s should not own %s (%s)", c.pattern, p, re)
			}
		}
	}
	co := parseCodeOwners("# comment\n* @global\n*.go @gophers # inline\n/src/legacy/ @old\n")
	for path, want := range map[string]string{"README": "@global", "src/a.go": "@gophers", "src/legacy/a.go": "@old"} {
		if r := co.ownersOf(path); r == nil || r.owners[0] != want {
			t.Errorf("%s: %+v, want %s", path, r, want)
		}
	}
}

func TestPatchPaths(t *testing.T) {
	patch := "From " + c1 + " Mon Sep 17 00:00:00 2001\nSubject: x\n\ndiff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n" +
		"From " + c2 + " Mon Sep 17 00:00:00 2001\n\ndiff --git \"a/sp ace.go\" \"b/sp ace.go\"\n"
	got := patchPaths([]byte(patch))
	if len(got[c1]) != 1 || got[c1][0] != "a.go" || len(got[c2]) != 1 || got[c2][0] != "sp ace.go" {
		t.Errorf("%q", got)
	}
}

func TestCodeOwnersTeams(t *testing.T) {
	t.Parallel()
	got := CodeOwnersTeams("# owners\n*.go @acme/payments @rita\n/docs/ @Acme/Docs-Team ops@example.com\n*.md @acme/payments\nbad @a/b/c\n")
	want := [][2]string{{"acme", "payments"}, {"Acme", "Docs-Team"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("teams %v, want %v", got, want)
	}
	if n := TeamName("Acme", "Docs-Team"); n != "pr/team_acme_docs-team.json" {
		t.Errorf("TeamName %q", n)
	}
}
