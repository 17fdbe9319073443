package gitext

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/backend"
)

// Commit reads commit h: from the packs or its loose file, else (in a partial clone) from the promisor remote.
// An object that is not a commit is not found, as go-git's storage answers a read of the wrong type.
func (r *Repo) Commit(h Hash) (*Commit, error) {
	pr, err := r.packs()
	if err != nil {
		return nil, err
	}
	typ, data, err := pr.RawObject(h)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.CommitObject {
		return nil, plumbing.ErrObjectNotFound
	}
	return decodeCommit(h, data)
}

// Remotes lists the remotes the repository's own config file names ([remote "<name>"]), sorted. It fails where
// go-git's reading of that file fails (a fetch refspec, branch section or pack.window it refuses), which is
// what this listing was before gitext read the file itself.
func (r *Repo) Remotes() ([]string, error) {
	f, err := os.Open(filepath.Join(r.CommonDir, "config"))
	if errors.Is(err, os.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type sub struct{ section, name string }
	var subs []sub                          // in file order
	values := map[sub]map[string][]string{} // lower-cased key → values, in file order
	err = readConfigFile(f, func(section, subsection, key, value string) {
		s := sub{strings.ToLower(section), subsection}
		if values[s] == nil {
			values[s] = map[string][]string{}
			subs = append(subs, s)
		}
		k := strings.ToLower(key)
		values[s][k] = append(values[s][k], value)
	})
	if err != nil {
		return nil, err
	}
	last := func(s sub, key string) string {
		if vs := values[s][key]; len(vs) > 0 {
			return vs[len(vs)-1]
		}
		return ""
	}
	if w := last(sub{"pack", ""}, "window"); w != "" {
		if _, err := strconv.ParseUint(w, 10, 32); err != nil {
			return nil, err
		}
	}
	var names []string
	for _, s := range subs {
		switch {
		case s.name == "":
		case s.section == "branch":
			if err := validBranchSection(s.name, last(s, "merge"), last(s, "rebase")); err != nil {
				return nil, err
			}
		case s.section == "remote":
			for _, spec := range values[s]["fetch"] {
				if !validRefSpec(spec) {
					return nil, errors.New("malformed refspec")
				}
			}
			names = append(names, s.name)
		}
	}
	sort.Strings(names)
	return names, nil
}

// validBranchSection is go-git's check of a [branch "<name>"] section (config.Branch.Validate).
func validBranchSection(name, merge, rebase string) error {
	if merge != "" && !RefName(merge).IsBranch() {
		return errors.New("branch config: invalid merge")
	}
	switch rebase {
	case "", "true", "interactive", "false":
	default:
		return errors.New("branch config: rebase must be one of 'true' or 'interactive'")
	}
	return plumbing.NewBranchReferenceName(name).Validate()
}

// validRefSpec is go-git's check of a fetch refspec (config.RefSpec.Validate): one ":" not at the end, and
// at most one "*", on both sides or neither.
func validRefSpec(spec string) bool {
	if strings.Count(spec, ":") != 1 {
		return false
	}
	sep := strings.Index(spec, ":")
	if sep == len(spec)-1 {
		return false
	}
	ws, wd := strings.Count(spec[:sep], "*"), strings.Count(spec[sep+1:], "*")
	return ws == wd && ws < 2
}

// Backend hands gitext's own sub-packages (objstore, patch, revparse) the folders, gitext's readers and what
// gitext/objstore attaches. Its key is of a type only packages under gitext/ can name (gitext/internal/backend), so
// no other package can call it.
func (r *Repo) Backend(backend.Key) *backend.Repo { return &r.be }
