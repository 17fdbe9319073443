package gitext

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// The configuration cache keeps `git config`'s answer for the keys one caller reads, so that a run whose
// configuration files have not changed starts no git: a millisecond and a half of a warm `commits` run of four.
// Its format and the rules for trusting it are in doc.go ("The configuration cache").

const (
	configCacheMagic = "bernstein config cache 1\n"
	// maxConfigCache bounds the cache file; it holds a few keys.
	maxConfigCache = 1 << 20
	// maxScannedConfig bounds a configuration file read for [include]: a larger one is not cached.
	maxScannedConfig = 1 << 20
	// configRacyWindow: a file changed this recently may change again within the same timestamp tick with the
	// same size, where no stat can see it; its answer is used but not cached.
	configRacyWindow = 2 * time.Second
)

// WithConfigCache has Configuration answer from a cache of git's answer, kept under the git folder
// (ConfigCachePath), when no file git read it from has changed since, for the keys keep accepts (normalised:
// section and variable lower-cased); otherwise git is asked as always and the cache written. A configuration
// read from the cache holds only those keys: asking it for another records the key (Config.Unanswered), and
// Repo.Unreadable then says so, so that the caller can tell it must not trust what it made with it and start
// over without the cache.
func WithConfigCache(keep func(key string) bool) Option {
	return func(r *Repo) { r.configKeep = keep }
}

// ConfigCachePath is where WithConfigCache keeps the configuration of r's worktree.
func ConfigCachePath(r *Repo) string { return filepath.Join(r.GitDir, "bernstein", "config-cache") }

// outsideKeys records the first key a cached Config was asked for and does not hold.
type outsideKeys struct {
	mu    sync.Mutex
	first string
}

// Unanswered is the first key this configuration was asked for and does not hold, or "". Only a Config read
// from the cache (WithConfigCache) holds less than git's whole configuration.
func (c *Config) Unanswered() string {
	if c.outside == nil {
		return ""
	}
	c.outside.mu.Lock()
	defer c.outside.mu.Unlock()
	return c.outside.first
}

// holds reports whether c holds the normalised key k; a cached Config records one it does not.
func (c *Config) holds(k string) bool {
	if c.keep == nil || c.keep(k) {
		return true
	}
	c.outside.mu.Lock()
	if c.outside.first == "" {
		c.outside.first = k
	}
	c.outside.mu.Unlock()
	return false
}

// cachedConfig is Configuration with WithConfigCache: the cache's answer while it holds, else git's, cached
// when it can be.
func (r *Repo) cachedConfig() (*Config, error) {
	path := ConfigCachePath(r)
	env := configEnv(r.getenv)
	if c := r.readConfigCache(path, env); c != nil {
		return c, nil
	}
	full, err := r.Config(r.getenv)
	if err != nil {
		return nil, err
	}
	// Written on the side (it asks git once more and writes a file: 2.5 ms of a first run's 30 on go-git's
	// history); WaitConfigCache waits for it. One that is not written costs the next run its git child, nothing
	// else: the reason is dropped.
	r.configSaved = make(chan struct{})
	go func() {
		defer close(r.configSaved)
		_ = r.writeConfigCache(path, env, full)
	}()
	return full, nil
}

// WaitConfigCache waits until the configuration cache that Configuration started writing (WithConfigCache) is
// written or given up: call it, once Configuration has returned, before the process exits or execs, which
// would leave a temporary file behind.
func (r *Repo) WaitConfigCache() {
	if r.configSaved != nil {
		<-r.configSaved
	}
}

// readConfigCache returns the cached configuration when the file at path is whole and was made from the git,
// environment and files there are now; nil otherwise.
func (r *Repo) readConfigCache(path string, env []string) *Config {
	if !configCacheSupported {
		return nil
	}
	data, err := readCacheFile(path, maxConfigCache)
	if err != nil {
		return nil
	}
	files, sum, entries, ok := parseConfigCache(data)
	if !ok {
		return nil
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil
	}
	if now, ok := r.configCacheKey(git, env, files, time.Time{}); !ok || now != sum {
		return nil
	}
	c := &Config{values: map[string][]string{}, keep: r.configKeep, outside: &outsideKeys{}}
	for _, e := range strings.Split(entries, "\x00") {
		if e != "" {
			k, v, _ := strings.Cut(e, "\n")
			c.add(k, v)
		}
	}
	r.unreadMu.Lock()
	r.cached = c
	r.unreadMu.Unlock()
	return c
}

// writeConfigCache caches full's kept keys unless something would make them untrustworthy later: an
// [include] anywhere (its file, and what its condition depends on, would go unwatched), a credential in a kept
// value (the cache is a copy), a file changed within the racy window.
func (r *Repo) writeConfigCache(path string, env []string, full *Config) error {
	if !configCacheSupported {
		return nil
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return err
	}
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); (k == "GIT_CONFIG_PARAMETERS" || strings.HasPrefix(k, "GIT_CONFIG_KEY_")) &&
			mentionsInclude([]byte(v)) {
			return errors.New("the configuration given in the environment may include files")
		}
	}
	var entries strings.Builder
	for _, k := range full.keys() {
		if !r.configKeep(k) {
			continue
		}
		for _, v := range full.values[k] {
			if holdsCredentials(v) {
				return fmt.Errorf("%s holds credentials", k)
			}
			entries.WriteString(k + "\n" + v + "\x00")
		}
	}
	dir := r.configDir()
	var files []string
	for _, f := range globalConfigFiles(r.getenv) {
		files = append(files, absFrom(dir, f))
	}
	files = append(files, filepath.Join(r.CommonDir, "config"), filepath.Join(r.GitDir, "config.worktree"))
	if err := scanForIncludes(files); err != nil {
		return err
	}
	racyAfter := time.Now().Add(-r.configRacy)
	if _, ok := r.configCacheKey(git, env, files, racyAfter); !ok {
		return errors.New("a configuration file changed too recently to cache, or cannot be read")
	}
	// The file is made before git is asked where its system file is, which costs a child: a repository whose
	// git folder cannot be written (a read-only mount) pays no more than it did before the cache.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	out, err := atomicfile.Create(path, 0o600)
	if err != nil {
		return err
	}
	defer out.Abort()
	system, err := r.systemConfigPath(git)
	if err != nil {
		return err
	}
	if err := scanForIncludes([]string{system}); err != nil {
		return err
	}
	files = append([]string{system}, files...)
	sum, ok := r.configCacheKey(git, env, files, racyAfter)
	if !ok {
		return errors.New("a configuration file changed too recently to cache, or cannot be read")
	}
	var b bytes.Buffer
	b.WriteString(configCacheMagic)
	for _, f := range files {
		b.WriteString("file " + f + "\n")
	}
	b.WriteString("sum " + sum + "\n\n")
	b.WriteString(entries.String())
	check := sha256.Sum256(b.Bytes())
	b.WriteString("end " + hex.EncodeToString(check[:]) + "\n")
	if _, err := out.Write(b.Bytes()); err != nil {
		return err
	}
	return out.Commit(false)
}

// parseConfigCache reads a cache file written by writeConfigCache; ok is false for anything else.
func parseConfigCache(data []byte) (files []string, sum, entries string, ok bool) {
	body, ok := bytes.CutPrefix(data, []byte(configCacheMagic))
	if !ok || len(data) < len(configCacheMagic)+len("end \n")+2*sha256.Size {
		return nil, "", "", false
	}
	tail := len(data) - len("end \n") - 2*sha256.Size
	end := string(data[tail:])
	check := sha256.Sum256(data[:tail])
	if end != "end "+hex.EncodeToString(check[:])+"\n" {
		return nil, "", "", false
	}
	body = body[:len(body)-(len(data)-tail)]
	header, rest, ok := strings.Cut(string(body), "\n\n")
	if !ok {
		return nil, "", "", false
	}
	lines := strings.Split(header, "\n")
	for _, l := range lines[:len(lines)-1] {
		f, ok := strings.CutPrefix(l, "file ")
		if !ok || !filepath.IsAbs(f) {
			return nil, "", "", false
		}
		files = append(files, f)
	}
	sum, ok = strings.CutPrefix(lines[len(lines)-1], "sum ")
	if !ok || len(sum) != 2*sha256.Size {
		return nil, "", "", false
	}
	return files, sum, rest, true
}

// configCacheKey is the digest of what git's answer depends on: the git that gave it, the repository's
// folders, the environment git config reads (configEnv) and each file's identity and times (statKey). ok is
// false when a file cannot be stat'ed, or changed after racyAfter (when not zero).
func (r *Repo) configCacheKey(git string, env, files []string, racyAfter time.Time) (string, bool) {
	h := sha256.New()
	gitKey, _, ok := statKey(git)
	if !ok {
		return "", false
	}
	fmt.Fprintf(h, "%s%s\x00%s\x00%s\x00%s\x00%s\x00", configCacheMagic, git, gitKey, r.GitDir, r.CommonDir,
		r.WorkTree)
	for _, kv := range env {
		fmt.Fprintf(h, "env %s\x00", kv)
	}
	for _, f := range files {
		key, changed, ok := statKey(f)
		if !ok || !racyAfter.IsZero() && changed.After(racyAfter) {
			return "", false
		}
		fmt.Fprintf(h, "file %s\x00%s\x00", f, key)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// systemConfigPath asks git where it reads its system configuration file: `git config --system --edit` with
// echo as the editor prints the path (GIT_CONFIG_SYSTEM's, else the one git was built with) and edits nothing.
func (r *Repo) systemConfigPath(git string) (string, error) {
	cmd := r.configCommand(git, configEnv(r.getenv), "config", "--system", "--edit")
	cmd.Env = append(cmd.Env, "GIT_EDITOR=echo")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git config --system --edit: %w", err)
	}
	p, ok := strings.CutSuffix(string(out), "\n")
	if !ok || p == "" || strings.ContainsAny(p, "\n\x00") {
		return "", fmt.Errorf("git config --system --edit printed %q, not a path", out)
	}
	return absFrom(r.configDir(), p), nil
}

// scanForIncludes refuses files that may hold [include] or [includeIf]; missing files pass, and so does
// /dev/null (GIT_CONFIG_GLOBAL=/dev/null is the usual way to read no global file), which git reads as empty.
// Any other file that is not a regular one (a FIFO git would read from) is refused.
func scanForIncludes(files []string) error {
	for _, f := range files {
		if f == os.DevNull {
			continue
		}
		data, err := regularfile.ReadFile(f, "configuration file", maxScannedConfig)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return err
		case mentionsInclude(data):
			return fmt.Errorf("%s may include other files", f)
		}
	}
	return nil
}

// mentionsInclude is true for text that names include anywhere, in any case: a section header, a comment, a
// value. Refusing a few files that only mention it is cheaper than parsing them as git does.
func mentionsInclude(data []byte) bool {
	return bytes.Contains(bytes.ToLower(data), []byte("include"))
}

// holdsCredentials is true for a value that is a URL with a password, or an http or ftp URL with a user (a
// token is often one): a remote's URL, a store's, an API's.
func holdsCredentials(value string) bool {
	if !strings.Contains(value, "@") {
		return false
	}
	u, err := url.Parse(value)
	if err != nil || u.User == nil {
		return strings.Contains(value, "://") // an @ we could not place: assume the worst
	}
	_, password := u.User.Password()
	switch u.Scheme {
	case "http", "https", "ftp", "ftps":
		return true
	}
	return password
}

// keys are c's keys, sorted.
func (c *Config) keys() []string {
	ks := make([]string, 0, len(c.values))
	for k := range c.values {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
