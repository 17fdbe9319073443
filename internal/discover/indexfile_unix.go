//go:build unix

package discover

import (
	"errors"
	"io"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// maxIndexSize bounds the read of the index: about 30 bytes a commit, so tens of millions of commits. A larger
// file is not one we wrote; it is read as a bad index and rebuilt.
const maxIndexSize = 1 << 30

// readIndexFile reads the index into memory of its own. It is not mapped: a mapping (MAP_SHARED or
// MAP_PRIVATE alike) takes SIGBUS on every page past the end of a file truncated in place while it is read, and
// no recover catches that in Go unless every goroutine touching the bytes sets debug.SetPanicOnFault. Another
// run replaces the file by renaming over it, which a mapping would survive, but a user's `: > index`, another
// tool or a full disk truncates it in place. A copy costs one read of a few megabytes the page cache holds
// (BenchmarkFindCommitsWarm: within noise of the mapping), and a file cut or grown meanwhile only reads short or
// changed, which the checksum refuses.
//
// The file is opened as a cache of ours must be (regularfile.OpenOwn): not through a symlink, without waiting
// on a FIFO, and only if the descriptor is a regular file.
func readIndexFile(path string) ([]byte, error) {
	f, st, err := regularfile.OpenOwn(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > maxIndexSize {
		return []byte{}, nil // not an index of ours: rebuilt
	}
	// Read what the file holds now, at most the size it had at the stat: shorter when it was cut meanwhile.
	data := make([]byte, st.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return data[:n], nil
}
