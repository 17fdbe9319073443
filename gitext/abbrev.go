package gitext

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
)

// Abbrev shortens object ids the way git's porcelain does by default (object-name.c, find_unique_abbrev_r with
// DEFAULT_ABBREV): core.abbrev when set, else "auto", which is half the bits of the approximate object count
// (the objects of the pack indexes, loose ones not counted) rounded up, at least 7 hex digits; then longer until
// no other object of the repository (packed or loose, alternates included) shares the prefix. `git show` writes
// such ids on its diff's index lines, and `git patch-id` hashes them for binary files, so a patch id computed
// without git must shorten them the same way.
type Abbrev struct {
	base    int            // the length before uniqueness: 7 or more, or 40 for core.abbrev=no
	idx     []*odb.IndexV2 // mapped version 2 pack indexes
	objDirs []string       // objects folders: the repository's, then its alternates'
}

// NewAbbrev reads the repository's pack indexes; core is core.abbrev ("" when unset). Close releases them.
func (r *Repo) NewAbbrev(core string) *Abbrev {
	a := &Abbrev{}
	dirs := []string{filepath.Join(r.CommonDir, "objects")}
	if f, err := os.Open(filepath.Join(dirs[0], "info", "alternates")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || line[0] == '#' {
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(dirs[0], line)
			}
			dirs = append(dirs, line)
		}
		f.Close()
	}
	a.objDirs = dirs
	var count uint64
	for _, d := range dirs {
		ents, _ := os.ReadDir(filepath.Join(d, "pack"))
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".idx") {
				continue
			}
			if _, err := os.Stat(filepath.Join(d, "pack", strings.TrimSuffix(e.Name(), ".idx")+".pack")); err != nil {
				continue // git does not use an index without its pack
			}
			ix, ok := odb.MapIndexV2(filepath.Join(d, "pack", e.Name()))
			if !ok {
				continue
			}
			count += uint64(ix.Len())
			a.idx = append(a.idx, ix)
		}
	}
	a.base = max(7, (bits.Len64(count)+1)/2)
	switch v := strings.ToLower(strings.TrimSpace(core)); v {
	case "", "auto":
	case "no", "false", "off":
		a.base = 40
	default:
		if n, err := strconv.Atoi(v); err == nil {
			a.base = min(max(n, 4), 40)
		}
	}
	return a
}

// Close unmaps the pack indexes.
func (a *Abbrev) Close() {
	for _, ix := range a.idx {
		ix.Close()
	}
	a.idx = nil
}

// Short returns h's hex, as long as git would print it.
func (a *Abbrev) Short(h Hash) string {
	full := h.String()
	n := a.base
	if n >= len(full) {
		return full
	}
	longest := 0 // the longest prefix h shares with another object
	for _, ix := range a.idx {
		longest = max(longest, packNeighbours(ix, h))
	}
	for _, d := range a.objDirs {
		ents, _ := os.ReadDir(filepath.Join(d, full[:2]))
		for _, e := range ents {
			name := full[:2] + e.Name()
			if len(name) != len(full) || name == full {
				continue
			}
			longest = max(longest, commonHex(name, full))
		}
	}
	return full[:min(len(full), max(n, longest+1))]
}

// packNeighbours is the longest hex prefix h shares with an object of the index other than itself: only the
// objects next to where h sorts can share the most.
func packNeighbours(ix *odb.IndexV2, h Hash) int {
	n := ix.Len()
	at := ix.ID
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if bytes.Compare(at(mid), h[:]) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	longest := 0
	for _, i := range []int{lo - 1, lo, lo + 1} {
		if i < 0 || i >= n || bytes.Equal(at(i), h[:]) {
			continue
		}
		longest = max(longest, commonHex(hex.EncodeToString(at(i)), h.String()))
	}
	return longest
}

func commonHex(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
