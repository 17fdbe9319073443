package verify

import (
	"fmt"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// nameClashes finds member names that are distinct in the archive but not once extracted somewhere common:
// names that differ only in letter case or in Unicode normalization (macOS and Windows file systems fold case;
// macOS also treats NFC and NFD spellings as one name), and names Windows cannot create at all. These are
// warnings, not failures: .sdd may really hold such files, and on Linux they extract as they are.
//
// It also finds a name that is, once folded, a folder of another (transcripts/A beside transcripts/a/b): the
// exact case is refused (layout.go), the folded one is a warning like the others, since on Linux both extract.
type nameClashes struct {
	folded   map[string]string // case- and normalization-folded name → first name with it
	tree     pathTree          // folded names, part by part
	problems []string
}

func newNameClashes() *nameClashes {
	return &nameClashes{folded: map[string]string{}, tree: newPathTree()}
}

func (n *nameClashes) add(name string) {
	key := strings.ToLower(norm.NFC.String(name))
	const folderWhy = "on a case-insensitive or normalizing file system (macOS, Windows) one is a file where the other needs a folder: one cannot be extracted"
	switch other, clash := n.tree.add(key, name); clash {
	case fileAboveName:
		n.problems = append(n.problems, fmt.Sprintf("%.200q and %.200q: %s", other, name, folderWhy))
	case nameAboveFile:
		n.problems = append(n.problems, fmt.Sprintf("%.200q and %.200q: %s", name, other, folderWhy))
	}
	if first, clash := n.folded[key]; clash {
		why := "differ only in letter case: extracted on a case-insensitive file system (macOS, Windows), one overwrites the other"
		if norm.NFC.String(first) == norm.NFC.String(name) {
			why = "differ only in Unicode normalization (NFC/NFD): extracted on macOS, one overwrites the other"
		} else if strings.ToLower(first) != strings.ToLower(name) { //nolint:staticcheck // SA6005: EqualFold folds more (ſ, K) than the key does
			why = "differ only in letter case and Unicode normalization: extracted on macOS or Windows, one overwrites the other"
		}
		n.problems = append(n.problems, fmt.Sprintf("%.200q and %.200q %s", first, name, why))
	} else {
		n.folded[key] = name
	}
	if why := windowsProblem(name); why != "" {
		n.problems = append(n.problems, fmt.Sprintf("%.200q cannot be created on Windows: %s", name, why))
	}
}

func (n *nameClashes) warnings() []string { return n.problems }

// windowsProblem says why Windows cannot create a file of this relative name, or "". The rules are Win32's
// ("Naming Files, Paths, and Namespaces"): reserved characters, a trailing dot or space in any part, and the
// reserved device names with or without an extension.
func windowsProblem(name string) string {
	for _, part := range strings.Split(name, "/") {
		if i := strings.IndexAny(part, `<>:"|?*`); i >= 0 {
			if part[i] == ':' {
				return fmt.Sprintf("%.200q contains \":\", which names an alternate data stream", part)
			}
			return fmt.Sprintf("%.200q contains %q", part, string(part[i]))
		}
		if strings.HasSuffix(part, ".") || strings.HasSuffix(part, " ") {
			return fmt.Sprintf("%.200q ends with a dot or space, which Windows drops", part)
		}
		base, _, _ := strings.Cut(part, ".")
		base = strings.ToUpper(strings.TrimRight(base, " "))
		switch base {
		case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
			return fmt.Sprintf("%.200q is a reserved device name", part)
		}
		if len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) &&
			(base[3] >= '0' && base[3] <= '9') {
			return fmt.Sprintf("%.200q is a reserved device name", part)
		}
		if r := []rune(base); len(r) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && strings.ContainsRune("¹²³", r[3]) {
			return fmt.Sprintf("%.200q is a reserved device name", part)
		}
	}
	return ""
}
