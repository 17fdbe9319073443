package gitext

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Config is git's configuration as `git config` sees it: system, global, repository and worktree files with
// their [include] and [includeIf] files, then values given on the command line (`git -c k=v bernstein …` passes
// them in GIT_CONFIG_PARAMETERS). go-git's own reader knows only the repository file, and nothing of includes or
// the environment.
type Config struct {
	values map[string][]string // normalised key → values in file order, later files last
	// keep, when not nil, says which keys values holds: a configuration from the cache (WithConfigCache),
	// which records in outside the first other key it is asked for.
	keep    func(key string) bool
	outside *outsideKeys
}

// maxConfigList bounds what `git config --list` may print: configuration is small, and a runaway include is
// an error, not memory.
const maxConfigList = 16 << 20

// Config reads the configuration for r. getenv is os.Getenv outside tests. It asks the user's git (`git config
// --null --list`, in this repository), the one reader that follows includes exactly as git does (includeIf
// gitdir:, onbranch:, hasconfig:remote.*.url: and whatever later versions add); without a git on PATH it reads
// the files itself, without includes.
func (r *Repo) Config(getenv func(string) string) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c, err := r.gitConfig(getenv)
	if !errors.Is(err, exec.ErrNotFound) {
		return c, err
	}
	return r.readConfig(getenv)
}

// Configuration is git's configuration for this repository as Config reads it, with the environment Discover
// was given, read once: the session's settings and the patch writer's diff settings (gitext/patch) come from the
// same read, so an [include]d diff.renames counts for a patch as an [include]d bernstein.tracker does.
func (r *Repo) Configuration() (*Config, error) {
	r.configOnce.Do(func() {
		if r.configKeep != nil {
			r.config, r.configErr = r.cachedConfig()
			return
		}
		r.config, r.configErr = r.Config(r.getenv)
	})
	return r.config, r.configErr
}

// Getenv reads the environment Discover was given (the run's, which tests and callers may give apart from the
// process's).
func (r *Repo) Getenv(key string) string { return r.getenv(key) }

// gitConfigEnv are the variables that decide what `git config` reads; the child gets getenv's values for them
// (tests give an environment of their own) and the process's for everything else.
var gitConfigEnv = []string{"HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM",
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "PATH"}

// configEnv is what git config reads from the environment, as getenv gives it: "K=V" for each of
// gitConfigEnv that is set, then the GIT_CONFIG_COUNT pairs.
func configEnv(getenv func(string) string) []string {
	var env []string
	for _, k := range gitConfigEnv {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	if n, err := strconv.Atoi(getenv("GIT_CONFIG_COUNT")); err == nil {
		for i := range max(0, min(n, 10000)) {
			for _, k := range []string{fmt.Sprintf("GIT_CONFIG_KEY_%d", i), fmt.Sprintf("GIT_CONFIG_VALUE_%d", i)} {
				env = append(env, k+"="+getenv(k))
			}
		}
	}
	return env
}

// configDir is the folder git config runs in for r, against which relative paths in its environment resolve.
func (r *Repo) configDir() string {
	if r.WorkTree != "" {
		return r.WorkTree
	}
	return r.GitDir
}

// configCommand is git with args for this repository, with the process's environment but for every GIT_*
// variable and those of configEnv, whose values come from env instead.
func (r *Repo) configCommand(git string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(git, args...)
	cmd.Dir = r.configDir()
	cmd.Env = []string{"GIT_DIR=" + r.GitDir}
	if r.WorkTree != "" {
		cmd.Env = append(cmd.Env, "GIT_WORK_TREE="+r.WorkTree)
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(gitConfigEnv, k) || strings.HasPrefix(k, "GIT_") {
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// gitConfig runs `git config --null --list` for this repository: each entry is "key\nvalue\0", or "key\0"
// for a key given without "=" (true).
func (r *Repo) gitConfig(getenv func(string) string) (*Config, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	cmd := r.configCommand(git, configEnv(getenv), "config", "--null", "--list")
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4096}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run git config: %w", err)
	}
	data, readErr := io.ReadAll(io.LimitReader(out, maxConfigList+1))
	waitErr := cmd.Wait()
	switch {
	case readErr != nil:
		return nil, fmt.Errorf("read git config --list: %w", readErr)
	case len(data) > maxConfigList:
		return nil, fmt.Errorf("git config --list printed more than %d bytes: check your [include] files", maxConfigList)
	case waitErr != nil:
		return nil, fmt.Errorf("git config --list: %v: %s (fix the file it names; `git config --list` shows the same)",
			waitErr, strings.TrimSpace(stderr.String()))
	}
	c := &Config{values: map[string][]string{}}
	for _, e := range strings.Split(string(data), "\x00") {
		if e == "" {
			continue
		}
		k, v, _ := strings.Cut(e, "\n")
		c.add(k, v)
	}
	return c, nil
}

// limitedWriter keeps the first n bytes written to it and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		_, _ = l.w.Write(p[:k]) // the limit, not the writer's error, is what the caller reads
		l.n -= k
	}
	return len(p), nil
}

// readConfig reads the configuration files and environment itself, in git's order, without includes: what
// Config does when there is no git to ask.
func (r *Repo) readConfig(getenv func(string) string) (*Config, error) {
	c := &Config{values: map[string][]string{}}
	files := userConfigFiles(getenv)
	files = append(files, filepath.Join(r.CommonDir, "config"))
	for _, f := range files {
		if err := c.readFile(f); err != nil {
			return nil, err
		}
	}
	// extensions.worktreeConfig (git-worktree(1), "Configuration file"): <git dir>/config.worktree, this
	// worktree's own file, is read after the common one. Like every extension it counts only in the common file.
	if r.format.worktreeConfig {
		if err := c.readFile(filepath.Join(r.GitDir, "config.worktree")); err != nil {
			return nil, err
		}
	}
	if err := c.readEnv(getenv); err != nil {
		return nil, err
	}
	return c, nil
}

// userConfigFiles are the system and global configuration files, in the order git reads them.
func userConfigFiles(getenv func(string) string) []string {
	var files []string
	if getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if p := getenv("GIT_CONFIG_SYSTEM"); p != "" {
			files = append(files, p)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	return append(files, globalConfigFiles(getenv)...)
}

// globalConfigFiles are the global configuration files, in the order git reads them.
func globalConfigFiles(getenv func(string) string) []string {
	if p := getenv("GIT_CONFIG_GLOBAL"); p != "" {
		return []string{p}
	}
	var files []string
	if p := XDGGitFile("config", getenv); p != "" {
		files = append(files, p)
	}
	if home := getenv("HOME"); home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return files
}

func (c *Config) readFile(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) || os.IsPermission(err) {
		return nil // git ignores missing and unreadable optional files the same way
	}
	if err != nil {
		return fmt.Errorf("read git config %s: %w", path, err)
	}
	defer f.Close()
	err = readConfigFile(f, func(section, sub, name, value string) {
		if name == "" {
			return // a section header
		}
		if sub != "" {
			section += "." + sub
		}
		c.add(section+"."+name, value)
	})
	if err != nil {
		return fmt.Errorf("parse git config %s: %w (fix it with `git config --file %s --edit`)", path, err, path)
	}
	return nil
}

// readEnv applies GIT_CONFIG_COUNT/KEY_n/VALUE_n and GIT_CONFIG_PARAMETERS, in the order git does.
func (c *Config) readEnv(getenv func(string) string) error {
	if n := getenv("GIT_CONFIG_COUNT"); n != "" {
		count, err := strconv.Atoi(n)
		if err != nil || count < 0 {
			return fmt.Errorf("GIT_CONFIG_COUNT=%q is not a count", n)
		}
		for i := 0; i < count; i++ {
			k := getenv(fmt.Sprintf("GIT_CONFIG_KEY_%d", i))
			if k == "" {
				return fmt.Errorf("GIT_CONFIG_KEY_%d is missing", i)
			}
			c.add(k, getenv(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i)))
		}
	}
	params := getenv("GIT_CONFIG_PARAMETERS")
	words, err := shellWords(params)
	if err != nil {
		return fmt.Errorf("GIT_CONFIG_PARAMETERS: %w", err)
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		// git ≥ 2.31 writes 'key'='value' (two words joined by "="), older git 'key=value'.
		if strings.HasSuffix(w, "=") && i+1 < len(words) {
			c.add(strings.TrimSuffix(w, "="), words[i+1])
			i++
			continue
		}
		k, v, _ := strings.Cut(w, "=")
		c.add(k, v)
	}
	return nil
}

// shellWords splits git's sq_quote'd list: words in single quotes, `'\”` for a quote, `=` glued between words.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quoted:
			if ch == '\'' {
				quoted = false
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'':
			quoted, inWord = true, true
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '=' && inWord && i+1 < len(s) && s[i+1] == '\'':
			cur.WriteByte('=')
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func (c *Config) add(key, value string) {
	k := normKey(key)
	c.values[k] = append(c.values[k], value)
}

// normKey lower-cases the section and variable name; a subsection keeps its case, as in git.
func normKey(key string) string {
	first := strings.Index(key, ".")
	last := strings.LastIndex(key, ".")
	if first < 0 {
		return strings.ToLower(key)
	}
	return strings.ToLower(key[:first]) + key[first:last] + strings.ToLower(key[last:])
}

// Get returns the last value of key, as `git config key` does.
func (c *Config) Get(key string) (string, bool) {
	k := normKey(key)
	vs := c.values[k]
	if !c.holds(k) || len(vs) == 0 {
		return "", false
	}
	return vs[len(vs)-1], true
}

// GetAll returns every value of key in order, as `git config --get-all key` does.
func (c *Config) GetAll(key string) []string {
	k := normKey(key)
	if !c.holds(k) {
		return nil
	}
	return append([]string(nil), c.values[k]...)
}

// Bool reads a boolean with git's spellings; a missing key gives def.
func (c *Config) Bool(key string, def bool) (bool, error) {
	v, ok := c.Get(key)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true, nil
	case "false", "no", "off", "0":
		return false, nil
	}
	return def, fmt.Errorf("git config %s=%q is not a boolean (use true or false)", key, v)
}

func (c *Config) boolOr(key string, def bool) bool {
	b, err := c.Bool(key, def)
	if err != nil {
		return def
	}
	return b
}

// Subsections returns the subsection names of section that set variable, e.g. the X of every trailer.X.key.
func (c *Config) Subsections(section, variable string) []string {
	var out []string
	prefix, suffix := strings.ToLower(section)+".", "."+strings.ToLower(variable)
	if !c.holds(prefix + "*" + suffix) {
		return nil
	}
	for k := range c.values {
		if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, suffix) && len(k) > len(prefix)+len(suffix) {
			out = append(out, k[len(prefix):len(k)-len(suffix)])
		}
	}
	sort.Strings(out)
	return out
}

// TrailerOptions reads the git configuration that changes how trailers are parsed.
func (c *Config) TrailerOptions() TrailerOptions {
	var o TrailerOptions
	o.Separators, _ = c.Get("trailer.separators")
	for _, name := range c.Subsections("trailer", "key") {
		if k, ok := c.Get("trailer." + name + ".key"); ok {
			o.Configured = append(o.Configured, k)
		}
	}
	return o
}

// XDGGitFile is git's file name in its XDG folder: $XDG_CONFIG_HOME/git/name, else $HOME/.config/git/name; ""
// when neither variable is set. git reads its global config and attributes files there.
func XDGGitFile(name string, getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", name)
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "git", name)
	}
	return ""
}
