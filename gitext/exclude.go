package gitext

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// maxExclude bounds the info/exclude file read: it is a hand-kept list of patterns.
const maxExclude = 4 << 20

// ExcludeLocally makes git ignore the file at path (absolute) in this repository's clone only, by adding an
// anchored pattern for it to <git common dir>/info/exclude, the file git reads for every worktree and never
// shares. It returns the pattern, or "" when path is not inside the worktree or the line is there already. The
// file is rewritten atomically with its mode kept, so a crash leaves the old or the new list, never half.
func (r *Repo) ExcludeLocally(path string) (string, error) {
	if r.WorkTree == "" {
		return "", nil
	}
	top, dir := r.WorkTree, filepath.Dir(path)
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	rel, err := filepath.Rel(top, filepath.Join(dir, filepath.Base(path)))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) ||
		filepath.IsAbs(rel) {
		return "", nil
	}
	pattern := "/" + escapePattern(filepath.ToSlash(rel))
	file := filepath.Join(r.CommonDir, "info", "exclude")
	old, err := regularfile.ReadFile(file, "exclude file", maxExclude)
	mode := fs.FileMode(0o644)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return "", fmt.Errorf("make %s: %w", filepath.Dir(file), err)
		}
	case err != nil:
		return "", err
	default:
		if st, err := os.Stat(file); err == nil {
			mode = st.Mode().Perm()
		}
	}
	for _, l := range bytes.Split(old, []byte("\n")) {
		if string(bytes.TrimRight(l, "\r")) == pattern {
			return "", nil
		}
	}
	data := append([]byte{}, old...)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(data, pattern+"\n"...)
	if err := atomicfile.WriteFile(file, data, mode); err != nil {
		return "", fmt.Errorf("add %s to %s: %w", pattern, file, err)
	}
	return pattern, nil
}

// escapePattern quotes the characters gitignore patterns give a meaning (gitignore(5)): glob characters, a
// leading '#' or '!', and trailing spaces, each with a backslash, so the pattern names exactly this file.
func escapePattern(p string) string {
	var b strings.Builder
	for i, c := range p {
		switch {
		case strings.ContainsRune(`*?[]\`, c), (c == '#' || c == '!') && (i == 0 || p[i-1] == '/'):
			b.WriteByte('\\')
		case c == ' ' && strings.TrimRight(p[i:], " ") == "":
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}
