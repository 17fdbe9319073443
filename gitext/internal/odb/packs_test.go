package odb

import (
	"bytes"
	"cmp"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// The pack reader must return exactly what git stores, for plain entries and for delta chains (an aggressive gc
// deltifies similar commits against each other), annotated tags included.
func TestPackReaderMatchesCatFile(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	r := gittest.New(t)
	pad := strings.Repeat("similar text so that git deltifies these commits ", 10)
	for i := 0; i < 30; i++ {
		r.Commit(fmt.Sprintf("Commit %d\n\n%s\nRefs: ENG-%d", i, pad, i), map[string]string{"f": fmt.Sprint(i)})
	}
	r.Git("tag", "-a", "-m", "release "+pad, "v1")
	r.Git("gc", "-q", "--aggressive")
	pr, err := OpenPacks(filepath.Join(r.Dir, ".git", "objects", "pack"), func(h plumbing.Hash) (plumbing.EncodedObject, error) {
		t.Errorf("object %s read through the fallback, not from the packs", h)
		return nil, plumbing.ErrObjectNotFound
	})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	deltas := 0
	for _, line := range strings.Split(r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) %(deltabase)"), "\n") {
		f := strings.Fields(line)
		if f[1] != "commit" && f[1] != "tag" {
			continue
		}
		if f[2] != strings.Repeat("0", 40) {
			deltas++
		}
		typ, data, err := pr.RawObject(plumbing.NewHash(f[0]))
		if err != nil {
			t.Fatal(err)
		}
		if typ.String() != f[1] || string(data) != r.Git("cat-file", f[1], f[0])+"\n" {
			t.Errorf("%s %s differs from git cat-file", f[1], f[0])
		}
	}
	if deltas == 0 {
		t.Error("no deltified commit in the pack: the delta path went untested")
	}
}

// CommitEntriesOf, given a commit-graph's ids (a split graph of two layers here, over two packs), must list
// exactly the entries CommitEntries lists for those commits, in the same pack order, and the same total size;
// commits made after the graph are left out.
func TestCommitEntriesOfMatchesCommitEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	r := gittest.New(t)
	for i := 0; i < 40; i++ {
		r.Commit(fmt.Sprintf("First %d", i), map[string]string{"f": fmt.Sprint(i)})
	}
	r.Git("repack", "-adq")
	r.Git("commit-graph", "write", "--reachable", "--split")
	for i := 0; i < 25; i++ {
		r.Commit(fmt.Sprintf("Second %d", i), map[string]string{"g": fmt.Sprint(i)})
	}
	r.Git("repack", "-dq") // a second pack for the new objects
	r.Git("commit-graph", "write", "--reachable", "--split=no-merge")
	for i := 0; i < 5; i++ {
		r.Commit(fmt.Sprintf("After the graph %d", i), nil)
	}
	r.Git("repack", "-dq")
	cg := OpenCommitGraph(filepath.Join(r.Dir, ".git", "objects", "info"))
	if cg == nil || len(cg.layers) != 2 || cg.Len() != 65 {
		t.Fatalf("want a split commit-graph of 2 layers and 65 commits, got %+v", cg)
	}
	defer cg.Close()
	pr, err := OpenPacks(filepath.Join(r.Dir, ".git", "objects", "pack"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if len(pr.packs) < 2 {
		t.Fatalf("%d packs, want several", len(pr.packs))
	}
	ids := cg.SortedIDs()
	inGraph := map[plumbing.Hash]bool{}
	for _, h := range ids {
		inGraph[h] = true
	}
	all, _ := pr.CommitEntries()
	var want []CommitEntry
	var wantSize uint64
	for _, e := range all {
		if inGraph[e.Hash] {
			want = append(want, e)
			wantSize += entrySize(e.pack.data[e.off:])
		}
	}
	got, gotSize := pr.CommitEntriesOf(ids)
	if len(all) <= len(want) || len(want) != 65 || fmt.Sprint(got) != fmt.Sprint(want) || gotSize != wantSize {
		t.Fatalf("CommitEntriesOf gave %d entries (%d bytes), want the %d of %d that the graph lists (%d bytes)",
			len(got), gotSize, len(want), len(all), wantSize)
	}
}

// CommitEntries takes pack order from the .rev file when git wrote one and from the index's offsets when not:
// both must list every commit of a git-written pack, deltified ones too, in the same order.
func TestCommitEntriesWithAndWithoutRev(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	pad := strings.Repeat("similar text so that git deltifies these commits ", 10)
	var commits gittest.Commits // 60 commits in one git process
	for i := 0; i < 60; i++ {
		commits.Add(fmt.Sprintf("Commit %d\n\n%s", i, pad), map[string]string{fmt.Sprintf("d%d/f", i): fmt.Sprint(i), "g": fmt.Sprint(i)})
	}
	r.FastImport(commits.String())
	r.Git("-c", "pack.writeReverseIndex=true", "repack", "-adfq", "--depth=50", "--window=250")
	dir := filepath.Join(r.Dir, ".git", "objects", "pack")
	revs, _ := filepath.Glob(filepath.Join(dir, "*.rev"))
	if len(revs) != 1 {
		t.Fatalf("want one .rev file, got %v", revs)
	}
	list := func() (string, int) {
		pr, err := OpenPacks(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		if mapRev(pr.packs[0].revPath, pr.packs[0].idx.(*IndexV2).Len()) == nil != (len(revs) == 0) {
			t.Fatal("the .rev file was not used as it should be")
		}
		entries, _ := pr.CommitEntries()
		var ids []string
		deltas := 0
		var buf []byte // ReadCommitEntryInto reads what ReadCommitEntry reads, into one buffer
		for _, e := range entries {
			ids = append(ids, e.Hash.String())
			want, wantOK := pr.ReadCommitEntry(e)
			got, ok := pr.ReadCommitEntryInto(e, buf)
			if ok != wantOK || !bytes.Equal(got, want) {
				t.Errorf("commit %s read into a buffer: %v, %q; want %v, %q", e.Hash, ok, got, wantOK, want)
			}
			buf = got[:0]
			if typ := e.pack.data[e.off] >> 4 & 7; typ == 6 || typ == 7 {
				deltas++
			}
		}
		if deltas == 0 {
			t.Error("no deltified commit listed: that path went untested")
		}
		return strings.Join(ids, " "), len(entries)
	}
	withRev, n := list()
	if n != 60 {
		t.Fatalf("%d commits listed with the .rev, want 60", n)
	}
	os.Remove(revs[0])
	revs = nil
	withoutRev, _ := list()
	if withRev != withoutRev {
		t.Fatalf("pack order differs:\nwith .rev    %s\nwithout .rev %s", withRev, withoutRev)
	}
}

// FindOffset reading the ids from the file finds what a search of the mapping finds, present or
// absent, in an index whose fanout ranges are larger than a window (200,000 ids: 780 a range).
func TestFindOffsetByReading(t *testing.T) {
	const n = 200000
	ids := make([]plumbing.Hash, n)
	for i := range ids {
		ids[i] = plumbing.Hash(sha1.Sum([]byte(fmt.Sprint(i))))
	}
	slices.SortFunc(ids, func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) })
	var b bytes.Buffer
	b.Write([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	for k := range 256 {
		at, _ := slices.BinarySearchFunc(ids, byte(k), func(h plumbing.Hash, k byte) int {
			return cmp.Compare(h[0], k+1)
		})
		if k == 255 {
			at = n
		}
		b.Write(binary.BigEndian.AppendUint32(nil, uint32(at)))
	}
	for _, h := range ids {
		b.Write(h[:])
	}
	b.Write(make([]byte, 4*n)) // CRCs
	for i := range n {
		b.Write(binary.BigEndian.AppendUint32(nil, uint32(12+i)))
	}
	b.Write(make([]byte, 40)) // checksums
	path := filepath.Join(t.TempDir(), "pack-x.idx")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	idx, err := openIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	reading := idx.(*IndexV2)
	defer reading.Close()
	if reading.file == nil {
		t.Skip("ids are read through the mapping here")
	}
	mapped := *reading
	mapped.file = nil
	for i := 0; i < n; i += 7 {
		absent := plumbing.Hash(sha1.Sum([]byte(fmt.Sprint("absent", i))))
		for _, h := range []plumbing.Hash{ids[i], absent} {
			want, wantErr := mapped.FindOffset(h)
			got, err := reading.FindOffset(h)
			if got != want || (err == nil) != (wantErr == nil) {
				t.Fatalf("%s: %d, %v by reading; %d, %v through the mapping", h, got, err, want, wantErr)
			}
		}
		if got, err := reading.FindOffset(ids[i]); err != nil || got != int64(12+i) {
			t.Fatalf("id %d: offset %d, %v", i, got, err)
		}
	}
}
