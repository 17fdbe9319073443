package logv1

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/git-bernstein/git-bernstein/internal/unusable"
)

// Unusable is input that cannot be checked at all (exit 2 in the CLI): an unreadable operator key or root, or a
// root without a log, which must not look like a clean, empty log.
type Unusable = unusable.Error

// CheckRequest is git bernstein lineage verify and log: the log of the root Root gives, verified with Options
// (Options.Sidecars are the root's). OperatorKeyFile, when set, is read into Options.OperatorKey first, and Root
// is asked for after it, so that errors come in the order the flags are read. With History, Artefact's
// entries and forks are wanted too.
type CheckRequest struct {
	Root            func() (string, error)
	OperatorKeyFile string
	Options         Options
	History         bool
	Artefact        string
}

// Checked is the log checked: where it is (Root), Verify's result (Result.Log is the log), and with
// CheckRequest.History the artefact's entries and forks (History, HistoryForks).
type Checked struct {
	Root string
	*Result
	History      []*Entry
	HistoryForks []Fork
}

// Check reads the root's log and verifies it (Verify).
func Check(req CheckRequest) (*Checked, error) {
	opts := req.Options
	if req.OperatorKeyFile != "" {
		key, err := ReadOperatorKey(req.OperatorKeyFile)
		if err != nil {
			return nil, unusable.New(err.Error())
		}
		opts.OperatorKey = key
	}
	root, err := req.Root()
	if err != nil {
		return nil, err
	}
	r, err := OpenRoot(root)
	if err != nil {
		return nil, unusable.New(fmt.Sprintf("lineage v1: %v (pass --root DIR, the folder that holds log.jsonl)", err))
	}
	defer r.Close()
	data, err := r.ReadLog()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, unusable.New(fmt.Sprintf("lineage v1: no %s in %s (pass --root DIR, the folder that holds it)", LogName, root))
		}
		return nil, unusable.New(fmt.Sprintf("lineage v1: %v", err))
	}
	opts.Sidecars = r.Sidecar
	c := &Checked{Root: root, Result: Verify(Parse(data), opts)}
	if req.History {
		c.History, c.HistoryForks = History(c.Log, req.Artefact)
	}
	return c, nil
}
