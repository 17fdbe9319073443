package gitext

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// promisor fetches the objects a partial clone (`git clone --filter=blob:none`) left on its promisor remote.
// git itself fetches such an object when something reads it ("lazy fetch", gitrepository-layout and
// partial-clone docs); we let git do exactly that, through one `git cat-file --batch` process that is asked
// only for objects the local store lacks. It is the one place git-bernstein runs git: fetching needs git's
// transports, credentials and configuration, none of which we should reimplement.
type promisor struct {
	repo   *Repo
	remote string // the promisor remote, for messages

	mu      sync.Mutex
	started bool
	err     error // the start failed: every fetch fails the same way
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  *bufio.Reader
	stderr  *os.File // git's messages; a file, so they are complete when cat-file answers
	fetched int
}

// newPromisor returns nil unless the repository is a partial clone: extensions.partialClone names a remote
// (git before 2.40-ish writes it), or some remote.<name>.promisor is true (what `git clone --filter` writes).
func newPromisor(r *Repo, format repoFormat) *promisor {
	if format.partialClone != "" {
		return &promisor{repo: r, remote: format.partialClone}
	}
	c := &Config{values: map[string][]string{}}
	if err := c.readFile(r.CommonDir + "/config"); err != nil {
		return nil
	}
	for _, name := range c.Subsections("remote", "promisor") {
		if c.boolOr("remote."+name+".promisor", false) {
			return &promisor{repo: r, remote: name}
		}
	}
	return nil
}

// fetch returns the type and content of h, fetched by git from the promisor remote. Its errors wrap
// plumbing.ErrObjectNotFound, name the object and say what to run.
func (p *promisor) fetch(h Hash) (ObjectType, []byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.start(); err != nil {
		return 0, nil, err
	}
	if p.fetched == 0 && p.repo.notice != nil {
		p.repo.notice(fmt.Sprintf("this is a partial clone: fetching the objects it lacks from its promisor remote %q "+
			"with `git cat-file --batch`", p.remote))
	}
	mark, _ := p.stderr.Seek(0, io.SeekEnd)
	if _, err := fmt.Fprintf(p.stdin, "%s\n", h); err != nil {
		return 0, nil, p.broken(h, err)
	}
	line, err := p.stdout.ReadString('\n')
	if err == io.EOF && line == "" {
		// git stops (exit 128) when the fetch fails: the remote is unreachable.
		err = p.unavailable(h, mark)
		p.err = err
		p.close()
		return 0, nil, err
	}
	if err != nil {
		return 0, nil, p.broken(h, err)
	}
	fields := strings.Fields(line)
	if len(fields) == 2 && fields[1] == "missing" {
		return 0, nil, p.unavailable(h, mark)
	}
	if len(fields) != 3 || fields[0] != h.String() {
		return 0, nil, p.broken(h, fmt.Errorf("unexpected answer %q", strings.TrimSpace(line)))
	}
	typ, err := plumbing.ParseObjectType(fields[1])
	size, err2 := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || err2 != nil || size < 0 || size > 1<<34 {
		return 0, nil, p.broken(h, fmt.Errorf("unexpected answer %q", strings.TrimSpace(line)))
	}
	data := make([]byte, size+1) // the content and git's closing newline
	if _, err := io.ReadFull(p.stdout, data); err != nil {
		return 0, nil, p.broken(h, err)
	}
	p.fetched++
	return typ, data[:size], nil
}

func (p *promisor) start() error {
	if p.started {
		return p.err
	}
	p.started = true
	p.stderr, p.err = os.CreateTemp("", "git-bernstein-promisor-*")
	if p.err != nil {
		return fmt.Errorf("fetch from promisor remote %q: %w", p.remote, p.err)
	}
	os.Remove(p.stderr.Name()) // the open file is enough; nothing is left behind
	p.cmd = exec.Command("git", "--git-dir", p.repo.GitDir, "cat-file", "--batch")
	p.cmd.Stderr = p.stderr
	stdin, err := p.cmd.StdinPipe()
	if err == nil {
		p.stdin = stdin
		var stdout io.ReadCloser
		stdout, err = p.cmd.StdoutPipe()
		p.stdout = bufio.NewReaderSize(stdout, 1<<16)
	}
	if err == nil {
		err = p.cmd.Start()
	}
	if err != nil {
		p.err = fmt.Errorf("this is a partial clone and objects it lacks must be fetched from its promisor remote %q "+
			"by git, which could not be started (%v): install git, or fetch every object with `git fetch --refetch "+
			"%s` after `git config --unset remote.%s.partialclonefilter`: %w", p.remote, err, p.remote, p.remote,
			plumbing.ErrObjectNotFound)
	}
	return p.err
}

// unavailable is the error for an object git could not fetch: it names the object and says what to run.
func (p *promisor) unavailable(h Hash, mark int64) error {
	return fmt.Errorf("object %s is not in this partial clone and git could not fetch it from its promisor "+
		"remote %q%s; when the remote is reachable, run the command again (git fetches what it lacks), or fetch this "+
		"object first with `git cat-file -e %s`: %w", h, p.remote, p.gitSaid(mark), h, plumbing.ErrObjectNotFound)
}

// broken stops the cat-file process after a failure and returns the error for h.
func (p *promisor) broken(h Hash, err error) error {
	p.err = fmt.Errorf("fetch object %s from promisor remote %q with git cat-file: %v%s: %w", h, p.remote, err,
		p.gitSaid(0), plumbing.ErrObjectNotFound)
	p.close()
	return p.err
}

// gitSaid is what git wrote on stderr since mark, as ` (git: …)`: its first error line, which names the cause
// ("'…' does not appear to be a git repository", "Could not resolve host"), or else its last line; "" if none.
func (p *promisor) gitSaid(mark int64) string {
	end, err := p.stderr.Seek(0, io.SeekEnd)
	if err != nil || end <= mark {
		return ""
	}
	if end-mark > 4096 {
		mark = end - 4096
	}
	buf := make([]byte, end-mark)
	n, _ := p.stderr.ReadAt(buf, mark)
	said := ""
	for _, l := range strings.Split(string(bytes.ToValidUTF8(buf[:n], nil)), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "fatal: ") || strings.HasPrefix(l, "error: ") {
			said = l
			break
		}
		if l != "" {
			said = l
		}
	}
	if said == "" {
		return ""
	}
	return " (git: " + said + ")"
}

// close ends the cat-file process; the next fetch fails with the error that stopped it.
func (p *promisor) close() {
	if p.stdin != nil {
		p.stdin.Close()
	}
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Wait() // closing: the helper's exit says nothing about objects already checked
	}
	if p.stderr != nil {
		p.stderr.Close()
	}
}
