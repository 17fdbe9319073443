// Package fifotest makes named pipes for the tests that hold our readers to "regular files only": a FIFO put
// where a file is expected must be refused at once, never waited on. It exists so those tests compile for
// Windows (GOOS=windows go vet ./...), which has no FIFOs in the file system.
package fifotest

// Make creates a FIFO at path with mode's permissions; on Windows it fails with errors.ErrUnsupported.
func Make(path string, mode uint32) error { return mkfifo(path, mode) }
