// Package sshtest runs the OpenSSH tools for tests: keys made by ssh-keygen and a real ssh-agent, so that
// what git-bernstein writes is checked by the tools auditors have. Tests skip, saying so, only when OpenSSH is
// not installed.
package sshtest

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Require skips the test when ssh-keygen, ssh-agent or ssh-add is missing, naming the one.
func Require(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"ssh-keygen", "ssh-agent", "ssh-add"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("OpenSSH is not installed (%s not on PATH): the SSH signing tests need it (apt-get install openssh-client)", tool)
		}
	}
}

// Keygen makes a key with `ssh-keygen -t typ` at dir/name (and name.pub), with passphrase (may be empty),
// and returns the private key's path.
func Keygen(t testing.TB, dir, name, typ, passphrase string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	Run(t, nil, "ssh-keygen", "-q", "-t", typ, "-N", passphrase, "-C", name+"@test", "-f", path)
	return path
}

// PublicLine returns the key's public line ("ssh-ed25519 AAAA… comment") without the newline.
func PublicLine(t testing.TB, privPath string) string {
	t.Helper()
	b, err := os.ReadFile(privPath + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// Fingerprint is `ssh-keygen -l -E sha256`'s "SHA256:…" for the key file.
func Fingerprint(t testing.TB, path string) string {
	t.Helper()
	out := Run(t, nil, "ssh-keygen", "-l", "-E", "sha256", "-f", path)
	f := strings.Fields(out)
	if len(f) < 2 {
		t.Fatalf("ssh-keygen -l: %q", out)
	}
	return f[1]
}

// Agent starts a real ssh-agent on a socket in a temp folder, stopped when the test ends, and returns the
// socket's path (the SSH_AUTH_SOCK value).
func Agent(t testing.TB) string {
	t.Helper()
	// A short folder: unix socket paths are limited to about 100 bytes, and t.TempDir can be long.
	dir, err := os.MkdirTemp("", "agent")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	cmd := exec.Command("ssh-agent", "-D", "-a", sock)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start ssh-agent: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait() // killed: its exit status is the kill's
	})
	// Ready once it accepts a connection: the socket file appears when ssh-agent binds it, a moment before it
	// listens, and an ssh-add in that moment is refused (a test failed that way now and then).
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return sock
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("ssh-agent did not listen on %s: %s", sock, out.String())
	return ""
}

// Add runs ssh-add for the key, against the agent at sock.
func Add(t testing.TB, sock, keyPath string) {
	t.Helper()
	Run(t, []string{"SSH_AUTH_SOCK=" + sock}, "ssh-add", "-q", keyPath)
}

// Run runs a command with extra environment and returns its stdout; a failure fails the test with stderr.
func Run(t testing.TB, env []string, name string, args ...string) string {
	t.Helper()
	out, err := Try(env, nil, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// Try runs a command with extra environment and stdin, and returns its combined output and error.
func Try(env []string, stdin []byte, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}
