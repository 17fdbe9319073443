package gitext

import (
	"os"
	"path/filepath"
	"strings"
)

// UserConfig is the configuration `git config` reads outside any repository: the system and global files, then
// the values given on the command line (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT). Verifiers read it for
// settings such as gpg.ssh.allowedSignersFile when an auditor runs them outside a repository.
func UserConfig(getenv func(string) string) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := &Config{values: map[string][]string{}}
	for _, f := range userConfigFiles(getenv) {
		if err := c.readFile(f); err != nil {
			return nil, err
		}
	}
	if err := c.readEnv(getenv); err != nil {
		return nil, err
	}
	return c, nil
}

// ExpandHome puts $HOME, from getenv (the run's environment, not the process's), in place of a leading "~/",
// as git does for a path in its configuration (core.hooksPath, user.signingKey); ok is false when p starts
// with "~/" and HOME is not set (p is then returned as it is).
func ExpandHome(p string, getenv func(string) string) (string, bool) {
	rest, found := strings.CutPrefix(p, "~/")
	if !found {
		return p, true
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	home := getenv("HOME")
	if home == "" {
		return p, false
	}
	return filepath.Join(home, rest), true
}
