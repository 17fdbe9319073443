package apply

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

// MaxFileSize is the budget of the check: the most bytes of one file's content, old or new, that Content
// makes, and the most a binary hunk may inflate to. Every size a patch states (a literal's or a delta's
// length, a delta's target) is held to the size of the commit's own file before anything is allocated, so a
// hostile part cannot make the check allocate more than the repository holds; the budget then bounds what a
// legitimate part of a huge file costs. A part over it is not judged: ErrOverBudget.
var MaxFileSize int64 = 128 << 20

// ErrOverBudget marks a section the check does not apply because it would need more than MaxFileSize bytes.
var ErrOverBudget = errors.New("over the check's budget")

// Content returns what f turns old into; want is the size of the file the commit has (-1: the commit has no
// such file, and the result is bounded by MaxFileSize alone). Hunks must apply exactly where they say, with
// every context and removed line equal to old's: this checks a patch against the very tree it was made from,
// so the offsets and fuzz `git apply` allows for a moved tree would only hide a mismatch. A section with no
// content change returns old itself. Sizes the patch states that differ from want are errors before any
// inflating; an error wrapping ErrOverBudget means the section was not judged.
func (f *File) Content(old []byte, want int64) ([]byte, error) {
	if want > MaxFileSize {
		return nil, fmt.Errorf("the commit's file has %d bytes, more than the %d the check reads (%w)", want, MaxFileSize, ErrOverBudget)
	}
	limit := want
	if limit < 0 {
		limit = MaxFileSize
	}
	switch {
	case f.NoBinaryData:
		return nil, errors.New("a binary change without its data (\"Binary files … differ\"): only a --binary patch can be applied")
	case f.Binary != nil:
		b := f.Binary
		switch {
		case !b.Delta && want >= 0 && b.Size != want:
			return nil, fmt.Errorf("line %d: the literal says the new file has %d bytes, the commit's has %d", b.Line, b.Size, want)
		case b.Size > MaxFileSize:
			return nil, fmt.Errorf("line %d: a binary hunk of %d bytes, more than the %d the check inflates (%w)", b.Line, b.Size, MaxFileSize, ErrOverBudget)
		case b.Delta && b.Size > 8*int64(len(old))+8*limit+64:
			// Each byte of a target comes from an insert (1 byte and at most 1/127 of an opcode) or a copy (at
			// most 8 bytes of opcode): a longer delta for these sizes holds something else.
			return nil, fmt.Errorf("line %d: a delta of %d bytes for a %d-byte file made from a %d-byte one", b.Line, b.Size, limit, len(old))
		}
		data, err := inflate(b.Deflated, b.Size)
		if err != nil {
			return nil, fmt.Errorf("line %d: binary hunk: %v", b.Line, err)
		}
		if b.Delta {
			return applyDelta(old, data, limit)
		}
		return data, nil
	case len(f.Fragments) > 0:
		return applyText(old, f.Fragments, limit)
	}
	return old, nil
}

// applyText applies hunks in order to old's lines, stopping with an error as soon as the result would pass
// limit bytes.
func applyText(old []byte, frags []Fragment, limit int64) ([]byte, error) {
	out := make([]byte, 0, min(int64(len(old)), limit))
	pos, line := 0, 0 // old's offset and 0-based line number
	grow := func(b []byte) error {
		if int64(len(out))+int64(len(b)) > limit {
			return fmt.Errorf("the part makes more than the %d bytes the commit's file has", limit)
		}
		out = append(out, b...)
		return nil
	}
	for k, fr := range frags {
		// "-a,b": the hunk's first old line is a (1-based); with b = 0 it names the line before the hunk.
		start := fr.OldStart - 1
		if fr.OldLines == 0 {
			start = fr.OldStart
		}
		if start < line {
			return nil, fmt.Errorf("line %d: hunk %d (@@ -%d,%d) starts at line %d, before the previous hunk's end", fr.Line, k+1, fr.OldStart, fr.OldLines, start+1)
		}
		for ; line < start; line++ {
			l := lineAt(old, pos)
			if l == nil {
				return nil, fmt.Errorf("line %d: hunk %d (@@ -%d,%d) starts at line %d, past the file's %d lines", fr.Line, k+1, fr.OldStart, fr.OldLines, start+1, line)
			}
			if err := grow(l); err != nil {
				return nil, err
			}
			pos += len(l)
		}
		body := fr.Body
		for len(body) > 0 {
			pl := lineAt(body, 0)
			body = body[len(pl):]
			op, text := pl[0], pl[1:]
			if op == '\n' {
				op, text = ' ', pl // an empty context line whose space a mailer dropped, as git apply takes it
			}
			if nl := lineAt(body, 0); len(nl) > 0 && nl[0] == '\\' {
				text = bytes.TrimSuffix(text, []byte("\n"))
				body = body[len(nl):]
			}
			if op != '+' {
				l := lineAt(old, pos)
				if l == nil {
					return nil, fmt.Errorf("line %d: hunk %d (@@ -%d,%d) runs past the end of the file (%d lines)", fr.Line, k+1, fr.OldStart, fr.OldLines, line)
				}
				if !bytes.Equal(l, text) {
					return nil, fmt.Errorf("line %d: hunk %d (@@ -%d,%d): line %d is %q, the patch expects %q", fr.Line, k+1, fr.OldStart, fr.OldLines, line+1, clip(l), clip(text))
				}
				pos += len(l)
				line++
			}
			if op != '-' {
				if err := grow(text); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := grow(old[pos:]); err != nil {
		return nil, err
	}
	return out, nil
}

// applyDelta applies a delta in pack-format(5)'s form (git's patch-delta.c): the source and target sizes, then
// copy and insert instructions.
func applyDelta(src, delta []byte, limit int64) ([]byte, error) {
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
	if dstSize > uint64(limit) {
		return nil, fmt.Errorf("binary delta makes a %d-byte file, more than the %d bytes of the commit's file", dstSize, limit)
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
	out := make([]byte, size) // size was held to the commit's file and the budget by the caller
	if n, err := io.ReadFull(zr, out); err != nil {
		return nil, fmt.Errorf("inflates to %d bytes, the hunk says %d", n, size)
	}
	// Like git (apply.c inflate_it), the stream must end there, checksum included.
	var more [1]byte
	if n, err := zr.Read(more[:]); n > 0 || err != io.EOF {
		return nil, fmt.Errorf("inflates to more than the %d bytes the hunk says, or is corrupt", size)
	}
	return out, nil
}

// Data inflates the hunk, which must hold exactly h.Size bytes, when h.Size is at most limit (a size the caller
// has checked against the commit): a hunk that claims more is an error before anything is inflated.
func (h *BinaryHunk) Data(limit int64) ([]byte, error) {
	if h.Size > limit || h.Size > MaxFileSize {
		return nil, fmt.Errorf("line %d: a binary hunk of %d bytes, more than the %d expected", h.Line, h.Size, min(limit, MaxFileSize))
	}
	data, err := inflate(h.Deflated, h.Size)
	if err != nil {
		return nil, fmt.Errorf("line %d: binary hunk: %v", h.Line, err)
	}
	return data, nil
}
