package archives_test

import (
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// Store records sit beside the archive, named by content: the same record twice is one file, a second store's
// is another; Records reads them whether or not the ref keeps the archive, Find never returns one as a sidecar,
// and Check passes a tree that holds them.
func TestStoreRecords(t *testing.T) {
	g := gittest.New(t)
	r := open(t, g)
	b, e := recorded(t, t.TempDir(), "archive bytes", "sig")
	if _, err := archives.Store(r, sig, []archives.Bundle{b}); err != nil {
		t.Fatal(err)
	}
	obj := archives.StoredObject{Key: "evidence/" + archives.ArchivePath("github", "ENG-42", e.BundleSHA256), SHA256: e.BundleSHA256, VersionID: "v1"}
	rec := archives.Recorded{Tracker: "github", Ticket: "ENG-42", SHA256: e.BundleSHA256,
		Record: archives.StoreRecord{Store: "s3://bucket/evidence", Objects: []archives.StoredObject{obj}}}
	other := rec
	other.Record.Store = "s3://other"
	if n, err := archives.AddStoreRecords(r, sig, []archives.Recorded{rec, rec, other}); err != nil || n != 2 {
		t.Fatalf("add: %d %v", n, err)
	}
	if n, err := archives.AddStoreRecords(r, sig, []archives.Recorded{rec}); err != nil || n != 0 {
		t.Fatalf("add again: %d %v", n, err)
	}
	got, err := archives.Records(r, "github", "ENG-42", e.BundleSHA256)
	if err != nil || len(got) != 2 {
		t.Fatalf("records: %+v %v", got, err)
	}
	if k := archives.KnownTo(got, "s3://bucket/evidence"); len(k) != 1 || k[0] != obj {
		t.Fatalf("known to the bucket: %+v", k)
	}
	if string(rec.Record.Bytes()) != `{"objects":[{"key":"`+obj.Key+`","sha256":"`+obj.SHA256+`","version_id":"v1"}],"store":"s3://bucket/evidence","v":1}` {
		t.Errorf("record bytes: %s", rec.Record.Bytes())
	}
	h, ok, err := archives.Find(r, "github", "ENG-42", e.BundleSHA256)
	if err != nil || !ok || len(h.Sidecars) != 1 || h.Sidecars[0].Kind != archives.JWS {
		t.Fatalf("find: %v %v %+v", ok, err, h)
	}
	_, tree, err := objstore.Of(r).RefCommit(archives.Ref)
	if err != nil {
		t.Fatal(err)
	}
	if err := archives.Check(r, tree); err != nil {
		t.Fatalf("check: %v", err)
	}
	for _, bad := range []string{`{"objects":[],"store":"s3://b","v":2}`, `{"objects":[{"key":"","sha256":"x","version_id":""}],"store":"s3://b","v":1}`, `not json`} {
		if _, err := archives.ParseStoreRecord([]byte(bad)); err == nil || !strings.Contains(err.Error(), "store record") {
			t.Errorf("ParseStoreRecord(%s): %v", bad, err)
		}
	}
}
