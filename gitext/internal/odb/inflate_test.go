package odb

import (
	"bytes"
	"cmp"
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/flate"

	"github.com/git-bernstein/git-bernstein/gitext/internal/inflate"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// benchReposEnv names the folder of real clones (kafka, go-git, …) that make bench uses
// (internal/benchcompare); the tests and benchmarks here read their packs when it is set.
const benchReposEnv = "BERNSTEIN_BENCH_REPOS"

// packedStream is one pack entry's zlib stream and the size it inflates to (an object's, or a delta's).
type packedStream struct {
	off  int64
	typ  byte
	size uint64
	z    []byte
}

// packStreams lists the zlib stream of every entry of every version 2 pack in dir, in pack order; commitsOnly
// keeps the undeltified commits.
func packStreams(t testing.TB, dir string, commitsOnly bool) []packedStream {
	t.Helper()
	pr, err := OpenPacks(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pr.Close)
	var out []packedStream
	for _, p := range pr.packs {
		ix, ok := p.idx.(*IndexV2)
		if !ok {
			t.Fatalf("%s: not a version 2 index", dir)
		}
		for i := range ix.n {
			off, err := ix.offsetAt(i)
			if err != nil {
				t.Fatal(err)
			}
			b := p.data[off:]
			typ, size := b[0]>>4&7, entrySize(b)
			n := 1
			for b[n-1]&0x80 != 0 {
				n++
			}
			switch typ {
			case 6:
				for b[n]&0x80 != 0 {
					n++
				}
				n++
			case 7:
				n += 20
			}
			if !commitsOnly || typ == 1 {
				out = append(out, packedStream{off, typ, size, b[n:]})
			}
		}
	}
	slices.SortFunc(out, func(a, b packedStream) int { return cmp.Compare(a.off, b.off) })
	return out
}

// The whole-stream decoder gives, for every entry of a pack (commits, trees, blobs, tags and deltas of every
// size), exactly the bytes klauspost's zlib reader gives, and refuses none: a repository git built here, and the
// real clones of $BERNSTEIN_BENCH_REPOS when it is set (go-git's pack: 10 MB; Kafka's: 217 MB, a few seconds).
func TestInflateMatchesZlibReaderOnEveryObject(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	r := gittest.New(t)
	for i := range 40 {
		r.Commit(fmt.Sprintf("Change %d\n\n%s", i, strings.Repeat("a line of the message\n", i)),
			map[string]string{"f": strings.Repeat(fmt.Sprintln(i), 100*i), "g": fmt.Sprint(i)})
	}
	r.Git("tag", "-a", "-m", "release", "v1")
	r.Git("gc", "-q", "--aggressive")
	dirs := []string{filepath.Join(r.Dir, ".git", "objects", "pack")}
	if root := os.Getenv(benchReposEnv); root != "" {
		for _, name := range []string{"go-git", "kafka"} {
			if _, err := os.Stat(filepath.Join(root, name, ".git")); err == nil {
				dirs = append(dirs, filepath.Join(root, name, ".git", "objects", "pack"))
			}
		}
	} else {
		t.Logf("$%s is not set: only a small repository's pack is checked", benchReposEnv)
	}
	for _, dir := range dirs {
		streams := packStreams(t, dir, false)
		var inf inflater
		inf.src = bytes.NewReader(nil)
		var bytesIn uint64
		types := map[byte]int{}
		for i, s := range streams {
			want := make([]byte, s.size)
			if !inf.readFull(want, s.z) {
				t.Fatalf("%s: entry %d does not read with klauspost's zlib reader", dir, i)
			}
			got := make([]byte, s.size)
			if err := inf.dec.Zlib(got, s.z); err != nil {
				t.Fatalf("%s: entry %d (type %d, %d bytes): %v", dir, i, s.typ, s.size, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: entry %d (type %d, %d bytes) inflates to other bytes", dir, i, s.typ, s.size)
			}
			bytesIn += s.size
			types[s.typ]++
		}
		if len(types) < 4 {
			t.Errorf("%s: entries of types %v only: the check missed a kind", dir, types)
		}
		t.Logf("%s: %d entries (by type %v), %d bytes inflated, all the same", dir, len(streams), types, bytesIn)
	}
}

// BenchmarkInflateCommits inflates every undeltified commit of Kafka's pack ($BERNSTEIN_BENCH_REPOS/kafka) on
// one core, once an op, with each decoder on the same streams: the work of a first walk's bulk read. cpu-ms/op
// is the decoding thread's CPU time (on linux), which a loaded machine does not inflate as it does wall time.
func BenchmarkInflateCommits(b *testing.B) {
	root := os.Getenv(benchReposEnv)
	if root == "" {
		b.Skipf("$%s is not set", benchReposEnv)
	}
	streams := packStreams(b, filepath.Join(root, "kafka", ".git", "objects", "pack"), true)
	var total uint64
	for _, s := range streams {
		total += s.size
	}
	b.Logf("%d commits, %d bytes inflated", len(streams), total)
	run := func(name string, decode func(out, z []byte) bool) {
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.SetBytes(int64(total))
			cpu := threadCPU()
			for b.Loop() {
				for _, s := range streams {
					if !decode(make([]byte, s.size), s.z) {
						b.Fatal("a commit does not inflate")
					}
				}
			}
			cpu = threadCPU() - cpu
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(len(streams)), "cpu-ns/commit")
		})
	}
	var dec inflate.Decoder
	run("inflate", func(out, z []byte) bool { return dec.Zlib(out, z) == nil })
	inf := &inflater{src: bytes.NewReader(nil)}
	run("klauspost-zlib", inf.readFull)
	fr := flate.NewReader(nil)
	src := bytes.NewReader(nil)
	run("klauspost-flate", func(out, z []byte) bool {
		src.Reset(z[2:])
		fr.(flate.Resetter).Reset(src, nil)
		_, err := io.ReadFull(fr, out)
		return err == nil
	})
	var zr io.ReadCloser
	run("stdlib-zlib", func(out, z []byte) bool {
		src.Reset(z)
		var err error
		if zr == nil {
			zr, err = zlib.NewReader(src)
		} else {
			err = zr.(zlib.Resetter).Reset(src, nil)
		}
		if err == nil {
			_, err = io.ReadFull(zr, out)
		}
		return err == nil
	})
}

// A stream whose Adler-32 is wrong, or that holds more than the entry's size, is refused by both decoders, as
// git refuses it: the reader that takes what the whole-stream decoder refuses read len(out) bytes and looked no
// further, so a corrupt entry read as if whole.
func TestInflateRefusesWhatGitRefuses(t *testing.T) {
	t.Parallel()
	content := []byte(strings.Repeat("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@b> 1 +0000\n", 20))
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(content)
	w.Close()
	good := z.Bytes()
	badSum := bytes.Clone(good)
	badSum[len(badSum)-1] ^= 1
	for _, tc := range []struct {
		name string
		src  []byte
		size int
		ok   bool
	}{
		{"whole", append(bytes.Clone(good), "next entry"...), len(content), true},
		{"wrong Adler-32", append(badSum, "next entry"...), len(content), false},
		{"more than its size", good, len(content) - 1, false},
		{"less than its size", good, len(content) + 1, false},
	} {
		inf := &inflater{src: bytes.NewReader(nil)}
		out := make([]byte, tc.size)
		if got := inf.inflate(out, tc.src); got != tc.ok {
			t.Errorf("%s: inflate = %v, want %v", tc.name, got, tc.ok)
		}
		if got := inf.readFull(make([]byte, tc.size), tc.src); got != tc.ok {
			t.Errorf("%s: the zlib reader's readFull = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
