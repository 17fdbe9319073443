package patch

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"fmt"
)

// writeBinaryHunk is diff.c emit_binary_diff_body for the change from one content to another: a delta
// against the old content when both are non-empty and its deflated form is smaller than the deflated new
// content, else the new content as a literal.
func writeBinaryHunk(w *bufio.Writer, from, to string) error {
	literal, err := deflate([]byte(to))
	if err != nil {
		return err
	}
	if len(from) > 0 && len(to) > 0 {
		if delta := newDeltaIndex([]byte(from)).createDelta([]byte(to), len(literal)); delta != nil {
			dz, err := deflate(delta)
			if err != nil {
				return err
			}
			if len(dz) < len(literal) {
				fmt.Fprintf(w, "delta %d\n", len(delta))
				writeBase85Lines(w, dz)
				return nil
			}
		}
	}
	fmt.Fprintf(w, "literal %d\n", len(to))
	writeBase85Lines(w, literal)
	return nil
}

// deflate compresses at level 1, git's zlib_compression_level default for diffs: binaries are often already
// compressed. Go's deflate at that level is not zlib's, so the bytes differ from git's while inflating to the
// same content; a delta-or-literal choice within a few bytes may fall the other way.
func deflate(data []byte) ([]byte, error) {
	var b bytes.Buffer
	zw, err := zlib.NewWriterLevel(&b, zlib.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeBase85Lines(w *bufio.Writer, data []byte) {
	lines := &base85Lines{w: w}
	_, _ = lines.Write(data) // w's error surfaces at its Flush
	lines.flush()
	w.WriteString("\n")
}

// binaryLineBytes is how many deflated bytes one base85 line carries (diff.c emit_binary_diff_body).
const binaryLineBytes = 52

// base85Lines cuts the deflated stream into git's binary-patch lines.
type base85Lines struct {
	w    *bufio.Writer
	buf  [binaryLineBytes]byte
	n    int
	line []byte
}

func (l *base85Lines) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		c := copy(l.buf[l.n:], p)
		l.n += c
		p = p[c:]
		if l.n == binaryLineBytes {
			l.flush()
		}
	}
	return total, nil
}

func (l *base85Lines) flush() {
	if l.n == 0 {
		return
	}
	l.line = l.line[:0]
	if l.n <= 26 {
		l.line = append(l.line, byte('A'+l.n-1))
	} else {
		l.line = append(l.line, byte('a'+l.n-27))
	}
	l.line = encode85(l.line, l.buf[:l.n])
	l.line = append(l.line, '\n')
	l.w.Write(l.line)
	l.n = 0
}
