package main

import (
	"os"
	"os/exec"
	"runtime"
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

func TestMain(m *testing.M) {
	// runTimed re-executes its own binary as the timing child: in tests that is this test binary.
	if len(os.Args) > 2 && os.Args[1] == "-timed" && os.Args[2] == "--" {
		os.Exit(timedChild(os.Args[3:]))
	}
	os.Exit(m.Run())
}

// runTimed must report the command's own peak RSS, not the memory of the process that measures it (Go starts
// commands with vfork, and Linux counts the parent's high-water mark in the child's), and must run the set-up
// before the measured command without timing it.
func TestRunTimedMeasuresTheCommandAlone(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	held := make([]byte, 256<<20)
	for i := 0; i < len(held); i += 4096 {
		held[i] = 1
	}
	dir := t.TempDir()
	r, err := runTimed(dir, "touch made && test -f made", nil, 3)
	if err != nil {
		t.Fatalf("the set-up did not run before the measured command: %v", err)
	}
	if r.wall <= 0 {
		t.Errorf("wall %v", r.wall)
	}
	r, err = runTimed(dir, "git --version", nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.rssKB <= 0 || r.rssKB > 64<<10 {
		t.Errorf("git --version peaked at %d KiB while this test held 256 MiB: want its own few MiB", r.rssKB)
	}
	runtime.KeepAlive(held)
}
