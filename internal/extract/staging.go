package extract

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A staging folder is where members go before the verdict: ".<DIR>.extract-<digits>" beside DIR, mode 0700.
// Its first entry, made before any member, is the marker file: created new (O_EXCL, never through a link),
// mode 0600, locked (flock, exclusive) by the extracting process for as long as it writes, and only then given
// its contents (markerMagic and the process id). The lock is what proves a staging folder abandoned: the
// kernel drops it when the process ends, however it ends, kill -9 included. A pid alone proves nothing (pids
// are reused).
//
// Each extract removes the abandoned staging folders it finds beside its DIR (issue 25, 15: a kill -9 left
// unverified partial files behind forever), and only those: a folder is removed only when, opened without
// following a symlink at any step, it is a real folder owned by the user, mode 0700, named like ours, holding a
// marker that is a regular file of the user's with one link and our contents, whose lock it could take at once,
// and which is still the same folder and marker at that name once the lock is held. A folder it cannot prove
// ours, or one whose writer still runs, is never touched. Before the folder is renamed into place the marker is
// removed (the lock still held), so DIR never holds it.
const (
	markerName    = ".git-bernstein-extract"
	markerMagic   = "git-bernstein extract staging folder: unverified files; safe to remove once its process is gone\n"
	stagingSuffix = ".extract-"
)

// staging is one open staging folder.
type staging struct {
	path   string
	root   *os.Root
	marker *os.File // locked until publish or discard
}

// newStaging makes the staging folder for into and marks it ours.
func newStaging(into string) (*staging, error) {
	parent := filepath.Dir(into)
	path, err := os.MkdirTemp(parent, "."+filepath.Base(into)+stagingSuffix+"*")
	if err != nil {
		return nil, fmt.Errorf("create a staging folder in %s: %w", parent, err)
	}
	s := &staging{path: path}
	if s.root, err = os.OpenRoot(path); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("open the staging folder %s: %w", path, err)
	}
	m, err := s.root.OpenFile(markerName, os.O_RDWR|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
	if err == nil {
		s.marker = m
		err = checkCreated(s.root, markerName, m)
	}
	if err == nil {
		if err = lockNow(m); err == nil {
			_, err = fmt.Fprintf(m, "%spid %d\n", markerMagic, os.Getpid())
		}
	}
	if err != nil {
		s.discard()
		return nil, fmt.Errorf("mark the staging folder %s as ours: %w", path, err)
	}
	return s, nil
}

// publish renames the staging folder into place as into, without the marker, mode 0755 as the folders in it.
func (s *staging) publish(into string) error {
	if err := s.root.Remove(markerName); err != nil {
		return fmt.Errorf("remove the marker from %s: %w", s.path, err)
	}
	mode, err := folderMode(s.root)
	if err != nil {
		return err
	}
	if err := os.Chmod(s.path, mode); err != nil {
		return err
	}
	if err := syncDir(s.path); err != nil {
		return fmt.Errorf("sync %s: %w", s.path, err)
	}
	if err := renameNoReplace(s.path, into); err != nil {
		return fmt.Errorf("move %s into place as %s: %w", s.path, into, err)
	}
	s.close()
	return nil
}

// discard removes the staging folder and everything in it.
func (s *staging) discard() {
	os.RemoveAll(s.path)
	s.close()
}

func (s *staging) close() {
	if s.root != nil {
		s.root.Close()
	}
	if s.marker != nil {
		s.marker.Close() // drops the lock
	}
}

// folderMode is the mode a folder made with mode 0755 gets here (0755 less the umask), read from a folder made
// for the purpose: the umask cannot be read without setting it, which races with other goroutines.
func folderMode(root *os.Root) (os.FileMode, error) {
	const probe = ".git-bernstein-mode"
	if err := root.Mkdir(probe, 0o755); err != nil {
		return 0, fmt.Errorf("find the folder mode: %w", err)
	}
	fi, err := root.Lstat(probe)
	_ = root.Remove(probe) // an empty probe folder left behind goes with the staging folder
	if err != nil {
		return 0, fmt.Errorf("find the folder mode: %w", err)
	}
	return fi.Mode().Perm(), nil
}

// Stale is an abandoned staging folder that Extract removed.
type Stale struct {
	Path string
	PID  int // the process that wrote it, now gone (0 when the marker did not say)
}

// stagingName says whether name looks like a staging folder of ours: ".<something>.extract-<digits>".
func stagingName(name string) bool {
	i := strings.LastIndex(name, stagingSuffix)
	if !strings.HasPrefix(name, ".") || i < 2 {
		return false
	}
	digits := name[i+len(stagingSuffix):]
	_, err := strconv.ParseUint(digits, 10, 64)
	return err == nil && !strings.HasPrefix(digits, "+")
}

// markerPID reads a marker's contents: ok when they are ours.
func markerPID(data []byte) (pid int, ok bool) {
	rest, ok := bytes.CutPrefix(data, []byte(markerMagic))
	if !ok {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(rest))
	if sc.Scan() {
		if p, found := strings.CutPrefix(sc.Text(), "pid "); found {
			pid, _ = strconv.Atoi(p)
		}
	}
	return pid, true
}

// sweepOutcome is what sweep did with one folder named like a staging folder.
type sweepOutcome int

const (
	kept     sweepOutcome = iota // not a folder of the user's, or its extract still runs: nothing to say
	removed                      // ours and abandoned: removed
	unproven                     // the user's, but without our marker: left, and named so the user can look
)

// sweep removes the abandoned staging folders of ours in parent and says which, and names the folders of the
// user's that look like staging folders but that it cannot prove abandoned (an extract older than markers, or
// killed before it locked its marker). Anything else is left alone, silently.
func sweep(parent string) (gone []Stale, left []string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil, nil
	}
	for _, e := range ents {
		if !stagingName(e.Name()) || e.Type()&os.ModeType != os.ModeDir {
			continue
		}
		switch st, outcome := removeIfAbandoned(parent, e.Name()); outcome {
		case removed:
			gone = append(gone, st)
		case unproven:
			left = append(left, filepath.Join(parent, e.Name()))
		}
	}
	return gone, left
}
