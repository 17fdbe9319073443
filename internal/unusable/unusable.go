// Package unusable marks input a capability cannot use at all, as given (a flag's value, a file that cannot be
// read, a root without a log): the CLI's usage error, exit 2, whichever package said it. The packages that
// return one keep a name of their own for it (lineage.Unusable, pinned.Unusable, …), an alias of Error.
package unusable

import "errors"

// Error is input that cannot be used at all; the message says which and what to do.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// New is an Error with message msg.
func New(msg string) *Error { return &Error{errors.New(msg)} }

// Wrap is err as an Error.
func Wrap(err error) *Error { return &Error{err} }
