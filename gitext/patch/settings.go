package patch

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
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

// repoSettings reads diff.renames, diff.renameLimit, the `diff.<driver>.*` settings and the attribute files the
// way git format-patch does in this repository: .gitattributes from the worktree (git's "checkin" direction),
// $GIT_DIR/info/attributes and core.attributesFile.
func repoSettings(repo *git.Repository) *settings {
	s := &settings{renames: renamesOn, renameLimit: 1000, drivers: &drivers{}, attrs: &attributes{}}
	cfg, err := repo.ConfigScoped(config.GlobalScope)
	if err != nil || cfg == nil || cfg.Raw == nil {
		cfg = config.NewConfig()
	}
	get := func(section, sub, key string) (string, bool) {
		if !cfg.Raw.HasSection(section) {
			return "", false
		}
		sec := cfg.Raw.Section(section)
		opts := sec.Options
		if sub != "" {
			if !sec.HasSubsection(sub) {
				return "", false
			}
			opts = sec.Subsection(sub).Options
		}
		for i := len(opts) - 1; i >= 0; i-- { // the last value wins
			if strings.EqualFold(opts[i].Key, key) {
				return opts[i].Value, true
			}
		}
		return "", false
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

	var wt billy.Filesystem
	if w, err := repo.Worktree(); err == nil {
		wt = w.Filesystem
	}
	readBilly := func(fs billy.Filesystem, name string) ([]byte, bool) {
		if fs == nil {
			return nil, false
		}
		f, err := fs.Open(name)
		if err != nil {
			return nil, false
		}
		defer f.Close()
		data, err := io.ReadAll(f)
		return data, err == nil
	}
	s.attrs.read = func(name string) ([]byte, bool) { return readBilly(wt, name) }
	if st, ok := repo.Storer.(interface{ Filesystem() billy.Filesystem }); ok {
		if data, found := readBilly(st.Filesystem(), "info/attributes"); found {
			s.attrs.info = parseAttrFile("", string(data))
		}
	}
	global, ok := get("core", "", "attributesFile")
	if !ok {
		if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
			global = filepath.Join(x, "git", "attributes")
		} else if h, err := os.UserHomeDir(); err == nil {
			global = filepath.Join(h, ".config", "git", "attributes")
		}
	} else if strings.HasPrefix(global, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			global = filepath.Join(h, global[2:])
		}
	}
	if global != "" {
		if data, err := os.ReadFile(global); err == nil {
			s.attrs.global = parseAttrFile("", string(data))
		}
	}
	return s
}
