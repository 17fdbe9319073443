package verify

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits bound what one archive may make the verifier read. Every size is counted on the bytes actually read,
// never taken from a header: a tar header or gzip trailer can claim anything.
type Limits struct {
	// MaxEntries is the most tar members (manifest included).
	MaxEntries int
	// MaxMemberSize is the most bytes of one member other than the manifest.
	MaxMemberSize int64
	// MaxTotalSize is the most bytes the gzip stream may inflate to: members, tar headers and padding.
	MaxTotalSize int64
	// MaxManifestSize is the most bytes of manifest.json, which is held in memory and parsed.
	MaxManifestSize int64
	// MaxNamesSize is the most bytes of all member names together, counted as each header is read and before
	// any name is kept: one name is at most MaxNameLength, but 100,000 of them would still be 400 MiB.
	MaxNamesSize int64
}

// MaxNameDepth is the most parts ("/"-separated) of one member name. Bundles are shallow (the deepest member
// is lineage/v2/children/<hex>.jsonl, 4 parts; upstream's are 2), and a name thousands of folders deep makes
// every tool that extracts it walk those folders for each member (issue 25, 14: 2,000 members 2,030 folders deep,
// a 49 KB archive, took 28–56 s to extract). A deeper name is refused (FAILED), like a name past MaxNameLength.
const MaxNameDepth = 32

// Defaults, documented in the command's help and README: well above any real bundle (a bundle of a busy ticket is
// a few MiB), low enough that a hostile archive cannot exhaust memory or disk time.
const (
	DefaultMaxEntries      = 100_000
	DefaultMaxMemberSize   = 1 << 30 // 1 GiB
	DefaultMaxTotalSize    = 4 << 30 // 4 GiB
	DefaultMaxManifestSize = 16 << 20
	DefaultMaxNamesSize    = 16 << 20
)

// DefaultLimits returns the documented defaults.
func DefaultLimits() Limits {
	return Limits{
		MaxEntries:      DefaultMaxEntries,
		MaxMemberSize:   DefaultMaxMemberSize,
		MaxTotalSize:    DefaultMaxTotalSize,
		MaxManifestSize: DefaultMaxManifestSize,
		MaxNamesSize:    DefaultMaxNamesSize,
	}
}

// withDefaults fills zero fields, so Options{} means the documented limits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxEntries <= 0 {
		l.MaxEntries = d.MaxEntries
	}
	if l.MaxMemberSize <= 0 {
		l.MaxMemberSize = d.MaxMemberSize
	}
	if l.MaxTotalSize <= 0 {
		l.MaxTotalSize = d.MaxTotalSize
	}
	if l.MaxManifestSize <= 0 {
		l.MaxManifestSize = d.MaxManifestSize
	}
	if l.MaxNamesSize <= 0 {
		l.MaxNamesSize = d.MaxNamesSize
	}
	return l
}

var sizeUnits = []struct {
	suffix string
	shift  uint
}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"T", 40}, {"G", 30}, {"M", 20}, {"K", 10}, {"B", 0}}

// ParseSize reads a positive byte count: a plain integer or one with a binary unit (KiB, MiB, GiB, TiB, or K, M,
// G, T meaning the same), e.g. "16MiB".
func ParseSize(s string) (int64, error) {
	num, shift := strings.TrimSpace(s), uint(0)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, shift = strings.TrimSpace(rest), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("size %q: want a positive whole number of bytes, optionally with KiB, MiB, GiB or TiB", s)
	}
	return n << shift, nil
}

// FormatSize prints n bytes with a binary unit, as the limits are written in help and reports.
func FormatSize(n int64) string {
	for _, u := range sizeUnits[:4] {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.suffix)
		}
	}
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
