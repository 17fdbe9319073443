package odb

import (
	"bytes"
	"io"
	"path/filepath"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// loose reads h from its loose object file, objects/xx/yyyy… (zlib of "<type> <size>\0<content>"), on any
// goroutine: the objects a merge has just written are loose, and reading them through go-git (one at a time,
// behind the fallback's lock, each through its filesystem layers) was a tenth of the post-merge hook's time on
// Kafka. ok is false for anything this cannot read (no such file, not a regular file, a bad header or size):
// the fallback then reads it, or says what is wrong. Like viaFallback, trees and blobs come back by type only
// unless all is set.
func (pr *Packs) loose(h plumbing.Hash, all bool) (plumbing.ObjectType, []byte, bool) {
	if pr.objects == "" {
		return 0, nil, false
	}
	hexID := h.String()
	// A loose object is zlib-compressed, so its file is at most a little larger than the content it holds.
	raw, err := regularfile.ReadFile(filepath.Join(pr.objects, hexID[:2], hexID[2:]), "loose object", maxEntrySize+1024)
	if err != nil {
		return 0, nil, false
	}
	// The pooled zlib reader: a new one per object allocated 40 KB of window and tables, 15 MB in all for the
	// 476 loose objects a first run read on a Kafka clone that had seen a few merges.
	inf := pr.inflater()
	defer pr.pool.Put(inf)
	zr, err := inf.zlibReader(raw)
	if err != nil {
		return 0, nil, false
	}
	// The header first (at most "commit " and 20 digits), then exactly the content it announces.
	var head [32]byte
	n, _ := io.ReadFull(zr, head[:])
	nul := bytes.IndexByte(head[:n], 0)
	sp := bytes.IndexByte(head[:max(nul, 0)], ' ')
	if nul < 0 || sp < 0 {
		return 0, nil, false
	}
	typ, err := plumbing.ParseObjectType(string(head[:sp]))
	if err != nil || (typ != plumbing.CommitObject && typ != plumbing.TreeObject && typ != plumbing.BlobObject && typ != plumbing.TagObject) {
		return 0, nil, false
	}
	size, err := strconv.ParseUint(string(head[sp+1:nul]), 10, 64)
	if err != nil || size > maxEntrySize {
		return 0, nil, false
	}
	if !all && typ != plumbing.CommitObject && typ != plumbing.TagObject {
		return typ, nil, true
	}
	data := make([]byte, size)
	got := copy(data, head[nul+1:n])
	if got < len(data) {
		if _, err := io.ReadFull(zr, data[got:]); err != nil {
			return 0, nil, false
		}
	} else if uint64(n-nul-1) > size {
		return 0, nil, false // more content than the header says
	}
	// Nothing may follow the content, and reading to the end checks zlib's checksum.
	var extra [1]byte
	if k, err := zr.Read(extra[:]); k != 0 || err != io.EOF {
		return 0, nil, false
	}
	return typ, data, true
}
