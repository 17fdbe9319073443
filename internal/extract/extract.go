package extract

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Options tune an extraction.
type Options struct {
	// Into is the destination folder; it must not exist.
	Into string
	// AllowUnverified extracts an intact bundle that could not be VERIFIED only for want of a signature or a
	// trusted key (no check failed), or because its repository check (Verify.Repository) could not be made. A
	// FAILED bundle, whatever failed, the repository check included, is never extracted.
	AllowUnverified bool
	// Verify are the verifier's options (limits, strict); its Sink is Extract's own.
	Verify verify.Options
}

// Result is what Extract did.
type Result struct {
	Report *verify.Report
	// Extracted says the files are at Into. Unverified says they were extracted under AllowUnverified.
	Extracted, Unverified bool
	Into                  string
	Files                 int
	Bytes                 int64
	// Reason says why nothing was extracted, when nothing was.
	Reason string
	// Swept are the abandoned staging folders of earlier runs (a process killed while extracting) that were
	// removed from beside Into (staging.go).
	Swept []Stale
	// Unproven are folders beside Into, the user's and named like staging folders, that nothing proves
	// abandoned (no marker of ours): left alone, and named so that the user can look.
	Unproven []string
}

// ErrExists is wrapped by the error for a destination that already exists.
var ErrExists = errors.New("destination exists")

// Extract verifies archive against signature and keys and, when the verdict allows, leaves its members in
// opts.Into. The returned error is for the extraction itself (the destination, the disk); the verdict is in
// Result.Report either way.
func Extract(archive io.Reader, signature []byte, keys []sign.TrustedKey, opts Options) (*Result, error) {
	into := filepath.Clean(opts.Into)
	res := &Result{Into: into}
	if _, err := os.Lstat(into); err == nil {
		return res, fmt.Errorf("%s: %w; extract never merges into or overwrites a folder: choose another --into, or remove it", into, ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return res, fmt.Errorf("check the destination %s: %w", into, err)
	}
	parent := filepath.Dir(into)
	res.Swept, res.Unproven = sweep(parent)
	st, err := newStaging(into)
	if err != nil {
		return res, err
	}
	staging, keep := st.path, false
	defer func() {
		if !keep {
			st.discard()
		}
	}()

	s := newStagingSink(st.root)
	defer s.release()
	vopts := opts.Verify
	vopts.Sink = s
	rep := verify.Verify(archive, signature, keys, vopts)
	res.Report = rep
	if err := s.close(); err != nil && s.err == nil {
		s.err = err
	}
	if s.err != nil {
		return res, fmt.Errorf("extract into %s: %w", staging, s.err)
	}
	res.Files, res.Bytes = s.files, s.bytes

	repoUnusable := repositoryUnusable(rep)
	intact := rep.Verdict == verify.Unverifiable && (len(rep.Failures) == 0 || repoUnusable)
	switch {
	case rep.Verdict == verify.Verified:
	case opts.AllowUnverified && intact:
		res.Unverified = true
	case intact && repoUnusable:
		res.Reason = "the repository check could not be made (see its line): nothing was extracted; give a clone that has " +
			"the bundle's commits with --repo=DIR, or pass --allow-unverified to extract it anyway"
		return res, nil
	case intact:
		res.Reason = "the bundle is intact but not VERIFIED (no signature, or no --card): nothing was extracted; give the signer's card with --card, or pass --allow-unverified to extract it anyway"
		return res, nil
	default:
		res.Reason = fmt.Sprintf("the verdict is %s: nothing was extracted", rep.Verdict)
		return res, nil
	}
	if err := s.syncDirs(); err != nil {
		return res, fmt.Errorf("sync %s: %w", staging, err)
	}
	s.release()
	if err := st.publish(into); err != nil {
		return res, err
	}
	keep = true
	if err := syncDir(parent); err != nil {
		return res, fmt.Errorf("sync %s: %w", parent, err)
	}
	res.Extracted = true
	return res, nil
}

// repositoryUnusable says whether the only check that failed is the repository check (--repo), and it could
// not be made (a commit not in the clone, no repository): the archive was read whole and nothing mismatched, so
// the bundle follows the rule of an unsigned one (--allow-unverified). A repository check that found a
// difference makes the bundle FAILED, which is never extracted.
func repositoryUnusable(rep *verify.Report) bool {
	if len(rep.Failures) != 1 || rep.Failures[0] != verify.CheckRepository {
		return false
	}
	for _, c := range rep.Checks {
		if c.Check == verify.CheckRepository {
			return c.Status == verify.CannotCheck
		}
	}
	return false
}

// stagingSink writes each member into the staging folder as the verifier reads it.
//
// It keeps the folders of the last member open, one os.Root per level (open), so a member beside or below the
// last one costs a constant number of system calls, not one lookup per folder of its name: extracting 2,000
// members of one folder 30 deep no longer walks 30 folders for each (issue 25, 14). Names are at most
// verify.MaxNameDepth parts, so at most that many folders are open, and a member anywhere costs at most that
// many opens.
type stagingSink struct {
	root  *os.Root
	open  []openDir       // open[0] is the staging folder itself; open[i] the folder i levels down
	dirs  map[string]bool // folders made, by slash path
	cur   *os.File
	files int
	bytes int64
	err   error // the first write error, which stops everything
	// opened counts the folders opened, for the test that holds extraction to the cost above.
	opened int
}

// openDir is one open folder of the current path: its slash path below the staging folder and its root.
type openDir struct {
	path string
	root *os.Root
}

func newStagingSink(root *os.Root) *stagingSink {
	return &stagingSink{root: root, open: []openDir{{".", root}}, dirs: map[string]bool{}}
}

func (s *stagingSink) Member(name string, size int64) (io.Writer, error) {
	if err := s.close(); err != nil {
		return nil, err
	}
	dir, base := path.Split(name)
	d, err := s.enter(strings.TrimSuffix(dir, "/"), true)
	if err != nil {
		s.err = err
		return nil, err
	}
	f, err := d.OpenFile(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
	if err == nil {
		if err = checkCreated(d, base, f); err != nil {
			f.Close()
		}
	}
	if errors.Is(err, os.ErrExist) {
		err = fmt.Errorf("create %.200q: another member already has this name on this file system (letter case or Unicode normalization): %w", name, bare(err))
	} else if err != nil {
		err = fmt.Errorf("create %.200q: %w", name, bare(err))
	}
	if err != nil {
		s.err = err
		return nil, err
	}
	s.cur = f
	s.files++
	return s, nil
}

// enter makes dir ("" for the staging folder) the deepest open folder and returns it: the open folders it
// shares with the last member's are kept, the others closed, and the rest opened one level at a time, each
// made (mode 0755) first when create is set and it is not there yet. An existing folder must be one we made.
func (s *stagingSink) enter(dir string, create bool) (*os.Root, error) {
	var parts []string
	if dir != "" && dir != "." {
		parts = strings.Split(dir, "/")
	}
	keep := 1
	for keep < len(s.open) && keep-1 < len(parts) && path.Base(s.open[keep].path) == parts[keep-1] {
		keep++
	}
	s.closeFrom(keep)
	for i := keep - 1; i < len(parts); i++ {
		parent := s.open[len(s.open)-1]
		p := path.Join(parent.path, parts[i])
		if create && !s.dirs[p] {
			if err := parent.root.Mkdir(parts[i], 0o755); err != nil {
				if errors.Is(err, os.ErrExist) {
					return nil, fmt.Errorf("create folder %.200q: a member already has this name on this file system: %w", p, bare(err))
				}
				return nil, fmt.Errorf("create folder %.200q: %w", p, bare(err))
			}
			s.dirs[p] = true
		}
		r, err := parent.root.OpenRoot(parts[i])
		if err != nil {
			return nil, fmt.Errorf("open folder %.200q: %w", p, bare(err))
		}
		s.opened++
		s.open = append(s.open, openDir{p, r})
	}
	return s.open[len(s.open)-1].root, nil
}

// closeFrom closes the open folders from level i down; the staging folder (level 0) stays open.
func (s *stagingSink) closeFrom(i int) {
	for j := len(s.open) - 1; j >= max(i, 1); j-- {
		s.open[j].root.Close()
	}
	s.open = s.open[:max(i, 1)]
}

// Write writes to the member being extracted.
func (s *stagingSink) Write(p []byte) (int, error) {
	n, err := s.cur.Write(p)
	s.bytes += int64(n)
	if err != nil {
		err = fmt.Errorf("write %.200q: %w", s.cur.Name(), bare(err))
		if s.err == nil {
			s.err = err
		}
	}
	return n, err
}

// close fsyncs and closes the member being written.
func (s *stagingSink) close() error {
	f := s.cur
	if f == nil {
		return nil
	}
	s.cur = nil
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		err = fmt.Errorf("write %.200q: %w", f.Name(), bare(err))
		if s.err == nil {
			s.err = err
		}
	}
	return err
}

// syncDirs fsyncs every folder made, then the staging folder itself, so the entries survive a crash once the
// rename is visible. The folders are visited in sorted order, so each is reached from its parent's open root.
func (s *stagingSink) syncDirs() error {
	dirs := make([]string, 0, len(s.dirs)+1)
	for d := range s.dirs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	dirs = append(dirs, ".")
	defer s.closeFrom(1)
	for _, d := range dirs {
		r, err := s.enter(d, false)
		if err != nil {
			return err
		}
		f, err := r.Open(".")
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil && !errors.Is(err, syscall.EINVAL) {
			return fmt.Errorf("%s: %w", d, err)
		}
	}
	return nil
}

// release closes every folder the sink holds open but the staging folder.
func (s *stagingSink) release() { s.closeFrom(1) }

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// DefaultInto is the destination when none is given: the archive's file name without .tar.gz (or .tgz), in dir.
func DefaultInto(dir, archive string) string {
	base := filepath.Base(archive)
	for _, ext := range []string{".tar.gz", ".tgz"} {
		if b, ok := strings.CutSuffix(base, ext); ok && b != "" {
			return filepath.Join(dir, b)
		}
	}
	return filepath.Join(dir, base+".extracted")
}

// bare drops the path an *os.PathError repeats: the message names the member once, shortened.
func bare(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Files is Extract of the files f names, opened as verify opens them (verify.Open). unusable, when set, is a
// report that the inputs cannot be used, made before (an SSH trust that does not read); then, as when f cannot
// be opened, nothing is read or extracted and the result carries that report.
func Files(f verify.Files, unusable *verify.Report, opts Options) (*Result, error) {
	var in *verify.Inputs
	if unusable == nil {
		in, unusable = verify.Open(f)
	}
	if unusable != nil {
		return &Result{Report: unusable, Into: opts.Into, Reason: "the inputs could not be used: nothing was extracted"}, nil
	}
	defer in.Archive.Close()
	return Extract(in.Archive, in.Sig, in.Keys, opts)
}
