package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// plainWords must split a command line as sh does, or refuse it (and sh then runs it): sh is the judge.
func TestPlainWordsAsShSplitsThem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line  string
		plain bool
	}{
		{`git log --all --format=%H --grep=KAFKA-10199`, true},
		{`'/tmp/a b/git-bernstein' commits --tracker jira LANG-1568`, true},
		{`'/x/bin' record 1eb7644349cb..bench/plain`, true},
		{`git format-patch --stdout --full-index main..perf/PERF-1-patches`, true},
		{`a'b c'd  e`, true},
		{`gzip -dc 'x.tar.gz' | sha256sum`, false},
		{`'bin' verify 'x' || test $? -eq 2`, false},
		{`GOGC=100 'bin' commits X`, false},
		{`echo "quoted"`, false},
		{`ls *.go`, false},
		{`cd ~`, false},
		{`echo 'unclosed`, false},
		{`cmd > out`, false},
		{``, false},
	} {
		words, plain := plainWords(tc.line)
		if plain != tc.plain {
			t.Errorf("%q: plain %v, want %v", tc.line, plain, tc.plain)
			continue
		}
		if !plain {
			continue
		}
		out, err := exec.Command("sh", "-c", `for w in `+tc.line+`; do printf '%s\n' "$w"; done`).Output()
		if err != nil {
			t.Fatalf("%q: sh: %v", tc.line, err)
		}
		if want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"); !slices.Equal(words, want) {
			t.Errorf("%q: words %q, sh gives %q", tc.line, words, want)
		}
	}
}

func TestSplitSetup(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ line, setup, measured string }{
		{`'bin' commits X`, ``, `'bin' commits X`},
		{`rm -rf 'a' && 'bin' commits X`, `rm -rf 'a'`, `'bin' commits X`},
		{`cp 'a' 'b' && rm -rf 'c' && 'bin' hook post-merge 0`, `cp 'a' 'b' && rm -rf 'c'`, `'bin' hook post-merge 0`},
	} {
		if setup, measured := splitSetup(tc.line); setup != tc.setup || measured != tc.measured {
			t.Errorf("%q: %q, %q; want %q, %q", tc.line, setup, measured, tc.setup, tc.measured)
		}
	}
}
