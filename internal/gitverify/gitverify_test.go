package gitverify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/repocheck"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/verify"
	"github.com/git-bernstein/git-bernstein/internal/verify/verifytest"
)

const notesRef = gitext.RefName("refs/notes/bernstein")

// fixture is a repository with one commit and the corpus's good bundle (github ENG-42, signed by the test key)
// copied beside it, so that a note can name it.
type fixture struct {
	repo    *gittest.Repo
	dir     string // a folder with good.tar.gz, its .jws and the card
	archive []byte
	files   verify.Files
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{repo: gittest.New(t), dir: t.TempDir()}
	f.repo.Commit("one", map[string]string{"a.txt": "a\n"})
	for _, name := range []string{"good.tar.gz", "good.tar.gz.jws", "test-only.card.json"} {
		data, err := os.ReadFile(filepath.Join(verifytest.Dir(), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(f.dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "good.tar.gz" {
			f.archive = data
		}
	}
	f.files = verify.Files{Archive: filepath.Join(f.dir, "good.tar.gz"),
		Cards: []verify.Card{{Path: filepath.Join(f.dir, "test-only.card.json"), Name: "test-only.card.json"}}}
	return f
}

func (f *fixture) open(t *testing.T) *gitext.Repo {
	t.Helper()
	r, err := gitext.Discover(f.repo.Dir, f.repo.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// note notes entries on HEAD.
func (f *fixture) note(t *testing.T, entries ...notes.Entry) {
	t.Helper()
	r := f.open(t)
	h, err := revparse.Resolve(r, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	sig := gitext.Signature{Name: "Carl Committer", Email: "carl@example.com"}
	if _, err := notes.Add(r, notesRef, h, sig, entries...); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) notes(t *testing.T) func() (*gitext.Repo, gitext.RefName, error) {
	r := f.open(t)
	return func() (*gitext.Repo, gitext.RefName, error) { return r, notesRef, nil }
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func entry(sum string) notes.Entry {
	return notes.Entry{V: notes.EntryVersion, Tracker: "github", Ticket: "ENG-42", Bundle: "good.tar.gz",
		BundleSHA256: sum, CreatedAt: "2026-01-02T03:04:05Z"}
}

// check is the report's line for name.
func check(t *testing.T, rep *verify.Report, name string) verify.Check {
	t.Helper()
	for _, c := range rep.Checks {
		if c.Check == name {
			return c
		}
	}
	t.Fatalf("no %s check in:\n%s", name, rep.Text())
	return verify.Check{}
}

func TestVerifyFillsTheGitChecks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.note(t, entry(digest(f.archive)))
	for _, tc := range []struct {
		name   string
		req    Request
		exit   int
		checks map[string]verify.Status
		detail string // in the first check named in checks that is not a pass
	}{
		{name: "no flags", req: Request{}, exit: 0,
			checks: map[string]verify.Status{verify.CheckTrust: verify.Pass}},
		{name: "--rev noted", req: Request{Rev: "HEAD", Notes: f.notes(t)}, exit: 0,
			checks: map[string]verify.Status{verify.CheckNote: verify.Pass}},
		{name: "--rev without a repository", exit: verify.ExitUnverifiable,
			req: Request{Rev: "HEAD", Notes: func() (*gitext.Repo, gitext.RefName, error) {
				return nil, "", errors.New("not a git repository")
			}},
			checks: map[string]verify.Status{verify.CheckNote: verify.CannotCheck}, detail: "--rev needs a repository"},
		{name: "--repo not a repository", exit: verify.ExitUnverifiable,
			req:    Request{Repo: &repocheck.Flag{Dir: "nowhere", Wd: f.dir, Getenv: f.repo.Getenv}},
			checks: map[string]verify.Status{verify.CheckRepository: verify.CannotCheck}, detail: "--repo needs a repository"},
		{name: "trust unusable", exit: verify.ExitUnverifiable,
			req: Request{Trust: func(string, *verify.Options) *verify.Report {
				return verify.Unusable(verify.CheckTrust, "allowed signers: unreadable")
			}},
			checks: map[string]verify.Status{verify.CheckTrust: verify.CannotCheck}, detail: "allowed signers: unreadable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.req.Files = f.files
			rep := Verify(tc.req)
			if rep.ExitCode != tc.exit {
				t.Fatalf("exit %d, want %d:\n%s", rep.ExitCode, tc.exit, rep.Text())
			}
			for name, want := range tc.checks {
				c := check(t, rep, name)
				if c.Status != want {
					t.Errorf("%s is %s, want %s:\n%s", name, c.Status, want, rep.Text())
				}
				if tc.detail != "" && !strings.Contains(c.Detail, tc.detail) {
					t.Errorf("%s says %q, want %q in it", name, c.Detail, tc.detail)
				}
			}
		})
	}
}

// A note with another digest: the archive is not the one recorded, FAILED.
func TestVerifyRevOtherDigestFails(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.note(t, entry(strings.Repeat("ab", 32)))
	rep := Verify(Request{Files: f.files, Rev: "HEAD", Notes: f.notes(t)})
	if rep.ExitCode != verify.ExitFailed || check(t, rep, verify.CheckNote).Status != verify.Fail {
		t.Fatalf("exit %d, want %d:\n%s", rep.ExitCode, verify.ExitFailed, rep.Text())
	}
}

func TestAuditReadsThePolicyFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bad := filepath.Join(f.dir, "policy.yaml")
	if err := os.WriteFile(bad, []byte("required_approvals: many\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	trusted := false
	_, err := Audit(AuditRequest{Request: Request{Files: f.files, Trust: func(string, *verify.Options) *verify.Report {
		trusted = true
		return nil
	}}, Policy: bad, PolicyName: "policy.yaml"})
	if err == nil || !strings.Contains(err.Error(), "--policy policy.yaml") || trusted {
		t.Fatalf("err %v (trust read: %v), want the policy's error before anything else", err, trusted)
	}

	a, err := Audit(AuditRequest{Request: Request{Files: f.files}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Report.ExitCode != 0 || a.Controls == nil {
		t.Fatalf("exit %d, controls %v, want a VERIFIED bundle audited:\n%s", a.Report.ExitCode, a.Controls, a.Report.Text())
	}

	a, err = Audit(AuditRequest{Request: Request{Files: f.files, Trust: func(string, *verify.Options) *verify.Report {
		return verify.Unusable(verify.CheckTrust, "unreadable")
	}}})
	if err != nil || a.Controls != nil || a.Report.ExitCode != verify.ExitUnverifiable {
		t.Fatalf("err %v, controls %v, exit %d: want the unusable report and no controls", err, a.Controls, a.Report.ExitCode)
	}
}

func TestExtractIntoTheDefaultFolder(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	wd := t.TempDir()
	res, err := Extract(ExtractRequest{Request: Request{Files: f.files}, Wd: wd})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(wd, "good")
	if !res.Extracted || res.Into != want {
		t.Fatalf("extracted %v into %q, want into %q: %s", res.Extracted, res.Into, want, res.Reason)
	}
	if _, err := os.Stat(filepath.Join(want, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	if got := res.Outcome(); !strings.HasPrefix(got, "Extracted ") || !strings.HasSuffix(got, "into "+want) {
		t.Errorf("Outcome %q", got)
	}
}

// Noted finds each noted archive as get does and verifies it; one held nowhere is an unusable report, and the
// next is still verified.
func TestNotedVerifiesEachArchive(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	missing := entry(strings.Repeat("cd", 32))
	missing.Ticket, missing.Bundle = "ENG-7", "gone.tar.gz"
	f.note(t, missing, entry(digest(f.archive)))

	bundles := t.TempDir()
	at := record.RecordedPath(bundles, "github", "ENG-42", "good.tar.gz")
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", archives.JWS} {
		data, err := os.ReadFile(f.files.Archive + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(at+suffix, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	storesOpened, told := false, 0
	got, err := Noted(context.Background(), NotedRequest{
		Request:   Request{Files: verify.Files{Cards: f.files.Cards}, Rev: "HEAD", Notes: f.notes(t)},
		BundleDir: bundles,
		Stores:    func() ([]store.Store, error) { storesOpened = true; return nil, nil },
		Each:      func(NotedReport) { told++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !storesOpened || len(got) != 2 || told != 2 {
		t.Fatalf("stores opened %v, %d reports (%d told), want 2", storesOpened, len(got), told)
	}
	byTicket := map[string]NotedReport{}
	for _, r := range got {
		byTicket[r.Entry.Ticket] = r
	}
	if r := byTicket["ENG-7"]; r.Found || r.Report.ExitCode != verify.ExitUnverifiable ||
		check(t, r.Report, verify.CheckArchive).Status != verify.CannotCheck {
		t.Errorf("the archive held nowhere: found %v, exit %d:\n%s", r.Found, r.Report.ExitCode, r.Report.Text())
	}
	r := byTicket["ENG-42"]
	if !r.Found || r.From != archives.FromBundleDir || r.Name != "good.tar.gz" || r.Report.ExitCode != 0 {
		t.Fatalf("found %v from %q as %q, exit %d:\n%s", r.Found, r.From, r.Name, r.Report.ExitCode, r.Report.Text())
	}
	if c := check(t, r.Report, verify.CheckNote); c.Status != verify.Pass {
		t.Errorf("the note check of the copy found: %s %s", c.Status, c.Detail)
	}
}

// A store that cannot be opened stops Noted before anything is verified.
func TestNotedStoresError(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.note(t, entry(digest(f.archive)))
	_, err := Noted(context.Background(), NotedRequest{Request: Request{Rev: "HEAD", Notes: f.notes(t)},
		Stores: func() ([]store.Store, error) { return nil, errors.New("bernstein.store: bad URL") }})
	if err == nil || err.Error() != "bernstein.store: bad URL" {
		t.Fatalf("err %v", err)
	}
}
