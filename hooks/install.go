package hooks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
)

// ErrAsideTaken is returned when a foreign hook stands where ours goes and the aside name already holds another
// one: moving it aside would destroy the earlier hook, so a person has to choose.
var ErrAsideTaken = errors.New("an earlier hook is already moved aside")

// Change is what Install or Uninstall did, for reporting.
type Change struct {
	Status  Status // after the change
	Changed bool
	// Done lists what happened, one sentence each, in order.
	Done []string
}

// Install puts our script at the named hook. A foreign hook is moved aside (renamed, so its bytes, mode and
// symlink-ness survive) and run first by ours. Installing over our own current script changes nothing; over an
// older version of it rewrites it. With force, a foreign hook found while another is already moved aside
// replaces the moved-aside one (which is deleted), because the one at the hook's name is what git ran last;
// without force that case is ErrAsideTaken.
func Install(f Folder, name string, force bool) (Change, error) {
	if err := os.MkdirAll(f.Path, 0o755); err != nil {
		return Change{}, fmt.Errorf("create hooks folder %s: %w", f.Path, err)
	}
	st, err := Inspect(f, name)
	if err != nil {
		return Change{}, err
	}
	var ch Change
	switch st.State {
	case Current:
		ch.Status = st
		ch.Done = append(ch.Done, fmt.Sprintf("%s is already installed at %s", name, st.Path))
		return ch, nil
	case Foreign:
		if st.Aside != "" {
			if !force {
				return Change{Status: st}, fmt.Errorf("%w: %s is not git-bernstein's, and %s holds an earlier hook; "+
					"move one of them away, or run 'git bernstein hooks install --force' to keep %s (what git runs now) "+
					"and delete %s", ErrAsideTaken, st.Path, st.Aside, st.Path, st.Aside)
			}
			if err := os.Remove(st.Aside); err != nil {
				return Change{Status: st}, fmt.Errorf("remove %s: %w", st.Aside, err)
			}
			ch.Done = append(ch.Done, fmt.Sprintf("deleted the earlier moved-aside hook %s (--force)", st.Aside))
		}
		aside := st.Path + AsideSuffix
		if err := os.Rename(st.Path, aside); err != nil {
			return ch, fmt.Errorf("move %s aside to %s: %w", st.Path, aside, err)
		}
		ch.Done = append(ch.Done, fmt.Sprintf("moved the existing %s hook to %s; ours runs it first", name, aside))
	}
	if err := atomicfile.WriteFile(st.Path, Script(name), 0o755); err != nil {
		return ch, fmt.Errorf("write hook %s: %w", st.Path, err)
	}
	verb := "installed"
	if st.State == Outdated {
		verb = "updated"
	}
	ch.Done = append(ch.Done, fmt.Sprintf("%s %s at %s", verb, name, st.Path))
	ch.Changed = true
	ch.Status, err = Inspect(f, name)
	return ch, err
}

// Uninstall removes our script and puts back the hook it replaced, exactly as it was. A hook that is not ours
// is never touched.
func Uninstall(f Folder, name string) (Change, error) {
	st, err := Inspect(f, name)
	if err != nil {
		return Change{}, err
	}
	var ch Change
	switch st.State {
	case Foreign:
		ch.Status = st
		if st.Aside != "" {
			return ch, fmt.Errorf("%s is not git-bernstein's, so it stays; %s is an earlier hook git-bernstein moved aside: "+
				"keep whichever you want and delete the other", st.Path, st.Aside)
		}
		ch.Done = append(ch.Done, fmt.Sprintf("%s at %s is not git-bernstein's: left alone", name, st.Path))
		return ch, nil
	case Current, Outdated:
		if err := os.Remove(st.Path); err != nil {
			return ch, fmt.Errorf("remove hook %s: %w", st.Path, err)
		}
		ch.Changed = true
		ch.Done = append(ch.Done, fmt.Sprintf("removed %s from %s", name, filepath.Dir(st.Path)))
	}
	if st.Aside != "" {
		if err := os.Rename(st.Aside, st.Path); err != nil {
			return ch, fmt.Errorf("put %s back as %s: %w", st.Aside, st.Path, err)
		}
		ch.Changed = true
		ch.Done = append(ch.Done, fmt.Sprintf("restored the earlier hook %s", st.Path))
	}
	if !ch.Changed {
		ch.Done = append(ch.Done, fmt.Sprintf("%s is not installed at %s: nothing to do", name, st.Path))
	}
	ch.Status, err = Inspect(f, name)
	return ch, err
}
