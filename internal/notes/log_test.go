package notes

import (
	"sort"
	"testing"
)

func TestNaturalOrder(t *testing.T) {
	t.Parallel()
	in := []string{"LANG-1215 (jira)", "LANG-456 (jira)", "ENG-10 (jira)", "ENG-9 (jira)", "ENG-09a (jira)", "#17 (github)", "#5 (github)"}
	sort.Slice(in, func(i, j int) bool { return naturalLess(in[i], in[j]) })
	want := []string{"#5 (github)", "#17 (github)", "ENG-9 (jira)", "ENG-09a (jira)", "ENG-10 (jira)", "LANG-456 (jira)", "LANG-1215 (jira)"}
	for i := range want {
		if in[i] != want[i] {
			t.Fatalf("natural order %q, want %q", in, want)
		}
	}
}
