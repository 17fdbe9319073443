package gitext

import "os"

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
