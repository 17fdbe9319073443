package postmerge

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// merged is a repository where a merge brought in ENG-42's commit (ORIG_HEAD..HEAD), and the hook's request
// for it, with the budget ending at deadline as read by now.
func merged(t *testing.T, deadline time.Time, now func() time.Time) (*gitext.Repo, Request) {
	t.Helper()
	g := gittest.New(t)
	g.Commit("Initial", map[string]string{"README": "x\n"})
	g.Git("checkout", "-q", "-b", "feature")
	g.Commit("Add login\n\nRefs: ENG-42", map[string]string{"login.go": "1\n"})
	g.Git("checkout", "-q", "main")
	g.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature")
	repo, err := gitext.Discover(g.Dir, g.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := repo.Config(g.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	req := record.Request{Tracker: "jira", TrailerKeys: discover.DefaultTrailerKeys, Config: cfg, Getenv: g.Getenv}
	req.Options = record.Options{Repo: repo, Range: "ORIG_HEAD..HEAD", NotesRef: notes.DefaultRef, Deadline: deadline,
		BundleDir: filepath.Join(t.TempDir(), "bundles"), Now: now,
		Discovery: func(id string) (discover.Options, error) {
			tk, err := ticket.Parse("jira", id)
			return discover.Options{Ticket: tk, Sources: discover.AllSources, TrailerKeys: discover.DefaultTrailerKeys}, err
		}}
	return repo, Request{Record: archives.RecordRequest{Request: req, Now: now},
		Stores: func() ([]store.Store, error) { return nil, nil }}
}

// Within the budget the hook records, keeps the archive on the archives ref and uploads it to the store.
func TestRunRecordsKeepsAndUploads(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(srv.Close)
	st, err := store.Open("oci://"+strings.TrimPrefix(srv.URL, "http://")+"/team/evidence",
		store.Options{Getenv: func(k string) string {
			if k == "HOME" {
				return t.TempDir()
			}
			return ""
		}})
	if err != nil {
		t.Fatal(err)
	}
	repo, req := merged(t, time.Now().Add(time.Hour), time.Now)
	req.Stores = func() ([]store.Store, error) { return []store.Store{st}, nil }
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report.Recorded) != 1 || res.Report.Recorded[0].Entry.Ticket != "ENG-42" || res.KeepErr != nil || res.KeepLate {
		t.Fatalf("recorded %+v, keep %v (late %v)", res.Report.Recorded, res.KeepErr, res.KeepLate)
	}
	digest := res.Report.Recorded[0].Entry.BundleSHA256
	if kept, err := archives.Has(repo, "jira", "ENG-42", digest); err != nil || !kept {
		t.Errorf("not kept on the archives ref: %v %v", kept, err)
	}
	if res.StoresErr != nil || res.Uploads == nil || len(res.Uploads.Stores) != 1 || res.Uploads.Stores[0].Err != nil ||
		res.Uploads.Stores[0].Archives != 1 || res.Uploads.Stores[0].Adds == 0 || res.Uploads.KeepErr != nil {
		t.Errorf("upload: %+v (stores error %v)", res.Uploads, res.StoresErr)
	}
}

// Past the budget nothing is kept or uploaded, and the Result says so; stores that cannot be opened are said
// too; a recording that cannot start is the error.
func TestRunPastTheBudget(t *testing.T) {
	t.Parallel()
	deadline := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	// The recording reads its own clock (in time); the hook's clock reads past the budget once it is done.
	repo, req := merged(t, deadline, func() time.Time { return deadline.Add(-time.Hour) })
	req.Record.Now = func() time.Time { return deadline.Add(time.Second) }
	req.Stores = func() ([]store.Store, error) { return []store.Store{nil}, nil }
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report.Recorded) != 1 || !res.KeepLate || res.KeepErr != nil || !res.UploadLate || res.Stores != 1 ||
		res.Uploads != nil {
		t.Errorf("past the budget: %d recorded, keep late %v (%v), upload late %v, %d stores, uploads %+v",
			len(res.Report.Recorded), res.KeepLate, res.KeepErr, res.UploadLate, res.Stores, res.Uploads)
	}
	if len(res.Report.Recorded) == 1 {
		if kept, _ := archives.Has(repo, "jira", "ENG-42", res.Report.Recorded[0].Entry.BundleSHA256); kept {
			t.Error("kept on the archives ref past the budget")
		}
	}

	_, req = merged(t, time.Now().Add(time.Hour), time.Now)
	req.Stores = func() ([]store.Store, error) { return nil, errors.New("bernstein.store: no such scheme") }
	if res, err = Run(context.Background(), req); err != nil || res.StoresErr == nil || res.Uploads != nil ||
		len(res.Report.Recorded) != 1 {
		t.Errorf("stores that cannot be opened: %+v %v", res, err)
	}
	req.Record.Options.Range = "no-such-rev..HEAD"
	if res, err = Run(context.Background(), req); err == nil || res == nil {
		t.Errorf("a range that does not resolve: %+v %v", res, err)
	}
}
