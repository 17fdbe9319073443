package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// verifyJSON is what --json prints, read back strictly enough to notice a renamed field.
type verifyJSON struct {
	Verdict  string `json:"verdict"`
	ExitCode int    `json:"exit_code"`
	TicketID string `json:"ticket_id"`
	Tracker  string `json:"tracker"`
	Kid      string `json:"kid"`
	Checks   []struct {
		Check    string   `json:"check"`
		Status   string   `json:"status"`
		Detail   string   `json:"detail"`
		Problems []string `json:"problems"`
	} `json:"checks"`
	Failures []string `json:"failures"`
	Warnings []string `json:"warnings"`
}

func lastLineOf(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestVerifyRealBundle builds bundles the way a user does (keygen, bundle, verify) and checks each verdict,
// in text and JSON, with the JSON's exit_code equal to the process's.
func TestVerifyRealBundle(t *testing.T) {
	t.Parallel()
	r, card := aliceBundles(t, "traces/ENG-42.jsonl", `{"ticket_id":"ENG-42"}`+"\n")

	// The signature is found as ENG-42.tar.gz.jws, flags may follow the archive.
	out, errOut, code := runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card)
	if code != 0 || errOut != "" {
		t.Fatalf("verify: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"[PASS] archive — ", "[PASS] manifest — ", "[PASS] files — ", "[PASS] signature — ", "[PASS] trust — "} {
		if !strings.Contains(out, "\n"+want) && !strings.HasPrefix(out, want) {
			t.Errorf("no %q line:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(lastLineOf(out), "VERIFIED: ") {
		t.Errorf("last line is not the verdict:\n%s", out)
	}

	cases := []struct {
		name    string
		args    []string
		code    int
		verdict string
	}{
		{"signed", []string{"verify", "ENG-42.tar.gz", "--card", card}, 0, "VERIFIED"},
		{"bernstein form", []string{"bundle", "verify", "ENG-42.tar.gz", "ENG-42.tar.gz.jws", "--card", card}, 0, "VERIFIED"},
		{"strict, no warnings", []string{"verify", "--strict", "--card", card, "ENG-42.tar.gz"}, 0, "VERIFIED"},
		{"unsigned", []string{"verify", "unsigned.tar.gz", "--card", card}, 2, "UNVERIFIABLE"},
		{"no card", []string{"verify", "ENG-42.tar.gz"}, 2, "UNVERIFIABLE"},
		{"another bundle's signature", []string{"verify", "unsigned.tar.gz", "ENG-42.tar.gz.jws", "--card", card}, 1, "FAILED"},
		{"missing archive", []string{"verify", "nope.tar.gz", "--card", card}, 2, "UNVERIFIABLE"},
		{"missing signature", []string{"verify", "ENG-42.tar.gz", "nope.jws", "--card", card}, 2, "UNVERIFIABLE"},
		{"card is not a card", []string{"verify", "ENG-42.tar.gz", "--card", "ENG-42.tar.gz.jws"}, 2, "UNVERIFIABLE"},
		{"limit", []string{"verify", "ENG-42.tar.gz", "--card", card, "--max-entries", "2"}, 2, "UNVERIFIABLE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runIn(t, r.Dir, r.Env, tc.args...)
			if code != tc.code || !strings.HasPrefix(lastLineOf(out), tc.verdict+": ") {
				t.Fatalf("exit %d, want %d %s\n%s\n%s", code, tc.code, tc.verdict, out, errOut)
			}
			jout, _, jcode := runIn(t, r.Dir, r.Env, append(tc.args, "--json")...)
			var rep verifyJSON
			dec := json.NewDecoder(strings.NewReader(jout))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&rep); err != nil {
				t.Fatalf("--json: %v\n%s", err, jout)
			}
			if jcode != code || rep.ExitCode != jcode || rep.Verdict != tc.verdict {
				t.Fatalf("--json: exit %d, exit_code %d, verdict %s; text exit %d", jcode, rep.ExitCode, rep.Verdict, code)
			}
			if rep.Checks == nil || rep.Failures == nil || rep.Warnings == nil {
				t.Errorf("--json has null lists:\n%s", jout)
			}
			if tc.code == 0 && (rep.TicketID != "ENG-42" || rep.Tracker != "github" || rep.Kid != "alice-2026" || len(rep.Checks) != 6) {
				t.Errorf("--json: %+v", rep)
			}
		})
	}

	// Tampering after signing: one byte appended to the archive is FAILED.
	data, _ := os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz"))
	os.WriteFile(filepath.Join(r.Dir, "tampered.tar.gz"), append(data, 0), 0o644)
	os.WriteFile(filepath.Join(r.Dir, "tampered.tar.gz.jws"), must(os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz.jws"))), 0o644)
	if out, _, code := runIn(t, r.Dir, r.Env, "verify", "tampered.tar.gz", "--card", card); code != 1 || !strings.Contains(out, "[FAIL] archive") {
		t.Errorf("tampered: exit %d\n%s", code, out)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestVerifyCorpusThroughCLI runs a few corpus cases through the command: the --strict exit 3, a forged header,
// and a member name with escape sequences that must not reach the terminal.
func TestVerifyCorpusThroughCLI(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("../../testdata/verify")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"verify", "good-legacy.tar.gz", "--card", "test-only.card.json"}, 0},
		{[]string{"verify", "good-legacy.tar.gz", "--card", "test-only.card.json", "--strict"}, 3},
		{[]string{"verify", "alg-none.tar.gz", "--card", "test-only.card.json"}, 1},
		{[]string{"verify", "control-name.tar.gz", "--card", "test-only.card.json"}, 1},
		{[]string{"verify", "bomb-member.tar.gz", "--card", "test-only.card.json", "--max-member-size", "1MiB"}, 2},
	} {
		out, errOut, code := runIn(t, dir, nil, tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d\n%s\n%s", tc.args, code, tc.code, out, errOut)
		}
		if strings.ContainsAny(out, "\x1b\x00\r") {
			t.Errorf("%v: control characters in the output:\n%q", tc.args, out)
		}
	}
}

func TestVerifyUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"verify"},
		{"verify", "a", "b", "c"},
		{"verify", "a.tar.gz", "--bogus"},
		{"verify", "a.tar.gz", "--max-member-size", "lots"},
		{"verify", "a.tar.gz", "--max-total-size", "-1"},
		{"verify", "a.tar.gz", "--max-entries", "0"},
		{"bundle", "verify"},
	} {
		if out, errOut, code := runIn(t, dir, nil, args...); code != 2 || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, want 2 with a message on stderr only\n%s\n%s", args, code, out, errOut)
		}
	}
	out, _, code := runIn(t, dir, nil, "verify", "--help")
	for _, want := range []string{"0  VERIFIED", "1  FAILED", "2  UNVERIFIABLE", "3  --strict", "100000 members", "1 GiB", "4 GiB", "16 MiB", "--card"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("verify --help lacks %q (exit %d):\n%s", want, code, out)
		}
	}
	if out, _, _ := runIn(t, dir, nil, "bundle", "verify", "--help"); !strings.Contains(out, "ARCHIVE SIGNATURE") || !strings.Contains(out, "16 MiB") {
		t.Errorf("bundle verify --help:\n%s", out)
	}
}
