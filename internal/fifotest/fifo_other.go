//go:build !unix

package fifotest

import (
	"errors"
	"fmt"
)

func mkfifo(path string, _ uint32) error {
	return fmt.Errorf("mkfifo %s: %w (no FIFOs in this file system)", path, errors.ErrUnsupported)
}
