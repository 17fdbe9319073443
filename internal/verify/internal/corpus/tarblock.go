package corpus

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strconv"
)

// Tar blocks written byte by byte. archive/tar's writer only makes well-formed archives, and the cases that
// show one reader seeing what another does not need exactly the headers it refuses to write: a PAX record
// Go reads and GNU tar rejects, two PAX headers in a row, a GNU long name beside a PAX path. The differential
// test uses the same blocks to vary a genuine bundle's headers.

// Block is the tar block size (POSIX ustar, pax "Header Block").
const Block = 512

// Field is one field of a ustar header block (POSIX.1-2017 pax, "ustar Interchange Format").
type Field struct {
	Name    string
	Off     int
	Len     int
	Numeric bool
}

// The ustar header fields, and the 12 bytes after them that POSIX leaves unnamed (Pad).
var (
	FName     = Field{"name", 0, 100, false}
	FMode     = Field{"mode", 100, 8, true}
	FUID      = Field{"uid", 108, 8, true}
	FGID      = Field{"gid", 116, 8, true}
	FSize     = Field{"size", 124, 12, true}
	FMtime    = Field{"mtime", 136, 12, true}
	FChksum   = Field{"chksum", 148, 8, true}
	FTypeflag = Field{"typeflag", 156, 1, false}
	FLinkname = Field{"linkname", 157, 100, false}
	FMagic    = Field{"magic", 257, 6, false}
	FVersion  = Field{"version", 263, 2, false}
	FUname    = Field{"uname", 265, 32, false}
	FGname    = Field{"gname", 297, 32, false}
	FDevmajor = Field{"devmajor", 329, 8, true}
	FDevminor = Field{"devminor", 337, 8, true}
	FPrefix   = Field{"prefix", 345, 155, false}
	FPad      = Field{"pad", 500, 12, false}
)

// Fields lists every field in order.
var Fields = []Field{FName, FMode, FUID, FGID, FSize, FMtime, FChksum, FTypeflag, FLinkname, FMagic, FVersion,
	FUname, FGname, FDevmajor, FDevminor, FPrefix, FPad}

// Set writes s into the field and NUL-fills the rest of it (s is cut at the field's length).
func (f Field) Set(h []byte, s string) {
	b := h[f.Off : f.Off+f.Len]
	clear(b)
	copy(b, s)
}

// Octal is n as a canonical ustar number for a field of width w: w-1 octal digits, then NUL.
func Octal(n int64, w int) string {
	return fmt.Sprintf("%0*o\x00", w-1, n)
}

// Ustar is a header block as bundle writers make it: mode 0644, uid and gid 0, mtime 0, no user or group name,
// magic "ustar\0" version "00", devices 0, and the checksum set. It is what archive/tar writes for a bundle member.
func Ustar(name string, size int64, typeflag byte) []byte {
	h := make([]byte, Block)
	FName.Set(h, name)
	FMode.Set(h, Octal(0o644, 8))
	FUID.Set(h, Octal(0, 8))
	FGID.Set(h, Octal(0, 8))
	FSize.Set(h, Octal(size, 12))
	FMtime.Set(h, Octal(0, 12))
	h[FTypeflag.Off] = typeflag
	FMagic.Set(h, "ustar\x00")
	FVersion.Set(h, "00")
	FDevmajor.Set(h, Octal(0, 8))
	FDevminor.Set(h, Octal(0, 8))
	SetChecksum(h)
	return h
}

// SetChecksum writes the checksum as archive/tar, GNU tar and Python write it: the unsigned byte sum with the
// checksum field counted as spaces, as six octal digits, NUL, space.
func SetChecksum(h []byte) {
	FChksum.Set(h, fmt.Sprintf("%06o\x00 ", Sum(h, false)))
}

// Sum is the header checksum: the sum of the block's bytes, unsigned or (as some old tars did) signed, with
// the checksum field counted as eight spaces.
func Sum(h []byte, signed bool) int64 {
	var s int64
	for i, b := range h[:Block] {
		switch {
		case i >= FChksum.Off && i < FChksum.Off+FChksum.Len:
			s += ' '
		case signed:
			s += int64(int8(b))
		default:
			s += int64(b)
		}
	}
	return s
}

// Body is data followed by zero padding to a whole number of blocks.
func Body(data []byte) []byte {
	out := make([]byte, (len(data)+Block-1)/Block*Block)
	copy(out, data)
	return out
}

// Member is a ustar regular file: its header and its padded data.
func Member(name string, data []byte) []byte {
	return append(Ustar(name, int64(len(data)), '0'), Body(data)...)
}

// End is the end-of-archive marker: two zero blocks.
func End() []byte { return make([]byte, 2*Block) }

// Record is a canonical PAX extended header record, "%d %s=%s\n" where the length counts itself.
func Record(key, value string) string {
	rest := " " + key + "=" + value + "\n"
	n := len(rest)
	for len(strconv.Itoa(n))+len(rest) != n {
		n = len(strconv.Itoa(n)) + len(rest)
	}
	return strconv.Itoa(n) + rest
}

// PAX is an extended header (typeflag 'x', or 'g' for a global one) holding records as given, byte for byte:
// its header block, named as archive/tar names them, and the padded records.
func PAX(typeflag byte, name string, records ...string) []byte {
	payload := []byte{}
	for _, r := range records {
		payload = append(payload, r...)
	}
	return append(Ustar("PaxHeaders.0/"+name, int64(len(payload)), typeflag), Body(payload)...)
}

// GNULong is a GNU long-name ('L') or long-link ('K') block: a header named ././@LongLink whose data is the name
// and a NUL, as GNU tar writes it.
func GNULong(typeflag byte, name string) []byte {
	data := append([]byte(name), 0)
	return append(Ustar("././@LongLink", int64(len(data)), typeflag), Body(data)...)
}

// Gzip compresses as bundle.Build does (one member, no name, mtime 0), with an optional extra field and comment.
func Gzip(data []byte, extra []byte, comment string) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Header.OS = 255
	zw.Header.Extra, zw.Header.Comment = extra, comment
	_, _ = zw.Write(data) // into a bytes.Buffer: cannot fail
	zw.Close()
	return b.Bytes()
}
