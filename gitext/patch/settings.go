package patch

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// renameMode is diff.renames: off, renames (-M, git's default since 2.9), or copies too (-C).
type renameMode int

const (
	renamesOff renameMode = iota
	renamesOn
	renamesAndCopies
)

// settings are the repository settings a part depends on, read once per series.
type settings struct {
	attrs       *attributes
	drivers     *drivers
	renames     renameMode
	renameLimit int
}

// driverFor is the diff driver of one side (diff.c diff_filespec_load_driver: only regular files have one).
func (s *settings) driverFor(sd side) driver {
	if s == nil || !sd.exists() || kind(sd.mode) != kind(0o100644) {
		return defaultDriver
	}
	return s.drivers.lookup(s.attrs.diff(sd.path))
}

// configGet reads one configuration value: git's `section.sub.key` (sub "" for none), the last one set.
type configGet func(section, sub, key string) (string, bool)

// repoSettings reads diff.renames, diff.renameLimit, the `diff.<driver>.*` settings and the attribute files the
// way git format-patch does in this repository: .gitattributes from the worktree (git's "checkin" direction),
// $GIT_DIR/info/attributes and core.attributesFile (~/ and its default under $XDG_CONFIG_HOME or $HOME from
// getenv). get reads the configuration: gitext.Repo.Configuration's, as the user's git reads it (includes,
// `git -c`), for the repositories callers give; go-git's own reading for the tests' go-git repositories.
// workTree is the top of the working tree ("" for a bare repository); info/attributes is read from commonDir,
// the git folder all worktrees share.
func repoSettings(workTree, commonDir string, get configGet, getenv func(string) string) *settings {
	s := &settings{renames: renamesOn, renameLimit: 1000, drivers: &drivers{}, attrs: &attributes{}}
	if getenv == nil {
		getenv = os.Getenv
	}
	if v, ok := get("diff", "", "renames"); ok {
		switch strings.ToLower(v) {
		case "copies", "copy":
			s.renames = renamesAndCopies
		case "false", "no", "off", "0":
			s.renames = renamesOff
		}
	}
	if v, ok := get("diff", "", "renameLimit"); ok {
		if n, err := strconv.Atoi(v); err == nil {
			s.renameLimit = n
		}
	}
	s.drivers.config = func(name, key string) (string, bool) { return get("diff", name, key) }

	readIn := func(dir, name string) ([]byte, bool) {
		if dir == "" {
			return nil, false
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		return data, err == nil
	}
	s.attrs.read = func(name string) ([]byte, bool) { return readIn(workTree, name) }
	if data, found := readIn(commonDir, "info/attributes"); found {
		s.attrs.info = parseAttrFile("", string(data))
	}
	global, ok := get("core", "", "attributesFile")
	if !ok {
		global = gitext.XDGGitFile("attributes", getenv)
	} else if expanded, ok := gitext.ExpandHome(global, getenv); ok {
		global = expanded
	} else {
		global = "" // ~/ with no HOME: git reads no such file either
	}
	if global != "" {
		if data, err := os.ReadFile(global); err == nil {
			s.attrs.global = parseAttrFile("", string(data))
		}
	}
	return s
}

// settingsOf reads r's diff settings from its configuration as the user's git reads it (r.Configuration), with
// the run's environment. When git's reading failed (the CLI stops on that error before it diffs anything) the
// defaults stand, which is also what the patch-id cache key then records.
func settingsOf(r *gitext.Repo) *settings {
	cfg, err := r.Configuration()
	if err != nil {
		return repoSettings(r.WorkTree, r.CommonDir, func(string, string, string) (string, bool) { return "", false }, r.Getenv)
	}
	return repoSettings(r.WorkTree, r.CommonDir, gitextConfig(cfg), r.Getenv)
}

// gitextConfig reads a gitext.Config: the configuration as the user's git reads it.
func gitextConfig(cfg *gitext.Config) configGet {
	return func(section, sub, key string) (string, bool) {
		name := section + "." + key
		if sub != "" {
			name = section + "." + sub + "." + key
		}
		return cfg.Get(name)
	}
}
