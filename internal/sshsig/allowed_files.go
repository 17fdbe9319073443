package sshsig

import (
	"time"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// AllowedSignersFile is an allowed signers file to trust: the file at Path, named in reports and line sources
// as Name (the path as the user wrote it).
type AllowedSignersFile struct {
	Path, Name string
}

// ReadAllowedSigners reads the files in order (regular files only, at most MaxAllowedSignersSize each) and
// parses them (ParseAllowedSigners, times without a zone in loc). A file that cannot be read is an error ending
// in "; " and hint, which says what the user should check; a line that cannot be parsed is
// ParseAllowedSigners' error. No file gives nil.
func ReadAllowedSigners(files []AllowedSignersFile, loc *time.Location, hint string) ([]AllowedSigner, error) {
	var out []AllowedSigner
	for _, f := range files {
		data, err := regularfile.ReadFile(f.Path, "allowed signers file", MaxAllowedSignersSize)
		if err != nil {
			return nil, readError{err, hint}
		}
		lines, err := ParseAllowedSigners(data, f.Name, loc)
		if err != nil {
			return nil, err
		}
		out = append(out, lines...)
	}
	return out, nil
}

// readError is a file ReadAllowedSigners could not read, with what to check.
type readError struct {
	err  error
	hint string
}

func (e readError) Error() string { return e.err.Error() + "; " + e.hint }
func (e readError) Unwrap() error { return e.err }
