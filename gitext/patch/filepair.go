package patch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

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

// pairs turns a tree change into the file pairs git prints: a change of kind (file, symlink, gitlink) becomes a
// deletion and a creation, as diff.c run_diff does.
func pairs(ch [2]side) [][2]side {
	from, to := ch[0], ch[1]
	if from.exists() && to.exists() && kind(from.mode) != kind(to.mode) {
		return [][2]side{{from, side{}}, {side{}, to}}
	}
	return [][2]side{{from, to}}
}

// writeFilePair writes one `diff --git` section. Only this pair's contents are in memory while it runs.
func writeFilePair(w *bufio.Writer, src objectSource, a, b side) error {
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
		if a.path != b.path {
			// Only exact renames are detected, so the similarity is always 100%.
			fmt.Fprintf(w, "similarity index 100%%\nrename from %s\nrename to %s\n", quotePath(a.path), quotePath(b.path))
		}
	}
	if a.hash == b.hash {
		return nil
	}
	// Full ids always (format-patch --full-index): `git apply` checks a binary preimage against them, and a
	// three-way fallback can find the blobs.
	fmt.Fprintf(w, "index %s..%s", a.hash, b.hash)
	if a.mode == b.mode {
		fmt.Fprintf(w, " %06o", uint32(a.mode))
	}
	w.WriteString("\n")

	binary, err := isBinary(src, a)
	if err != nil {
		return err
	}
	if !binary {
		if binary, err = isBinary(src, b); err != nil {
			return err
		}
	}
	if binary {
		w.WriteString("GIT binary patch\n")
		// Forward hunk, then the reverse one git adds so the patch can be applied with -R.
		if err := writeSideLiteral(w, src, b); err != nil {
			return err
		}
		return writeSideLiteral(w, src, a)
	}
	return writeTextDiff(w, src, a, b)
}

func writeTextDiff(w *bufio.Writer, src objectSource, a, b side) error {
	oldText, err := readSide(src, a)
	if err != nil {
		return err
	}
	newText, err := readSide(src, b)
	if err != nil {
		return err
	}
	ops, oldLines := editScript(oldText, newText)
	if !hasChanges(ops) {
		return nil
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", label("a/", a), label("b/", b))
	writeHunks(w, ops, oldLines)
	return nil
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

func writeSideLiteral(w *bufio.Writer, src objectSource, s side) error {
	r, size, err := openSide(src, s)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := writeLiteral(w, r, size); err != nil {
		return fmt.Errorf("encode binary %s: %w", s.path, err)
	}
	return nil
}
