package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int64
		noun string
		want string
	}{
		{0, "file", "0 files"},
		{1, "file", "1 file"},
		{2, "file", "2 files"},
		{1, "entry", "1 entry"},
		{3, "entry", "3 entries"},
		{2, "key", "2 keys"},
		{2, "match", "2 matches"},
		{-1, "commit", "-1 commits"},
		{1, "parent ref", "1 parent ref"},
		{5, "parent ref", "5 parent refs"},
		{2, "child file", "2 child files"},
		{2, "approval", "2 approvals"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := Count(uint8(1), "ticket"); got != "1 ticket" {
		t.Errorf("Count(uint8(1)) = %q", got)
	}
	if got := Noun(3, "warning"); got != "warnings" {
		t.Errorf("Noun(3, warning) = %q", got)
	}
}
