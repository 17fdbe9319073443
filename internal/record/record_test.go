package record

import (
	"reflect"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
)

func commit(msg string, parents int) *gitext.Commit {
	c := &gitext.Commit{Message: msg, Hash: gitext.NewHash(strings.Repeat("ab", 20))}
	for i := 0; i < parents; i++ {
		c.ParentHashes = append(c.ParentHashes, gitext.Hash{})
	}
	return c
}

func ids(fs []Found) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

func TestTickets(t *testing.T) {
	t.Parallel()
	keys := append(append([]string{}, discover.DefaultTrailerKeys...), "Closes-Bug", "Related-Bug") // as with git config bernstein.trailer
	cases := []struct {
		name, pattern, tracker string
		commits                []*gitext.Commit
		want                   []string
	}{
		{"trailer and body", "", "github", []*gitext.Commit{commit("Add login\n\nFix for LIN-7 too.\n\nRefs: ENG-42", 1)}, []string{"ENG-42", "LIN-7"}},
		{"near misses", "", "github", []*gitext.Commit{commit("ENG-42a xENG-42 eng-42 ENG-", 1)}, []string{}},
		{"prose that looks like keys", "", "github", []*gitext.Commit{commit("Use UTF-8 and SHA-256 (RFC-8785, ISO-8601, CVE-2024-1)", 1)}, []string{}},
		{"lower-case branch upper-cased", "", "github", []*gitext.Commit{commit("Merge branch 'bugfix/eng-42-crash'", 2)}, []string{"ENG-42"}},
		{"message spelling wins over branch", "", "github", []*gitext.Commit{commit("Merge branch 'eng-42-x'", 2), commit("ENG-42 work", 1)}, []string{"ENG-42"}},
		{"branch only for merges", "", "github", []*gitext.Commit{commit("Merge branch 'eng-42-x'", 1)}, []string{}},
		{"github numbers in ticket trailers", "", "github", []*gitext.Commit{commit("Fix (#17)\n\nFixes: #12, acme/app#13\nSigned-off-by: A <a@x>", 1)}, []string{"12", "13"}},
		{"no letter before #", "", "github", []*gitext.Commit{commit("RSA (PKCS#1)\n\nRefs: PKCS#1, C#2, _#3, #4, acme/app#5", 1)}, []string{"4", "5"}},
		{"github numbers not for jira", "", "jira", []*gitext.Commit{commit("Fix\n\nFixes: #12", 1)}, []string{}},
		{"custom pattern", `PROJ_[0-9]+`, "jira", []*gitext.Commit{commit("PROJ_9 and ENG-1", 1)}, []string{"PROJ_9"}},
		{"duplicates collapse", "", "github", []*gitext.Commit{commit("ENG-1", 1), commit("Refs: ENG-1", 1)}, []string{"ENG-1"}},
		// Issue 14's real cases: Nova's Launchpad trailers with bernstein.trailer Closes-Bug, commons-lang's
		// version branches, go-git's pull request merges.
		{"launchpad trailers", "", "launchpad", []*gitext.Commit{commit("Fix it\n\nCloses-Bug: #2161868\nRelated-Bug: 2059809\nChange-Id: I1234567\n", 1)}, []string{"2059809", "2161868"}},
		{"launchpad ignores prose numbers", "", "launchpad", []*gitext.Commit{commit("Raise limit to 1048576 for UTF-8\n\nCloses-Bug: #12", 1)}, []string{}},
		{"versions are not keys", "", "jira", []*gitext.Commit{commit("Merge branch 'lang-3.2-RC1'", 2), commit("Merge branch 'commons-lang-3.20.0'", 2), commit("Prepare LANG-3.1 release", 1)}, []string{}},
		{"pull request merge", "", "github", []*gitext.Commit{commit("Merge pull request #2081 from pjbgf/worktree-fs", 2)}, []string{"2081"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := NewFinder(c.pattern, c.tracker, keys, gitext.TrailerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(f.Tickets(c.commits)); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	if _, err := NewFinder("(", "github", nil, gitext.TrailerOptions{}); err == nil || !strings.Contains(err.Error(), "bernstein.ticketPattern") {
		t.Fatalf("bad pattern: %v", err)
	}
}

// TestProjects: issue 26 item 4. Kafka's messages name KIP-848 and KIP-932 (improvement proposals) and the typo
// KAKFA-17173 beside its KAFKA tickets; with bernstein.projects KAFKA only KAFKA's are tickets, in messages and
// in merged branch names, while the tracker's own shapes (#123 with github) are no key and stay.
func TestProjects(t *testing.T) {
	t.Parallel()
	commits := []*gitext.Commit{
		commit("KAFKA-17173: Implement KIP-848 heartbeats\n\nSee KIP-932 and KAKFA-17173.", 1),
		commit("Merge branch 'kip-848-eng-5' into trunk", 2),
		commit("Fix (#12)\n\nFixes: #12", 1),
	}
	keys := discover.DefaultTrailerKeys
	all, _ := NewFinder("", "github", keys, gitext.TrailerOptions{})
	if got, want := ids(all.Tickets(commits)), []string{"12", "ENG-5", "KAFKA-17173", "KAKFA-17173", "KIP-848", "KIP-932"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("without projects: %q, want %q", got, want)
	}
	if got, want := Keys(all.Tickets(commits)), []KeyCount{{"KIP", 2, 3}, {"ENG", 1, 1}, {"KAFKA", 1, 1}, {"KAKFA", 1, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Keys: %v, want %v", got, want)
	}
	for _, values := range [][]string{{"KAFKA eng"}, {"KAFKA", "ENG"}, {"kafka,ENG", "Kafka"}} {
		projects, err := ParseProjects(values)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := NewFinder("", "github", keys, gitext.TrailerOptions{})
		f.Projects = projects
		if got, want := ids(f.Tickets(commits)), []string{"12", "ENG-5", "KAFKA-17173"}; !reflect.DeepEqual(got, want) {
			t.Errorf("projects %q: %q, want %q", values, got, want)
		}
	}
	for _, bad := range []string{"KAFKA-1", "1KAFKA", "KAF KA-"} {
		if _, err := ParseProjects([]string{bad}); err == nil || !strings.Contains(err.Error(), "bernstein.projects") {
			t.Errorf("ParseProjects(%q): %v, want an error naming bernstein.projects", bad, err)
		}
	}
	if p, err := ParseProjects(nil); p != nil || err != nil {
		t.Errorf("no projects: %q, %v", p, err)
	}
}
