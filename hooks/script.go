package hooks

import (
	"bytes"
	"fmt"
)

// Marker is the line that tells our hook scripts from everyone else's. A script holding it is ours to replace
// and remove; anything else is somebody's work and is moved aside, never overwritten.
const Marker = "# managed-by: git-bernstein"

// AsideSuffix names where a foreign hook goes when ours takes its place: post-merge → post-merge.pre-bernstein.
const AsideSuffix = ".pre-bernstein"

// Script is our hook for the named git hook. It runs the moved-aside hook first when there is one (git ignores
// hooks that are not executable, so do we), then `git bernstein hook NAME "$@"`. It exits with the earlier
// hook's status, so chaining changes nothing for it; our own part never fails the hook, and when git-bernstein
// is not on PATH it says so in one line and skips it.
func Script(name string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `#!/bin/sh
%s
# Installed by 'git bernstein hooks install'; remove with 'git bernstein hooks uninstall', which puts back any
# %s hook this one replaced (kept beside it as %s%s and run first).
status=0
aside="$(dirname "$0")/%s%s"
if [ -x "$aside" ]; then
	"$aside" "$@" || status=$?
fi
if ! command -v git-bernstein >/dev/null 2>&1; then
	echo "git-bernstein: not on PATH, so no bundle was recorded for this %s (install it, or run 'git bernstein hooks uninstall')" >&2
	exit $status
fi
git bernstein hook %s "$@" || :
exit $status
`, Marker, name, name, AsideSuffix, name, AsideSuffix, name, name)
	return b.Bytes()
}

// IsOurs says whether a hook script's content is one of ours (any version).
func IsOurs(content []byte) bool {
	for _, line := range bytes.Split(content, []byte("\n")) {
		if string(bytes.TrimRight(line, "\r")) == Marker {
			return true
		}
	}
	return false
}
