package patch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// binarySniffLen is how far git looks for a NUL byte to call content binary (xdiff-interface.c
// buffer_is_binary, FIRST_FEW_BYTES).
const binarySniffLen = 8000

// side is one end of a file pair; a missing side (creation, deletion) has an empty path.
type side struct {
	path string
	mode filemode.FileMode
	hash plumbing.Hash
}

func (s side) exists() bool { return s.path != "" }

// canonMode is git's canon_mode: trees may carry old modes such as 100664, git prints 100644 or 100755.
func canonMode(m filemode.FileMode) filemode.FileMode {
	switch {
	case m == filemode.Symlink || m == filemode.Submodule || m == filemode.Dir:
		return m
	case m&0o111 != 0:
		return filemode.Executable
	default:
		return filemode.Regular
	}
}

// kind groups modes the way S_IFMT does: git never diffs a file against a symlink or a gitlink.
func kind(m filemode.FileMode) filemode.FileMode {
	if m == filemode.Executable {
		return filemode.Regular
	}
	return m
}

// pairStat is a queue entry's diffstat line (diff.c struct diffstat_file).
type pairStat struct {
	name           string
	added, deleted int
	binary         bool
}

// writeQueuePair writes one queue entry's `diff --git` sections and returns its diffstat numbers. A change of
// kind (file, symlink, gitlink) becomes a deletion and a creation, as diff.c run_diff does.
func writeQueuePair(w *bufio.Writer, src objectSource, p filePair) (pairStat, error) {
	st := pairStat{name: quotePath(p.path())}
	if p.status == 'R' || p.status == 'C' {
		st.name = prettyRename(p.from.path, p.to.path)
	}
	if p.status == 'M' && kind(p.from.mode) != kind(p.to.mode) {
		a, err := writeSection(w, src, filePair{from: p.from, status: 'D'})
		if err != nil {
			return st, err
		}
		b, err := writeSection(w, src, filePair{to: p.to, status: 'A'})
		st.added, st.deleted, st.binary = b.added, a.deleted, a.binary || b.binary
		return st, err
	}
	c, err := writeSection(w, src, p)
	st.added, st.deleted, st.binary = c.added, c.deleted, c.binary
	return st, err
}

// writeSection writes one `diff --git` section (diff.c builtin_diff with fill_metainfo's header lines).
func writeSection(w *bufio.Writer, src objectSource, p filePair) (pairStat, error) {
	var st pairStat
	a, b := p.from, p.to
	aPath, bPath := a.path, b.path
	if !a.exists() {
		aPath = bPath
	}
	if !b.exists() {
		bPath = aPath
	}
	fmt.Fprintf(w, "diff --git %s %s\n", quoteTwo("a/", aPath), quoteTwo("b/", bPath))
	switch {
	case !a.exists():
		fmt.Fprintf(w, "new file mode %06o\n", uint32(b.mode))
	case !b.exists():
		fmt.Fprintf(w, "deleted file mode %06o\n", uint32(a.mode))
	default:
		if a.mode != b.mode {
			fmt.Fprintf(w, "old mode %06o\nnew mode %06o\n", uint32(a.mode), uint32(b.mode))
		}
		switch p.status {
		case 'R':
			fmt.Fprintf(w, "similarity index %d%%\nrename from %s\nrename to %s\n", p.similarity(), quotePath(a.path), quotePath(b.path))
		case 'C':
			fmt.Fprintf(w, "similarity index %d%%\ncopy from %s\ncopy to %s\n", p.similarity(), quotePath(a.path), quotePath(b.path))
		}
	}
	binA, err := sideIsBinary(src, a)
	if err != nil {
		return st, err
	}
	binB, err := sideIsBinary(src, b)
	if err != nil {
		return st, err
	}
	st.binary = binA || binB
	if a.hash == b.hash && a.exists() && b.exists() {
		return st, nil
	}
	// Full ids always (format-patch --full-index): `git apply` checks a binary preimage against them, and a
	// three-way fallback can find the blobs.
	fmt.Fprintf(w, "index %s..%s", a.hash, b.hash)
	if a.mode == b.mode {
		fmt.Fprintf(w, " %06o", uint32(a.mode))
	}
	w.WriteString("\n")

	oldText, err := readSide(src, a)
	if err != nil {
		return st, err
	}
	newText, err := readSide(src, b)
	if err != nil {
		return st, err
	}
	if st.binary {
		st.deleted, st.added = len(oldText), len(newText)
		if oldText == newText {
			return st, nil // diff.c: "Quite common confusing case"
		}
		w.WriteString("GIT binary patch\n")
		// Forward hunk, then the reverse one git adds so the patch can be applied with -R.
		if err := writeBinaryHunk(w, oldText, newText); err != nil {
			return st, fmt.Errorf("encode binary %s: %w", p.path(), err)
		}
		if err := writeBinaryHunk(w, newText, oldText); err != nil {
			return st, fmt.Errorf("encode binary %s: %w", p.path(), err)
		}
		return st, nil
	}
	d := diffText(oldText, newText)
	st.added, st.deleted = d.counts()
	if len(d.script) == 0 {
		return st, nil
	}
	ff := src.cfg.driverFor(a).ff
	if ff.regs == nil {
		ff = src.cfg.driverFor(b).ff
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", label("a/", a), label("b/", b))
	writeHunks(w, d, ff)
	return st, nil
}

// sideIsBinary is diff_filespec_is_binary: the driver decides (`-diff`, `diff`, `diff.<driver>.binary`),
// else a NUL byte in the first 8000 bytes.
func sideIsBinary(src objectSource, s side) (bool, error) {
	if !s.exists() {
		return false, nil
	}
	switch src.cfg.driverFor(s).binary {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return isBinary(src, s)
}

func isBinaryData(data string) bool {
	return strings.IndexByte(data[:min(len(data), binarySniffLen)], 0) >= 0
}

// label is a ---/+++ file name: /dev/null for a missing side, and a tab after a name with a space so that
// tools which end the name at whitespace still read it (diff.c DIFF_SYMBOL_FILEPAIR_*).
func label(prefix string, s side) string {
	if !s.exists() {
		return "/dev/null"
	}
	name := quoteTwo(prefix, s.path)
	if strings.Contains(name, " ") {
		name += "\t"
	}
	return name
}

// openSide streams a side's content. A gitlink's content is the line git diffs for a submodule.
func openSide(src objectSource, s side) (io.ReadCloser, int64, error) {
	if !s.exists() {
		return io.NopCloser(strings.NewReader("")), 0, nil
	}
	if s.mode == filemode.Submodule {
		line := "Subproject commit " + s.hash.String() + "\n"
		return io.NopCloser(strings.NewReader(line)), int64(len(line)), nil
	}
	r, size, err := src.blob(s.hash)
	if err != nil {
		return nil, 0, fmt.Errorf("read blob %s of %s: %w", s.hash, s.path, err)
	}
	return r, size, nil
}

func isBinary(src objectSource, s side) (bool, error) {
	r, _, err := openSide(src, s)
	if err != nil {
		return false, err
	}
	defer r.Close()
	head, err := io.ReadAll(io.LimitReader(r, binarySniffLen))
	if err != nil {
		return false, fmt.Errorf("read blob %s of %s: %w", s.hash, s.path, err)
	}
	return bytes.IndexByte(head, 0) >= 0, nil
}

func readSide(src objectSource, s side) (string, error) {
	if s.exists() && s.mode != filemode.Submodule {
		if data, err := src.blobBytes(s.hash); err == nil {
			// The reader's bytes were made for this object and nothing writes to them: the text is a view of
			// them, not a copy (the copies were an eighth of what a first run of commits allocated on Kafka).
			return unsafe.String(unsafe.SliceData(data), len(data)), nil
		}
	}
	r, size, err := openSide(src, s)
	if err != nil {
		return "", err
	}
	defer r.Close()
	var b strings.Builder
	b.Grow(int(size))
	if _, err := io.Copy(&b, r); err != nil {
		return "", fmt.Errorf("read blob %s of %s: %w", s.hash, s.path, err)
	}
	return b.String(), nil
}
