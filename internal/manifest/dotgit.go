package manifest

import (
	"fmt"
	"strings"
)

// checkDotGit refuses a name with a part that some file system resolves to git's own folder, .git. Extracted,
// such a member becomes a repository's config or hooks: the first `git status` in the folder runs whatever
// its core.fsmonitor says. The rules are git's own (read-cache.c verify_path, as git applies them with
// core.protectHFS and core.protectNTFS on, which is how it guards checkouts on macOS and Windows), applied to
// every part, since a bundle may be unpacked on any system:
//   - ".git" in any letter case (read-cache.c verify_dotfile);
//   - HFS+: ".git" with any code point HFS+ ignores anywhere in it (utf8.c is_hfs_dotgit and next_hfs_char:
//     U+200C–U+200F, U+202A–U+202E, U+206A–U+206F, U+FEFF), the letters compared ASCII case-insensitively;
//   - NTFS: ".git" or its 8.3 short name "git~1", in any letter case, followed only by dots and spaces (which
//     NTFS drops) up to the end or to a ":" (an alternate data stream: ".git::$INDEX_ALLOCATION" is the folder)
//     (path.c is_ntfs_dotgit).
func checkDotGit(name string) error {
	for _, part := range strings.Split(name, "/") {
		var how string
		switch {
		case isNTFSDotGit(part):
			how = "NTFS drops trailing dots and spaces and anything from a \":\", and git~1 is .git's short name"
			if foldedASCII(part, ".git") {
				how = "in any letter case"
			}
		case isHFSDotGit(part):
			how = "HFS+ ignores the invisible code points in it"
		default:
			continue
		}
		return fmt.Errorf("%q has a part %q that is git's own folder .git on some file system (%s): extracted, it "+
			"would be a repository's config and hooks, which git runs", name, part, how)
	}
	return nil
}

// hfsIgnored are the code points HFS+ drops from names (utf8.c next_hfs_char).
func hfsIgnored(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}

// isHFSDotGit is utf8.c is_hfs_dotgit for one path part: ".git" once the ignored code points are dropped, its
// letters compared case-insensitively in ASCII only (a non-ASCII letter is never one of ours).
func isHFSDotGit(part string) bool {
	var kept []rune
	for _, r := range part {
		if !hfsIgnored(r) {
			kept = append(kept, r)
			if len(kept) > 4 {
				return false
			}
		}
	}
	return len(kept) == 4 && kept[0] == '.' && lowerASCII(kept[1]) == 'g' && lowerASCII(kept[2]) == 'i' && lowerASCII(kept[3]) == 't'
}

// foldedASCII says whether s is lower (lower-case ASCII) in any ASCII letter case, as git's tolower compares.
func foldedASCII(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lowerASCII(rune(s[i])) != rune(lower[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// isNTFSDotGit is path.c is_ntfs_dotgit for one path part (a backslash, git's other separator there, is already
// refused by CheckName).
func isNTFSDotGit(part string) bool {
	var rest string
	switch {
	case len(part) >= 4 && foldedASCII(part[:4], ".git"):
		rest = part[4:]
	case len(part) >= 5 && foldedASCII(part[:3], "git") && part[3:5] == "~1":
		rest = part[5:]
	default:
		return false
	}
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ':':
			return true
		case '.', ' ':
		default:
			return false
		}
	}
	return true
}
