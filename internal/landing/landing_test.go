package landing

import (
	"fmt"
	"testing"
)

func TestBranches(t *testing.T) {
	t.Parallel()
	kafka := []string{"3.2", "3.10", "3.3", "remotes/origin/3.2", "remotes/origin/3.3", "remotes/origin/3.10",
		"remotes/origin/trunk", "trunk", "remotes/origin/HEAD-less", "KAFKA-10199-fix"}
	for _, c := range []struct {
		names []string
		base  string
		want  string
	}{
		{nil, "", ""},
		{[]string{"main", "remotes/origin/main"}, "refs/heads/main", "main"},
		{[]string{"bugfix/eng-42-crash", "main"}, "refs/heads/main", "main, bugfix/eng-42-crash"},
		{[]string{"remotes/origin/trunk"}, "refs/remotes/origin/trunk", "remotes/origin/trunk"},
		{kafka, "refs/remotes/origin/trunk", "trunk, 3.2, 3.3 and 3 more"},
		{kafka, "", "3.2, 3.3, 3.10 and 3 more"},
		{[]string{"release/1.10", "release/1.9", "main"}, "refs/heads/main", "main, release/1.9, release/1.10"},
	} {
		if got := Branches(c.names, c.base).String(); got != c.want {
			t.Errorf("Branches(%q, %q) = %q, want %q", c.names, c.base, got, c.want)
		}
	}
}

func TestTags(t *testing.T) {
	t.Parallel()
	var rcs []string
	for minor := 2; minor <= 9; minor++ {
		rcs = append(rcs, fmt.Sprintf("3.%d.0-rc1", minor), fmt.Sprintf("3.%d.0-rc2", minor), fmt.Sprintf("3.%d.0", minor))
	}
	for _, c := range []struct {
		tags []string
		want string
	}{
		{nil, ""},
		{[]string{"v1.1"}, "v1.1"},
		{[]string{"v1.0.1", "v1.1"}, "v1.0.1, v1.1"},
		{[]string{"3.2.0-rc3", "3.2.0", "3.2.1"}, "3.2.0 and 2 more"},
		{[]string{"3.2.0-rc2", "3.2.0-rc10"}, "3.2.0-rc2 and 1 more"},
		{rcs, "3.2.0, 3.3.0, 3.4.0, 3.5.0 and 20 more"},
		{[]string{"v1.10.0", "v1.9.3", "nightly"}, "v1.9.3, v1.10.0, nightly"},
		{[]string{"rel/2.1", "commons-lang-3.2", "LANG_3_2"}, "commons-lang-3.2, LANG_3_2, rel/2.1"},
	} {
		if got := Tags(c.tags).String(); got != c.want {
			t.Errorf("Tags(%q) = %q, want %q", c.tags, got, c.want)
		}
	}
}
