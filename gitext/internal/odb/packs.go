package odb

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/klauspost/compress/zlib"

	"github.com/git-bernstein/git-bernstein/gitext/internal/inflate"
)

// Packs reads raw objects straight from a repository's pack files: an idx lookup, one slice of the mmapped
// pack, and a pooled inflater. go-git's object storage stats the loose-object path, seeks and allocates a
// decoder per object, which made a walk of 200,000 commits five times slower than `git log`. Anything it cannot
// read this way (loose objects, odd entries, alternates, a partial clone's missing objects) goes to the fallback
// given to OpenPacks. Safe for concurrent use.
type Packs struct {
	packs    []*mappedPack
	objects  string // the objects folder, whose xx/yyyy… files are the loose objects (loose.go)
	fallback func(plumbing.Hash) (plumbing.EncodedObject, error)
	pool     sync.Pool // of *inflater
	goGit    sync.Mutex

	cacheMu    sync.Mutex
	cache      map[baseKey]cachedBase
	cacheBytes int

	res resident // when to drop the mapped pages (resident.go)
}

type mappedPack struct {
	idx     packIndex
	data    []byte
	revPath string // its reverse index (.rev), which may not exist
	seen    blockSet
}

// packIndex finds an object's offset in its pack.
type packIndex interface {
	FindOffset(h plumbing.Hash) (int64, error)
}

// inflater is one goroutine's decoding state, pooled: the whole-stream decoder's tables, and the zlib reader
// that reads what that decoder refuses.
type inflater struct {
	dec inflate.Decoder
	zr  io.ReadCloser
	src *bytes.Reader
}

// OpenPacks maps every pack of dir (a repository's objects/pack folder; a missing folder holds no pack).
// fallback reads what the packs and loose objects do not give: the caller's (gitext passes go-git's storage when
// gitext/objstore attached it, then a partial clone's promisor remote); OpenPacks calls it one object at a
// time, since go-git's storage shares its open pack files between callers. The packs stay mapped until Close.
func OpenPacks(dir string, fallback func(plumbing.Hash) (plumbing.EncodedObject, error)) (*Packs, error) {
	pr := &Packs{fallback: fallback, objects: filepath.Dir(dir)}
	pr.res.drop, pr.res.window = pr.dropPackPages, residentWindow/faultBlock
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".idx") {
			continue
		}
		p, err := openPack(filepath.Join(dir, name), filepath.Join(dir, strings.TrimSuffix(name, ".idx")+".pack"))
		if err != nil {
			pr.Close()
			return nil, err
		}
		if p != nil {
			p.seen = newBlockSet(len(p.data))
			pr.packs = append(pr.packs, p)
		}
	}
	return pr, nil
}

func openPack(idxPath, packPath string) (*mappedPack, error) {
	idx, err := openIndex(idxPath)
	if err != nil {
		return nil, err
	}
	data, err := mapFile(packPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // an idx without its pack: a repack in progress; the fallback will find the objects elsewhere
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", packPath, err)
	}
	return &mappedPack{idx: idx, data: data, revPath: strings.TrimSuffix(packPath, ".pack") + ".rev"}, nil
}

// openIndex maps a version 2 pack index and searches it in place (go-git's decoder copies the whole index and
// builds a reverse map first); other versions go through go-git.
func openIndex(path string) (packIndex, error) {
	data, err := mapFile(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if idx, ok := newIndexV2(data); ok {
		if readIndexIDs {
			// Lookups read ids from the file (findByReading); a failure to open it leaves them to
			// the mapping.
			idx.file, _ = os.Open(path)
		}
		return idx, nil
	}
	unmapFile(data)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	mem := idxfile.NewMemoryIndex()
	if err := idxfile.NewDecoder(f).Decode(mem); err != nil {
		return nil, fmt.Errorf("pack index %s is corrupt: %w; run `git fsck`", path, err)
	}
	return mem, nil
}

// IndexV2 is a mapped pack index, version 2 (gitformat-pack): fanout, sorted ids, CRCs, 31-bit offsets, then
// 64-bit offsets for the entries whose 31-bit offset has its high bit set.
type IndexV2 struct {
	data                       []byte
	n                          int
	ids, offsets, largeOffsets int // byte positions of the tables
	// file is the index file, for FindOffset to read ids from (findByReading); nil: the mapping.
	file *os.File
}

func newIndexV2(data []byte) (*IndexV2, bool) {
	const header = 8
	if len(data) < header+256*4 || !bytes.Equal(data[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return nil, false
	}
	n := int(binary.BigEndian.Uint32(data[header+255*4:]))
	ix := &IndexV2{data: data, n: n, ids: header + 256*4}
	ix.offsets = ix.ids + n*20 + n*4
	ix.largeOffsets = ix.offsets + n*4
	if n < 0 || ix.largeOffsets+40 > len(data) {
		return nil, false
	}
	return ix, true
}

// MapIndexV2 maps the version 2 pack index at path; ok is false, and nothing stays mapped, when it cannot be
// read or is another version. Close unmaps it.
func MapIndexV2(path string) (*IndexV2, bool) {
	data, err := mapFile(path)
	if err != nil {
		return nil, false
	}
	ix, ok := newIndexV2(data)
	if !ok {
		unmapFile(data)
		return nil, false
	}
	return ix, true
}

// Len is the number of objects the index lists.
func (ix *IndexV2) Len() int { return ix.n }

// ID is the i-th object id of the index, in sorted order (0 <= i < Len()).
func (ix *IndexV2) ID(i int) []byte { return ix.data[ix.ids+i*20 : ix.ids+i*20+20] }

// Close unmaps the index.
func (ix *IndexV2) Close() {
	unmapFile(ix.data)
	if ix.file != nil {
		ix.file.Close()
	}
}

// FindOffset returns h's offset in the index's pack; an error wrapping plumbing.ErrObjectNotFound when the
// index does not list it.
func (ix *IndexV2) FindOffset(h plumbing.Hash) (int64, error) {
	const header = 8
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(ix.data[header+(int(h[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(ix.data[header+int(h[0])*4:]))
	if hi > ix.n || lo > hi {
		return 0, plumbing.ErrObjectNotFound
	}
	if ix.file != nil {
		return ix.findByReading(h, lo, hi)
	}
	// Ids are uniform, so the next bytes of h say about where in its fanout range it lies: two probes
	// around that guess narrow the search to a few hundred bytes of the index. A plain binary search touches
	// a new page of a large index at almost every step, and those misses were a sixth of a patch series' time.
	// The probes only narrow the range; when the guess is off, the search goes on in what is left.
	if n := hi - lo; n > 4*interpolationWindow {
		guess := lo + int(uint64(n)*(binary.BigEndian.Uint64(h[1:9])>>32)>>32)
		a, b := max(lo, guess-interpolationWindow), min(hi-1, guess+interpolationWindow)
		switch c := ix.compareAt(a, h); {
		case c == 0:
			return ix.offsetAt(a)
		case c > 0:
			hi = a
		default:
			lo = a + 1
		}
		if b >= lo && b < hi {
			switch c := ix.compareAt(b, h); {
			case c == 0:
				return ix.offsetAt(b)
			case c < 0:
				lo = b + 1
			default:
				hi = b
			}
		}
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := ix.compareAt(mid, h); {
		case c == 0:
			return ix.offsetAt(mid)
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, plumbing.ErrObjectNotFound
}

// findByReading is FindOffset's search of [lo, hi) with the ids read from the file, a window of
// them at a time around where h should be: reading them through the mapping faulted in a 64 KiB
// block of the index at each lookup (Linux's fault-around), so a few hundred lookups, the tied
// commits' trees and blobs of a first run, made the whole index resident again after a walk had
// dropped it (10 MiB of Kafka's peak), where a read call costs about a microsecond. The offsets, a
// fifth of the index, are still read through the mapping.
func (ix *IndexV2) findByReading(h plumbing.Hash, lo, hi int) (int64, error) {
	var buf [(2*interpolationWindow + 1) * 20]byte
	const fits = len(buf) / 20
	first := true
	for lo < hi {
		a, b := lo, hi
		if hi-lo > fits {
			// Ids are uniform: the first window is around h's interpolated place (see
			// FindOffset), any later one halves what is left.
			mid := lo + (hi-lo)/2
			if first {
				mid = lo + int(uint64(hi-lo)*(binary.BigEndian.Uint64(h[1:9])>>32)>>32)
			}
			a = max(lo, mid-interpolationWindow)
			b = min(hi, a+fits)
		}
		first = false
		ids := buf[:(b-a)*20]
		if _, err := ix.file.ReadAt(ids, int64(ix.ids+a*20)); err != nil {
			return 0, fmt.Errorf("read pack index: %w", err)
		}
		i, found := sort.Find(b-a, func(j int) int {
			return bytes.Compare(h[:], ids[j*20:j*20+20])
		})
		switch {
		case found:
			return ix.offsetAt(a + i)
		case i > 0 && i < b-a:
			return 0, plumbing.ErrObjectNotFound // between two ids of the window
		case i == 0:
			hi = a
		default:
			lo = b
		}
	}
	return 0, plumbing.ErrObjectNotFound
}

// interpolationWindow is how many entries either side of its interpolated place FindOffset expects an id:
// about two standard deviations of that place for a fanout range of 4,000 entries (a pack of a million objects).
const interpolationWindow = 64

// compareAt compares the i-th id of the index with h, its first 8 bytes as one number.
func (ix *IndexV2) compareAt(i int, h plumbing.Hash) int {
	id := ix.data[ix.ids+i*20 : ix.ids+i*20+20]
	k, key := binary.BigEndian.Uint64(id[:8]), binary.BigEndian.Uint64(h[:8])
	switch {
	case k < key:
		return -1
	case k > key:
		return 1
	}
	return bytes.Compare(id[8:], h[8:])
}

// offsetAt is the pack offset of the index's i-th object.
func (ix *IndexV2) offsetAt(i int) (int64, error) {
	off := binary.BigEndian.Uint32(ix.data[ix.offsets+i*4:])
	if off&0x80000000 == 0 {
		return int64(off), nil
	}
	pos := ix.largeOffsets + int(off&0x7fffffff)*8
	if pos+8 > len(ix.data) {
		return 0, plumbing.ErrObjectNotFound
	}
	return int64(binary.BigEndian.Uint64(ix.data[pos:])), nil
}

// Close unmaps the packs and their indexes.
func (pr *Packs) Close() {
	for _, p := range pr.packs {
		unmapFile(p.data)
		if ix, ok := p.idx.(*IndexV2); ok {
			ix.Close()
		}
	}
	pr.packs = nil
}

// RawCommit returns the content of commit h (the bytes after git's "commit <size>\0" header).
func (pr *Packs) RawCommit(h plumbing.Hash) ([]byte, error) {
	typ, data, err := pr.RawObject(h)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.CommitObject {
		return nil, fmt.Errorf("object %s is a %s, not a commit", h, typ)
	}
	return data, nil
}

// RawObject returns the type and content of a commit or tag; other types come back with no content.
func (pr *Packs) RawObject(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	return pr.object(h, false)
}

// object reads h from the mapped packs, else through the fallback; all asks for the content of trees and blobs too.
func (pr *Packs) object(h plumbing.Hash, all bool) (plumbing.ObjectType, []byte, error) {
	for _, p := range pr.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		if typ, data, ok := pr.entryAt(p, off, all, 0); ok {
			return typ, data, nil
		}
		break // an odd entry: let the fallback (go-git) say what is wrong with it
	}
	if typ, data, ok := pr.loose(h, all); ok {
		return typ, data, nil
	}
	return pr.viaFallback(h, all)
}

// maxEntrySize bounds an object's inflated size (an entry's, or a delta's result), so that a corrupt size cannot
// ask for any amount of memory.
const maxEntrySize = 256 << 20

// maxDeltaDepth bounds delta chains (git's own limit for aggressive repacks is 250), so a corrupt pack whose
// deltas loop cannot recurse for ever.
const maxDeltaDepth = 512

// entryAt reads the pack entry at off, resolving offset and reference deltas. Commits and tags (and any delta
// base, or anything when all is set) come back with their content; trees and blobs otherwise by type only.
// ok is false for anything unreadable.
func (pr *Packs) entryAt(p *mappedPack, off int64, all bool, depth int) (plumbing.ObjectType, []byte, bool) {
	if off < 0 || off >= int64(len(p.data)) || depth > maxDeltaDepth {
		return 0, nil, false
	}
	b := p.data[off:]
	typ, size, i, ok := entryHeader(b)
	if !ok || size > maxEntrySize {
		return 0, nil, false
	}
	pr.touchEntry(p, off, i, size)
	var objType plumbing.ObjectType
	switch typ {
	case 1:
		objType = plumbing.CommitObject
	case 2:
		objType = plumbing.TreeObject
	case 3:
		objType = plumbing.BlobObject
	case 4:
		objType = plumbing.TagObject
	case 6, 7: // OFS_DELTA, REF_DELTA
		var baseType plumbing.ObjectType
		var base []byte
		var ok bool
		if typ == 6 {
			if i >= len(b) {
				return 0, nil, false
			}
			c := b[i]
			i++
			rel := int64(c & 0x7f)
			for c&0x80 != 0 {
				if i >= len(b) || rel > 1<<48 {
					return 0, nil, false
				}
				c = b[i]
				i++
				rel = ((rel + 1) << 7) | int64(c&0x7f)
			}
			baseType, base, ok = pr.deltaBase(p, off-rel, depth+1)
		} else {
			if i+20 > len(b) {
				return 0, nil, false
			}
			var h plumbing.Hash
			copy(h[:], b[i:i+20])
			i += 20
			boff, err := p.idx.FindOffset(h)
			if err != nil {
				return 0, nil, false
			}
			baseType, base, ok = pr.deltaBase(p, boff, depth+1)
		}
		if !ok {
			return 0, nil, false
		}
		delta, ok := pr.inflate(b[i:], size)
		if !ok {
			return 0, nil, false
		}
		out, ok := applyDelta(base, delta)
		if !ok {
			return 0, nil, false
		}
		return baseType, out, true
	default:
		return 0, nil, false
	}
	if !all && objType != plumbing.CommitObject && objType != plumbing.TagObject {
		return objType, nil, true
	}
	data, ok := pr.inflate(b[i:], size)
	return objType, data, ok
}

// deltaBase reads a delta's base through a small cache: chains share their bases, and without it every object
// of a deep chain would inflate the whole chain again.
func (pr *Packs) deltaBase(p *mappedPack, off int64, depth int) (plumbing.ObjectType, []byte, bool) {
	key := baseKey{p, off}
	pr.cacheMu.Lock()
	if e, ok := pr.cache[key]; ok {
		pr.cacheMu.Unlock()
		return e.typ, e.data, true
	}
	pr.cacheMu.Unlock()
	typ, data, ok := pr.entryAt(p, off, true, depth)
	if !ok {
		return 0, nil, false
	}
	pr.cacheMu.Lock()
	if pr.cache == nil || pr.cacheBytes+len(data) > maxBaseCache {
		pr.cache, pr.cacheBytes = map[baseKey]cachedBase{}, 0 // crude but bounded: start again when full
	}
	if len(data) <= maxBaseCache/4 {
		pr.cache[key] = cachedBase{typ, data}
		pr.cacheBytes += len(data)
	}
	pr.cacheMu.Unlock()
	return typ, data, true
}

// maxBaseCache bounds the delta base cache (git's own core.deltaBaseCacheLimit is 96 MiB; ours stays small to keep
// a bundle's memory flat).
const maxBaseCache = 16 << 20

type baseKey struct {
	p   *mappedPack
	off int64
}

type cachedBase struct {
	typ  plumbing.ObjectType
	data []byte
}

// inflate decompresses exactly size bytes of the zlib stream at the start of src, with a pooled decoder.
func (pr *Packs) inflate(src []byte, size uint64) ([]byte, bool) {
	out := make([]byte, size)
	return out, pr.inflateInto(out, src)
}

// inflateInto fills out from the zlib stream at the start of src with a pooled decoder (inflater.inflate).
func (pr *Packs) inflateInto(out, src []byte) bool {
	inf := pr.inflater()
	defer pr.pool.Put(inf)
	return inf.inflate(out, src)
}

// touchEntry counts the pages of the entry at off in p (its header n bytes long, inflating to size) as
// faulted in, for dropping them later. Where the entry's zlib stream ends is not known before it is
// inflated: a third of the size it inflates to is about what git's objects compress to.
func (pr *Packs) touchEntry(p *mappedPack, off int64, n int, size uint64) {
	pr.res.touch(p.seen, int(off), int(min(off+int64(n)+int64(size)/3+16, int64(len(p.data)))))
}

// inflate fills out from the zlib stream at the start of src. The whole-stream decoder (package inflate) reads
// the mapped bytes straight into out, with a third less CPU than klauspost's reader on the small objects a walk
// reads by the thousand (BenchmarkInflateCommits: Kafka's commits, 135 ms against 215 ms); a stream it refuses (it wants the stream to end exactly at len(out) with a right Adler-32, as git
// does) goes to klauspost's zlib reader, held to the same end and checksum: what either refuses, git refuses too,
// and the fallback says what is wrong with the entry.
func (inf *inflater) inflate(out, src []byte) bool {
	if inf.dec.Zlib(out, src) == nil {
		return true
	}
	return inf.readFull(out, src)
}

// inflater takes a decoder from the pool (or makes one); the caller puts it back.
func (pr *Packs) inflater() *inflater {
	if inf, ok := pr.pool.Get().(*inflater); ok {
		return inf
	}
	return &inflater{src: bytes.NewReader(nil)}
}

// readFull fills out from the zlib stream at the start of src with klauspost's zlib reader.
func (inf *inflater) readFull(out, src []byte) bool {
	zr, err := inf.zlibReader(src)
	if err != nil {
		return false
	}
	if _, err = io.ReadFull(zr, out); err != nil {
		return false
	}
	// The stream must end right there, and reaching its end checks its Adler-32: git refuses an entry that
	// inflates to more than its size or fails its checksum ("inflate returned -3"), and a bundle must not sign
	// bytes git would call corrupt.
	var extra [1]byte
	n, err := zr.Read(extra[:])
	return n == 0 && err == io.EOF
}

// zlibReader is the inflater's klauspost zlib reader, reset to read the stream at the start of src.
func (inf *inflater) zlibReader(src []byte) (io.Reader, error) {
	inf.src.Reset(src)
	if inf.zr == nil {
		zr, err := zlib.NewReader(inf.src)
		if err != nil {
			return nil, err
		}
		inf.zr = zr
		return zr, nil
	}
	return inf.zr, inf.zr.(zlib.Resetter).Reset(inf.src, nil)
}

// Packed returns the type and whole content of h when the mapped packs hold it (deltas resolved); ok is false
// otherwise (a loose object, one a partial clone lacks, an entry it cannot read), and the fallback is not asked.
func (pr *Packs) Packed(h plumbing.Hash) (typ plumbing.ObjectType, data []byte, ok bool) {
	for _, p := range pr.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		return pr.entryAt(p, off, true, 0)
	}
	return 0, nil, false
}

// Object returns the type and whole content of any object, from the mapped packs where it can (deltas
// resolved), else through the fallback.
func (pr *Packs) Object(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	return pr.object(h, true)
}

func (pr *Packs) viaFallback(h plumbing.Hash, all bool) (plumbing.ObjectType, []byte, error) {
	// go-git's object storage shares open pack files between callers: one reader at a time.
	pr.goGit.Lock()
	defer pr.goGit.Unlock()
	obj, err := pr.fallback(h)
	if err != nil {
		return 0, nil, err
	}
	if t := obj.Type(); !all && t != plumbing.CommitObject && t != plumbing.TagObject {
		return t, nil, nil
	}
	rd, err := obj.Reader()
	if err != nil {
		return 0, nil, err
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	return obj.Type(), data, err
}

// CommitHeader is what a history walk needs of a commit: parents, committer time and the message.
type CommitHeader struct {
	Parents []plumbing.Hash
	When    int64
	Message []byte
}

// ParseCommitHeader reads the header lines git writes (tree, parent…, author, committer, then optional
// encoding, gpgsig and mergetag with continuation lines) and the message after the first blank line.
func ParseCommitHeader(data []byte) (CommitHeader, error) {
	var c CommitHeader
	sawCommitter := false
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			nl = len(data)
		}
		line := data[:nl]
		rest := data[min(nl+1, len(data)):]
		if len(line) == 0 {
			c.Message = rest
			break
		}
		switch {
		case bytes.HasPrefix(line, []byte("parent ")):
			h, ok := parseHex(line[7:])
			if !ok {
				return c, fmt.Errorf("bad parent line %q", line)
			}
			c.Parents = append(c.Parents, h)
		case bytes.HasPrefix(line, []byte("committer ")):
			c.When = signatureTime(line)
			sawCommitter = true
		}
		data = rest
	}
	if !sawCommitter {
		return c, errors.New("no committer line")
	}
	return c, nil
}

func parseHex(b []byte) (plumbing.Hash, bool) {
	var h plumbing.Hash
	if len(b) != 2*len(h) {
		return h, false
	}
	_, err := hex.Decode(h[:], b)
	return h, err == nil
}

// signatureTime takes the seconds of "committer Name <email> 1700000000 +0000"; 0 when unreadable.
func signatureTime(line []byte) int64 {
	gt := bytes.LastIndexByte(line, '>')
	if gt < 0 {
		return 0
	}
	// The first field after the '>', as bytes.Fields splits them, without the slice of every field it makes
	// (an allocation a commit of a walk).
	field := bytes.TrimLeftFunc(line[gt+1:], unicode.IsSpace)
	if end := bytes.IndexFunc(field, unicode.IsSpace); end >= 0 {
		field = field[:end]
	}
	if len(field) == 0 {
		return 0
	}
	var n int64
	for _, ch := range field {
		if ch < '0' || ch > '9' {
			return 0
		}
		n = n*10 + int64(ch-'0')
	}
	return n
}

// DropPages drops the pages of the packs and their indexes that reads have faulted in from the
// process's resident memory (on Linux; elsewhere it does nothing). A walk of all history reads every
// commit, spread over the pack's first megabytes, and most of the index's ids: on Kafka's clone 10
// MiB of each, which a first run kept beside its heap, to its peak. Reads after it fault in again
// what they need, from the page cache. Safe for concurrent use: the data read is the same.
func (pr *Packs) DropPages() {
	pr.dropPackPages()
	for _, p := range pr.packs {
		if ix, ok := p.idx.(*IndexV2); ok {
			dropPages(ix.data)
		}
	}
}

// dropPackPages drops the pages of the packs, not their indexes: a lookup may touch any page of an
// index, so dropping them would cost a fault for nearly every lookup after. On Kafka, dropping them
// too took 14% more CPU time, measured before FindOffset read ids with read calls on Linux
// (readIndexIDs): the fan-out and offsets are still read through the mapping.
func (pr *Packs) dropPackPages() {
	pr.res.fresh.Store(0)
	for _, p := range pr.packs {
		dropPages(p.data)
		p.seen.reset()
	}
}
