package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
)

// fillStore writes three tasks, each a child run of three bodies, and returns the child files' paths.
func fillStore(t *testing.T, root string, key lineage.Key) []string {
	t.Helper()
	s := lineage.Open(root, key)
	var files []string
	for i, task := range []string{"ENG-42-impl", "ENG-42-review", "other"} {
		ref, _, err := s.Append(lineage.ParentRef{V: 2, TaskID: task, ChildRunID: "r", TsNs: int64(i)},
			lineage.ChildBody{V: 2, TaskID: task, ChildRunID: "r", Kind: "started", TsNs: int64(i)})
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 2; j++ {
			if _, err := s.AppendBody(ref.ChildSHA, lineage.ChildBody{V: 2, TaskID: task, ChildRunID: "r", Kind: "progress", TsNs: int64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		files = append(files, filepath.Join(root, "children", strings.TrimPrefix(ref.ChildSHA, "sha256:")+".jsonl"))
	}
	return files
}

// dropLastLine cuts a JSONL file's last record, as someone without the key would: the chains still check.
func dropLastLine(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	os.WriteFile(path, []byte(strings.Join(lines[:len(lines)-2], "")), 0o644)
}

func TestLineageCheckpointCommand(t *testing.T) {
	t.Parallel()
	root, dir := t.TempDir(), t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte("s3cret\n"), 0o600)
	key, _ := lineage.LoadKeyFile(keyFile)
	files := fillStore(t, root, key)
	cp := filepath.Join(dir, "cp.json")
	run := func(args ...string) (string, string, int) {
		return runIn(t, dir, nil, append(append([]string{"lineage", "v2"}, args...), "--root", root, "--key-file", keyFile)...)
	}
	out, errOut, code := run("checkpoint", "--out", cp)
	if code != 0 || !strings.Contains(out, "3 parent refs, 3 child files (9 bodies); secret-file key") {
		t.Fatalf("checkpoint: %d %s %s", code, out, errOut)
	}
	if out, _, code := run("verify", "--checkpoint", cp); code != 0 || !strings.Contains(out, "Checkpoint "+cp+": extended") {
		t.Fatalf("verify --checkpoint: %d\n%s", code, out)
	}
	// Appends pass.
	s := lineage.Open(root, key)
	if _, _, err := s.Append(lineage.ParentRef{V: 2, TaskID: "later", ChildRunID: "r", TsNs: 9}, lineage.ChildBody{V: 2, TaskID: "later", ChildRunID: "r", Kind: "k", TsNs: 9}); err != nil {
		t.Fatal(err)
	}
	if out, _, code := run("verify", "--checkpoint", cp); code != 0 {
		t.Fatalf("verify after an append: %d\n%s", code, out)
	}
	// A body cut: the store alone still verifies, against the checkpoint it fails, naming file and position.
	dropLastLine(t, files[1])
	if out, _, code := run("verify"); code != 0 {
		t.Fatalf("plain verify should not see the cut (that is the point of checkpoints): %d\n%s", code, out)
	}
	out, _, code = run("verify", "--checkpoint", cp)
	want := "children/" + strings.TrimSuffix(filepath.Base(files[1]), ".jsonl") + ".jsonl: checkpoint " + cp + ": children/"
	if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "holds 2 of the 3 bodies the checkpoint counted: bodies 2..2 (0-based) were cut") ||
		!strings.Contains(out, "NOT EXTENDED") {
		t.Fatalf("verify after a cut: %d\n%s", code, out)
	}
	// A store that does not verify gets no checkpoint.
	os.WriteFile(files[0], []byte("{}\n"), 0o644)
	if out, errOut, code := run("checkpoint"); code != 1 || !strings.Contains(errOut, "no checkpoint") {
		t.Fatalf("checkpoint of a failing store: %d %s %s", code, out, errOut)
	}
}

func TestLineageCheckpointSigned(t *testing.T) {
	t.Parallel()
	root, dir := t.TempDir(), t.TempDir()
	fillStore(t, root, lineage.PublicKey())
	if _, errOut, code := runIn(t, dir, nil, "keygen", "--kid", "alice"); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut, code := runIn(t, dir, nil, "keygen", "--kid", "mallory"); code != 0 {
		t.Fatal(errOut)
	}
	run := func(args ...string) (string, string, int) {
		return runIn(t, dir, nil, append(append([]string{"lineage", "v2"}, args...), "--root", root)...)
	}
	cp := filepath.Join(dir, "cp.json")
	if out, errOut, code := run("checkpoint", "--out", cp, "--sign-key", "alice.pem", "--sign-kid", "alice"); code != 0 || !strings.Contains(out, "signed -> "+cp+".jws, kid alice") {
		t.Fatalf("signed checkpoint: %d %s %s", code, out, errOut)
	}
	jws, _ := os.ReadFile(cp + ".jws")
	if !strings.HasPrefix(string(jws), "eyJhbGciOiJFZERTQSIsImI2NCI6ZmFsc2UsImNyaXQiOlsiYjY0Il0sImtpZCI6ImFsaWNlIn0..") {
		t.Fatalf("not the bundles' JWS header: %s", jws)
	}
	if out, _, code := run("verify", "--checkpoint", cp, "--card", "alice.card.json"); code != 0 || !strings.Contains(out, `signed by kid "alice", a key you gave`) {
		t.Fatalf("signed checkpoint with alice's card: %d\n%s", code, out)
	}
	// Forged: a checkpoint rewritten to pin less (after a cut), its signature kept; or signed by another key.
	data, _ := os.ReadFile(cp)
	forged := filepath.Join(dir, "forged.json")
	os.WriteFile(forged, []byte(strings.Replace(string(data), `"count":3,"last_hmac"`, `"count":2,"last_hmac"`, 1)), 0o644)
	os.WriteFile(forged+".jws", jws, 0o644)
	if out, _, code := run("verify", "--checkpoint", forged, "--card", "alice.card.json"); code != 1 || !strings.Contains(out, "signature") {
		t.Fatalf("forged checkpoint: %d\n%s", code, out)
	}
	other := filepath.Join(dir, "other.json")
	if _, errOut, code := run("checkpoint", "--out", other, "--sign-key", "mallory.pem", "--sign-kid", "alice"); code != 0 {
		t.Fatal(errOut)
	}
	if out, _, code := run("verify", "--checkpoint", other, "--card", "alice.card.json"); code != 1 || !strings.Contains(out, "signature") {
		t.Fatalf("checkpoint signed by another key: %d\n%s", code, out)
	}
	os.Remove(other + ".jws")
	if out, _, code := run("verify", "--checkpoint", other, "--card", "alice.card.json"); code != 1 || !strings.Contains(out, ".jws is missing") {
		t.Fatalf("unsigned checkpoint under --card: %d\n%s", code, out)
	}
}

// The post-merge hook on a real merge puts a checkpoint in the bundle and its digest in the note; --since then
// holds the store to it, and a cut after the merge fails.
func TestHookCheckpointAndSince(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	bin := builtBinary(t)
	r := ticketRepo(t)
	r.Env = append(r.Env, "BERNSTEIN_LINEAGE_V2=1")
	root := filepath.Join(r.Dir, ".sdd", "lineage", "v2")
	files := fillStore(t, root, lineage.PublicKey())
	if _, errOut, code := runIn(t, r.Dir, r.Env, "hooks", "install"); code != 0 {
		t.Fatal(errOut)
	}
	gitOut := merge(t, r, r.Dir, []string{bin}, "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	if !strings.Contains(gitOut, "Recorded ENG-42 (github)") {
		t.Fatalf("the hook said nothing:\n%s", gitOut)
	}
	head := r.Rev("HEAD")
	es := noteOn(t, r, head)
	if len(es) != 1 || len(es[0].LineageV2Checkpoint) != 64 {
		t.Fatalf("note on the merge: %+v", es)
	}
	archive := filepath.Join(r.Dir, ".git", "bernstein", "bundles", "github", "ENG-42", head[:12]+".tar.gz")
	_, members := readArchive(t, archive)
	if _, ok := members["lineage/v2/checkpoint.json"]; !ok {
		t.Fatalf("no checkpoint in the bundle: %v", members)
	}
	// Beside it, the ticket refs: the ticket's two tasks and their refs' positions, so a cut ref shows.
	if refs := string(members["lineage/v2/checkpoint-refs.json"]); !strings.Contains(refs, `"tasks":["ENG-42-impl","ENG-42-review"]`) ||
		!strings.Contains(refs, `"position":0,"task_id":"ENG-42-impl"`) || !strings.Contains(refs, `"position":1,"task_id":"ENG-42-review"`) {
		t.Fatalf("ticket refs in the bundle: %q", refs)
	}
	if out, _, code := runIn(t, r.Dir, r.Env, "verify", archive); code != 2 || !strings.Contains(out, "[PASS] lineage-v2 — the lineage v2 slice extends") ||
		!strings.Contains(out, "held 2 parent refs of the ticket's 2 tasks") {
		t.Fatalf("verify of the recorded bundle: %d\n%s", code, out)
	}
	if out, errOut, code := runIn(t, r.Dir, r.Env, "lineage", "v2", "verify", "--since", "HEAD"); code != 0 || !strings.Contains(out, ": extended") {
		t.Fatalf("--since HEAD: %d\n%s%s", code, out, errOut)
	}
	// After the merge, the newest ref and its child file go (issue 17's second attack): --since catches it.
	parent := filepath.Join(root, "parent.jsonl")
	saved, _ := os.ReadFile(parent)
	dropLastLine(t, parent)
	os.Remove(files[2])
	if out, _, code := runIn(t, r.Dir, r.Env, "lineage", "v2", "verify"); code != 0 {
		t.Fatalf("the store alone should still verify: %d\n%s", code, out)
	}
	out, _, code := runIn(t, r.Dir, r.Env, "lineage", "v2", "verify", "--since", "HEAD")
	if code != 1 || !strings.Contains(out, "parent.jsonl: checkpoint noted on "+head[:12]+" (github ENG-42, "+head[:12]+".tar.gz): parent.jsonl holds 2 of the 3 parent refs") {
		t.Fatalf("--since after a cut: %d\n%s", code, out)
	}
	os.WriteFile(parent, saved, 0o644)
	// A noted checkpoint that cannot be found fails too: it is what the note says was there.
	os.Rename(archive, archive+".away")
	if out, _, code := runIn(t, r.Dir, r.Env, "lineage", "v2", "verify", "--since", "HEAD"); code != 1 || !strings.Contains(out, "not found") {
		t.Fatalf("--since without the bundle: %d\n%s", code, out)
	}
	// The note is hostile input: a symlink where the bundle was is not followed, and a note that names a path
	// instead of an archive's file name is not opened at all.
	if err := os.Symlink(archive+".away", archive); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runIn(t, r.Dir, r.Env, "lineage", "v2", "verify", "--since", "HEAD"); code != 1 || !strings.Contains(out, "symlinks are never followed") {
		t.Fatalf("--since with a symlinked bundle: %d\n%s", code, out)
	}
	os.Remove(archive)
	os.Rename(archive+".away", archive)
	note := r.Git("notes", "--ref=bernstein", "show", head)
	r.Git("notes", "--ref=bernstein", "add", "-f", "-m", strings.Replace(note, `"bundle":"`+head[:12]+`.tar.gz"`, `"bundle":"../../../../`+head[:12]+`.tar.gz"`, 1), head)
	if out, _, code := runIn(t, r.Dir, r.Env, "lineage", "v2", "verify", "--since", "HEAD"); code != 1 || !strings.Contains(out, "which is not an archive's file name") {
		t.Fatalf("--since with a note naming a path: %d\n%s\nnote: %s", code, out, r.Git("notes", "--ref=bernstein", "show", head))
	}
}

// TestLineageFlagNames: lineage v2 takes the flag names every other command takes (--json, --out) and
// Bernstein's own (--output-json, --output) alike, with the same result.
func TestLineageFlagNames(t *testing.T) {
	t.Parallel()
	root, dir := t.TempDir(), t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte("s3cret\n"), 0o600)
	key, _ := lineage.LoadKeyFile(keyFile)
	fillStore(t, root, key)
	run := func(args ...string) (string, string, int) {
		if args[0] == "verify" {
			args = append(args, "--key-file", keyFile)
		}
		return runIn(t, dir, nil, append(append([]string{"lineage", "v2"}, args...), "--root", root)...)
	}
	for _, cmd := range []string{"verify", "show"} {
		var args []string
		if cmd == "show" {
			args = []string{"ENG-42-impl"}
		}
		ours, e1, c1 := run(append([]string{cmd, "--json"}, args...)...)
		theirs, e2, c2 := run(append([]string{cmd, "--output-json"}, args...)...)
		if c1 != c2 || ours != theirs || e1 != e2 || !strings.HasPrefix(strings.TrimSpace(ours), "{") && !strings.HasPrefix(strings.TrimSpace(ours), "[") {
			t.Errorf("%s --json: %d %q %q; --output-json: %d %q %q", cmd, c1, ours, e1, c2, theirs, e2)
		}
	}
	for _, flag := range []string{"--out", "--output"} {
		path := filepath.Join(dir, flag[2:]+".jsonl")
		if out, errOut, code := run("export", "ENG-42-impl", flag, path); code != 0 || !strings.Contains(out, "-> "+path) {
			t.Errorf("export %s: %d %q %q", flag, code, out, errOut)
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, "out.jsonl"))
	b, _ := os.ReadFile(filepath.Join(dir, "output.jsonl"))
	if string(a) != string(b) {
		t.Errorf("export --out and --output wrote different files")
	}
}
