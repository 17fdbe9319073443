package pinned

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Noted takes each noted digest once, oldest note first, from the files given when one has it, and says where
// the bundle should be when none does.
func TestNoted(t *testing.T) {
	t.Parallel()
	file := []byte(`{"not":"parsed here"}` + "\n")
	given := []Pin{{Label: "cp.json", SHA256: checkpoint.Digest(file), Data: file}}
	missing := strings.Repeat("f", 64)
	entry := func(ticket, digest string) notes.Entry {
		return notes.Entry{V: 1, Tracker: "jira", Ticket: ticket, Bundle: ticket + ".tar.gz", LineageV2Checkpoint: digest}
	}
	history := []notes.OnCommit{
		{Commit: gitext.NewHash(strings.Repeat("1", 40)), Entries: []notes.Entry{entry("ENG-1", given[0].SHA256), entry("ENG-2", "")}},
		{Commit: gitext.NewHash(strings.Repeat("2", 40)), Entries: []notes.Entry{entry("ENG-3", missing), entry("ENG-4", given[0].SHA256)}},
	}
	dir := t.TempDir()
	got := Noted(history, given, dir)
	if len(got) != 2 {
		t.Fatalf("Noted = %+v, want the two distinct digests", got)
	}
	if got[0].SHA256 != given[0].SHA256 || string(got[0].Data) != string(file) || got[0].Err != nil ||
		got[0].Label != "noted on 111111111111 (jira ENG-1, ENG-1.tar.gz)" || got[0].Signature != NotedSignature {
		t.Errorf("the given checkpoint: %+v", got[0])
	}
	want := filepath.Join(dir, "jira", "ENG-3", "ENG-3.tar.gz") + " is missing"
	if got[1].SHA256 != missing || got[1].Err == nil || !strings.Contains(got[1].Err.Error(), want) {
		t.Errorf("the missing bundle: %+v, want an error saying %q", got[1], want)
	}
}

// Hold fails a pin that could not be found, one whose signature failed and one that is not a checkpoint, naming
// each; none of these reaches the store.
func TestHoldFailures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "cp.json")
	if err := os.WriteFile(p, []byte("not a checkpoint\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unsigned, err := ReadFile(p, "cp.json", nil)
	if err != nil || unsigned.Signature != "unsigned" {
		t.Fatalf("ReadFile: %+v %v", unsigned, err)
	}
	bad := unsigned
	bad.Label, bad.Signature = "signed.json", "FAILED: the signature does not verify"
	pins := []Pin{unsigned, bad, {Label: "noted", SHA256: strings.Repeat("e", 64), Signature: NotedSignature,
		Err: os.ErrNotExist}}
	var res lineage.VerifyResult
	checked := Hold(nil, &res, pins)
	if res.OK || len(checked) != 3 {
		t.Fatalf("Hold: ok %v, %d checked", res.OK, len(checked))
	}
	msgs := strings.Join(res.Messages(), "\n")
	for _, want := range []string{"checkpoint cp.json: ", "checkpoint signed.json: signature the signature does not verify",
		"checkpoint noted: file does not exist"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("failures do not say %q:\n%s", want, msgs)
		}
	}
	for _, cc := range checked {
		if cc.OK {
			t.Errorf("%s is OK", cc.Label)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "none.json"), "none.json", nil); err == nil {
		t.Error("ReadFile of a missing file: no error")
	}
}

// Verify opens the store at Root under Key: a checkpoint it took holds after an append, one of another store
// does not, and a card that cannot be read is unusable input.
func TestVerifyRequest(t *testing.T) {
	t.Parallel()
	root, other := t.TempDir(), t.TempDir()
	appendOne := func(root, run string) {
		t.Helper()
		s := lineage.Open(root, lineage.PublicKey())
		ref := lineage.ParentRef{V: lineage.Version, TaskID: "T", ChildRunID: run, TsNs: 1}
		body := lineage.ChildBody{V: lineage.Version, TaskID: "T", ChildRunID: run, Kind: "k", Payload: map[string]any{}, TsNs: 1}
		if _, _, err := s.Append(ref, body); err != nil {
			t.Fatal(err)
		}
	}
	checkpointOf := func(root, name string) File {
		t.Helper()
		cp, _, err := lineage.Open(root, lineage.PublicKey()).TakeCheckpoint(time.Unix(1767225600, 0))
		if err != nil {
			t.Fatal(err)
		}
		data, err := cp.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return File{Path: path, Label: name}
	}
	appendOne(root, "r1")
	appendOne(other, "x1")
	appendOne(other, "x2")
	mine, theirs := checkpointOf(root, "mine.json"), checkpointOf(other, "theirs.json")
	appendOne(root, "r2")

	res, err := Verify(Request{Root: root, Key: lineage.PublicKey(), Checkpoints: []File{mine}})
	if err != nil || !res.Verify.OK || len(res.Checked) != 1 || !res.Checked[0].OK || res.Verify.ParentCount != 2 {
		t.Fatalf("Verify against its own checkpoint: %+v %v", res, err)
	}
	res, err = Verify(Request{Root: root, Key: lineage.PublicKey(), Checkpoints: []File{mine, theirs}})
	if err != nil || res.Verify.OK || len(res.Checked) != 2 || !res.Checked[0].OK || res.Checked[1].OK {
		t.Fatalf("Verify against another store's checkpoint: %+v %v", res, err)
	}
	if !strings.Contains(strings.Join(res.Verify.Messages(), "\n"), "theirs.json") {
		t.Errorf("the failures do not name theirs.json: %q", res.Verify.Messages())
	}
	res, err = Verify(Request{Root: root, Key: lineage.PublicKey(), Strict: true})
	if err != nil || res.Verify.OK {
		t.Errorf("Strict under the public key passed: %+v %v", res, err)
	}
	_, err = Verify(Request{Root: root, Key: lineage.PublicKey(),
		Cards: []verify.Card{{Path: filepath.Join(root, "none.card.json"), Name: "none.card.json"}}})
	var unusable *Unusable
	if !errors.As(err, &unusable) {
		t.Errorf("a missing card: %v, want Unusable", err)
	}
}
