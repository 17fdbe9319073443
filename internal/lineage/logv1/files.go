package logv1

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/git-bernstein/git-bernstein/internal/nofollow"
)

// Limits on what is read into memory: the log whole (real ones are a few hundred bytes an entry), a sidecar
// (a token is under 400 bytes; sign refuses past 16 KiB).
const (
	MaxLogSize     = 256 << 20
	MaxSidecarSize = 64 << 10
)

// LogName is the log's name in its folder, .sdd/lineage by default.
const LogName = "log.jsonl"

// Root is a lineage folder opened without following symlinks beneath it (package nofollow), as every .sdd file is
// read: a symlinked log or sidecar is refused, never followed.
type Root struct {
	dir *nofollow.Dir
}

// OpenRoot opens the lineage folder at path.
func OpenRoot(path string) (*Root, error) {
	d, err := nofollow.OpenDir(path)
	if err != nil {
		return nil, err
	}
	return &Root{dir: d}, nil
}

// Close closes the folder.
func (r *Root) Close() error { return r.dir.Close() }

// Path is the folder's path, for messages.
func (r *Root) Path() string { return r.dir.Path() }

// ReadLog reads log.jsonl; a missing log is an error wrapping fs.ErrNotExist.
func (r *Root) ReadLog() ([]byte, error) { return r.read(LogName, MaxLogSize) }

// Sidecar reads a sidecar by its path relative to the folder (Sidecars).
func (r *Root) Sidecar(rel string) ([]byte, error) { return r.read(rel, MaxSidecarSize) }

func (r *Root) read(rel string, max int64) ([]byte, error) {
	f, st, err := r.dir.Open(rel)
	if err != nil {
		if errors.Is(err, nofollow.ErrNotDir) {
			return nil, fmt.Errorf("%w: %w", err, fs.ErrNotExist)
		}
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, fmt.Errorf("%s/%s is %d bytes, more than %d", r.dir.Path(), rel, st.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s/%s: %w", r.dir.Path(), rel, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s/%s grew past %d bytes while read", r.dir.Path(), rel, max)
	}
	return data, nil
}
