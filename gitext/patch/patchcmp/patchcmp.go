// Package patchcmp compares patch mails the way issue 15 counts "byte-identical to git format-patch": the
// signature after "-- " is set aside, and binary hunks are compared by their inflated bytes (zlib
// implementations compress the same bytes differently). It is for tests and measurements, not for bundles.
package patchcmp

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var (
	fromLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001\n`) })
	signature = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)\n-- \n[^\n]*\n*\z`) })
	binHunk   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^(literal|delta) (\d+)\n((?:[A-Za-z][^\n]*\n)*)\n`)
	})
)

// Split cuts a `format-patch --stdout` stream into its parts, keyed by commit id, in order.
func Split(stream string) (ids []string, parts map[string]string) {
	parts = map[string]string{}
	locs := fromLine().FindAllStringIndex(stream, -1)
	for i, l := range locs {
		end := len(stream)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		id := stream[l[0]+5 : l[0]+45]
		ids = append(ids, id)
		parts[id] = stream[l[0]:end]
	}
	return ids, parts
}

// Normalize maps a part onto the form both sides are compared in: trailing blank lines and the signature
// dropped, each binary hunk replaced by its kind, size and the SHA-256 of its inflated data.
func Normalize(part string) string {
	part = strings.TrimRight(part, "\n") + "\n"
	part = signature().ReplaceAllString(part, "\n-- \n<signature>\n")
	return binHunk().ReplaceAllStringFunc(part, func(h string) string {
		m := binHunk().FindStringSubmatch(h)
		data, err := decodeLines(m[3])
		if err != nil {
			return h
		}
		zr, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return h
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			return h
		}
		return fmt.Sprintf("%s %s <inflated %d bytes, sha256 %x>\n\n", m[1], m[2], len(raw), sha256.Sum256(raw))
	})
}

const en85 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// decodeLines reads git's base85 binary-patch lines (a length character, then 5 characters per 4 bytes).
func decodeLines(lines string) ([]byte, error) {
	var de85 [256]int
	for i := range de85 {
		de85[i] = -1
	}
	for i := 0; i < len(en85); i++ {
		de85[en85[i]] = i
	}
	var out []byte
	for _, line := range strings.Split(strings.TrimSuffix(lines, "\n"), "\n") {
		if line == "" {
			continue
		}
		n := 0
		switch c := line[0]; {
		case c >= 'A' && c <= 'Z':
			n = int(c-'A') + 1
		case c >= 'a' && c <= 'z':
			n = int(c-'a') + 27
		default:
			return nil, fmt.Errorf("bad length character %q", c)
		}
		body := line[1:]
		if len(body)%5 != 0 {
			return nil, fmt.Errorf("bad base85 line length %d", len(body))
		}
		var chunk []byte
		for i := 0; i < len(body); i += 5 {
			var acc uint64
			for j := 0; j < 5; j++ {
				v := de85[body[i+j]]
				if v < 0 {
					return nil, fmt.Errorf("bad base85 character %q", body[i+j])
				}
				acc = acc*85 + uint64(v)
			}
			chunk = append(chunk, byte(acc>>24), byte(acc>>16), byte(acc>>8), byte(acc))
		}
		if n > len(chunk) {
			return nil, fmt.Errorf("line says %d bytes, has %d", n, len(chunk))
		}
		out = append(out, chunk[:n]...)
	}
	return out, nil
}

// Result counts parts that are identical after Normalize.
type Result struct {
	Same, Total int
	// Differing lists the ids of differing parts, in order.
	Differing []string
}

func (r Result) String() string {
	if r.Total == 0 {
		return "0 parts"
	}
	return strconv.Itoa(r.Same) + "/" + strconv.Itoa(r.Total) + fmt.Sprintf(" (%.1f%%)", 100*float64(r.Same)/float64(r.Total))
}

// Compare holds ours against theirs part by part (theirs keyed by id; a part missing on our side differs).
func Compare(theirIDs []string, theirs map[string]string, ours func(id string) (string, error)) (Result, error) {
	var r Result
	for _, id := range theirIDs {
		r.Total++
		o, err := ours(id)
		if err != nil {
			return r, err
		}
		if Normalize(o) == Normalize(theirs[id]) {
			r.Same++
		} else {
			r.Differing = append(r.Differing, id)
		}
	}
	return r, nil
}
