package patch

import (
	"bufio"
	"compress/zlib"
	"fmt"
	"io"
)

// binaryLineBytes is how many deflated bytes one base85 line carries (diff.c emit_binary_diff_body).
const binaryLineBytes = 52

// writeLiteral writes one `literal <size>` hunk of a `GIT binary patch`: the zlib-deflated content in lines of
// up to 52 bytes, each base85-encoded behind a length character ('A'..'Z' for 1..26, 'a'..'z' for 27..52), and
// a closing blank line. The content streams through, so a large binary never sits whole in memory.
func writeLiteral(w *bufio.Writer, content io.Reader, size int64) error {
	fmt.Fprintf(w, "literal %d\n", size)
	lines := &base85Lines{w: w}
	// Level 1, as git's own zlib_compression_level default for diffs: binaries are often already compressed.
	zw, err := zlib.NewWriterLevel(lines, zlib.BestSpeed)
	if err != nil {
		return err
	}
	if _, err := io.Copy(zw, content); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	lines.flush()
	_, err = w.WriteString("\n")
	return err
}

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
