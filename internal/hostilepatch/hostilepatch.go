// Package hostilepatch builds the hostile pieces of git/diff.patch the red team of issue 25 made against
// `verify --repo`, for tests: binary hunks with any stated size and data, and the memory bombs (a delta whose
// header states a 16 GiB target, a literal stating 2^40 bytes of zlib zeros, a run of newlines). It writes
// git's binary patch format (diff.c emit_binary_diff_body, base85.c) without package patch, so a test can state
// sizes the writer never would.
package hostilepatch

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
)

const en85 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// Hunk is a binary hunk as git writes it: "literal N" or "delta N" (kind), the deflated data in base85 lines
// of at most 52 bytes, and the empty line that ends it. size is stated as given, whatever deflated holds.
func Hunk(kind string, size int64, deflated []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d\n", kind, size)
	for len(deflated) > 0 {
		n := min(len(deflated), 52)
		chunk := deflated[:n]
		deflated = deflated[n:]
		if n <= 26 {
			b.WriteByte(byte('A' + n - 1))
		} else {
			b.WriteByte(byte('a' + n - 27))
		}
		for len(chunk) > 0 {
			var group [4]byte
			copy(group[:], chunk)
			chunk = chunk[min(4, len(chunk)):]
			acc := uint32(group[0])<<24 | uint32(group[1])<<16 | uint32(group[2])<<8 | uint32(group[3])
			var out [5]byte
			for i := 4; i >= 0; i-- {
				out[i] = en85[acc%85]
				acc /= 85
			}
			b.Write(out[:])
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.String()
}

// Deflate is data compressed as git's binary hunks are (zlib).
func Deflate(data []byte) []byte {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	_, _ = zw.Write(data) // into a bytes.Buffer: cannot fail
	zw.Close()
	return buf.Bytes()
}

// DeflatedZeros is n zero bytes deflated at the best ratio zlib has (about 1:1000), made without holding them.
func DeflatedZeros(n int64) []byte {
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	_, _ = io.CopyN(zw, zeros{}, n) // zeros and a bytes.Buffer: cannot fail
	zw.Close()
	return buf.Bytes()
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Delta is a binary delta (pack-format(5)) from a source of srcSize bytes to a target its header says has
// dstSize bytes, holding only the instructions given.
func Delta(srcSize, dstSize uint64, instructions ...byte) []byte {
	var d []byte
	for _, v := range []uint64{srcSize, dstSize} {
		for v >= 0x80 {
			d = append(d, byte(v)|0x80)
			v >>= 7
		}
		d = append(d, byte(v))
	}
	return append(d, instructions...)
}

// ReplaceHunk replaces, in part, the forward hunk of the binary patch of the section for path (the lines from
// "literal"/"delta" to the empty line after them) with hunk. ok is false when part has no such hunk.
func ReplaceHunk(part, path, hunk string) (string, bool) {
	at := strings.Index(part, "diff --git a/"+path+" b/"+path+"\n")
	if at < 0 {
		return part, false
	}
	bin := strings.Index(part[at:], "GIT binary patch\n")
	if bin < 0 {
		return part, false
	}
	start := at + bin + len("GIT binary patch\n")
	end := strings.Index(part[start:], "\n\n")
	if end < 0 {
		return part, false
	}
	return part[:start] + hunk + part[start+end+2:], true
}
