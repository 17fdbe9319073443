package pinned

import (
	"github.com/git-bernstein/git-bernstein/gitext"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/notes"
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
