package patch

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/handoff"
)

// Diffs keeps commits' part diffs (what follows a part's "---" line: the diffstat, the summary, an empty line
// and the file sections) made by Differ.WritePartDiff, so that a patch series of the same commits
// (WithDiffs) writes them instead of diffing every commit again. A bundle diffs its ticket's commits once for
// their patch ids (PatchID reads a part diff as it reads `git show`) and once for git/diff.patch: on
// Kafka the second diff was two fifths of the post-merge hook's time. It is safe for concurrent use.
type Diffs struct {
	parts *handoff.Bytes
}

// maxKeptDiffs bounds what Diffs holds: past it a diff is not kept and the series makes it again, so a ticket
// of thousands of commits costs time, not memory.
const maxKeptDiffs = 64 << 20

// NewDiffs returns an empty Diffs.
func NewDiffs() *Diffs { return &Diffs{parts: handoff.New(maxKeptDiffs)} }

// Keep stores a copy of commit h's part diff, unless that would take Diffs past its bound.
func (d *Diffs) Keep(h plumbing.Hash, partDiff []byte) { d.parts.PutCopy(h, partDiff) }

// take returns and forgets commit h's part diff.
func (d *Diffs) take(h plumbing.Hash) ([]byte, bool) {
	if d == nil {
		return nil, false
	}
	return d.parts.Take(h)
}

// WithDiffs has WriteSeries write the part diffs d holds rather than make them again; commits d lacks are
// diffed as usual. The diffs must have been made with the same repository settings (diff.renames, drivers).
func WithDiffs(d *Diffs) Option {
	return func(s *objectSource) { s.diffs = d }
}

// WritePartDiff writes commit h's part diff: what WriteSeries writes after its part's "---" line and before
// the signature (diffstat, summary, an empty line, the file sections). PatchID of it is the commit's
// patch id, as of WriteDiff's output, since lines before the first "diff " are not the patch. A commit that
// changes nothing writes nothing (it has no part); a merge is an error.
func (d *Differ) WritePartDiff(w io.Writer, h plumbing.Hash) error {
	src := d.src
	c, parentTree, tree, same, err := d.commitTrees(h, "it has no single diff")
	if err != nil || same {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := writePartDiff(bw, &d.body, src, c, parentTree, tree); err != nil {
		return err
	}
	return bw.Flush()
}

// ChangedPaths is the paths commit h changes against its first parent (the empty tree for a root), sorted and
// joined by NUL bytes, from its trees alone: no blob is read and no rename looked for. Two commits whose patch
// ids are equal change the same paths (the patch id hashes every file section's "diff --git" line, and a
// rename's or copy's "rename from"/"copy from" line), so a commit whose paths no other commit of a set shares
// has a patch id no other has, and that can be known without diffing it. Whitespace is left out of the paths
// as patch-id leaves it out of the lines it hashes ("a b" and "ab" are one path to it). A merge is an error.
func (d *Differ) ChangedPaths(h plumbing.Hash) (string, error) {
	src := d.src
	_, parentTree, tree, same, err := d.commitTrees(h, "it has no single diff")
	if err != nil || same {
		return "", err
	}
	changes, err := diffTrees(src, parentTree, tree)
	if err != nil {
		return "", fmt.Errorf("diff commit %s against its first parent: %w", h, err)
	}
	paths := make([]string, 0, 2*len(changes))
	for _, ch := range changes {
		for _, s := range ch {
			if s.exists() {
				paths = append(paths, strings.Map(dropSpace, s.path))
			}
		}
	}
	slices.Sort(paths)
	return strings.Join(slices.Compact(paths), "\x00"), nil
}

// dropSpace is patch-id's whitespace (PatchID's removeSpace) for strings.Map.
func dropSpace(r rune) rune {
	if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
		return -1
	}
	return r
}
