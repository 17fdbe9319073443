package lineage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

const (
	parentFile  = "parent.jsonl"
	childrenDir = "children"
)

// Store is a lineage v2 store rooted at a folder such as <worktree>/.sdd/lineage/v2.
type Store struct {
	Root string
	Key  Key
}

// Open names a store; it creates nothing, so reading a store that does not exist leaves no trace.
func Open(root string, key Key) *Store { return &Store{Root: root, Key: key} }

// ParentPath is parent.jsonl.
func (s *Store) ParentPath() string { return filepath.Join(s.Root, parentFile) }

// ChildPath is children/<hex>.jsonl for a child_sha given with or without its "sha256:" prefix. Anything but 64
// lowercase hex digits is refused, so a record cannot steer a path outside the store.
func (s *Store) ChildPath(childSHA string) (string, error) {
	hexPart, err := childHex(childSHA)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.Root, childrenDir, hexPart+".jsonl"), nil
}

func childHex(childSHA string) (string, error) {
	h := strings.TrimPrefix(childSHA, "sha256:")
	if len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		return "", fmt.Errorf("child sha %q is not sha256:<64 lowercase hex digits>", childSHA)
	}
	return h, nil
}

// Entry is one parent ref of a task with the bodies of the child it points at (none when the file is missing).
type Entry struct {
	Parent ParentRef
	Bodies []ChildBody
}

// lines is a JSONL file split the way upstream splits it: trailing newlines stripped, empty lines skipped.
type lines struct {
	recs [][]byte
	// torn: the file does not end in "\n", so its last record was cut short by a crash (or lost only its newline).
	torn bool
	// keep is the length of the file up to and including its last "\n": truncating to it drops a torn line.
	keep int
}

// MaxFileSize bounds one store file read whole (parent.jsonl or a child file). A store this large is far beyond
// any real run; the bound is what keeps a symlink to /dev/zero, or a runaway file, from exhausting memory.
const MaxFileSize = 1 << 30

// readLines reads a store file through regularfile: a FIFO, device or folder put in the store (or a symlink to
// one) is an error naming the file, never a hang or an endless read. The error already names path.
func readLines(path string) (lines, error) {
	data, err := regularfile.ReadFile(path, "lineage file", MaxFileSize)
	if err != nil {
		return lines{}, err
	}
	var l lines
	if len(data) > 0 && data[len(data)-1] != '\n' {
		l.torn = true
	}
	l.keep = bytes.LastIndexByte(data, '\n') + 1
	for _, rec := range bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n")) {
		if len(rec) > 0 {
			l.recs = append(l.recs, rec)
		}
	}
	return l, nil
}

// ParentRefs reads parent.jsonl in append order. A missing file is an empty timeline.
func (s *Store) ParentRefs() ([]ParentRef, error) {
	l, err := readLines(s.ParentPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	refs := make([]ParentRef, 0, len(l.recs))
	for i, rec := range l.recs {
		p, err := DecodeParentRef(rec)
		if err != nil {
			return nil, fmt.Errorf("%s record %d: %w; run `git bernstein lineage v2 verify` for the repair", s.ParentPath(), i, err)
		}
		refs = append(refs, p)
	}
	return refs, nil
}

// ChildBodies reads the child file for childSHA. A missing file gives no bodies, as upstream's replay does, so a
// dangling ref still shows up (verify reports it).
func (s *Store) ChildBodies(childSHA string) ([]ChildBody, error) {
	path, err := s.ChildPath(childSHA)
	if err != nil {
		return nil, nil
	}
	l, err := readLines(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	bodies := make([]ChildBody, 0, len(l.recs))
	for i, rec := range l.recs {
		b, err := DecodeChildBody(rec)
		if err != nil {
			return nil, fmt.Errorf("%s record %d: %w; run `git bernstein lineage v2 verify` for the repair", path, i, err)
		}
		bodies = append(bodies, b)
	}
	return bodies, nil
}

// Replay is the timeline of taskID: its parent refs in append order, each with its child's bodies. It reads,
// it does not verify; run Verify first when the answer matters.
func (s *Store) Replay(taskID string) ([]Entry, error) {
	refs, err := s.ParentRefs()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, ref := range refs {
		if ref.TaskID != taskID {
			continue
		}
		bodies, err := s.ChildBodies(ref.ChildSHA)
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{Parent: ref, Bodies: bodies})
	}
	return out, nil
}
