package sshsig

import "strings"

// matchPatternList is OpenSSH's match_pattern_list (match.c) without lower-casing, as sshsig.c calls it for
// principals and namespaces: a comma-separated list of patterns, each with `*` (any run of characters) and `?`
// (one character) and an optional leading `!` that negates it. It is 1 when some positive pattern matches and no
// negated one does, -1 when a negated one matches, 0 otherwise. Subpatterns of 1024 bytes or more never match,
// as in OpenSSH.
func matchPatternList(s, list string) int {
	positive := 0
	for _, sub := range strings.Split(list, ",") {
		negated := false
		if strings.HasPrefix(sub, "!") {
			negated, sub = true, sub[1:]
		}
		if len(sub) >= 1023 {
			return 0
		}
		if matchPattern(s, sub) {
			if negated {
				return -1
			}
			positive = 1
		}
	}
	return positive
}

// matchPattern is OpenSSH's match_pattern: the whole of s against one pattern, byte by byte. It is the usual
// linear-time wildcard match (on a mismatch, let the last `*` take one more byte), which answers as OpenSSH's
// recursive one does without its exponential worst case on a hostile kid.
func matchPattern(s, p string) bool {
	si, pi := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == s[si]) && p[pi] != '*':
			si++
			pi++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			mark++
			si, pi = mark, star+1
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
