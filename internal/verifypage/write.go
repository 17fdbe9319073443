package verifypage

import (
	"fmt"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
)

// Written is what Write wrote: the page's size in bytes and the Go version its verifier was built with.
type Written struct {
	Size      int
	Toolchain string
}

// Write writes the page (Page(version)) to path atomically, so that an auditor never opens half a verifier.
func Write(path, version string) (*Written, error) {
	page := Page(version)
	if err := atomicfile.WriteFile(path, page, 0o644); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &Written{Size: len(page), Toolchain: Toolchain()}, nil
}
