// Package plural writes a count with its noun the way people read it: "1 file", "2 files", "1 entry",
// "3 entries", "0 matches". Every count git-bernstein prints goes through it, so no line says "1 files".
package plural

import (
	"strconv"
	"strings"
)

// Integer is any count.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Count is n followed by noun, in the plural unless n is 1: Count(1, "commit") is "1 commit", Count(2, "entry")
// "2 entries". noun is the singular.
func Count[N Integer](n N, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, noun)
}

// Noun is noun in the plural unless n is 1, for sentences that put the count elsewhere: "%d of %d %s".
func Noun[N Integer](n N, noun string) string {
	if n == 1 {
		return noun
	}
	return Of(noun)
}

// Of is the plural of an English noun by the regular rules: "entry" → "entries", "match" → "matches",
// "file" → "files". A noun that ends in a parenthesis or space is left as it is.
func Of(noun string) string {
	switch {
	case noun == "":
		return noun
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "z"),
		strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	}
	return noun + "s"
}
