package gitext

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// The errors go-git's storage gives for a packed-refs line it cannot split and for a ref name that would
// leave the git folder (dotgit.ErrPackedRefsBadFormat, dotgit.ErrReferenceNameEscape).
var (
	errPackedRefsBadFormat = errors.New("malformed packed-ref")
	errRefNameEscape       = errors.New("reference name escapes the reference storage")
)

// maxSymrefDepth is how many symbolic refs a resolve follows, as go-git's storer.ResolveReference does.
const maxSymrefDepth = 1024

// reference reads ref name as go-git's filesystem storage reads it (dotgit.Ref): its loose file, else its line
// in packed-refs; plumbing.ErrReferenceNotFound when neither has it. HEAD and the other pseudo-refs live in this
// worktree's git folder, refs/ in the common one. A loose file that does not read (a folder, an empty file) is
// passed over for packed-refs, as go-git does.
func (r *Repo) reference(name RefName) (*plumbing.Reference, error) {
	if !safeRefName(name) {
		return nil, fmt.Errorf("%w: %q is not under refs/ nor a valid pseudo-ref", errRefNameEscape, string(name))
	}
	dir := r.GitDir
	if strings.HasPrefix(string(name), "refs/") {
		switch name {
		case "refs/bisect", "refs/rewritten", "refs/worktree": // per worktree (gitrepository-layout)
		default:
			dir = r.CommonDir
		}
	}
	path := filepath.Join(dir, filepath.FromSlash(string(name)))
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return plumbing.NewReferenceFromStrings(string(name), strings.TrimSpace(string(b))), nil
		}
	}
	return r.packedRef(name)
}

// safeRefName is go-git's check before it reads a ref's file: under refs/ or a pseudo-ref, no control
// characters, no "." or ".." component.
func safeRefName(name RefName) bool {
	if !name.IsSafe() {
		return false
	}
	s := string(name)
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return false
		}
	}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == "." || part == ".." {
			return false
		}
	}
	return true
}

// packedRef finds name in packed-refs, reading lines up to it as go-git does.
func (r *Repo) packedRef(name RefName) (*plumbing.Reference, error) {
	f, err := os.Open(filepath.Join(r.CommonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, plumbing.ErrReferenceNotFound
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		ws := strings.Split(line, " ")
		if len(ws) != 2 {
			return nil, errPackedRefsBadFormat
		}
		if RefName(ws[1]) == name {
			return plumbing.NewReferenceFromStrings(ws[1], ws[0]), nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, plumbing.ErrReferenceNotFound
}

// resolveRef reads name and follows symbolic refs to the ref that names an object (storer.ResolveReference).
func (r *Repo) resolveRef(name RefName) (*plumbing.Reference, error) {
	ref, err := r.reference(name)
	for depth := 0; err == nil && ref.Type() == plumbing.SymbolicReference; depth++ {
		if depth > maxSymrefDepth {
			return nil, errors.New("max. recursion level reached")
		}
		ref, err = r.reference(ref.Target())
	}
	return ref, err
}
