package apply

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

// Content returns what f turns old into. Hunks must apply exactly where they say, with every context and
// removed line equal to old's: this checks a patch against the very tree it was made from, so the offsets and
// fuzz `git apply` allows for a moved tree would only hide a mismatch. A section with no content change returns
// old itself.
func (f *File) Content(old []byte) ([]byte, error) {
	switch {
	case f.NoBinaryData:
		return nil, errors.New("a binary change without its data (\"Binary files … differ\"): only a --binary patch can be applied")
	case f.Binary != nil:
		data, err := inflate(f.Binary.Deflated, f.Binary.Size)
		if err != nil {
			return nil, fmt.Errorf("binary hunk: %v", err)
		}
		if f.Binary.Delta {
			return applyDelta(old, data)
		}
		return data, nil
	case len(f.Fragments) > 0:
		return applyText(old, f.Fragments)
	}
	return old, nil
}

// applyText applies hunks in order to old's lines.
func applyText(old []byte, frags []Fragment) ([]byte, error) {
	lines := splitLines(old)
	out := make([]byte, 0, len(old))
	pos := 0
	for k, fr := range frags {
		// "-a,b": the hunk's first old line is a (1-based); with b = 0 it names the line before the hunk.
		start := fr.OldStart - 1
		if fr.OldLines == 0 {
			start = fr.OldStart
		}
		if start < pos || start > len(lines) {
			return nil, fmt.Errorf("hunk %d (@@ -%d,%d) starts at line %d, outside the file's %d lines or before the previous hunk's end", k+1, fr.OldStart, fr.OldLines, start+1, len(lines))
		}
		for _, l := range lines[pos:start] {
			out = append(out, l...)
		}
		at := start
		for _, l := range fr.Lines {
			if l.Op != '+' {
				if at >= len(lines) {
					return nil, fmt.Errorf("hunk %d (@@ -%d,%d) runs past the end of the file (%d lines)", k+1, fr.OldStart, fr.OldLines, len(lines))
				}
				if !bytes.Equal(lines[at], l.Text) {
					return nil, fmt.Errorf("hunk %d (@@ -%d,%d): line %d is %q, the patch expects %q", k+1, fr.OldStart, fr.OldLines, at+1, clip(lines[at]), clip(l.Text))
				}
				at++
			}
			if l.Op != '-' {
				out = append(out, l.Text...)
			}
		}
		pos = at
	}
	for _, l := range lines[pos:] {
		out = append(out, l...)
	}
	return out, nil
}

// applyDelta applies a delta in pack-format(5)'s form (git's patch-delta.c): the source and target sizes, then
// copy and insert instructions.
func applyDelta(src, delta []byte) ([]byte, error) {
	d := delta
	varint := func() (uint64, bool) {
		var v uint64
		for shift := uint(0); shift < 64; shift += 7 {
			if len(d) == 0 {
				return 0, false
			}
			c := d[0]
			d = d[1:]
			v |= uint64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	srcSize, ok1 := varint()
	dstSize, ok2 := varint()
	if !ok1 || !ok2 {
		return nil, errors.New("binary delta: truncated header")
	}
	if srcSize != uint64(len(src)) {
		return nil, fmt.Errorf("binary delta is for a %d-byte file, the old file has %d bytes", srcSize, len(src))
	}
	if dstSize > 1<<34 {
		return nil, fmt.Errorf("binary delta: target size %d is too large", dstSize)
	}
	out := make([]byte, 0, dstSize)
	for len(d) > 0 {
		cmd := d[0]
		d = d[1:]
		switch {
		case cmd&0x80 != 0:
			var off, size uint64
			for bit, shift := byte(0x01), 0; bit <= 0x08; bit, shift = bit<<1, shift+8 {
				if cmd&bit != 0 {
					if len(d) == 0 {
						return nil, errors.New("binary delta: truncated copy instruction")
					}
					off |= uint64(d[0]) << shift
					d = d[1:]
				}
			}
			for bit, shift := byte(0x10), 0; bit <= 0x40; bit, shift = bit<<1, shift+8 {
				if cmd&bit != 0 {
					if len(d) == 0 {
						return nil, errors.New("binary delta: truncated copy instruction")
					}
					size |= uint64(d[0]) << shift
					d = d[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(src)) || uint64(len(out))+size > dstSize {
				return nil, errors.New("binary delta: a copy outside the old file or past the new size")
			}
			out = append(out, src[off:off+size]...)
		case cmd != 0:
			n := uint64(cmd)
			if uint64(len(d)) < n || uint64(len(out))+n > dstSize {
				return nil, errors.New("binary delta: an insert past the delta's end or the new size")
			}
			out = append(out, d[:n]...)
			d = d[n:]
		default:
			return nil, errors.New("binary delta: unexpected instruction 0")
		}
	}
	if uint64(len(out)) != dstSize {
		return nil, fmt.Errorf("binary delta makes %d bytes, its header says %d", len(out), dstSize)
	}
	return out, nil
}

// decode85Line appends the data of one base85 line of a binary hunk: a length character (A–Z: 1–26, a–z:
// 27–52 bytes), then five characters for each four bytes (base85.c decode_85).
func decode85Line(dst, l []byte) ([]byte, error) {
	if len(l) < 6 {
		return nil, fmt.Errorf("base85 line too short: %q", clip(l))
	}
	var n int
	switch c := l[0]; {
	case c >= 'A' && c <= 'Z':
		n = int(c-'A') + 1
	case c >= 'a' && c <= 'z':
		n = int(c-'a') + 27
	default:
		return nil, fmt.Errorf("bad base85 line length %q", c)
	}
	body := l[1:]
	if len(body)%5 != 0 || len(body)/5 != (n+3)/4 {
		return nil, fmt.Errorf("base85 line of %d characters does not hold %d bytes", len(body), n)
	}
	for len(body) > 0 {
		var acc uint64
		for _, c := range body[:5] {
			v := de85[c]
			if v == 0 {
				return nil, fmt.Errorf("bad base85 character %q", c)
			}
			acc = acc*85 + uint64(v-1)
		}
		if acc > 0xffffffff {
			return nil, errors.New("base85 group out of range")
		}
		group := []byte{byte(acc >> 24), byte(acc >> 16), byte(acc >> 8), byte(acc)}
		take := min(n, 4)
		dst = append(dst, group[:take]...)
		n -= take
		body = body[5:]
	}
	return dst, nil
}

// de85 maps a base85 character to its value plus one (0: not in git's alphabet).
var de85 = func() (t [256]byte) {
	const en85 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
	for i := 0; i < len(en85); i++ {
		t[en85[i]] = byte(i + 1)
	}
	return t
}()

// inflate reads a zlib stream that must hold exactly size bytes.
func inflate(z []byte, size int64) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(zr, size+1))
	if err != nil {
		return nil, err
	}
	if int64(len(out)) != size {
		return nil, fmt.Errorf("inflates to %d bytes, the hunk says %d", len(out), size)
	}
	return out, nil
}
