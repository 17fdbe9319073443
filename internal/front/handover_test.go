package front

import (
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
)

// With no git-bernstein-full beside the program or on PATH, the error says what to install and how.
func TestFindFullMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := findFull()
	if err == nil || !strings.Contains(err.Error(), "git-bernstein-full, which runs every command but `commits`, "+
		"is neither beside ") || !strings.Contains(err.Error(), "make install") {
		t.Errorf("%v, want it to say where it looked and how to install both", err)
	}
}

// git-bernstein-full takes a line only from a front of its own build; without the variable, from anyone.
func TestCheckHandedOver(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value string
		ok    bool
	}{
		{"", true},
		{"123:" + buildinfo.Version(), true},
		{"123:v9.9.9", false},
	} {
		err := CheckHandedOver(func(k string) string {
			if k == handoverVar {
				return tc.value
			}
			return ""
		})
		if (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok %v", tc.value, err, tc.ok)
		}
	}
}
