package main

// The transcripts in testdata/script are README's examples as executable scripts (testscript, as age and
// git-spice keep theirs): each builds a real repository with the git CLI under a pinned identity and date, runs
// `git bernstein …` through git (this test binary is installed on PATH as git-bernstein, so git finds it as it
// finds an installed one), and checks stdout, stderr and the exit code README documents.
//
//	go test ./cmd/git-bernstein -run TestScripts                      # all of them
//	go test ./cmd/git-bernstein -run TestScripts/verify               # one
//	go test ./cmd/git-bernstein -run TestScripts -update              # rewrite the files `cmp` compares with
//
// Besides testscript's own commands, scripts have `exitcode N PROGRAM ARGS…`: run PROGRAM, and fail unless it
// exits with N (stdout and stderr are then checked as after exec).
//
// This test binary is also every git-bernstein the scripts run, once per command, so it links little beyond
// what the real one does: each package linked here starts up on every one of those runs. The JSON Schema checks
// of what commands write are internal/cli's (TestOutputsMatchTheirSchemas), the GitHub Action's tests
// internal/actiontest's.

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/cli"
	"github.com/git-bernstein/git-bernstein/internal/gcpace"
	"github.com/git-bernstein/git-bernstein/internal/github/githubtest"
	"github.com/git-bernstein/git-bernstein/internal/manpage"
	"github.com/git-bernstein/git-bernstein/internal/s3test"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the files that `cmp` compares stdout and stderr with in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"git-bernstein":      main,
		"git-bernstein-full": fullMain,
		"bernstein-manpage":  func() { os.Exit(manpage.Main(os.Stdout, os.Stderr)) },
	})
}

// fullMain is cmd/git-bernstein-full's main, which the front (this package's main) hands command lines to.
func fullMain() {
	env := &cli.Env{Getenv: os.Getenv, Now: time.Now, SmallHeap: gcpace.CollectLate, LongHeap: gcpace.CollectLess}
	os.Exit(cli.RunEnv(env, os.Args, os.Stdin, os.Stdout, os.Stderr))
}

func TestScripts(t *testing.T) {
	corpus, err := filepath.Abs("../../testdata/verify")
	if err != nil {
		t.Fatal(err)
	}
	lineageV1, err := filepath.Abs("../../internal/lineage/logv1/testdata/fintech/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	fixtures, err := filepath.Abs("../../internal/github/testdata")
	if err != nil {
		t.Fatal(err)
	}
	// One fake GitHub for every script: the fixtures of internal/github for acme/app, and 404 for anything
	// else (githubtest). GITHUB_API_URL points at it, so no script can reach the network even without --no-pr.
	gh := githubtest.New(t, "")
	// The S3 server make test starts (internal/s3test), when there is one: [s3] scripts reach it through the
	// AWS variables, and s3bucket makes their buckets.
	s3, err := s3test.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			work := e.Getenv("WORK")
			for _, kv := range [][2]string{
				// git reads no configuration but the repository's own, and commits get the same hashes on
				// every machine.
				{"HOME", work},
				{"XDG_CONFIG_HOME", filepath.Join(work, ".config")},
				{"GIT_CONFIG_NOSYSTEM", "1"},
				{"GIT_AUTHOR_NAME", "Ada Agent"},
				{"GIT_AUTHOR_EMAIL", "ada@agents.example"},
				{"GIT_COMMITTER_NAME", "Rita Reviewer"},
				{"GIT_COMMITTER_EMAIL", "rita@example.com"},
				{"GIT_AUTHOR_DATE", "@1767225600 +0000"},
				{"GIT_COMMITTER_DATE", "@1767225600 +0000"},
				{"GIT_EDITOR", "true"},
				{"GIT_MERGE_AUTOEDIT", "no"},
				{"TZ", "UTC"},
				{"LC_ALL", "C"},
				// Bundles are byte-identical from run to run (created_at is otherwise now).
				{"SOURCE_DATE_EPOCH", "1767225600"},
				{"GITHUB_API_URL", gh.APIURL()},
				{"GITHUB_FIXTURES", fixtures}, // what the fake GitHub serves, to compare payloads with
				// The verifier corpus (testdata/verify): bundles with one defect each, signed by the
				// test-only key whose card is test-only.card.json.
				{"CORPUS", corpus},
				// Bernstein's fintech lineage v1 example: 30 entries by 4 agents, their cards, a rogue fork.
				{"LINEAGE_V1", lineageV1},
				// PATH without git-bernstein, for what the hook does when it is not installed.
				{"PATH_WITHOUT_BERNSTEIN", pathWithout(e.Getenv("PATH"), "git-bernstein")},
			} {
				e.Setenv(kv[0], kv[1])
			}
			if s3 != nil {
				for k, v := range s3.Env() {
					e.Setenv(k, v)
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": exitcode,
			"s3bucket": func(ts *testscript.TestScript, neg bool, args []string) { s3bucket(ts, s3, neg, args) },
		},
		// [gitcompletion]: git's bash completion script is installed where bash-completion loads it.
		// [s3]: make test's S3 server is there (BERNSTEIN_TEST_S3_ENDPOINT).
		Condition: func(cond string) (bool, error) {
			if cond == "s3" {
				return s3 != nil, nil
			}
			if cond != "gitcompletion" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			_, err := os.Stat(gitCompletion)
			return err == nil, nil
		},
	})
}

// pathWithout returns path without the folders that hold an executable named name.
func pathWithout(path, name string) string {
	var keep []string
	for _, dir := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// gitCompletion is where Debian's git package (and bash-completion elsewhere) keeps git's completion script.
const gitCompletion = "/usr/share/bash-completion/completions/git"

// s3bucket VAR lock|plain makes a bucket on the S3 server, with Object Lock or without, and sets $VAR to its name.
func s3bucket(ts *testscript.TestScript, srv *s3test.Server, neg bool, args []string) {
	if neg || len(args) != 2 || (args[1] != "lock" && args[1] != "plain") {
		ts.Fatalf("usage: s3bucket VAR lock|plain")
	}
	if srv == nil {
		ts.Fatalf("s3bucket: no S3 server (guard the script with [!s3] skip)")
	}
	name, err := srv.MakeBucket(args[1] == "lock")
	if err != nil {
		ts.Fatalf("s3bucket: %v", err)
	}
	ts.Setenv(args[0], name)
}

// exitcode N PROGRAM ARGS… runs PROGRAM and fails unless its exit code is N.
func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}
