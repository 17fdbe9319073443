package discover

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// patchIDCacheMode is how Find uses the patch id cache.
type patchIDCacheMode int

const (
	cacheUse       patchIDCacheMode = iota // take cached ids, add new ones (commits: a warm run need not diff)
	cacheRecompute                         // compute every id, replace cached ones that differ, warn (bundle)
	cacheOff                               // neither read nor write it (verify --repo)
)

func patchIDCacheModeOf(opts Options) patchIDCacheMode {
	switch {
	case opts.NoCaches:
		return cacheOff
	case opts.RecomputePatchIDs:
		return cacheRecompute
	}
	return cacheUse
}

// openPatchIDCache is the cache as mode uses it: cacheOff never touches the file.
func openPatchIDCache(r *gitext.Repo, coreAbbrev string, mode patchIDCacheMode) *patchIDCache {
	var c *patchIDCache
	if mode == cacheOff {
		c = &patchIDCache{ids: map[gitext.Hash]*string{}}
	} else {
		c = loadPatchIDCache(r, coreAbbrev)
	}
	c.mode = mode
	return c
}

// warnings says which cached ids were not the ones computed: the cache is a file in .git that anything able
// to write there (a CI cache restored from another run) can fill, and an id from it would be signed as
// patch_id and group an unrelated commit with the fix.
func (c *patchIDCache) warnings() []string {
	if len(c.replaced) == 0 {
		return nil
	}
	shas := make([]string, 0, min(3, len(c.replaced)))
	for _, h := range c.replaced[:min(3, len(c.replaced))] {
		shas = append(shas, h.String()[:12])
	}
	more := ""
	if len(c.replaced) > 3 {
		more = ", …"
	}
	return []string{fmt.Sprintf("the patch id cache (%s) held another id for %s (%s%s) than its diff gives: replaced; "+
		"if that file came from elsewhere (a restored CI cache), delete it and the ticket index beside it",
		c.path, plural.Count(len(c.replaced), "commit"), strings.Join(shas, ", "), more)}
}

func samePatchID(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
