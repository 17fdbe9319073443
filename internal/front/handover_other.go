//go:build !unix

package front

import (
	"errors"
	"os"
	"os/exec"
)

// become runs path as a child with this process's streams and returns its exit code: there is no execve here.
func become(path string, args, env []string) (int, error) {
	cmd := exec.Command(path, args[1:]...)
	cmd.Args[0] = args[0]
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	return exitCode(cmd.Run())
}

// exitCode is the code of a child that ran and exited, or err when it could not be run.
func exitCode(err error) (int, error) {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	return 0, err
}
