package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// State is what sits where git looks for a hook.
type State string

const (
	Absent   State = "absent"   // no hook: git runs nothing
	Current  State = "current"  // our script, as this version writes it
	Outdated State = "outdated" // our script from another version: install rewrites it
	Foreign  State = "foreign"  // somebody else's hook (a symlink always counts as foreign: we never write one)
)

// Status describes one hook in a folder.
type Status struct {
	Folder Folder
	Name   string
	Path   string
	State  State
	// Aside is the path of a hook we moved aside and call first; "" when there is none.
	Aside string
	// AsideExecutable says whether git (and so our script) would run the moved-aside hook.
	AsideExecutable bool
}

// Inspect reports the named hook in f without changing anything.
func Inspect(f Folder, name string) (Status, error) {
	st := Status{Folder: f, Name: name, Path: filepath.Join(f.Path, name)}
	state, err := stateOf(st.Path, name)
	if err != nil {
		return st, err
	}
	st.State = state
	aside := st.Path + AsideSuffix
	if _, err := os.Lstat(aside); err == nil {
		st.Aside = aside
		if target, err := os.Stat(aside); err == nil {
			st.AsideExecutable = target.Mode().IsRegular() && target.Mode()&0o111 != 0
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return st, fmt.Errorf("inspect %s: %w", aside, err)
	}
	return st, nil
}

func stateOf(path, name string) (State, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Absent, nil
	}
	if err != nil {
		return "", fmt.Errorf("inspect hook %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return Foreign, nil
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read hook %s: %w", path, err)
	}
	switch {
	case bytes.Equal(content, Script(name)) && fi.Mode()&0o111 != 0:
		return Current, nil
	case IsOurs(content):
		return Outdated, nil
	}
	return Foreign, nil
}

// Describe is the status as one line for people.
func (s Status) Describe() string {
	var what string
	switch s.State {
	case Absent:
		what = "not installed (no hook)"
	case Current:
		what = "installed"
	case Outdated:
		what = "installed, from another git-bernstein version (run 'git bernstein hooks install' to update it)"
	case Foreign:
		what = "not installed: the hook there is not git-bernstein's"
	}
	line := fmt.Sprintf("%s: %s at %s", s.Name, what, s.Path)
	if s.Aside != "" {
		run := "runs it first"
		if !s.AsideExecutable {
			run = "not executable, so git would not run it either"
		}
		if s.State == Current || s.State == Outdated {
			line += fmt.Sprintf("; the earlier hook is kept at %s (%s)", s.Aside, run)
		} else {
			line += fmt.Sprintf("; an earlier hook moved aside by git-bernstein is at %s", s.Aside)
		}
	}
	return line
}
