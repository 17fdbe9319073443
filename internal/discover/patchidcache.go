package discover

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// The patch id cache, <git common dir>/bernstein/patch-ids, keeps each commit's patch id once computed: a commit
// never changes, so a second `commits` need not diff it again (diffing every tied commit made warm runs 5× slower).
// Layout:
//
//	magic     "git-bernstein patch-id cache 1\n"
//	settings  one line: the diff settings the ids were made under (diff.renames, diff.renameLimit, core.abbrev)
//	records   40 bytes each, sorted by commit: the commit's 20-byte id, then its patch id, or 20 zero bytes for
//	          "no patch id" (an empty diff)
//
// A file with other settings, a bad length or unsorted records is ignored and rewritten. A commit whose id used
// an abbreviated binary object name (which depends on how many objects the repository has) is never cached. The
// cache only saves time: failing to read or write it changes no answer.
//
// Beside it, <git common dir>/bernstein/patch-paths has the same layout (magic "git-bernstein patch-paths cache
// 1\n") with, for each commit, the SHA-1 of its changed paths (patch.Differ.ChangedPaths) in place of the patch
// id: what `commits` without --json (PatchIDsToGroup) needs to know which commits can share an id, kept so that a
// warm run reads no tree (the ids it did not need were never made, so they are not in the patch id cache).
const (
	patchIDCacheMagic    = "git-bernstein patch-id cache 1\n"
	patchPathsCacheMagic = "git-bernstein patch-paths cache 1\n"
	patchIDRecord        = 40
	// maxPatchIDCache bounds the file (40 MiB): a million commits.
	maxPatchIDCache = 1 << 20
)

type patchIDCache struct {
	path     string
	magic    string // patchIDCacheMagic, or patchPathsCacheMagic
	settings string
	ids      map[gitext.Hash]*string
	dirty    bool
	mode     patchIDCacheMode
	replaced []gitext.Hash // with RecomputePatchIDs: commits whose cached id was not the one computed
}

func patchIDCachePath(r *gitext.Repo) string {
	return filepath.Join(r.CommonDir, "bernstein", "patch-ids")
}

// diffSettings names what patch ids depend on beyond the commits themselves.
func diffSettings(r *gitext.Repo, coreAbbrev string) string {
	// The settings the patches are made with: git's reading of the configuration (Repo.Configuration), which
	// gitext/patch uses too, not .git/config alone.
	var renames, limit string
	if c, err := r.Configuration(); err == nil {
		renames, _ = c.Get("diff.renames")
		limit, _ = c.Get("diff.renameLimit")
	}
	return "diff.renames=" + renames + " diff.renameLimit=" + limit + " core.abbrev=" + coreAbbrev + "\n"
}

// loadPatchIDCache reads the cache; any problem gives an empty one.
func loadPatchIDCache(r *gitext.Repo, coreAbbrev string) *patchIDCache {
	return loadRecordCache(patchIDCachePath(r), patchIDCacheMagic, diffSettings(r, coreAbbrev))
}

// loadPatchPathsCache is the patch-paths cache (the same layout, another magic).
func loadPatchPathsCache(r *gitext.Repo, coreAbbrev string) *patchIDCache {
	return loadRecordCache(filepath.Join(r.CommonDir, "bernstein", "patch-paths"), patchPathsCacheMagic, diffSettings(r, coreAbbrev))
}

func loadRecordCache(path, magic, settings string) *patchIDCache {
	c := &patchIDCache{path: path, magic: magic, settings: settings, ids: map[gitext.Hash]*string{}}
	data, err := regularfile.ReadFile(c.path, "patch-id cache", int64(len(magic)+len(c.settings)+maxPatchIDCache*patchIDRecord))
	if err != nil {
		return c
	}
	head := magic + c.settings
	if !bytes.HasPrefix(data, []byte(head)) || (len(data)-len(head))%patchIDRecord != 0 {
		return c
	}
	recs := data[len(head):]
	var prev []byte
	for len(recs) > 0 {
		rec := recs[:patchIDRecord]
		recs = recs[patchIDRecord:]
		if prev != nil && bytes.Compare(prev, rec[:20]) >= 0 {
			return &patchIDCache{path: c.path, magic: magic, settings: c.settings, ids: map[gitext.Hash]*string{}}
		}
		prev = rec[:20]
		var h gitext.Hash
		copy(h[:], rec[:20])
		var id *string
		if !bytes.Equal(rec[20:], make([]byte, 20)) {
			s := hex.EncodeToString(rec[20:])
			id = &s
		}
		c.ids[h] = id
	}
	return c
}

func (c *patchIDCache) get(h gitext.Hash) (*string, bool) {
	if c.mode != cacheUse {
		return nil, false
	}
	id, ok := c.ids[h]
	return id, ok
}

func (c *patchIDCache) put(h gitext.Hash, id *string) {
	if old, ok := c.ids[h]; ok {
		if samePatchID(old, id) {
			return
		}
		c.replaced = append(c.replaced, h)
	}
	if len(c.ids) >= maxPatchIDCache {
		return
	}
	c.ids[h] = id
	c.dirty = true
}

// save writes the cache atomically when it gained entries; errors are ignored (it is only a cache).
func (c *patchIDCache) save() {
	if !c.dirty || c.mode == cacheOff {
		return
	}
	hashes := make([]gitext.Hash, 0, len(c.ids))
	for h := range c.ids {
		hashes = append(hashes, h)
	}
	sort.Slice(hashes, func(i, j int) bool { return bytes.Compare(hashes[i][:], hashes[j][:]) < 0 })
	var b bytes.Buffer
	b.WriteString(c.magic)
	b.WriteString(c.settings)
	for _, h := range hashes {
		b.Write(h[:])
		var id [20]byte
		if p := c.ids[h]; p != nil {
			if raw, err := hex.DecodeString(*p); err == nil && len(raw) == 20 {
				copy(id[:], raw)
			}
		}
		b.Write(id[:])
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return
	}
	err := atomicfile.Write(c.path, 0o644, false, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
	if err != nil && !errors.Is(err, os.ErrPermission) {
		return
	}
}
