package patch

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
)

// PatchID is `git patch-id --stable` (builtin/patch-id.c, git 2.39) of one commit's diff as `git show` prints it
// (the "diff --git" lines on). diff holds that diff, or the same file sections with full object ids on the
// index lines; short shortens an id the way the `git show` being matched would (gitext.Abbrev.Short), since
// patch-id hashes the ids of a binary file's index line as written. ok is false when git prints no id (an empty
// diff). diff is overwritten (whitespace is removed from its lines in place).
//
// The rules, all git's: lines before the first "diff " are not the patch; whitespace is removed from every
// hashed line; index lines are not hashed, nor are hunk headers (only their line counts are read, to know where
// a hunk ends) nor "\ No newline at end of file"; a binary file ("Binary files … differ" or "GIT binary patch")
// hashes the two ids of its index line, and the rest of its section (up to and including the next "diff " line)
// is skipped; --stable hashes each file's section on its own and adds the hashes as 20-byte little-endian
// numbers, so the order of the files does not matter; the last section is added too, even when empty.
func PatchID(diff []byte, short func(hexID string) string) (id string, ok bool) {
	var result [sha1.Size]byte
	ctx := sha1.New()
	flush := func() {
		var sum [sha1.Size]byte
		ctx.Sum(sum[:0])
		ctx.Reset()
		carry := 0
		for i := range result {
			carry += int(result[i]) + int(sum[i])
			result[i] = byte(carry)
			carry >>= 8
		}
	}
	patchlen := 0
	before, after := -1, -1
	binary := false
	var pre, post string
	for len(diff) > 0 {
		var line []byte
		if i := bytes.IndexByte(diff, '\n'); i >= 0 {
			line, diff = diff[:i+1], diff[i+1:]
		} else {
			line, diff = diff, nil
		}
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i] // git reads each line as a C string
		}
		if len(line) == 0 {
			continue
		}
		if bytes.HasPrefix(line, []byte(`\ `)) && len(line) > 12 {
			continue
		}
		if patchlen == 0 && !bytes.HasPrefix(line, []byte("diff ")) {
			continue
		}
		if before == -1 {
			switch {
			case bytes.HasPrefix(line, []byte("GIT binary patch")) || bytes.HasPrefix(line, []byte("Binary files")):
				binary = true
				before = 0
				// Only a binary file hashes its ids, so only then are they shortened (an abbreviation may
				// have to search the pack index).
				ctx.Write([]byte(shortHex(pre, short)))
				ctx.Write([]byte(shortHex(post, short)))
				flush()
				continue
			case bytes.HasPrefix(line, []byte("index ")):
				rest := line[len("index "):]
				if dots := bytes.Index(line, []byte("..")); dots >= 0 {
					end := bytes.IndexByte(line[dots:], ' ')
					if end < 0 {
						end = len(line) - 1
					} else {
						end += dots
					}
					pre = string(rest[:max(0, dots-len("index "))])
					post = string(line[dots+2 : max(dots+2, end)])
				}
				continue
			case bytes.HasPrefix(line, []byte("--- ")):
				before, after = 1, 1
			case !isAlpha(line[0]):
				return finish(flush, &result, patchlen)
			}
		}
		if binary {
			if bytes.HasPrefix(line, []byte("diff ")) {
				binary = false
				before = -1
			}
			continue
		}
		if before == 0 && after == 0 {
			if bytes.HasPrefix(line, []byte("@@ -")) {
				before, after = scanHunkHeader(line, before, after)
				continue
			}
			if !bytes.HasPrefix(line, []byte("diff ")) {
				return finish(flush, &result, patchlen)
			}
			flush()
			before, after = -1, -1
		}
		if line[0] == '-' || line[0] == ' ' {
			before--
		}
		if line[0] == '+' || line[0] == ' ' {
			after--
		}
		kept := removeSpace(line)
		patchlen += len(kept)
		ctx.Write(kept)
	}
	return finish(flush, &result, patchlen)
}

func finish(flush func(), result *[sha1.Size]byte, patchlen int) (string, bool) {
	flush()
	if patchlen == 0 {
		return "", false
	}
	return hex.EncodeToString(result[:]), true
}

// shortHex shortens a full id the way the matched `git show` writes it; anything else stays as written.
func shortHex(s string, short func(string) string) string {
	if len(s) > 64 {
		s = s[:64] // git copies at most GIT_MAX_HEXSZ characters
	}
	if len(s) == 40 && short != nil {
		if _, err := hex.DecodeString(s); err == nil {
			return short(s)
		}
	}
	return s
}

// scanHunkHeader reads "@@ -a,b +c,d @@" as patch-id.c's scan_hunk_header does: b and d (1 when absent) become
// the lines left before and after; a malformed header leaves what it has not reached unchanged.
func scanHunkHeader(line []byte, _, after int) (int, int) {
	var before int // set on every path: b is always reached
	q := line[4:]
	n := digits(q)
	if n < len(q) && q[n] == ',' {
		q = q[n+1:]
		before = atoi(q)
		n = digits(q)
	} else {
		before = 1
	}
	if n == 0 || n+1 >= len(q) || q[n] != ' ' || q[n+1] != '+' {
		return before, after
	}
	r := q[n+2:]
	n = digits(r)
	if n < len(r) && r[n] == ',' {
		r = r[n+1:]
		after = atoi(r)
	} else {
		after = 1
	}
	return before, after
}

func digits(b []byte) int {
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	return n
}

func atoi(b []byte) int {
	v := 0
	for _, c := range b[:digits(b)] {
		v = v*10 + int(c-'0')
	}
	return v
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// removeSpace drops git's whitespace (space, tab, LF, CR: git's isspace has no VT or FF) from line, in place.
func removeSpace(line []byte) []byte {
	out := line[:0]
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			out = append(out, c)
		}
	}
	return out
}
