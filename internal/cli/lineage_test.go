package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// clockRun is runIn with a pinned clock: appended records carry ts_ns 1, 2, 3, … across the calls that share it.
type clockRun struct{ n int64 }

func (cr *clockRun) runIn(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	e := testEnv(dir, env)
	e.Now = func() time.Time { cr.n++; return time.Unix(0, cr.n) }
	return runEnv(t, e, args...)
}

// The reference vector (see package lineage, "Reference vector"), written through the CLI from a subfolder of a
// worktree: --root defaults to <worktree root>/.sdd/lineage/v2.
func TestLineageAppendReferenceVector(t *testing.T) {
	t.Parallel()
	clk := &clockRun{}
	r := gittest.New(t)
	sub := filepath.Join(r.Dir, "src", "deep")
	os.MkdirAll(sub, 0o755)
	out, errOut, code := clk.runIn(t, sub, nil, "lineage", "v2", "append", "--task", "T", "--run", "r1", "--call", "call", "--summary", "s", "--kind", "subagent.started")
	if code != 0 || out != "Appended sha256:3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b seq 0\n" {
		t.Fatalf("append: %d %q %q", code, out, errOut)
	}
	parent, err := os.ReadFile(filepath.Join(r.Dir, ".sdd", "lineage", "v2", "parent.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"child_run_id":"r1","child_sha":"sha256:3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b","hmac":"a20e714596a40542ef979653d803a19780ca835318b5f831636be91ae003db95","parent_call_id":"call","prev_hmac":"","summary":"s","task_id":"T","ts_ns":1,"v":2}` + "\n"
	if string(parent) != want {
		t.Errorf("parent.jsonl:\n got %s\nwant %s", parent, want)
	}
}

func TestLineageWorkflow(t *testing.T) {
	t.Parallel()
	clk := &clockRun{}
	root := t.TempDir()
	run := func(args ...string) (string, string, int) {
		return clk.runIn(t, t.TempDir(), nil, append(append([]string{"lineage", "v2"}, args...), "--root", root)...)
	}
	out, _, code := run("append", "--task", "task-9f3a", "--run", "r1", "--summary", "first <run>\x1b[31m", "--kind", "subagent.started", "--payload", `{"cost":0.1,"n":12345678901234567890123}`)
	if code != 0 {
		t.Fatalf("append: %d %s", code, out)
	}
	sha := strings.Fields(out)[1]
	if out, errOut, code := run("append", "--task", "task-9f3a", "--run", "r1", "--kind", "subagent.done", "--child-sha", sha); code != 0 || !strings.HasSuffix(out, " seq 1\n") {
		t.Fatalf("append body: %d %q %q", code, out, errOut)
	}

	out, _, code = run("show", "task-9f3a")
	if code != 0 || !strings.Contains(out, "Lineage v2 timeline for task-9f3a (1 ref(s))") || !strings.Contains(out, sha[:24]+"...") {
		t.Errorf("show: %d\n%s", code, out)
	}
	if strings.Contains(out, "\x1b") {
		t.Error("show printed a terminal escape from the store")
	}
	if !regexp.MustCompile(`r1 +- +first <run>\[31m +2 +sha256:`).MatchString(out) {
		t.Errorf("show row:\n%s", out)
	}
	out, _, code = run("show", "task-9f3a", "--output-json")
	if code != 0 || !strings.HasPrefix(out, "[\n  {\n    \"bodies\": [") || !strings.Contains(out, `"n": 12345678901234567890123`) || !strings.Contains(out, `"cost": 0.1`) {
		t.Errorf("show json: %d\n%s", code, out)
	}
	if out, _, code := run("show", "nope"); code != 0 || out != "No v2 records for task nope\n" {
		t.Errorf("unknown task: %d %q", code, out)
	}
	if out, _, code := run("show", "nope", "--output-json"); code != 0 || out != "[]\n" {
		t.Errorf("unknown task json: %d %q", code, out)
	}

	out, _, code = run("verify")
	if code != 0 || !strings.HasPrefix(out, "Lineage v2: OK (1 parent / 2 child)\nKey: public-default") {
		t.Errorf("verify: %d\n%s", code, out)
	}
	if out, _, code := run("verify", "--strict"); code != 1 || !strings.Contains(out, "FAIL (1 issue(s))") {
		t.Errorf("verify --strict under the public key: %d\n%s", code, out)
	}
	out, _, code = run("verify", "--output-json")
	if code != 0 || out != "{\n  \"ok\": true,\n  \"failures\": [],\n  \"parent_count\": 1,\n  \"child_count\": 2,\n  \"key\": \"public-default\"\n}\n" {
		t.Errorf("verify json: %d %q", code, out)
	}

	jsonl, _, code := run("export", "task-9f3a")
	lines := strings.Split(strings.TrimSuffix(jsonl, "\n"), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], `{"_kind":"parent",`) || !strings.HasPrefix(lines[2], `{"_kind":"child",`) ||
		!strings.Contains(lines[0], `"summary":"first <run>\u001b[31m"`) {
		t.Errorf("export jsonl: %d\n%s", code, jsonl)
	}
	dest := filepath.Join(t.TempDir(), "audit.intoto.json")
	out, _, code = run("export", "task-9f3a", "--format", "SIGSTORE", "--output", dest)
	data, err := os.ReadFile(dest)
	if code != 0 || err != nil || out != "Wrote "+strconv.Itoa(len(data))+" bytes -> "+dest+"\n" || !strings.Contains(string(data), `"_type": "https://in-toto.io/Statement/v1"`) {
		t.Errorf("export --output: %d %q %v", code, out, err)
	}
	stdout, _, _ := run("export", "--format", "sigstore", "task-9f3a")
	if stdout != string(data)+"\n" {
		t.Error("export to stdout and to --output differ")
	}

	// Break the store: a torn parent line after a crash.
	f, _ := os.OpenFile(filepath.Join(root, "parent.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"child_run`)
	f.Close()
	out, _, code = run("verify")
	if code != 1 || !strings.Contains(out, "Lineage v2: FAIL (1 issue(s))\n  - parent.jsonl: parent[1] undecodable record (JSONDecodeError)\n    repair: a write was cut short") {
		t.Errorf("torn verify: %d\n%s", code, out)
	}
	if _, errOut, code := run("append", "--task", "t", "--run", "r", "--kind", "k"); code != 1 || !strings.Contains(errOut, "torn line") {
		t.Errorf("append onto torn store: %d %s", code, errOut)
	}
}

func TestLineageSecretKey(t *testing.T) {
	t.Parallel()
	clk := &clockRun{}
	root, keyFile := t.TempDir(), filepath.Join(t.TempDir(), "key")
	os.WriteFile(keyFile, []byte("team secret\n"), 0o600)
	if _, errOut, code := clk.runIn(t, root, nil, "lineage", "v2", "append", "--root", root, "--key-file", keyFile, "--task", "T", "--run", "r", "--kind", "k"); code != 0 {
		t.Fatalf("append: %s", errOut)
	}
	if out, _, code := clk.runIn(t, root, nil, "lineage", "v2", "verify", "--root", root); code != 1 || strings.Count(out, "hmac mismatch") != 2 {
		t.Errorf("public key on a secret store: %d\n%s", code, out)
	}
	out, _, code := clk.runIn(t, root, []string{"BERNSTEIN_LINEAGE_V2_KEY_FILE=" + keyFile}, "lineage", "v2", "verify", "--root", root, "--strict")
	if code != 0 || !strings.Contains(out, "Key: secret-file ("+keyFile+")") {
		t.Errorf("env key file: %d\n%s", code, out)
	}
}

func TestLineageUsage(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, args := range [][]string{
		{"show"},
		{"show", "a", "b"},
		{"export", "T", "--format", "yaml"},
		{"verify", "extra"},
		{"append", "--run", "r", "--kind", "k"},
		{"append", "--task", "t", "--run", "r", "--kind", "k", "--payload", "[1]"},
		{"append", "--task", "t", "--run", "r", "--kind", "k", "--payload", `{"x":NaN}`},
		{"append", "--task", "t", "--run", "r", "--kind", "k", "--child-sha", "sha256:xyz"},
		{"show", "T", "--bogus"},
	} {
		_, errOut, code := runIn(t, root, nil, append(append([]string{"lineage", "v2"}, args...), "--root", root)...)
		if code != 2 || errOut == "" {
			t.Errorf("%q: exit %d %q, want a usage error (2)", args, code, errOut)
		}
	}
	_, errOut, code := runIn(t, root, nil, "lineage", "v2", "verify")
	if code != 1 || !strings.Contains(errOut, "pass --root") {
		t.Errorf("outside a worktree: %d %q", code, errOut)
	}
	if _, errOut, code := runIn(t, root, nil, "lineage", "v2", "append", "--root", root, "--task", "t", "--run", "r", "--kind", "k", "--child-sha", strings.Repeat("a", 64)); code != 1 || !strings.Contains(errOut, "no child file") {
		t.Errorf("unknown child: %d %q", code, errOut)
	}
}

func TestLineageHelp(t *testing.T) {
	t.Parallel()
	for cmd, flags := range map[string][]string{
		"show":   {"--root", "--output-json"},
		"verify": {"--root", "--output-json", "--key-file", "--strict", "BERNSTEIN_LINEAGE_V2_KEY_FILE"},
		"export": {"--format", "--root", "--output"},
		"append": {"--task", "--run", "--call", "--summary", "--kind", "--payload", "--child-sha", "--root", "--key-file"},
	} {
		out, _, code := runIn(t, t.TempDir(), nil, "lineage", "v2", cmd, "--help")
		if code != 0 || !strings.Contains(out, "EXIT CODES:") {
			t.Errorf("%s --help: %d\n%s", cmd, code, out)
		}
		for _, f := range flags {
			if !strings.Contains(out, f) {
				t.Errorf("%s --help lacks %s", cmd, f)
			}
		}
	}
}

// `lineage v2 verify` and `show` on a store whose parent.jsonl is a FIFO or a link to /dev/zero: an answer at
// once naming the file, where they used to hang or run out of memory.
func TestLineageHostileStore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		make func(path string) error
	}{
		{"FIFO", func(p string) error { return fifotest.Make(p, 0o644) }},
		{"/dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			parent := filepath.Join(root, "parent.jsonl")
			if err := tc.make(parent); err != nil {
				t.Skipf("cannot make it: %v", err)
			}
			out, _, code := runIn(t, root, nil, "lineage", "v2", "verify", "--root", root)
			if code != 1 || !strings.Contains(out, "Lineage v2: FAIL") || !strings.Contains(out, parent+" is a") {
				t.Errorf("verify: %d\n%s", code, out)
			}
			_, errOut, code := runIn(t, root, nil, "lineage", "v2", "show", "T", "--root", root)
			if code != 1 || !strings.Contains(errOut, parent+" is a") || !strings.Contains(errOut, "not a regular file") {
				t.Errorf("show: %d %s", code, errOut)
			}
		})
	}
}
