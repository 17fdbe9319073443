package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

func hookCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "hook",
		Usage:     "what the installed git hooks call (see 'git bernstein hooks install'); never fails",
		ArgsUsage: "post-merge [SQUASH]",
		Description: `'hook post-merge' records ORIG_HEAD..HEAD as 'git bernstein record' does. It never fails or holds up
the merge: it exits 0 whatever happens, prints each problem on stderr in one line, and appends it with a
timestamp to <git common dir>/bernstein/hook.log. For a squash merge (SQUASH is 1) there is no merge commit
yet, so it records nothing: run 'git bernstein record HEAD' after committing the squash.`,
		Flags:  recordFlags(),
		Action: runHook,
	}
}

func runHook(c *ucli.Context) (err error) {
	args, err := positional(c)
	if err != nil {
		return err
	}
	if len(args) == 0 || args[0] != "post-merge" {
		return usageError("hook takes the hook's name, post-merge, and git's arguments for it")
	}
	errw := c.App.ErrWriter
	var logPath string
	problem := func(format string, a ...any) {
		msg := strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", " ")
		fmt.Fprintf(errw, "git-bernstein: post-merge: %s\n", termtext.Clean(msg))
		if logPath != "" {
			appendLog(logPath, msg)
		}
	}
	// Whatever goes wrong below, the merge is done and must stay done: report, log, exit 0.
	defer func() {
		if p := recover(); p != nil {
			problem("internal error: %v", p)
		}
		err = nil
	}()
	if len(args) > 1 && args[1] == "1" {
		fmt.Fprintln(errw, "git-bernstein: post-merge: squash merge, no merge commit yet: nothing recorded "+
			"(run 'git bernstein record HEAD' after you commit it)")
		return nil
	}
	s, err := openSession()
	if err != nil {
		problem("%v", err)
		return nil
	}
	logPath = filepath.Join(s.repo.CommonDir, "bernstein", "hook.log")
	rep, err := s.record(c, "ORIG_HEAD..HEAD")
	if err != nil {
		problem("%v", err)
		return nil
	}
	printRecord(c, s, rep)
	for _, f := range rep.Failed {
		problem("%v", f)
	}
	return nil
}

// appendLog adds one timestamped line to the hook log. A log that cannot be written is not worth failing for:
// the problem was already printed.
func appendLog(path, msg string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s post-merge: %s\n", time.Now().UTC().Format(time.RFC3339), msg)
}
