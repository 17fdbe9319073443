package landing

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// versionPattern is the rule parseVersion writes out by hand: the judge of the differential tests below.
var versionPattern = regexp.MustCompile(`^([A-Za-z_-]*?)v?(\d{1,9})\.(\d{1,9})(?:\.(\d{1,9}))?` +
	`(?:[-.]?((?i:rc|alpha|beta|a|b|pre|preview|m))[.-]?(\d{0,9}))?$`)

// byPattern is what the regexp makes of s.
func byPattern(s string) (version, bool) {
	m := versionPattern.FindStringSubmatch(s)
	if m == nil {
		return version{}, false
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return version{tag: s, prefix: m[1], major: n(m[2]), minor: n(m[3]), patch: n(m[4]),
		preName: strings.ToLower(m[5]), pre: n(m[6])}, true
}

func TestParseVersionMatchesPattern(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "1", "1.", "1.2", "v1.2", "V1.2", "vv1.2", "rev1.2.3", "release-3.2", "release_3.2.1-rc1",
		"3.9.0-rc3", "3.9.0rc3", "3.9.0.rc3", "3.9.0-RC3", "2.0.0-alpha", "2.0.0.beta2", "1.2a", "1.2-a-",
		"1.2-a.7", "1.2a.b", "1.2rcx", "1.2-", "1.2.", "1.2..3", "1.2.3.4", "1.2-pre1", "1.2preview",
		"1.2preview3", "1.2-m5", "1.1234567890", "1234567890.1", "1.2.1234567890", "1.2-rc1234567890",
		"1.2-rc123456789", "-1.2", "a-b_c1.2", "1.2 ", " 1.2", "1.2\n", "1.2-rc-1", "1.2-rc.1", "1.2.-rc1",
		"x1.2-ſc1", "1.2-rC", "٣.2", "1.2.3-beta-", "kafka-0.10.2.0", "0.8.2-beta", "trunk", "3.2",
	} {
		got, gok := parseVersion(s)
		want, wok := byPattern(s)
		if gok != wok || got != want {
			t.Errorf("parseVersion(%q) = %+v, %v; the pattern says %+v, %v", s, got, gok, want, wok)
		}
	}
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"v1.2.3-rc1", "release-3.2", "1.2preview", "a.b", "1.2-a-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gok := parseVersion(s)
		want, wok := byPattern(s)
		if gok != wok || got != want {
			t.Errorf("parseVersion(%q) = %+v, %v; the pattern says %+v, %v", s, got, gok, want, wok)
		}
	})
}
