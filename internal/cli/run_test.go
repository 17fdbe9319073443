package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// runIn runs git-bernstein in-process from dir with env (KEY=VALUE pairs, e.g. gittest's) and returns what it
// printed and its exit code.
func runIn(t testing.TB, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runEnv(t, testEnv(dir, env), args...)
}

// testEnv is the process's surroundings with dir as the working folder and env's KEY=VALUE pairs over the
// process's variables: what runIn gives a command, without touching the process (so tests can run in parallel).
func testEnv(dir string, env []string) *Env {
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	// GitHub answers in tests come from local servers: 5 s is ample, and a test of a hanging server ends sooner.
	return &Env{Dir: dir, Now: time.Now, PRTimeout: 5 * time.Second, Getenv: func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		return os.Getenv(k)
	}}
}

// runEnv runs git-bernstein in-process in env and returns what it printed and its exit code.
func runEnv(t testing.TB, env *Env, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = RunEnv(env, append([]string{"git-bernstein"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// aliceBundles makes a repository with ENG-42's work and one .sdd file (sddPath relative to .sdd, content), a
// key and card for kid alice-2026 beside it, ENG-42.tar.gz signed with it and unsigned.tar.gz (another
// created_at, so its manifest is not the signed one). It returns the repository and the card's path.
func aliceBundles(t *testing.T, sddPath, content string) (*gittest.Repo, string) {
	t.Helper()
	var r *gittest.Repo
	if sddPath == tracesPath && content == tracesContent {
		r, _ = traceBundles.Copy(t) // most callers: built once, copied
	} else {
		r = gittest.New(t)
		makeAliceBundles(t, r, sddPath, content)
	}
	return r, filepath.Join(filepath.Dir(r.Dir), "alice.card.json")
}

// The .sdd file most aliceBundles callers ask for, and the template that builds that case once.
const tracesPath, tracesContent = "traces/ENG-42.jsonl", `{"ticket_id":"ENG-42"}` + "\n"

var traceBundles = gittest.Template[struct{}]{Build: func(r *gittest.Repo) struct{} {
	makeAliceBundles(r.T, r, tracesPath, tracesContent)
	return struct{}{}
}}

// makeAliceBundles is aliceBundles' work in r.
func makeAliceBundles(t testing.TB, r *gittest.Repo, sddPath, content string) {
	t.Helper()
	r.Commit("init", map[string]string{"a": "1\n"})
	r.Commit("Add login\n\nRefs: ENG-42", map[string]string{"b": "<b>bold</b>\n"})
	p := filepath.Join(r.Dir, ".sdd", sddPath)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(content), 0o644)
	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "alice-2026", "--key", "../alice.pem", "--card", "../alice.card.json"); c != 0 {
		t.Fatalf("keygen: %d %s", c, e)
	}
	if out, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-42", "--sign-key", "../alice.pem", "--sign-kid", "alice-2026", "--created-at", "2026-01-01T00:00:00Z"); c != 0 {
		t.Fatalf("bundle: %d %s %s", c, out, e)
	}
	if out, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-42", "--out", "unsigned.tar.gz", "--created-at", "2026-01-02T00:00:00Z"); c != 0 {
		t.Fatalf("bundle: %d %s %s", c, out, e)
	}
}
