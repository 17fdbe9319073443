package verify

import (
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// checkFiles holds the archive's members against the manifest: every listed file present with its size and
// sha256, nothing unlisted. A missing file whose exact content turns up under another name is reported as a
// rename, which is what a reader wants to know.
func checkFiles(m *manifest.Manifest, members map[string]member) Check {
	var missing []manifest.Entry
	var problems []string
	edited := 0
	listed := map[string]bool{}
	for _, e := range m.Files {
		listed[e.Arcname] = true
		got, ok := members[e.Arcname]
		switch {
		case !ok:
			missing = append(missing, e)
		case got.size != e.SizeBytes:
			edited++
			problems = append(problems, fmt.Sprintf("%.200q is %d bytes; the manifest says %d", e.Arcname, got.size, e.SizeBytes))
		case hex.EncodeToString(got.sha256[:]) != e.SHA256:
			edited++
			problems = append(problems, fmt.Sprintf("%.200q has sha256 %s; the manifest says %s", e.Arcname, hex.EncodeToString(got.sha256[:]), e.SHA256))
		}
	}
	var added []string
	for name := range members {
		if !listed[name] {
			added = append(added, name)
		}
	}
	sort.Strings(added)
	renamed := 0
	for _, e := range missing {
		if i := findSame(added, members, e); i >= 0 {
			renamed++
			problems = append(problems, fmt.Sprintf("%.200q is missing and its content is in %q, which the manifest does not list: renamed", e.Arcname, added[i]))
			added = append(added[:i], added[i+1:]...)
			continue
		}
		problems = append(problems, fmt.Sprintf("%.200q is in the manifest but not in the archive", e.Arcname))
	}
	for _, name := range added {
		problems = append(problems, fmt.Sprintf("%.200q is in the archive but not in the manifest", name))
	}
	if len(problems) == 0 {
		return Check{Check: CheckFiles, Status: Pass,
			Detail: fmt.Sprintf("%s, each with the size and sha256 the manifest lists, and no others", plural.Count(len(m.Files), "file"))}
	}
	return Check{Check: CheckFiles, Status: Fail, Problems: problems,
		Detail: fmt.Sprintf("the archive does not hold what the manifest lists: %d changed, %d missing, %d renamed, %d added",
			edited, len(missing)-renamed, renamed, len(added))}
}

func findSame(names []string, members map[string]member, e manifest.Entry) int {
	for i, n := range names {
		m := members[n]
		if m.size == e.SizeBytes && hex.EncodeToString(m.sha256[:]) == e.SHA256 {
			return i
		}
	}
	return -1
}
