package corpus

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// Archive shapes: the genuine bundle's manifest and signature, repacked so that only the tar or gzip layer is
// wrong. Each shape is one that some common reader (GNU tar, Python's tarfile, bsdtar, Go's archive/tar) reads
// differently from another, or that hides unsigned bytes; the verifier must refuse them all (issue 12). The
// first three are working attacks: GNU tar or Python extracts other content than the manifest lists, while
// archive/tar reads exactly the signed members (TestShapeAttacksAreReal shows it with the real readers).

// Attack case names, for the tests that run the real readers on them.
const (
	AttackLongNameVsPath = "shape-gnu-longname-and-pax-path"
	AttackPAXSizePlus    = "shape-pax-size-plus"
	AttackPAXTwice       = "shape-pax-twice-size"
)

// Hidden is what the attacks' hidden tar streams put in place of git/diff.patch, and Outside what the third
// writes to ../../outside.
const (
	Hidden  = "not the signed patch: hidden inside a PAX comment\n"
	Outside = "written outside the folder the archive was extracted into\n"
)

// hiddenStream is a complete tar stream, end marker included, to hide inside a PAX comment value.
func hiddenStream(outside bool) []byte {
	var h []byte
	if outside {
		h = append(h, Member("../../outside", []byte(Outside))...)
	}
	h = append(h, Member("git/diff.patch", []byte(Hidden))...)
	return append(h, End()...)
}

// carrier is a PAX extended header for name whose one record is a comment holding hidden, placed so that
// hidden starts exactly one block into the header's data: where a reader that skipped 1536 bytes from the
// data of the member before it resumes reading headers.
func carrier(name string, hidden []byte) []byte {
	n := Block + len(hidden) + 1 // "<n> comment=" and the filler fill the first block; then hidden, "\n"
	fill := Block - len(strconv.Itoa(n)) - len(" comment=")
	rec := strconv.Itoa(n) + " comment=" + strings.Repeat("A", fill) + string(hidden) + "\n"
	if len(rec) != n {
		panic("carrier: record length")
	}
	return PAX('x', name, rec)
}

// rawParts is the bundle as bundle.Build lays it out, one []byte (header and padded data) per member.
func rawParts(mj []byte, files []file) [][]byte {
	parts := [][]byte{Member(manifest.Name, mj)}
	for _, f := range files {
		parts = append(parts, Member(f.name, f.data))
	}
	return parts
}

// rawTar joins parts and the end marker.
func rawTar(parts ...[]byte) []byte {
	return append(bytes.Join(parts, nil), End()...)
}

// edit returns a copy of member's bytes (header first) with its header changed by f and the checksum redone.
func edit(member []byte, f func(h []byte)) []byte {
	m := bytes.Clone(member)
	f(m[:Block])
	SetChecksum(m[:Block])
	return m
}

func (g *gen) shapeCases(files []file, mj, sig []byte) []Case {
	var cs []Case
	refused := func(name, defect string, archive, s []byte) {
		cs = append(cs, Case{Name: name, Defect: defect, Exit: 1, FirstFailure: "archive", Cards: card(), archive: archive, signature: s})
	}
	// parts: manifest, git/commits.json, git/diff.patch, traces/s1-trace.jsonl, transcripts/agent-s1.jsonl.
	parts := func() [][]byte { return rawParts(mj, files) }
	commits, diff, trace, transcript := files[0], files[1], files[2], files[3]
	last := func(change func(p [][]byte) []byte) []byte {
		p := parts()
		p[4] = change(p)
		return gz(rawTar(p...))
	}
	lastHeader := func(f func(h []byte)) []byte {
		return last(func(p [][]byte) []byte { return edit(p[4], f) })
	}
	before := func(blocks ...[]byte) []byte {
		return last(func(p [][]byte) []byte { return append(bytes.Join(blocks, nil), p[4]...) })
	}
	pax := func(records ...string) []byte { return before(PAX('x', "agent-s1.jsonl", records...)) }

	// 1. GNU long name and PAX path on one member, naming two different signed members: archive/tar takes the
	// long name, GNU tar and Python the PAX path, so commits.json and diff.patch swap names when extracted.
	{
		p := parts()
		p[1] = append(append(PAX('x', "commits.json", Record("path", diff.name)), GNULong('L', commits.name)...), p[1]...)
		p[2] = append(append(PAX('x', "diff.patch", Record("path", commits.name)), GNULong('L', diff.name)...), p[2]...)
		refused(AttackLongNameVsPath, "each of git/commits.json and git/diff.patch has a GNU long name (its own name) and a PAX path "+
			"(the other's): archive/tar reads the long names, GNU tar and Python the paths, and the two swap when extracted", gz(rawTar(p...)), sig)
	}
	// 2. A PAX size with a plus sign: archive/tar and Python read it, GNU tar rejects the record and takes the
	// ustar size, 1536, which carries it past the trace into a later member's PAX comment, where a second tar
	// stream replaces git/diff.patch.
	{
		p := parts()
		p[3] = append(append(PAX('x', "s1-trace.jsonl", Record("size", fmt.Sprintf("+%d", len(trace.data)))), Ustar(trace.name, 3*Block, '0')...), Body(trace.data)...)
		p[4] = append(carrier("agent-s1.jsonl", hiddenStream(false)), p[4]...)
		refused(AttackPAXSizePlus, fmt.Sprintf("a PAX record size=+%d on the trace, whose ustar size is 1536: GNU tar rejects the record, "+
			"reads 1536 bytes and then a tar stream hidden in the next member's PAX comment, which replaces git/diff.patch", len(trace.data)), gz(rawTar(p...)), sig)
	}
	// 3. Two PAX headers before one member, the first with a size: archive/tar keeps only the second, Python
	// applies both, reads 1536 bytes as the trace and then a hidden stream that writes ../../outside and
	// replaces git/diff.patch.
	{
		p := parts()
		p[3] = append(append(PAX('x', "s1-trace.jsonl", Record("size", "1536")), PAX('x', "s1-trace.jsonl", Record("path", trace.name))...), p[3]...)
		p[4] = append(carrier("agent-s1.jsonl", hiddenStream(true)), p[4]...)
		refused(AttackPAXTwice, "two PAX headers in a row before the trace, the first with size=1536: archive/tar keeps the second, Python "+
			"merges both and reads a tar stream hidden in the next member's PAX comment, which writes ../../outside and replaces git/diff.patch", gz(rawTar(p...)), sig)
	}

	// Variants: one shape each, on the last member (transcripts/agent-s1.jsonl) unless said otherwise.
	refused("shape-gnu-longlink", "a GNU long-link ('K') block before a regular member", before(GNULong('K', "/etc/passwd")), sig)
	refused("shape-gnu-sparse", "the last member as an old GNU sparse file (typeflag 'S', GNU magic, one extent)", lastHeader(func(h []byte) {
		h[FTypeflag.Off] = 'S'
		FMagic.Set(h, "ustar ")
		FVersion.Set(h, " ")
		n := int64(len(transcript.data))
		copy(h[386:], Octal(0, 12))    // sparse[0].offset
		copy(h[398:], Octal(n, 12))    // sparse[0].numbytes
		copy(h[483:495], Octal(n, 12)) // realsize
	}), sig)
	refused("shape-pax-comment", "a PAX header with only a comment record (unsigned bytes)", pax(Record("comment", "unsigned words")), sig)
	refused("shape-pax-linkpath", "a PAX linkpath record on a regular member", pax(Record("linkpath", "/etc/passwd")), sig)
	refused("shape-pax-uid-uname", "PAX uid and uname records", pax(Record("uid", "0"), Record("uname", "root")), sig)
	refused("shape-pax-size-equal", "a PAX size record equal to the ustar size", pax(Record("size", strconv.Itoa(len(transcript.data)))), sig)
	{
		rest := " path=" + transcript.name + "\n"
		n := len(rest) + 3 // "0NN": a leading zero
		refused("shape-pax-length-leading-zero", "a PAX record whose length has a leading zero", pax(fmt.Sprintf("0%d%s", n, rest)), sig)
	}
	refused("shape-pax-duplicate-key", "one PAX header with path twice (another signed name, then its own)",
		pax(Record("path", commits.name), Record("path", transcript.name)), sig)
	refused("shape-nonzero-padding", "unsigned bytes in the zero padding after a member's data", last(func(p [][]byte) []byte {
		m := bytes.Clone(p[4])
		copy(m[Block+len(transcript.data):], "hidden in the padding")
		return m
	}), sig)
	refused("shape-header-pad", "a non-zero byte in header bytes 500-511 (checksum redone)", lastHeader(func(h []byte) { h[511] = 'x' }), sig)
	refused("shape-name-after-nul", "bytes after the NUL that ends the name field", lastHeader(func(h []byte) { FName.Set(h, transcript.name+"\x00evil") }), sig)
	refused("shape-number-plus", "the mode field with a leading '+'", lastHeader(func(h []byte) { FMode.Set(h, "+000644\x00") }), sig)
	refused("shape-number-spaces", "the size field with leading spaces instead of zeros", lastHeader(func(h []byte) {
		FSize.Set(h, fmt.Sprintf("%11o\x00", len(transcript.data)))
	}), sig)
	refused("shape-number-base256", "the mtime field in base-256 (0x80, then the value)", lastHeader(func(h []byte) {
		FMtime.Set(h, "")
		h[FMtime.Off] = 0x80
	}), sig)
	{
		// The signed sum differs from the unsigned one only for bytes >= 0x80: a UTF-8 name in the name field.
		sf := append(baseFiles(), file{"transcripts/agent-é.jsonl", manifest.SectionTranscripts, []byte("{}\n")})
		smj := marshal(manifestFor(sf))
		p := rawParts(smj, sf)
		h := p[5][:Block]
		FChksum.Set(h, fmt.Sprintf("%06o\x00 ", Sum(h, true)))
		refused("shape-checksum-signed", "a header whose checksum is the signed byte sum (a UTF-8 name), not the unsigned one", gz(rawTar(p...)), g.sig(g.key, Kid, smj))
	}
	refused("shape-gnu-magic", `GNU magic "ustar  \0" instead of "ustar\0" "00"`, lastHeader(func(h []byte) {
		FMagic.Set(h, "ustar ")
		FVersion.Set(h, " ")
	}), sig)
	refused("shape-v7", "an old V7 header (no magic, nothing after the link name)", lastHeader(func(h []byte) { clear(h[FMagic.Off:]) }), sig)
	refused("shape-typeflag-nul", "typeflag NUL (old regular file)", lastHeader(func(h []byte) { h[FTypeflag.Off] = 0 }), sig)
	refused("shape-typeflag-contiguous", "typeflag '7' (contiguous file)", lastHeader(func(h []byte) { h[FTypeflag.Off] = '7' }), sig)
	for _, m := range []struct {
		name string
		mode int64
	}{{"setuid", 0o4755}, {"setgid", 0o2755}, {"sticky", 0o1755}} {
		refused("shape-mode-"+m.name, fmt.Sprintf("mode %#o: GNU tar as root restores the %s bit", m.mode, m.name), lastHeader(func(h []byte) {
			FMode.Set(h, Octal(m.mode, 8))
		}), sig)
	}
	good := rawTar(parts()...)
	refused("shape-gzip-fextra", "a gzip header with an extra field (FEXTRA)", Gzip(good, []byte{'G', 'B', 6, 0, 'h', 'i', 'd', 'd', 'e', 'n'}, ""), sig)
	refused("shape-gzip-fcomment", "a gzip header with a comment (FCOMMENT)", Gzip(good, nil, "unsigned words"), sig)
	{
		a := gz(good)
		a[3] |= 0xe0
		refused("shape-gzip-reserved-flags", "a gzip header with the reserved FLG bits 5-7 set", a, sig)
	}
	{
		long := "transcripts/" + strings.Repeat(strings.Repeat("n", 99)+"/", 52) + "x.jsonl"
		lf := append(baseFiles(), file{long, manifest.SectionTranscripts, []byte("{}\n")})
		lmj := marshal(manifestFor(lf))
		p := rawParts(lmj, lf)
		p[5] = append(PAX('x', "x.jsonl", Record("path", long)), p[5]...) // the name field holds the first 100 bytes
		refused("shape-pax-path-5k", fmt.Sprintf("a %d-byte member name in a PAX path, past the 4 KiB cap on one name", len(long)), gz(rawTar(p...)), g.sig(g.key, Kid, lmj))
	}
	return cs
}
