package release

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SumsFile is the name of the checksum list, in the format sha256sum writes and `sha256sum -c` reads.
const SumsFile = "SHA256SUMS"

// Sum is one line of SHA256SUMS.
type Sum struct {
	Name   string
	SHA256 string // lower-case hex
}

// MarshalSums writes sums sorted by name, one "<hex>  <name>\n" line each (two spaces: text mode, as
// sha256sum writes it).
func MarshalSums(sums []Sum) []byte {
	s := append([]Sum{}, sums...)
	sort.Slice(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	var b bytes.Buffer
	for _, x := range s {
		fmt.Fprintf(&b, "%s  %s\n", x.SHA256, x.Name)
	}
	return b.Bytes()
}

// ParseSums reads SHA256SUMS strictly: each line 64 lower-case hex digits, two spaces (or a space and "*",
// binary mode), and a plain file name (no folder, no ".."), each name once.
func ParseSums(data []byte) ([]Sum, error) {
	var out []Sum
	seen := map[string]bool{}
	text := string(data)
	if text == "" || !strings.HasSuffix(text, "\n") {
		return nil, fmt.Errorf("%s: empty or not ending in a newline", SumsFile)
	}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if len(line) < 67 || (line[64:66] != "  " && line[64:66] != " *") {
			return nil, fmt.Errorf("%s line %d: not \"<sha256 hex>  <name>\"", SumsFile, i+1)
		}
		sum, name := line[:64], line[66:]
		if _, err := hex.DecodeString(sum); err != nil || strings.ToLower(sum) != sum {
			return nil, fmt.Errorf("%s line %d: %q is not a lower-case hex sha256", SumsFile, i+1, sum)
		}
		if err := plainName(name); err != nil {
			return nil, fmt.Errorf("%s line %d: %v", SumsFile, i+1, err)
		}
		if seen[name] {
			return nil, fmt.Errorf("%s line %d: %q is listed twice", SumsFile, i+1, name)
		}
		seen[name] = true
		out = append(out, Sum{Name: name, SHA256: sum})
	}
	return out, nil
}

// plainName refuses names that would reach outside the release folder.
func plainName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") || filepath.Base(name) != name {
		return fmt.Errorf("%q is not a plain file name in the release folder", name)
	}
	return nil
}

// fileSHA256 is the lower-case hex sha256 of a regular file (a symlink or folder is refused).
func fileSHA256(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", filepath.Base(path))
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func bytesSHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
