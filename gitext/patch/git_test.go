package patch

import "os/exec"

func execLookGit() (string, error) { return exec.LookPath("git") }
