package share_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/share"
	"github.com/git-bernstein/git-bernstein/internal/store"
)

// recordInFolder writes an archive and its .jws into the bundles folder as record does and notes it on HEAD, but
// keeps nothing on the archives ref: what a hook that ran out of time leaves.
func recordInFolder(t *testing.T, r *gitext.Repo, head gitext.Hash, dir, id string) string {
	t.Helper()
	archive := []byte("archive of " + id)
	d := sha256.Sum256(archive)
	sum := hex.EncodeToString(d[:])
	at := record.RecordedPath(dir, "github", id, "b.tar.gz")
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	for suffix, data := range map[string][]byte{"": archive, archives.JWS: []byte("jws of " + id)} {
		if err := os.WriteFile(at+suffix, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := notes.Entry{V: 1, Tracker: "github", Ticket: id, Bundle: "b.tar.gz", BundleSHA256: sum}
	if _, err := notes.Add(r, notes.DefaultRef, head, sig, e); err != nil {
		t.Fatal(err)
	}
	return sum
}

// PushAll keeps on the archives ref what the bundles folder alone holds, then pushes both refs; run again, it
// has nothing to keep or push. A store that cannot be opened is an error after the push, which stays done.
func TestPushAllKeepsThenPushes(t *testing.T) {
	t.Parallel()
	remote, one, _ := team(t)
	r := open(t, one)
	dir := t.TempDir()
	sum := recordInFolder(t, r, gitext.NewHash(one.Rev("HEAD")), dir, "ENG-1")
	now := time.Unix(1767225600, 0)
	req := share.PushRequest{Options: opts(one, r), BundleDir: dir, Identity: func() gitext.Signature { return sig },
		Stores: func() ([]store.Store, error) { return nil, nil }, Now: func() time.Time { return now }}

	var steps []share.PushStep
	req.Done = func(s share.PushStep, _ *share.PushReport) { steps = append(steps, s) }
	rep, err := share.PushAll(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(steps, []share.PushStep{share.StepKept, share.StepPushed}) {
		t.Errorf("steps told %v, want kept and pushed (no stores: no upload)", steps)
	}
	req.Done = nil
	if rep.Kept != 2 || rep.Pushed == nil || len(rep.Pushed.Pushed) != 2 || rep.Uploads != nil || rep.Repushed {
		t.Fatalf("kept %d, pushed %+v, uploads %v: want 2 files kept and both refs pushed", rep.Kept, rep.Pushed, rep.Uploads)
	}
	files := remote.Git("ls-tree", "-r", "--name-only", string(archives.Ref))
	lines := strings.Split(files, "\n")
	if len(lines) != 2 || lines[1] != "github/ENG-1/"+sum+".tar.gz" ||
		!strings.HasPrefix(lines[0], "github/ENG-1/"+sum+".") || !strings.HasSuffix(lines[0], archives.JWS) {
		t.Errorf("the remote's archives ref has\n%s\nwant the archive %s and its .jws", files, sum)
	}

	rep, err = share.PushAll(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kept != 0 || len(rep.Pushed.Pushed) != 0 {
		t.Fatalf("again: kept %d, pushed %v: want nothing", rep.Kept, rep.Pushed.Pushed)
	}

	bad := errors.New("bernstein.store: no such scheme")
	req.Stores = func() ([]store.Store, error) { return nil, bad }
	rep, err = share.PushAll(context.Background(), req)
	if !errors.Is(err, bad) || rep.Pushed == nil || rep.Uploads != nil {
		t.Fatalf("err %v, pushed %v, uploads %v: want the stores' error after the push", err, rep.Pushed, rep.Uploads)
	}
}

// A push that fails (no such remote) comes back with what was kept before it.
func TestPushAllKeptBeforeAFailedPush(t *testing.T) {
	t.Parallel()
	_, one, _ := team(t)
	r := open(t, one)
	dir := t.TempDir()
	recordInFolder(t, r, gitext.NewHash(one.Rev("HEAD")), dir, "ENG-2")
	o := opts(one, r)
	o.Remote = "nowhere"
	opened := false
	rep, err := share.PushAll(context.Background(), share.PushRequest{Options: o, BundleDir: dir,
		Identity: func() gitext.Signature { return sig },
		Stores:   func() ([]store.Store, error) { opened = true; return nil, nil }, Now: time.Now})
	if err == nil || rep.Kept != 2 || rep.Pushed != nil || opened {
		t.Fatalf("err %v, kept %d, pushed %v, stores opened %v", err, rep.Kept, rep.Pushed, opened)
	}
}
