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
