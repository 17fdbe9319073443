package lineage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
)

// ErrStoreFails is returned by TakeCheckpoint for a store that does not verify: a checkpoint would anchor
// whatever is wrong with it.
var ErrStoreFails = errors.New("the lineage v2 store does not verify")

// Head reads the hmac of every record of parent.jsonl and of every child file in children/ (doc.go,
// "Checkpoints"). It reads without verifying; a record whose hmac cannot be read is "" in the head.
func (s *Store) Head() (checkpoint.Head, error) {
	head := checkpoint.Head{Children: map[string][]string{}}
	var err error
	if head.Parent, head.ParentTasks, err = chainOf(s.ParentPath()); err != nil {
		return head, err
	}
	dir := filepath.Join(s.Root, childrenDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return head, nil
	}
	if err != nil {
		return head, fmt.Errorf("read %s: %w", dir, err)
	}
	for _, e := range entries {
		stem, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if _, err := childHex(stem); !ok || err != nil {
			continue
		}
		if head.Children[stem], err = hmacsOf(filepath.Join(dir, e.Name())); err != nil {
			return head, err
		}
	}
	return head, nil
}

// hmacsOf is the hmac of each record of a JSONL chain file; a missing file has none.
func hmacsOf(path string) ([]string, error) {
	hmacs, _, err := chainOf(path)
	return hmacs, err
}

// chainOf is the hmac and the task_id of each record of a JSONL chain file ("" where unreadable); a missing
// file has none.
func chainOf(path string) (hmacs, tasks []string, err error) {
	l, err := readLines(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	out := make([]string, len(l.recs))
	tasks = make([]string, len(l.recs))
	for i, rec := range l.recs {
		if m, err := decodeObject(rec); err == nil {
			out[i], _ = m["hmac"].(string)
			tasks[i], _ = m["task_id"].(string)
		}
	}
	return out, tasks, nil
}

// TakeCheckpoint verifies the store and, when it verifies, returns its checkpoint at createdAt. A store that
// fails gives ErrStoreFails and the verdict, so the caller can show why.
func (s *Store) TakeCheckpoint(createdAt time.Time) (*checkpoint.Checkpoint, VerifyResult, error) {
	res := s.Verify(VerifyOptions{})
	if !res.OK {
		return nil, res, fmt.Errorf("%w (%d issue(s), the first: %s): run `git bernstein lineage v2 verify`", ErrStoreFails, len(res.Failures), res.Failures[0].Message)
	}
	head, err := s.Head()
	if err != nil {
		return nil, res, err
	}
	return checkpoint.Of(head, createdAt, string(s.Key.Class)), res, nil
}

// CheckCheckpoint lists, as failures naming the file and record, every place the store no longer extends cp.
// label names the checkpoint in each message (its file, or where it was noted).
func (s *Store) CheckCheckpoint(cp *checkpoint.Checkpoint, label string) []Failure {
	head, err := s.Head()
	if err != nil {
		return []Failure{{Record: -1, Message: fmt.Sprintf("checkpoint %s: store unreadable: %v", label, err)}}
	}
	var out []Failure
	for _, p := range checkpoint.Check(cp, head) {
		out = append(out, Failure{File: p.File, Record: int(p.Record), Message: "checkpoint " + label + ": " + p.Message,
			Repair: "restore the store from a copy that extends the checkpoint (a backup, or the bundles' lineage/v2 members); records cut after a checkpoint cannot be recomputed"})
	}
	return out
}
