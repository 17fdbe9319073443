package patch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// Differ writes the diffs of single commits, reading the repository's diff settings once.
type Differ struct {
	src  objectSource
	body partBody // WritePartDiff's file sections while the diffstat is worked out
}

// NewDiffer reads repo's diff settings (as WriteSeries does) for the diffs that follow. Trees and blobs are
// read through repo's mapped packs (gitext.Repo.ReadObject).
func NewDiffer(repo *gitext.Repo, opts ...Option) *Differ {
	return differWith(repoObjects(repo), settingsOf(repo), append([]Option{withRecent()}, opts...)...)
}

func differWith(objs objects, cfg *settings, opts ...Option) *Differ {
	src := objectSource{objects: objs, cfg: cfg}
	for _, o := range opts {
		o(&src)
	}
	return &Differ{src: src}
}

// WriteDiff writes the diff of one commit against its first parent (the empty tree for a root commit): the file
// sections of its WriteSeries part ("diff --git" on), without the mail header, the diffstat or the signature.
// A commit that changes nothing writes nothing; a merge is an error.
func (d *Differ) WriteDiff(w io.Writer, h plumbing.Hash) error {
	src := d.src
	_, parentTree, tree, same, err := d.commitTrees(h, "it has no single diff")
	if err != nil || same {
		return err
	}
	changes, err := diffTrees(src, parentTree, tree)
	if err != nil {
		return fmt.Errorf("diff commit %s against its first parent: %w", h, err)
	}
	queue, err := detectRenames(src, src.cfg, changes)
	if err != nil {
		return fmt.Errorf("diff commit %s: find renames: %w", h, err)
	}
	bw := bufio.NewWriter(w)
	for _, p := range queue {
		if _, err := writeQueuePair(bw, src, p); err != nil {
			return fmt.Errorf("diff commit %s: %w", h, err)
		}
	}
	return bw.Flush()
}

// WriteTreeDiff writes the diff from commit from's tree to commit to's tree, as `git diff from to` prints it
// with the repository's diff settings: what a pull request shows between a fork point and a head. Trees that
// are the same write nothing.
func (d *Differ) WriteTreeDiff(w io.Writer, from, to plumbing.Hash) error {
	src := d.src
	trees := [2]*treeList{}
	for i, h := range [2]plumbing.Hash{from, to} {
		c, err := src.commit(h)
		if err != nil {
			return fmt.Errorf("read commit %s: %w", h, err)
		}
		if trees[i], err = getTree(src, c.TreeHash); err != nil {
			return fmt.Errorf("read tree of commit %s: %w", h, err)
		}
	}
	if trees[0].hash == trees[1].hash {
		return nil
	}
	changes, err := diffTrees(src, trees[0], trees[1])
	if err != nil {
		return fmt.Errorf("diff %s..%s: %w", from, to, err)
	}
	queue, err := detectRenames(src, src.cfg, changes)
	if err != nil {
		return fmt.Errorf("diff %s..%s: find renames: %w", from, to, err)
	}
	bw := bufio.NewWriter(w)
	for _, p := range queue {
		if _, err := writeQueuePair(bw, src, p); err != nil {
			return fmt.Errorf("diff %s..%s: %w", from, to, err)
		}
	}
	return bw.Flush()
}

// commitTrees reads commit h and the trees a diff of it compares: its own and its first parent's (nil for a root
// commit, diffed against the empty tree). same is true when the commit changes nothing (its parent's tree, or a
// root commit's empty tree): WriteSeries writes no part for it. A merge is an error, ending in what.
func (d *Differ) commitTrees(h plumbing.Hash, what string) (c *gitext.Commit, parent, tree *treeList, same bool, err error) {
	src := d.src
	if c, err = src.commit(h); err != nil {
		return nil, nil, nil, false, fmt.Errorf("read commit %s: %w", h, err)
	}
	if len(c.ParentHashes) > 1 {
		return nil, nil, nil, false, fmt.Errorf("commit %s is a merge (%d parents): %s", h, len(c.ParentHashes), what)
	}
	if tree, err = getTree(src, c.TreeHash); err != nil {
		return nil, nil, nil, false, fmt.Errorf("read tree of commit %s: %w", h, err)
	}
	if len(c.ParentHashes) == 0 {
		return c, nil, tree, len(tree.data) == 0, nil
	}
	p, err := src.commit(c.ParentHashes[0])
	if err != nil {
		return nil, nil, nil, false, fmt.Errorf("read parent %s of commit %s (a shallow clone? fetch more history): %w", c.ParentHashes[0], h, err)
	}
	if parent, err = getTree(src, p.TreeHash); err != nil {
		return nil, nil, nil, false, fmt.Errorf("read tree of commit %s: %w", p.Hash, err)
	}
	return c, parent, tree, parent.hash == tree.hash, nil
}

// Part is what WriteSeries writes for commit h as part nr of total, cut in two and without the signature:
// header is the mbox From line, the mail header and the message up to and with the "---" line; diff is the
// diffstat, the summary, an empty line and the file sections. It is what `verify --repo` holds a bundle's
// part to. ok is false for a commit that changes nothing (WriteSeries writes no part for it); a merge is an
// error.
func (d *Differ) Part(h plumbing.Hash, nr, total int) (header, diff []byte, ok bool, err error) {
	src := d.src
	c, parentTree, tree, same, err := d.commitTrees(h, "it has no part")
	if err != nil || same {
		return nil, nil, false, err
	}
	var hb, db bytes.Buffer
	hw, dw := bufio.NewWriter(&hb), bufio.NewWriter(&db)
	writeMailHeader(hw, c, nr, total)
	hw.WriteString("---\n")
	if err := writePartDiff(dw, &partBody{}, src, c, parentTree, tree); err != nil {
		return nil, nil, false, err
	}
	hw.Flush()
	dw.Flush()
	return hb.Bytes(), db.Bytes(), true, nil
}
