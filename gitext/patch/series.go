package patch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
)

// WriteSeries writes a `git format-patch --stdout`-style series to w: one part per commit, in the order given
// (callers pass non-merge commits oldest first). Merge commits passed in are an error.
//
// Like format-patch, commits that change nothing (tree equal to the first parent's) get no part, since neither
// `git apply` nor `git am` accepts an empty patch; [PATCH i/n] numbers the parts that are written. Diffs are
// against the first parent, or the empty tree for a root commit, and hold only one file pair's contents in
// memory at a time. Trees and blobs are read through repo's mapped packs (gitext.Repo.ReadObject).
func WriteSeries(w io.Writer, repo *gitext.Repo, commits []plumbing.Hash, opts ...Option) error {
	return seriesWith(w, repoObjects(repo), settingsOf(repo), commits, append([]Option{withRecent()}, opts...)...)
}

func seriesWith(w io.Writer, objs objects, cfg *settings, commits []plumbing.Hash, opts ...Option) error {
	src := objectSource{objects: objs, cfg: cfg}
	for _, o := range opts {
		o(&src)
	}
	type part struct {
		commit       *gitext.Commit
		parent, tree *treeList
	}
	var parts []part
	// A series is mostly a chain: each commit's parent is the commit before it, read already.
	treeOf := make(map[plumbing.Hash]plumbing.Hash, len(commits))
	for _, h := range commits {
		c, err := src.commit(h)
		if err != nil {
			return fmt.Errorf("read commit %s: %w", h, err)
		}
		treeOf[h] = c.TreeHash
		if len(c.ParentHashes) > 1 {
			return fmt.Errorf("commit %s is a merge (%d parents): pass only non-merge commits to the patch series", h, len(c.ParentHashes))
		}
		tree, err := getTree(src, c.TreeHash)
		if err != nil {
			return fmt.Errorf("read tree of commit %s: %w", h, err)
		}
		var parentTree *treeList
		if len(c.ParentHashes) == 1 {
			ph := c.ParentHashes[0]
			pt, ok := treeOf[ph]
			if !ok {
				p, err := src.commit(ph)
				if err != nil {
					return fmt.Errorf("read parent %s of commit %s (a shallow clone? fetch more history): %w", ph, h, err)
				}
				pt = p.TreeHash
			}
			if parentTree, err = getTree(src, pt); err != nil {
				return fmt.Errorf("read tree of commit %s: %w", ph, err)
			}
			if parentTree.hash == tree.hash {
				continue
			}
		} else if len(tree.data) == 0 {
			continue
		}
		parts = append(parts, part{commit: c, parent: parentTree, tree: tree})
	}

	sig := "-- \ngit-bernstein " + buildinfo.Version() + "\n\n"
	bw := bufio.NewWriterSize(w, 64<<10)
	var body partBody
	for i, p := range parts {
		if i > 0 {
			bw.WriteString("\n") // format-patch separates messages with an empty line
		}
		if err := writePart(bw, &body, src, p.commit, p.parent, p.tree, i+1, len(parts), sig); err != nil {
			return err
		}
		// Flushing per part stops a series whose destination failed instead of diffing on for nothing.
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("write patch for commit %s: %w", p.commit.Hash, err)
		}
	}
	return nil
}

// partBody holds a part's file sections while its diffstat is worked out; a series reuses one for every part.
type partBody struct {
	buf bytes.Buffer
	w   *bufio.Writer
}

func writePart(w *bufio.Writer, body *partBody, src objectSource, c *gitext.Commit, parent, tree *treeList, nr, total int, sig string) error {
	writeMailHeader(w, c, nr, total)
	w.WriteString("---\n")
	if kept, ok := src.diffs.take(c.Hash); ok {
		w.Write(kept)
	} else if err := writePartDiff(w, body, src, c, parent, tree); err != nil {
		return err
	}
	w.WriteString(sig)
	return nil
}

// writePartDiff writes what follows a part's "---" line up to its signature: the diffstat, the summary, an
// empty line and the file sections.
func writePartDiff(w *bufio.Writer, body *partBody, src objectSource, c *gitext.Commit, parent, tree *treeList) error {
	changes, err := diffTrees(src, parent, tree)
	if err != nil {
		return fmt.Errorf("diff commit %s against its first parent: %w", c.Hash, err)
	}
	queue, err := detectRenames(src, src.cfg, changes)
	if err != nil {
		return fmt.Errorf("diff commit %s: find renames: %w", c.Hash, err)
	}
	// The diffstat comes first but needs every pair's counts: the sections are written to a buffer meanwhile.
	body.buf.Reset()
	if body.w == nil {
		body.w = bufio.NewWriter(&body.buf)
	}
	bw := body.w
	stats := make([]pairStat, 0, len(queue))
	for _, p := range queue {
		st, err := writeQueuePair(bw, src, p)
		if err != nil {
			return fmt.Errorf("diff commit %s: %w", c.Hash, err)
		}
		stats = append(stats, st)
	}
	bw.Flush()

	writeDiffstat(w, queue, stats)
	writeSummary(w, queue)
	w.WriteString("\n")
	w.Write(body.buf.Bytes())
	return nil
}

// Option tunes WriteSeries.
type Option func(*objectSource)

// withRecent keeps the last blobs and trees read, for a series or a Differ that reads them again.
func withRecent() Option {
	return func(s *objectSource) { s.recent = &recentBlobs{trees: map[plumbing.Hash]*treeList{}} }
}

// WithRenames replaces the repository's diff.renames ("true", "false" or "copies", as git reads the setting) for
// this series or Differ: `verify --repo` writes a commit's part under each, since the bundle may have been made
// under another setting than the auditor's repository has.
func WithRenames(value string) Option {
	return func(s *objectSource) {
		c := *s.cfg
		switch strings.ToLower(value) {
		case "copies", "copy":
			c.renames = renamesAndCopies
		case "false", "no", "off", "0":
			c.renames = renamesOff
		default:
			c.renames = renamesOn
		}
		s.cfg = &c
	}
}
