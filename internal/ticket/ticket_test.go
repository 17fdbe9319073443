package ticket

import "testing"

func TestNamedIn(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tracker, id, text string
		want              bool
	}{
		{"jira", "ENG-42", "ENG-42", true},
		{"jira", "ENG-42", "fix ENG-42: crash", true},
		{"jira", "ENG-42", "eng-42 lower", true},
		{"jira", "eng-42", "ENG-42 upper text", true},
		{"jira", "ENG-42", "ENG-420", false},
		{"jira", "ENG-42", "XENG-42", false},
		{"jira", "ENG-42", "ENG-42a", false},
		{"jira", "ENG-42", "ENG-42_x", false},
		{"jira", "ENG-42", "_ENG-42", false},
		{"jira", "ENG-42", "feature/ENG-42-login", true},
		{"jira", "ENG-42", "bugfix/eng-42-crash", true},
		{"jira", "ENG-42", "ENG-420 and later ENG-42.", true},
		{"jira", "ENG-42", "(ENG-42)", true},
		{"jira", "ENG-42", "ÉENG-42", false},
		{"jira", "ENG-42", "ENG-42é", false},
		{"jira", "ENG-42", "", false},
		{"github", "123", "#123", true},
		{"github", "#123", "closes #123.", true},
		{"github", "123", "acme/app#123", true},
		{"github", "123", "https://github.com/acme/app/issues/123", true},
		{"github", "123", "https://github.com/acme/app/pull/123", true},
		{"github", "123", "#1234", false},
		{"github", "123", "123", false},
		{"github", "123", "https://github.com/acme/app/issues/1234", false},
		{"github", "ENG-42", "ENG-42", true},
	}
	for _, c := range cases {
		tk, err := Parse(c.tracker, c.id)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.id, err)
		}
		if got := tk.NamedIn(c.text); got != c.want {
			t.Errorf("%s %q NamedIn(%q) = %v, want %v", c.tracker, c.id, c.text, got, c.want)
		}
	}
}

func TestNamedInRef(t *testing.T) {
	t.Parallel()
	tk, _ := Parse("github", "123")
	for ref, want := range map[string]bool{"issue/123-crash": true, "fix-1234": false, "feature/x": false} {
		if got := tk.NamedInRef(ref); got != want {
			t.Errorf("NamedInRef(%q) = %v, want %v", ref, got, want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"", "ENG 42", "ENG-42\n", "ENG\t42", "E\x00", "#", "\xff"} {
		if _, err := Parse("github", id); err == nil {
			t.Errorf("Parse(%q) accepted", id)
		}
	}
}

func TestPrefilterNeverMissesAMatch(t *testing.T) {
	t.Parallel()
	texts := []string{"", "ENG-42", "eng-42 x", "xENG-42y", "ENG-4", "ENG-420", "#123", "acme/app#123", "ab", "É-42", "issue/123"}
	for _, id := range []string{"ENG-42", "eng-42", "123", "#123", "ABC", "É-42", "x"} {
		for _, tracker := range []string{"github", "jira"} {
			tk, err := Parse(tracker, id)
			if err != nil {
				t.Fatal(err)
			}
			pre := tk.Prefilter()
			for _, s := range texts {
				if (tk.NamedIn(s) || tk.NamedInRef(s)) && !pre(s) {
					t.Errorf("%s %q: prefilter rejects %q which names it", tracker, id, s)
				}
			}
		}
	}
	tk, _ := Parse("jira", "ENG-42")
	if tk.Prefilter()("nothing here") {
		t.Error("prefilter passes a text without the id")
	}
}

func TestSameAndStandsAlone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want bool
	}{{"ENG-42", "eng-42", true}, {"#17", "17", true}, {"17", "#17", true}, {"ENG-42", "ENG-420", false}, {"##17", "17", false}} {
		if got := Same(c.a, c.b); got != c.want {
			t.Errorf("Same(%q, %q) = %v", c.a, c.b, got)
		}
	}
	for _, c := range []struct {
		text       string
		start, end int
		want       bool
	}{{"see ENG-42.", 4, 10, true}, {"xENG-42", 1, 7, false}, {"ENG-42a", 0, 6, false}, {"é42", 2, 4, false}} {
		if got := StandsAlone(c.text, c.start, c.end); got != c.want {
			t.Errorf("StandsAlone(%q, %d, %d) = %v", c.text, c.start, c.end, got)
		}
	}
}

// TestRealHistoriesMatching holds the rules against the cases real repositories showed (go-git branch names,
// commons-lang release branches and tags, keybase references in go-git): versions are not tickets, bare numbers
// count in branch names only in issue-like forms, and another repository's owner/repo#N is not ours.
func TestRealHistoriesMatching(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tracker, id, repo string
		ref               bool // NamedInRef, else NamedIn
		text              string
		want              bool
	}{
		// go-git, --tracker github: version-shaped branch names are not issues 1, 9 or 19.
		{"github", "1", "go-git/go-git", true, "go-git/test-1.19", false},
		{"github", "19", "go-git/go-git", true, "go-git/test-1.19", false},
		{"github", "1", "go-git/go-git", true, "dependabot/go_modules/go-crypto-1.1.5", false},
		{"github", "5", "go-git/go-git", true, "dependabot/go_modules/go-crypto-1.1.5", false},
		{"github", "1", "go-git/go-git", true, "dennwc/optimize-1", false},
		{"github", "9", "go-git/go-git", true, "release-v5.9", false},
		// … while issue-like forms still are.
		{"github", "123", "", true, "123-fix-crash", true},
		{"github", "123", "", true, "fix/123-crash", true},
		{"github", "123", "", true, "pr/123", true},
		{"github", "123", "", true, "issue-123", true},
		{"github", "123", "", true, "issues_123-slug", true},
		{"github", "123", "", true, "GH-123", true},
		{"github", "123", "", true, "bug-1234", false},
		{"github", "123", "", true, "feature/x123", false},
		// Jira ids in versions: commons-lang's release branches and tags.
		{"jira", "LANG-3", "", true, "lang-3.2-RC1", false},
		{"jira", "LANG-3", "", true, "commons-lang-3.20.0", false},
		{"jira", "LANG-2", "", true, "vlsi/lang-2.6-CVE-2025-48924", false},
		{"jira", "LANG-3", "", false, "Prepare release commons-lang-3.20.0", false},
		{"jira", "LANG-1215", "", false, "LANG-1215: fix. Released in 3.20.", true},
		{"jira", "LANG-3", "", false, "see LANG-3.", true},
		// Another repository's numbers, once this repository is known.
		{"github", "11366", "go-git/go-git", false, "Like keybase/client#11366", false},
		{"github", "11366", "go-git/go-git", false, "Fixes go-git/go-git#11366", true},
		{"github", "11366", "go-git/go-git", false, "Fixes GO-GIT/go-git#11366", true},
		{"github", "11366", "go-git/go-git", false, "see https://github.com/keybase/client/issues/11366", false},
		{"github", "11366", "go-git/go-git", false, "see https://github.com/go-git/go-git/pull/11366", true},
		{"github", "11366", "go-git/go-git", false, "Fixes #11366", true},
		{"github", "11366", "go-git/go-git", false, "(#11366)", true},
		{"github", "12", "go-git/go-git", false, "bump to #12.5", false},
		// go-git 77e7ef99: "RSA (PKCS#1), PKCS#8, DSA" names neither 1 nor 8; GitHub links #N only with no
		// letter or digit before the '#', owner/repo#N apart.
		{"github", "1", "go-git/go-git", false, "support for RSA (PKCS#1), PKCS#8, DSA", false},
		{"github", "8", "go-git/go-git", false, "support for RSA (PKCS#1), PKCS#8, DSA", false},
		{"github", "1", "", false, "support for RSA (PKCS#1), PKCS#8, DSA", false},
		{"github", "298", "go-git/go-git", false, "helper (#298)", true},
		{"github", "2", "", false, "ported from C#2", false},
		{"github", "3", "", false, "word#3", false},
		{"github", "3", "", false, "é#3", false},
		{"github", "3", "", false, "snake_#3", false},
		{"github", "3", "", false, "_#3", false},
		{"github", "3", "", false, "fix:#3", true},
		{"github", "3", "", false, "-#3", true},
		{"github", "3", "", false, "go-git/go-git#3", true},
		{"github", "3", "", false, "acme/app#3, PKCS#3", true},
		{"github", "3", "", false, "/app#3", false},
	}
	for _, c := range cases {
		tk, err := Parse(c.tracker, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if c.repo != "" {
			tk = tk.InRepo(c.repo)
		}
		got := tk.NamedIn(c.text)
		if c.ref {
			got = tk.NamedInRef(c.text)
		}
		if got != c.want {
			t.Errorf("%s %s (repo %q) in %q (ref %v) = %v, want %v", c.tracker, c.id, c.repo, c.text, c.ref, got, c.want)
		}
	}
}

// LooksLikeKey: a Jira or Linear key in any case, and nothing else.
func TestLooksLikeKey(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{
		"ENG-42": true, "eng-42": true, "AB2-7": true, "ENG-42a": false, "E-1": false, "42": false, "#42": false,
		"ENG42": false, "x ENG-42": false, "": false,
	} {
		if got := LooksLikeKey(id); got != want {
			t.Errorf("LooksLikeKey(%q) = %v, want %v", id, got, want)
		}
	}
}
