package inflate

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"errors"
	"fmt"
	stdadler "hash/adler32"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	kzlib "github.com/klauspost/compress/zlib"
)

var stdAdler32 = stdadler.Checksum

// reference inflates src with compress/zlib, reading at most limit bytes; ok when the stream ends there with
// its checksum.
func reference(src []byte, limit int) ([]byte, bool) {
	zr, err := zlib.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(zr, int64(limit)+1))
	return out, err == nil && len(out) <= limit
}

// inputs are data of the shapes a pack holds: commit-like text, source, random bytes, long runs, nothing.
func inputs() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 70_000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	commit := "tree 9b1f0d7c1e3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c\nparent 1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d\n" +
		"author Jane Doe <jane@example.com> 1700000000 +0100\ncommitter Jane Doe <jane@example.com> 1700000000 +0100\n\n" +
		"KAFKA-10199: handle the state updater's removed tasks\n\nReviewers: A <a@b.c>\n"
	var words strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&words, "w%d ", rng.IntN(1+i%5000))
	}
	// Skewed literals and distances, for codes longer than the first levels' bits (second-level tables).
	zipf := rand.NewZipf(rand.New(rand.NewPCG(3, 4)), 1.3, 4, 255)
	var skewed []byte
	for len(skewed) < 200_000 {
		d := 1 + rng.IntN(4) // mostly near, now and then from far (rare distance codes)
		if rng.IntN(100) == 0 {
			d = 1<<(2+rng.IntN(13)) + rng.IntN(4)
		}
		if rng.IntN(2) == 0 && d <= len(skewed) {
			n := 4 + rng.IntN(8)
			for range n {
				skewed = append(skewed, skewed[len(skewed)-d])
			}
			continue
		}
		skewed = append(skewed, byte(zipf.Uint64()))
	}
	return map[string][]byte{
		"skewed":  skewed,
		"empty":   {},
		"one":     []byte("a"),
		"hello":   []byte("hello, hello, hello world\n"),
		"commit":  []byte(commit),
		"commits": []byte(strings.Repeat(commit, 50)),
		"random":  random,
		"small":   random[:300],
		"run":     bytes.Repeat([]byte{'x'}, 100_000),
		"words":   []byte(words.String()),
		"pattern": bytes.Repeat([]byte("abcdefghij0123456789"), 5000),
	}
}

// compressors make zlib streams of every block kind: stored (level 0), fixed and dynamic Huffman, with and
// without matches, by compress/zlib and by klauspost/compress.
func compressors() map[string]func([]byte) []byte {
	out := map[string]func([]byte) []byte{}
	for _, level := range []int{zlib.NoCompression, zlib.BestSpeed, zlib.DefaultCompression, zlib.BestCompression, zlib.HuffmanOnly} {
		out[fmt.Sprint("std", level)] = func(b []byte) []byte {
			var buf bytes.Buffer
			w, _ := zlib.NewWriterLevel(&buf, level)
			w.Write(b)
			w.Close()
			return buf.Bytes()
		}
		out[fmt.Sprint("klauspost", level)] = func(b []byte) []byte {
			var buf bytes.Buffer
			w, _ := kzlib.NewWriterLevel(&buf, level)
			w.Write(b)
			w.Close()
			return buf.Bytes()
		}
	}
	return out
}

// Every stream the two encoders write inflates to its data, with one Decoder throughout (its tables reused),
// and followed by other bytes, as a pack entry is.
func TestZlibInflatesEncodersStreams(t *testing.T) {
	t.Parallel()
	var d Decoder
	for name, data := range inputs() {
		for cname, compress := range compressors() {
			z := compress(data)
			for _, tail := range [][]byte{nil, []byte("PACK trailing entry bytes")} {
				dst := make([]byte, len(data))
				if err := d.Zlib(dst, append(z[:len(z):len(z)], tail...)); err != nil {
					t.Fatalf("%s by %s (tail %d): %v", name, cname, len(tail), err)
				}
				if !bytes.Equal(dst, data) {
					t.Fatalf("%s by %s: inflated bytes differ", name, cname)
				}
			}
		}
	}
}

// Skewed data has literal and distance codes longer than the first levels' bits: the second-level tables are
// built and used (seen in the last block's tables for some encoder).
func TestZlibSecondLevelTables(t *testing.T) {
	t.Parallel()
	data := inputs()["skewed"]
	var litSub, distSub bool
	for name, compress := range compressors() {
		var d Decoder
		dst := make([]byte, len(data))
		if err := d.Zlib(dst, compress(data)); err != nil || !bytes.Equal(dst, data) {
			t.Fatalf("%s: %v, or inflated bytes differ", name, err)
		}
		litSub = litSub || len(d.lit) > 1<<maxLitPrimary
		distSub = distSub || len(d.dist) > 1<<maxDistPrimary
	}
	if !litSub || !distSub {
		t.Errorf("second-level tables used for literals: %v, for distances: %v; want both", litSub, distSub)
	}
}

// A destination of the wrong size, a truncated stream, a wrong checksum or header is an error, never a panic.
func TestZlibRejects(t *testing.T) {
	t.Parallel()
	data := inputs()["commits"]
	z := compressors()["std-1"](data)
	badSum := bytes.Clone(z)
	badSum[len(badSum)-1] ^= 1
	dict := append([]byte{0x78, 0xbb, 0, 0, 0, 1}, z[2:]...) // FDICT set, then the dictionary's Adler-32
	for _, tc := range []struct {
		name string
		size int
		src  []byte
	}{
		{"short dst", len(data) - 1, z},
		{"long dst", len(data) + 1, z},
		{"no trailer", len(data), z[:len(z)-4]},
		{"half trailer", len(data), z[:len(z)-2]},
		{"truncated", len(data), z[:len(z)/2]},
		{"header only", len(data), z[:2]},
		{"empty", 0, nil},
		{"bad checksum", len(data), badSum},
		{"bad header", len(data), append([]byte{0x78, 0x9d}, z[2:]...)},
		{"dictionary", len(data), dict},
		{"reserved block", 0, []byte{0x78, 0x01, 0x07}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var d Decoder
			err := d.Zlib(make([]byte, tc.size), tc.src)
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("got %v, want an error wrapping ErrCorrupt", err)
			}
		})
	}
}

// Each byte of a stream, changed, gives an error or exactly what compress/zlib gives for the changed stream.
func TestZlibCorruptionsAgreeWithStdlib(t *testing.T) {
	t.Parallel()
	var d Decoder
	in, names := inputs(), []string{"commit", "hello", "small"}
	if testing.Short() {
		names = names[:1] // every flip of a commit's streams; make test adds the other inputs
	}
	for _, name := range names {
		data := in[name]
		for _, compress := range compressors() {
			z := compress(data)
			for i := range z {
				for _, x := range []byte{0x01, 0x10, 0x80, 0xff} {
					c := bytes.Clone(z)
					c[i] ^= x
					checkAgainstStdlib(t, &d, c, len(data))
				}
				checkAgainstStdlib(t, &d, z[:i], len(data))
			}
		}
	}
}

// checkAgainstStdlib inflates src into size bytes with d and compress/zlib: both must succeed with the same
// bytes or both fail.
func checkAgainstStdlib(t *testing.T, d *Decoder, src []byte, size int) {
	t.Helper()
	dst := make([]byte, size)
	err := d.Zlib(dst, src)
	want, ok := reference(src, size)
	ok = ok && len(want) == size
	switch {
	case err == nil && !ok:
		t.Fatalf("stream %x: inflated, compress/zlib says it is not a stream of %d bytes", src, size)
	case err != nil && ok:
		t.Fatalf("stream %x: %v, compress/zlib inflates it", src, err)
	case err == nil && !bytes.Equal(dst, want):
		t.Fatalf("stream %x: inflated bytes differ from compress/zlib's", src)
	case err != nil && !errors.Is(err, ErrCorrupt):
		t.Fatalf("stream %x: error %v does not wrap ErrCorrupt", src, err)
	}
}

// FuzzZlib holds the Decoder to compress/zlib: on data compressed by compress/zlib at every level, it must give
// the data back; on the data taken as a stream (random and corrupt input), with the tables the first stream
// left, it must succeed exactly when compress/zlib inflates the stream to size bytes, with the same bytes, and
// never panic.
func FuzzZlib(f *testing.F) {
	for _, data := range inputs() {
		if len(data) < 4096 {
			f.Add(compressors()["std-1"](data), uint16(len(data)), uint8(0))
		}
	}
	f.Add([]byte{0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01}, uint16(0), uint8(1))
	f.Fuzz(func(t *testing.T, src []byte, size uint16, level uint8) {
		// The valid stream first, so that the random one meets the tables a stream left behind, as a
		// pooled Decoder does.
		var d Decoder
		lvl := int(level)%(flate.BestCompression+3) - 2 // -2 (Huffman only) to 9
		var buf bytes.Buffer
		w, err := zlib.NewWriterLevel(&buf, lvl)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(src)
		w.Close()
		dst := make([]byte, len(src))
		if err := d.Zlib(dst, buf.Bytes()); err != nil || !bytes.Equal(dst, src) {
			t.Fatalf("level %d: %v, or inflated bytes differ", lvl, err)
		}
		checkAgainstStdlib(t, &d, src, int(size))
	})
}

// adler32 agrees with hash/adler32 on every length around its eight-byte steps and its modulo blocks, on bytes
// of 0xff (the largest sums) and random ones.
func TestAdler32(t *testing.T) {
	t.Parallel()
	random := inputs()["random"]
	ff := bytes.Repeat([]byte{0xff}, 3*5552+20)
	for _, p := range [][]byte{random, ff} {
		for n := 0; n < len(p); n += 1 + n/64 {
			if got, want := adler32(p[:n]), stdAdler32(p[:n]); got != want {
				t.Fatalf("%d bytes: %08x, hash/adler32 says %08x", n, got, want)
			}
		}
		for _, n := range []int{5551, 5552, 5553, 5560, 2 * 5552, 3*5552 + 7} {
			if got, want := adler32(p[:n]), stdAdler32(p[:n]); got != want {
				t.Fatalf("%d bytes: %08x, hash/adler32 says %08x", n, got, want)
			}
		}
	}
}

// A code of a single symbol of length one (which zlib and compress/flate accept) leaves the code 1 unused:
// whatever a reused table held there before, reading it is an error.
func TestSingleCodeLeavesOneInvalid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		lens    []uint8
		payload []uint32
	}{
		{"distance", append(make([]uint8, 5), 1), distPayload[:6]},
		{"literal", append(make([]uint8, 256), 1), litPayload[:257]},
	} {
		stale := slices.Repeat([]uint32{entry(kindLiteral, 0, 'x') | 1}, 64) // a table used before
		count := countLengths(tc.lens)
		var sorted [288]uint16
		tab, bits, ok := build(stale, tc.lens, &count, tc.payload, maxLitPrimary, sorted[:])
		if !ok || bits != 1 || len(tab) != 2 {
			t.Fatalf("%s: ok %v, %d bits, %d entries; want a 1-bit table of 2", tc.name, ok, bits, len(tab))
		}
		if tab[0] != tc.payload[len(tc.lens)-1]|1 || tab[1]>>8&15 != kindInvalid {
			t.Errorf("%s: table %08x; want the symbol's entry, then an invalid one", tc.name, tab)
		}
	}
}
