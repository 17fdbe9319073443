//go:build unix

// Command gateway starts and stops the S3 server of `make test`: versitygw's posix backend on 127.0.0.1, on a
// free port, in a folder of its own with versioning (and so Object Lock) enabled, with credentials made for the
// run.
//
//	gateway start BINARY DIR   starts it, waits until it answers, and prints the shell lines that export
//	                           BERNSTEIN_TEST_S3_ENDPOINT, _ACCESS_KEY and _SECRET_KEY; DIR/pid holds its pid
//	gateway stop DIR           stops the process DIR/pid names, and removes DIR
//
// The posix backend keeps metadata (retention, legal hold, versions) in extended attributes; where DIR's
// filesystem has none (user.* xattrs), it keeps them in a sidecar folder instead (versitygw --sidecar).
package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gateway:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 3 && args[0] == "start":
		return start(args[1], args[2])
	case len(args) == 2 && args[0] == "stop":
		return stop(args[1])
	}
	return errors.New("usage: gateway start BINARY DIR | gateway stop DIR")
}

func secret(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// freePort asks the kernel for a free port on 127.0.0.1; another process may take it before versitygw does, so
// start tries a few times.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// hasXattrs says whether dir's filesystem keeps user.* extended attributes.
func hasXattrs(dir string) bool {
	err := syscall.Setxattr(dir, "user.bernstein-check", []byte("1"), 0)
	if err == nil {
		_ = syscall.Removexattr(dir, "user.bernstein-check") // a probe: the attribute is ours
	}
	return err == nil
}

func start(bin, dir string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	// versitygw compares the data folder with the versioning folder as given: both absolute.
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	if err := stop(dir); err != nil { // what an interrupted run left
		return err
	}
	data, versions, sidecar := filepath.Join(dir, "data"), filepath.Join(dir, "versions"), filepath.Join(dir, "meta")
	for _, d := range []string{data, versions, sidecar} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	access, key := "bernstein-"+secret(4), secret(20)
	var lastErr error
	for try := 0; try < 5; try++ {
		port, err := freePort()
		if err != nil {
			return err
		}
		addr := "127.0.0.1:" + strconv.Itoa(port)
		args := []string{"--port", addr, "--access", access, "--secret", key, "--region", "us-east-1", "posix", "--versioning-dir", versions}
		if !hasXattrs(data) {
			args = append(args, "--sidecar", sidecar)
		}
		args = append(args, data)
		log, err := os.Create(filepath.Join(dir, "versitygw.log"))
		if err != nil {
			return err
		}
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = log, log
		// Its own process group, so make's Ctrl-C does not stop it before the tests' cleanup does.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			log.Close()
			return err
		}
		log.Close()
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		if err := waitUp(addr, exited); err != nil {
			_ = cmd.Process.Kill() // it never answered, or its pid cannot be kept: do not leave it running
			out, _ := os.ReadFile(filepath.Join(dir, "versitygw.log"))
			lastErr = fmt.Errorf("versitygw on %s: %v\n%s", addr, err, strings.TrimSpace(string(out)))
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o600); err != nil {
			_ = cmd.Process.Kill() // it never answered, or its pid cannot be kept: do not leave it running
			return err
		}
		fmt.Printf("export BERNSTEIN_TEST_S3_ENDPOINT=http://%s BERNSTEIN_TEST_S3_ACCESS_KEY=%s BERNSTEIN_TEST_S3_SECRET_KEY=%s\n", addr, access, key)
		return nil
	}
	return lastErr
}

func waitUp(addr string, exited <-chan error) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("exited: %v", err)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("did not answer within 30 s")
}

// stop ends the process DIR/pid names (SIGTERM, then SIGKILL after 5 s) and removes DIR.
func stop(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 1 {
			if p, err := os.FindProcess(pid); err == nil && p.Signal(syscall.SIGTERM) == nil {
				for i := 0; i < 50 && p.Signal(syscall.Signal(0)) == nil; i++ {
					time.Sleep(100 * time.Millisecond)
				}
				_ = p.Signal(syscall.SIGKILL) // gone already is fine
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.RemoveAll(dir)
}
