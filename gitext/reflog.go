package gitext

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ReflogEntry is one line of a ref's reflog (<common dir>/logs/<ref>): where the ref was, where it went, and
// git's message for the move ("merge KAFKA-1: Fast-forward", "commit: Fix it", "branch: Created from trunk").
type ReflogEntry struct {
	Old, New Hash
	Message  string
}

// Reflog reads ref's reflog, oldest entry first, as git writes it (refs.c: "<old> <new> <ident> <time>
// <tz>\t<message>"). ok is false when the ref has none (core.logAllRefUpdates off, a bare repository, a ref
// created by a fetch that kept no log); a line that does not parse is skipped, as git's own readers do.
func (r *Repo) Reflog(ref RefName) ([]ReflogEntry, bool, error) {
	f, err := os.Open(filepath.Join(r.CommonDir, "logs", filepath.FromSlash(ref.String())))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	var out []ReflogEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		head, msg, _ := strings.Cut(line, "\t")
		fields := strings.Fields(head)
		if len(fields) < 2 || !isHex40(fields[0]) || !isHex40(fields[1]) {
			continue
		}
		out = append(out, ReflogEntry{Old: plumbing.NewHash(fields[0]), New: plumbing.NewHash(fields[1]), Message: msg})
	}
	if err := sc.Err(); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

func isHex40(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
