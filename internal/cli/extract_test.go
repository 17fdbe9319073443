package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtractRealBundle: keygen, bundle, extract, as an auditor would; then the unsigned bundle, refused without
// --allow-unverified, and a bundle with one byte changed, never extracted.
func TestExtractRealBundle(t *testing.T) {
	t.Parallel()
	r, card := aliceBundles(t, "traces/ENG-42.jsonl", `{"ticket_id":"ENG-42"}`+"\n")
	out, errOut, code := runIn(t, r.Dir, r.Env, "extract", "ENG-42.tar.gz", "--card", card)
	if code != 0 || !strings.Contains(out, "VERIFIED: ") || !strings.Contains(out, "Extracted ") {
		t.Fatalf("extract: exit %d\n%s\n%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(r.Dir, "ENG-42", "traces", "ENG-42.jsonl"))
	if err != nil || string(data) != `{"ticket_id":"ENG-42"}`+"\n" {
		t.Errorf("extracted trace: %q, %v", data, err)
	}
	for _, f := range []string{"manifest.json", "git/commits.json", "git/diff.patch"} {
		if _, err := os.Stat(filepath.Join(r.Dir, "ENG-42", f)); err != nil {
			t.Errorf("%s not extracted: %v", f, err)
		}
	}
	// Again: the folder exists now.
	if out, errOut, code := runIn(t, r.Dir, r.Env, "extract", "ENG-42.tar.gz", "--card", card); code != 2 || !strings.Contains(errOut, "exists") {
		t.Errorf("extract over an existing folder: exit %d\n%s\n%s", code, out, errOut)
	}

	// Unsigned: refused, then extracted with the flag, and the JSON says so.
	out, _, code = runIn(t, r.Dir, r.Env, "extract", "unsigned.tar.gz", "--card", card, "--into", "u1")
	if code != 2 || !strings.Contains(out, "Nothing extracted") {
		t.Errorf("unsigned: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "u1")); !os.IsNotExist(err) {
		t.Errorf("unsigned: u1 exists (%v)", err)
	}
	out, _, code = runIn(t, r.Dir, r.Env, "extract", "unsigned.tar.gz", "--allow-unverified", "--into", "u2", "--json")
	var j struct {
		Verdict    string `json:"verdict"`
		ExitCode   int    `json:"exit_code"`
		Extracted  bool   `json:"extracted"`
		Unverified bool   `json:"extracted_unverified"`
		Files      int    `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 2 || j.ExitCode != 2 || !j.Extracted || !j.Unverified || j.Files != 4 {
		t.Errorf("unsigned --allow-unverified --json: exit %d, %+v, %v\n%s", code, j, err, out)
	}

	// One byte changed after signing: FAILED, nothing extracted, even with --allow-unverified.
	arch, _ := os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz"))
	tampered := retarred(t, arch, "traces/ENG-42.jsonl", []byte(`{"ticket_id":"ENG-43"}`+"\n"))
	os.WriteFile(filepath.Join(r.Dir, "t.tar.gz"), tampered, 0o644)
	jws, _ := os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz.jws"))
	os.WriteFile(filepath.Join(r.Dir, "t.tar.gz.jws"), jws, 0o644)
	out, _, code = runIn(t, r.Dir, r.Env, "extract", "t.tar.gz", "--card", card, "--allow-unverified")
	if code != 1 || !strings.Contains(out, "FAILED: ") || !strings.Contains(out, "Nothing extracted") {
		t.Errorf("tampered: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "t")); !os.IsNotExist(err) {
		t.Errorf("tampered: t exists (%v)", err)
	}
}

// retarred rewrites a bundle with one member's content replaced, as a tamperer with Go's tar writer would.
func retarred(t *testing.T, archive []byte, name string, data []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for _, m := range archiveMembers(t, archive) {
		body := m.data
		if m.hdr.Name == name {
			body = data
			m.hdr.Size = int64(len(data))
		}
		tw.WriteHeader(m.hdr)
		tw.Write(body)
	}
	tw.Close()
	zw.Close()
	return out.Bytes()
}
