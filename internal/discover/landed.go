package discover

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/internal/parallel"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// cherryPickLine is what `git cherry-pick -x` appends: "(cherry picked from commit <sha>)".
var cherryPickLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*\(cherry picked from commit ([0-9a-fA-F]{7,64})\)[ \t]*\r?$`)
})

// cherryPickedFrom lists the commits a message says it was cherry-picked from, in order, each once.
func cherryPickedFrom(msg string) []string {
	out := []string{}
	if !strings.Contains(msg, "(cherry picked from commit ") {
		return out // nearly every message: no regular expression to run
	}
	seen := map[string]bool{}
	for _, m := range cherryPickLine().FindAllStringSubmatch(msg, -1) {
		sha := strings.ToLower(m[1])
		if !seen[sha] {
			seen[sha] = true
			out = append(out, sha)
		}
	}
	return out
}

// landedOn answers LandedOn for every tied node at once: one pass over the graph for the branches and tags
// that contain the tied commits, and one for which of those tags contain each other (gitext.ContainedBy, cut
// off below the lowest generation asked about), never a walk per commit.
func landedOn(g *gitext.Graph, tips []gitext.Tip, tied []int) []LandedOn {
	type ref struct {
		name string // as git branch -a / git tag print it
		full gitext.RefName
		node int
		tag  bool
	}
	var refs []ref
	for _, t := range tips {
		i, ok := g.Index(t.Commit)
		if !ok {
			continue
		}
		switch {
		case t.Name.IsBranch():
			refs = append(refs, ref{strings.TrimPrefix(t.Name.String(), "refs/heads/"), t.Name, i, false})
		case t.Name.IsRemote():
			refs = append(refs, ref{"remotes/" + strings.TrimPrefix(t.Name.String(), "refs/remotes/"), t.Name, i, false})
		case t.Name.IsTag():
			refs = append(refs, ref{strings.TrimPrefix(t.Name.String(), "refs/tags/"), t.Name, i, true})
		}
	}
	sort.Slice(refs, func(a, b int) bool { return refs[a].full < refs[b].full })
	nodes := make([]int, len(refs))
	for k, rf := range refs {
		nodes[k] = rf.node
	}
	containing := g.ContainedBy(tied, nodes)

	// Which containing tag contains which: only the tags that contain some tied commit matter.
	tagAt := map[int]int{} // ref position → position among the tag nodes asked about
	var tagNodes []int
	for _, refsOf := range containing {
		for _, k := range refsOf {
			if _, ok := tagAt[k]; !ok && refs[k].tag {
				tagAt[k] = len(tagNodes)
				tagNodes = append(tagNodes, refs[k].node)
			}
		}
	}
	// below[a*n+b]: tag b's commit is a proper ancestor of tag a's.
	n := len(tagNodes)
	below := make([]uint64, (n*n+63)/64) // a bit set: a history with thousands of tags stays small
	isBelow := func(a, b int) bool { at := a*n + b; return below[at/64]&(1<<(at%64)) != 0 }
	for b, holders := range g.ContainedBy(tagNodes, tagNodes) {
		for _, a := range holders {
			if tagNodes[a] != tagNodes[b] {
				below[(a*n+b)/64] |= 1 << ((a*n + b) % 64)
			}
		}
	}
	// Which branches have each of those tags in their history: one more pass, over the tags' part of the graph.
	var branchRefs, branchNodes []int // ref positions and nodes of the branches
	for k, rf := range refs {
		if !rf.tag {
			branchRefs = append(branchRefs, k)
			branchNodes = append(branchNodes, rf.node)
		}
	}
	// tagsOn[k]: the tag positions in branch k's history, a bit set (nil for a tag's ref position k, or a branch
	// with none of them). A ticket of a busy history is on hundreds of branches, each with hundreds of tags: a map
	// lookup per branch, commit and tag was most of a warm run (39 million on a 70,000-commit history).
	words := (n + 63) / 64
	tagsOn := make([][]uint64, len(refs))
	for b, holders := range g.ContainedBy(tagNodes, branchNodes) {
		for _, h := range holders {
			k := branchRefs[h]
			if tagsOn[k] == nil {
				tagsOn[k] = make([]uint64, words)
			}
			tagsOn[k][b/64] |= 1 << (b % 64)
		}
	}
	// first says which of the tag positions in are first among them: no other of them (at another commit) is
	// their ancestor.
	first := func(in []int) []int {
		var out []int
		for _, a := range in {
			ok := true
			for _, b := range in {
				if isBelow(a, b) {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, a)
			}
		}
		return out
	}
	tagName := make([]string, n)
	for k, at := range tagAt {
		tagName[at] = refs[k].name
	}

	// The first tags of a set of tags (the ones containing a commit that are on a branch) are worked out once a
	// set: most branches of a commit share theirs. The lists are shared between commits, clipped so that an
	// append copies.
	firstOf := map[string][]string{}
	inBits, there := make([]uint64, words), make([]uint64, words)
	key := make([]byte, 8*words)
	out := make([]LandedOn, len(tied))
	for i, refsOf := range containing {
		l := LandedOn{Branches: []string{}, Tags: []string{}, FirstTagsByBranch: make(map[string][]string, len(refsOf))}
		var in []int // positions in tagNodes of the tags containing this commit, in ref order
		clear(inBits)
		for _, k := range refsOf {
			if refs[k].tag {
				in = append(in, tagAt[k])
				inBits[tagAt[k]/64] |= 1 << (tagAt[k] % 64)
			}
		}
		for _, at := range first(in) {
			l.Tags = append(l.Tags, tagName[at])
		}
		for _, k := range refsOf {
			if refs[k].tag {
				continue
			}
			l.Branches = append(l.Branches, refs[k].name)
			for w := range there {
				there[w] = 0
				if tagsOn[k] != nil {
					there[w] = inBits[w] & tagsOn[k][w]
				}
				binary.LittleEndian.PutUint64(key[8*w:], there[w])
			}
			tags, ok := firstOf[string(key)]
			if !ok {
				var set []int // in's order, which is ref order whatever the commit
				for _, at := range in {
					if there[at/64]&(1<<(at%64)) != 0 {
						set = append(set, at)
					}
				}
				tags = []string{}
				for _, at := range first(set) {
					tags = append(tags, tagName[at])
				}
				tags = slices.Clip(tags)
				firstOf[string(key)] = tags
			}
			l.FirstTagsByBranch[refs[k].name] = tags
		}
		out[i] = l
	}
	return out
}

// patchIDs computes each non-merge commit's `git patch-id --stable` from our own diff (patch.Differ); merges
// (and commits at a shallow boundary, also marked in merge) and commits whose diff is empty get none. A commit
// whose diff cannot be made gets none and a warning. The diffs are made on every core, one Differ a worker: a
// ticket of a long-lived project ties thousands of commits, and a first run has none of them in the cache.
// keep, when not nil, is given each commit's part diff for the patch series (Options.Diffs); toGroup computes
// only the ids that can group commits (Options.PatchIDsToGroup).
func patchIDs(r *gitext.Repo, hashes []gitext.Hash, merge []bool, coreAbbrev string, mode patchIDCacheMode, keep *patch.Diffs, toGroup bool) ([]*string, []string) {
	out := make([]*string, len(hashes))
	cache := openPatchIDCache(r, coreAbbrev, mode)
	defer cache.save()
	var todo []int
	for i, h := range hashes {
		if merge[i] {
			continue
		}
		if id, ok := cache.get(h); ok {
			out[i] = id
			continue
		}
		todo = append(todo, i)
	}
	if len(todo) == 0 {
		return out, cache.warnings()
	}
	// A binary file's patch id hashes its abbreviated object names; the abbreviator is shared, so one at a time.
	var abbrevMu sync.Mutex
	var abbrev *gitext.Abbrev
	defer func() {
		if abbrev != nil {
			abbrev.Close()
		}
	}()
	short := func(hexID string) string {
		abbrevMu.Lock()
		defer abbrevMu.Unlock()
		if abbrev == nil {
			abbrev = r.NewAbbrev(coreAbbrev)
		}
		return abbrev.Short(gitext.NewHash(hexID))
	}
	errs := make([]error, len(hashes))
	binary := make([]bool, len(hashes))
	workers := runtime.GOMAXPROCS(0)
	differs := make([]*patch.Differ, workers) // one a goroutine, made when first needed
	if toGroup {
		todo = sharingPaths(r, hashes, merge, todo, differs, coreAbbrev, mode)
	}
	// One diff buffer a goroutine, reused: a new one a commit grew from nothing every time, and that garbage was
	// two fifths of all a first run allocated on Kafka (54 tied commits, 319 files).
	bufs := make([]bytes.Buffer, workers)
	parallel.Each(len(todo), workers, func(w, k int) {
		if differs[w] == nil {
			differs[w] = patch.NewDiffer(r)
		}
		i := todo[k]
		buf := &bufs[w]
		buf.Reset()
		// With keep, the diff is the commit's whole part diff (its diffstat too), which PatchID reads as it
		// reads the file sections alone, and which the patch series then writes as it is.
		write := differs[w].WriteDiff
		if keep != nil {
			write = differs[w].WritePartDiff
		}
		if err := write(buf, hashes[i]); err != nil {
			errs[i] = err
			return
		}
		if keep != nil && buf.Len() > 0 {
			keep.Keep(hashes[i], buf.Bytes())
		}
		// Such ids depend on how many objects the repository has, so they are not cached.
		binary[i] = bytes.Contains(buf.Bytes(), []byte("\nGIT binary patch")) || bytes.Contains(buf.Bytes(), []byte("\nBinary files "))
		if id, ok := patch.PatchID(buf.Bytes(), short); ok {
			out[i] = &id
		}
	})
	failed, firstErr := 0, error(nil)
	for _, i := range todo {
		switch {
		case errs[i] != nil:
			failed++
			if firstErr == nil {
				firstErr = fmt.Errorf("commit %s: %w", hashes[i], errs[i])
			}
		case !binary[i]:
			cache.put(hashes[i], out[i])
		}
	}
	if failed > 0 {
		// One line, not one a commit: offline, a partial clone lacks the blobs of every one of them.
		return out, append(cache.warnings(), fmt.Sprintf("no patch id for %s (patch_id is null): %v", plural.Count(failed, "commit"), firstErr))
	}
	return out, cache.warnings()
}

// sharingPaths keeps the commits of todo whose changed paths another non-merge commit of hashes also changes
// (patch.Differ.ChangedPaths): only they can have a patch id another has. A commit whose paths cannot be read
// is kept, so that its diff says what is wrong. The paths' digests are cached (patch-paths) as the ids are.
func sharingPaths(r *gitext.Repo, hashes []gitext.Hash, merge []bool, todo []int, differs []*patch.Differ,
	coreAbbrev string, mode patchIDCacheMode) []int {
	if len(todo) == 0 {
		return todo
	}
	var cache *patchIDCache
	if mode == cacheOff {
		cache = &patchIDCache{ids: map[gitext.Hash]*string{}, mode: cacheOff}
	} else {
		cache = loadPatchPathsCache(r, coreAbbrev)
		cache.mode = cacheUse // a digest of paths is the same whoever asks; a wrong one only costs a grouping
	}
	defer cache.save()
	keys := make([]*string, len(hashes))
	var all, missing []int
	for i := range hashes {
		if merge[i] {
			continue
		}
		all = append(all, i)
		if k, ok := cache.get(hashes[i]); ok && k != nil {
			keys[i] = k
		} else {
			missing = append(missing, i)
		}
	}
	parallel.Each(len(missing), len(differs), func(w, k int) {
		if differs[w] == nil {
			differs[w] = patch.NewDiffer(r)
		}
		i := missing[k]
		if paths, err := differs[w].ChangedPaths(hashes[i]); err == nil {
			sum := sha1.Sum([]byte(paths))
			key := hex.EncodeToString(sum[:])
			keys[i] = &key
		}
	})
	count := map[string]int{}
	for _, i := range all {
		if keys[i] != nil {
			count[*keys[i]]++
		}
	}
	for _, i := range missing {
		if keys[i] != nil {
			cache.put(hashes[i], keys[i])
		}
	}
	kept := todo[:0]
	for _, i := range todo {
		if keys[i] == nil || count[*keys[i]] > 1 {
			kept = append(kept, i)
		}
	}
	return kept
}
