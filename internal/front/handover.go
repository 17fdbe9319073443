package front

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
)

// Full is the name of the program that runs every command (cmd/git-bernstein-full).
const Full = "git-bernstein-full"

// handoverVar carries "PID:VERSION" from a front to git-bernstein-full: the front's version, which must be
// git-bernstein-full's own (CheckHandedOver), and its process id, which execve keeps, so that a front that
// finds its own id there was handed its own line back: what is installed as git-bernstein-full is a front, and
// handing over again would never end. Processes git-bernstein-full starts inherit it under other ids.
const handoverVar = "BERNSTEIN_FRONT"

// Handover runs args (program name first) in git-bernstein-full and returns its exit code. On Unix it does not
// return when it succeeds: the process becomes git-bernstein-full. A git-bernstein-full that cannot be found
// or started is said on stderr, with what to do, and exits 1.
func Handover(args []string, stderr io.Writer) int {
	path, err := findFull()
	if err != nil {
		fmt.Fprintf(stderr, "git-bernstein: %v\n", err)
		return 1
	}
	if pid, _ := handedOver(os.Getenv); pid == strconv.Itoa(os.Getpid()) {
		fmt.Fprintf(stderr, "git-bernstein: %s is another git-bernstein, not %s: install both programs "+
			"from one build (make install, or go install ./cmd/git-bernstein ./cmd/%s)\n", path, Full, Full)
		return 1
	}
	// A variable given twice is read as its first value, so an inherited one is dropped, not overridden.
	env := []string{handoverVar + "=" + strconv.Itoa(os.Getpid()) + ":" + buildinfo.Version()}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, handoverVar+"=") {
			env = append(env, kv)
		}
	}
	// It is named as git names what it runs: by its path (a program that tells its names apart by argv[0],
	// as the tests' binary does, must see the name it was run as).
	argv := append([]string{path}, args[1:]...)
	code, err := become(path, argv, env)
	if err != nil {
		fmt.Fprintf(stderr, "git-bernstein: run %s: %v\n", path, err)
		return 1
	}
	return code
}

// findFull is git-bernstein-full for this program (FindFull of its own executable).
func findFull() (string, error) {
	self, err := os.Executable()
	if err != nil {
		self = ""
	}
	return FindFull(self)
}

// FindFull is the git-bernstein-full that the git-bernstein at front (a path; "" when unknown) hands over to:
// the one beside it (links resolved: an installed link finds the folder of the real file), else the first on
// PATH. The error says where it looked and how to install both.
func FindFull(front string) (string, error) {
	name := Full
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if front != "" {
		if real, err := filepath.EvalSymlinks(front); err == nil {
			front = real
		}
		beside := filepath.Join(filepath.Dir(front), name)
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			return beside, nil
		}
	}
	path, err := exec.LookPath(Full)
	if err == nil {
		return path, nil
	}
	where := "beside this program"
	if front != "" {
		where = "beside " + front
	}
	return "", fmt.Errorf("%s, which runs every command but `commits`, is neither %s nor on PATH: install "+
		"both programs from one build (make install, or go install ./cmd/git-bernstein ./cmd/%s)",
		Full, where, Full)
}

// CheckHandedOver is git-bernstein-full's check of a command line a front handed over (getenv reads its
// environment): the front's version must be its own, since a ticket's commits must be found by one build's code
// whichever program answers.
func CheckHandedOver(getenv func(string) string) error {
	_, v := handedOver(getenv)
	if own := buildinfo.Version(); v != "" && v != own {
		return fmt.Errorf("git-bernstein (%s) and %s (%s) are from different builds: install both from one "+
			"build (make install, or go install ./cmd/git-bernstein ./cmd/%s)", v, Full, own, Full)
	}
	return nil
}

// handedOver reads handoverVar: the id of the front that handed over and its version, both "" when unset.
func handedOver(getenv func(string) string) (pid, version string) {
	pid, version, _ = strings.Cut(getenv(handoverVar), ":")
	return pid, version
}
