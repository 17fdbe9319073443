package gitext

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ErrUnsupportedRepository is wrapped by Discover's error for a repository whose format git-bernstein cannot
// read (a SHA-256 repository, reftable refs, an extension it does not know).
var ErrUnsupportedRepository = errors.New("unsupported repository format")

// repoFormat is what core.repositoryFormatVersion and extensions.* of the common config ask of a reader.
type repoFormat struct {
	worktreeConfig bool   // extensions.worktreeConfig: read <git dir>/config.worktree over the common config
	partialClone   string // extensions.partialClone: the promisor remote (older git sets it; newer only remote.*.promisor)
}

// readFormat checks the repository format the way git's setup does (gitrepository-layout, "extensions"; git's
// setup.c check_repository_format_gently): it is read from the common config file alone. Version 0 knows only
// the extensions that predate versions (noop, partialClone, preciousObjects, worktreeConfig) and ignores every
// other one, as git does; version 1 must understand each extension it sets; higher versions are refused.
// go-git does this check too, but lower-cases the names and then looks them up in camel case, so it refuses
// worktreeConfig, which every linked worktree with a sparse checkout has.
func readFormat(commonDir string) (repoFormat, error) {
	var f repoFormat
	path := filepath.Join(commonDir, "config")
	c := &Config{values: map[string][]string{}}
	if err := c.readFile(path); err != nil {
		return f, err
	}
	version := 0
	if v, ok := c.Get("core.repositoryformatversion"); ok && strings.TrimSpace(v) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return f, fmt.Errorf("%w: core.repositoryFormatVersion = %q in %s is not a number; git would not open it either",
				ErrUnsupportedRepository, v, path)
		}
		version = n
	}
	if version > 1 {
		return f, fmt.Errorf("%w: core.repositoryFormatVersion is %d in %s; git-bernstein (like git today) reads "+
			"versions 0 and 1 only", ErrUnsupportedRepository, version, path)
	}
	var names []string
	for k := range c.values {
		if name, ok := strings.CutPrefix(k, "extensions."); ok && !strings.Contains(name, ".") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var unknown []string
	for _, name := range names {
		value, _ := c.Get("extensions." + name)
		switch name {
		case "noop", "preciousobjects":
			// preciousObjects forbids deleting objects; we never delete any.
		case "worktreeconfig":
			f.worktreeConfig = c.boolOr("extensions.worktreeconfig", false)
		case "partialclone":
			f.partialClone = value
		default:
			if version == 0 {
				continue // git ignores extensions a version 0 repository could not have had
			}
			switch name {
			case "noop-v1":
			case "objectformat":
				if strings.EqualFold(value, "sha1") {
					continue
				}
				return f, fmt.Errorf("%w: this repository names its objects with %s (extensions.objectFormat = %s in %s). "+
					"git-bernstein reads SHA-1 repositories only: its git library (go-git v5) has no SHA-256 object "+
					"store, and a repository cannot be converted in place. Until it can, list a ticket's commits with "+
					"`git log --all --grep=TICKET`", ErrUnsupportedRepository, strings.ToUpper(value), value, path)
			case "refstorage":
				if strings.EqualFold(value, "files") {
					continue
				}
				return f, fmt.Errorf("%w: this repository keeps its refs in %s (extensions.refStorage = %s in %s); "+
					"git-bernstein reads the files backend only. Convert it with `git refs migrate --ref-format=files` "+
					"(git 2.46 or newer), or use a clone made with the files backend", ErrUnsupportedRepository, value, value, path)
			default:
				unknown = append(unknown, fmt.Sprintf("%s = %s", name, value))
			}
		}
	}
	if len(unknown) > 0 {
		return f, fmt.Errorf("%w: %s sets extensions.%s, which git-bernstein does not know and so cannot read safely "+
			"(git refuses a repository whose extensions it does not know in the same way). If git itself can read "+
			"this repository, a newer git-bernstein may: see its README, \"Where it works\"",
			ErrUnsupportedRepository, path, strings.Join(unknown, ", extensions."))
	}
	return f, nil
}
