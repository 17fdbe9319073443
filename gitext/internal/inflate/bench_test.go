package inflate

import (
	"bytes"
	"io"
	"testing"

	kzlib "github.com/klauspost/compress/zlib"
)

// BenchmarkCommit inflates one commit-sized stream over and over (tables and input hot), with this decoder and
// klauspost's zlib reader: the decoders' own speed, without a pack's cache misses.
func BenchmarkCommit(b *testing.B) {
	data := inputs()["commit"]
	z := compressors()["klauspost-1"](data)
	dst := make([]byte, len(data))
	b.Run("inflate", func(b *testing.B) {
		var d Decoder
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := d.Zlib(dst, z); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("klauspost-zlib", func(b *testing.B) {
		src := bytes.NewReader(z)
		zr, _ := kzlib.NewReader(src)
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			src.Reset(z)
			zr.(kzlib.Resetter).Reset(src, nil)
			if _, err := io.ReadFull(zr, dst); err != nil {
				b.Fatal(err)
			}
		}
	})
}
