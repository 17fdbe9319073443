package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/unusable"
)

// Exit codes shared by every command. verify adds 3 (warnings under --strict) and audit 4; see README,
// "Exit codes", and the help pages' EXIT CODES.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

const exitCodesHelp = `EXIT CODES:
   0  success
   1  error (the message says what failed and what to do)
   2  usage error (bad flags or arguments)
   verify: 0 VERIFIED, 1 FAILED, 2 UNVERIFIABLE or unusable input, 3 verified with warnings under --strict
   audit: verify's codes, and 4 when VERIFIED and a change control has an exception`

// exitCode is the one map from what a command returns to the process's exit code (README's "Exit codes"
// table is what it gives); it also prints the error's message on stderr, once, unless it is empty:
//
//	what the command returned                  code
//	nil                                        0 (ExitOK)
//	usageError(…): a bad flag or argument      2 (ExitUsage); urfave's flag errors come here too (OnUsageError)
//	verdict(code, …): a verification verdict   code: the verdict's own (verify.Report.ExitCode and the like:
//	                                           verify 0–3, audit 4, extract 0–3, verify-release 0–2)
//	errReported: a failure printed above       1 (ExitError), nothing more printed
//	any other error                            1 (ExitError)
//
// Commands never pick a code themselves: they return one of these.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	code := ExitError
	var (
		usage *usageErr
		bad   *unusable.Error // input a capability package could not use at all
		v     *verdictErr
		ec    ucli.ExitCoder // urfave's own (none today), kept so that its code is not lost
	)
	switch {
	case errors.As(err, &usage), errors.As(err, &bad):
		code = ExitUsage
	case errors.As(err, &v):
		code = v.code
	case errors.Is(err, errReported):
		return ExitError
	case errors.As(err, &ec):
		code = ec.ExitCode()
	}
	if msg := strings.TrimSpace(err.Error()); msg != "" {
		fmt.Fprintf(stderr, "git-bernstein: %s\n", msg)
	}
	return code
}

// usageErr is a bad flag or argument.
type usageErr struct{ msg string }

func (e *usageErr) Error() string { return e.msg }

// usageError is a bad flag or argument: exit 2.
func usageError(format string, a ...any) error {
	return &usageErr{fmt.Sprintf(format, a...)}
}

// verdictErr is a verification's verdict other than success: its code is the verdict's.
type verdictErr struct {
	code int
	msg  string
}

func (e *verdictErr) Error() string { return e.msg }

// verdict ends a command with a verification's exit code (verify.Report.ExitCode, audit's, …), printing msg
// when not empty; code 0 is success.
func verdict(code int, format string, a ...any) error {
	if code == ExitOK {
		return nil
	}
	return &verdictErr{code, fmt.Sprintf(format, a...)}
}

// errReported ends a command that failed and has said why already (a FAIL report on stdout): exit 1.
var errReported = errors.New("")
