package verify

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/verify/internal/corpus"
)

// TestLimitsAreExact shows each limit lets through a bundle exactly at it and refuses one byte or member more,
// counting what is read.
func TestLimitsAreExact(t *testing.T) {
	var c corpus.Case
	for _, cc := range loadIndex(t).Cases {
		if cc.Name == "good" {
			c = cc
		}
	}
	archive, sig, keys, _ := caseInputs(t, c)
	content, _ := inflate(archive)
	pass := Verify(bytes.NewReader(archive), sig, keys, Options{})
	if pass.ExitCode != 0 {
		t.Fatal(pass.Text())
	}
	var mj []byte
	var biggest int64
	{
		c, fail := readArchive(bytes.NewReader(archive), DefaultLimits(), nil)
		if fail != nil {
			t.Fatal(fail.detail)
		}
		mj = c.manifestJSON
		for _, m := range c.members {
			biggest = max(biggest, m.size)
		}
		if c.entries != 5 || c.total != int64(len(content)) {
			t.Fatalf("entries %d total %d; want 5 and %d", c.entries, c.total, len(content))
		}
	}
	tests := []struct {
		name   string
		at     Limits
		over   Limits
		detail string
	}{
		{"entries", Limits{MaxEntries: 5}, Limits{MaxEntries: 4}, "more than 4 members"},
		{"member", Limits{MaxMemberSize: biggest}, Limits{MaxMemberSize: biggest - 1}, "--max-member-size"},
		{"total", Limits{MaxTotalSize: int64(len(content))}, Limits{MaxTotalSize: int64(len(content)) - 1}, "--max-total-size"},
		{"manifest", Limits{MaxManifestSize: int64(len(mj))}, Limits{MaxManifestSize: int64(len(mj)) - 1}, "--max-manifest-size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := Verify(bytes.NewReader(archive), sig, keys, Options{Limits: tt.at}); r.ExitCode != 0 {
				t.Errorf("at the limit: %s", r.Text())
			}
			r := Verify(bytes.NewReader(archive), sig, keys, Options{Limits: tt.over})
			if r.ExitCode != 2 || r.FirstFailure() != CheckArchive || !strings.Contains(r.Checks[0].Detail, tt.detail) {
				t.Errorf("over the limit: %s", r.Text())
			}
		})
	}
}

// TestNeverVerifiedIncomplete: a report lacking any check of the chain, or whose trust did not pass, is never
// VERIFIED, whatever the other lines say.
func TestNeverVerifiedIncomplete(t *testing.T) {
	all := []string{CheckArchive, CheckManifest, CheckFiles, CheckSignature, CheckTrust}
	for skip := range all {
		r := &Report{}
		for i, name := range all {
			if i != skip {
				r.add(Check{Check: name, Status: Pass})
			}
		}
		r.finish(false)
		if r.Verdict == Verified || r.ExitCode == 0 {
			t.Errorf("without %s: %s %d", all[skip], r.Verdict, r.ExitCode)
		}
	}
	r := &Report{}
	for _, name := range all {
		st := Pass
		if name == CheckTrust {
			st = Warn
		}
		r.add(Check{Check: name, Status: st})
	}
	r.finish(true)
	if r.Verdict != Unverifiable || r.ExitCode != 2 {
		t.Errorf("trust WARN: %s %d", r.Verdict, r.ExitCode)
	}
}

// TestVerdictPrecedence: a mismatch outranks an unusable input, which outranks a missing key.
func TestVerdictPrecedence(t *testing.T) {
	r := &Report{}
	r.add(Check{Check: CheckSignature, Status: Fail, unusable: true, Detail: "x"})
	r.add(Check{Check: CheckFiles, Status: Fail, Detail: "y"})
	r.finish(false)
	if r.ExitCode != 1 || strings.Join(r.Failures, ",") != "signature,files" {
		t.Errorf("%s %d %v", r.Verdict, r.ExitCode, r.Failures)
	}
	u := Unusable(CheckTrust, "card \x1b[31mred")
	if u.ExitCode != 2 || u.Verdict != Unverifiable || strings.Contains(u.Text(), "\x1b") {
		t.Errorf("%q", u.Text())
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "16MiB": 16 << 20, "16 MiB": 16 << 20, "1G": 1 << 30, "2KiB": 2048, "100B": 100, "1TiB": 1 << 40} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1", "1.5GiB", "lots", "1PiB", "99999999999TiB", "MiB"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	for n, want := range map[int64]string{16 << 20: "16 MiB", 1 << 30: "1 GiB", 1500: "1.5 KiB", 10: "10 B"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestJSONStatusIsTheTextTag (issue 25, 16): for every corpus case, each check's --json status is its text tag in
// lower case, so an [UNUSABLE] line is "unusable" in --json, never "fail", which scripts read as tampering.
func TestJSONStatusIsTheTextTag(t *testing.T) {
	unusable := 0
	for _, c := range loadIndex(t).Cases {
		archive, sig, keys, opts := caseInputs(t, c)
		r := Verify(bytes.NewReader(archive), sig, keys, opts)
		var doc struct {
			Checks []struct {
				Check  string `json:"check"`
				Status string `json:"status"`
			} `json:"checks"`
		}
		if err := json.Unmarshal(r.JSON(), &doc); err != nil {
			t.Fatal(err)
		}
		for i, chk := range r.Checks {
			if got, want := doc.Checks[i].Status, strings.ToLower(chk.Tag()); got != want {
				t.Errorf("%s: check %s is [%s] in the text but %q in --json", c.Name, chk.Check, chk.Tag(), got)
			}
			if chk.Tag() == "UNUSABLE" {
				unusable++
			}
		}
	}
	if unusable == 0 {
		t.Error("no corpus case has an unusable check: the test shows nothing")
	}
}
