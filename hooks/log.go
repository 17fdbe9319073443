package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/nofollow"
)

// LogPath is where the post-merge hook appends its problems: <git common dir>/bernstein/hook.log, one log for all
// worktrees, as the hooks are.
func LogPath(commonDir string) string {
	return filepath.Join(commonDir, "bernstein", "hook.log")
}

// AppendLog adds one line, "<RFC 3339 UTC time> post-merge: msg", to the hook log at path, creating it and its
// folder when missing. The hook has printed msg already; the caller may ignore an error, since a log that cannot
// be written is not worth failing a merge for.
func AppendLog(path string, at time.Time, msg string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("hook log: %w", err)
	}
	// The log is appended to by the hook of every merge: a symlink or hard link planted at its name must not make
	// it append to a file elsewhere, so only a plain file of its own is written (nofollow.OpenAppend); anything
	// else is an error naming it, and the hook goes on without its log.
	f, err := nofollow.OpenAppend(path, 0o644)
	if err != nil {
		return fmt.Errorf("hook log: %w; remove it", err)
	}
	_, err = fmt.Fprintf(f, "%s post-merge: %s\n", at.UTC().Format(time.RFC3339), msg)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("hook log %s: %w", path, err)
	}
	return nil
}
