package pinned

import (
	"fmt"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/unusable"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Unusable is input that cannot be used at all (exit 2 in the CLI): a card or checkpoint file that cannot be
// read, a --since revision that does not resolve.
type Unusable = unusable.Error

// File is a checkpoint file: at Path, named in reports as Label (the path as given).
type File struct {
	Path, Label string
}

// Since is where --since REV finds the checkpoints noted in git: the notes in NotesRef on Rev and its
// ancestors, in Repo, and the bundles recorded with them under BundleDir.
type Since struct {
	Repo      *gitext.Repo
	NotesRef  gitext.RefName
	Rev       string
	BundleDir string
}

// Request is `lineage v2 verify` with --card, --checkpoint or --since: the store at Root, under Key, verified
// (Strict), then held to each checkpoint file (their .jws checked against Cards) and, with Since, to each
// checkpoint noted in git. Since is asked for only after the files are read, so that errors come in the order the flags are read.
type Request struct {
	Root        string
	Key         lineage.Key
	Strict      bool
	Cards       []verify.Card
	Checkpoints []File
	Since       func() (*Since, error) // nil: no --since
}

// Result is the store's verification with what each checkpoint came to; NotedNone says --since found no
// checkpoint noted on the revision or its ancestors.
type Result struct {
	Verify    lineage.VerifyResult
	Checked   []Checked
	NotedNone bool
}

// Verify verifies the store and holds it to the checkpoints (ReadFile, Noted, Hold).
func Verify(req Request) (*Result, error) {
	keys, err := verify.TrustCards(req.Cards)
	if err != nil {
		return nil, unusable.Wrap(err)
	}
	store := lineage.Open(req.Root, req.Key)
	out := &Result{Verify: store.Verify(lineage.VerifyOptions{Strict: req.Strict})}
	var pins []Pin
	for _, f := range req.Checkpoints {
		p, err := ReadFile(f.Path, f.Label, keys)
		if err != nil {
			return nil, unusable.Wrap(err)
		}
		pins = append(pins, p)
	}
	if req.Since != nil {
		since, err := req.Since()
		if err != nil {
			return nil, err
		}
		noted, err := notedOn(since, pins)
		if err != nil {
			return nil, err
		}
		out.NotedNone = len(noted) == 0
		pins = append(pins, noted...)
	}
	out.Checked = Hold(store, &out.Verify, pins)
	return out, nil
}

// notedOn are the checkpoints noted on s.Rev and its ancestors (Noted), found among the files given, else in
// the bundles recorded with them.
func notedOn(s *Since, given []Pin) ([]Pin, error) {
	h, err := revparse.Resolve(s.Repo, s.Rev)
	if err != nil {
		return nil, unusable.Wrap(fmt.Errorf("--since %s: %v", s.Rev, err))
	}
	tip, err := s.Repo.Commit(h)
	if err != nil {
		return nil, err
	}
	history, err := notes.OnHistory(s.Repo, s.NotesRef, tip.Hash)
	if err != nil {
		return nil, err
	}
	return Noted(history, given, s.BundleDir), nil
}
