//go:build unix

package front

import "syscall"

// become becomes path: it returns only when execve fails.
func become(path string, args, env []string) (int, error) {
	return 0, syscall.Exec(path, args, env)
}
