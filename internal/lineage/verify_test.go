package lineage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestVerifyFailures(t *testing.T) {
	childPath := func(root string) string { return filepath.Join(root, "children", refChildHex+".jsonl") }
	tests := []struct {
		name   string
		mutate func(root string)
		want   []string
		repair string // substring of the first failure's repair
	}{
		{"intact", func(string) {}, nil, ""},
		{"parent hmac", func(r string) {
			write(t, filepath.Join(r, "parent.jsonl"), strings.Replace(refParent, `"summary":"s"`, `"summary":"S"`, 1)+"\n")
		}, []string{"parent[0] hmac mismatch (task=T)"}, ""},
		{"non-canonical spacing", func(r string) {
			write(t, filepath.Join(r, "parent.jsonl"), strings.Replace(refParent, `,"v":2}`, `, "v":2}`, 1)+"\n")
		}, []string{"parent[0] non-canonical bytes (task=T)"}, ""},
		{"extra key", func(r string) {
			write(t, filepath.Join(r, "parent.jsonl"), strings.Replace(refParent, `{"child_run_id"`, `{"a":1,"child_run_id"`, 1)+"\n")
		}, []string{"parent[0] non-canonical bytes (task=T)"}, ""},
		{"prev break on duplicate", func(r string) {
			write(t, filepath.Join(r, "parent.jsonl"), refParent+"\n"+refParent+"\n")
		}, []string{"parent[1] prev_hmac break (task=T)"}, ""},
		{"missing child", func(r string) { os.Remove(childPath(r)) },
			[]string{"parent[0] missing child file sha256:" + refChildHex}, "restore children/"},
		{"empty child", func(r string) { write(t, childPath(r), "") },
			[]string{"parent[0] child_sha mismatch (expected sha256:" + refChildHex + " got an empty file)"}, ""},
		{"child hmac", func(r string) {
			write(t, childPath(r), strings.Replace(refChildLine, `"hmac":"4`, `"hmac":"5`, 1)+"\n")
		}, []string{"child[sha256:3c99e1ac3..][0] hmac mismatch"}, ""},
		{"child content", func(r string) {
			write(t, childPath(r), strings.Replace(refChildLine, `"payload":{}`, `"payload":{"x":1}`, 1)+"\n")
		}, []string{"parent[0] child_sha mismatch (expected sha256:" + refChildHex + " got sha256:", "child[sha256:3c99e1ac3..][0] hmac mismatch"}, ""},
		{"orphan", func(r string) {
			write(t, filepath.Join(r, "children", strings.Repeat("ab", 32)+".jsonl"), refChildLine+"\n")
		},
			[]string{"orphan child file sha256:" + strings.Repeat("ab", 32)}, "remove children/abab"},
		{"torn parent line", func(r string) {
			f, _ := os.OpenFile(filepath.Join(r, "parent.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"child_run_id":"r2","chi`)
			f.Close()
		}, []string{"parent[1] undecodable record (JSONDecodeError)"}, "truncate parent.jsonl to " + itoaLen(refParent+"\n") + " bytes"},
		{"lost newline", func(r string) { write(t, filepath.Join(r, "parent.jsonl"), refParent) },
			[]string{"parent[0] torn last line (no trailing newline) (task=T)"}, "append one newline"},
		{"missing key", func(r string) {
			write(t, filepath.Join(r, "parent.jsonl"), strings.Replace(refParent, `"summary":"s",`, ``, 1)+"\n")
		}, []string{"parent[0] undecodable record (KeyError)", "orphan child file sha256:" + refChildHex}, ""},
		{"bad version", func(r string) {
			write(t, filepath.Join(r, "parent.jsonl"), strings.Replace(refParent, `"v":2`, `"v":3`, 1)+"\n")
		}, []string{"parent[0] undecodable record (ValueError)", "orphan child file sha256:" + refChildHex}, ""},
		{"path escape", func(r string) {
			write(t, filepath.Join(r, "parent.jsonl"), strings.Replace(refParent, "sha256:"+refChildHex, "sha256:../../x", 1)+"\n")
		}, []string{"parent[0] hmac mismatch (task=T)", "parent[0] missing child file sha256:../../x", "orphan child file sha256:" + refChildHex}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeReferenceStore(t)
			tt.mutate(root)
			res := Open(root, PublicKey()).Verify(VerifyOptions{})
			got := res.Messages()
			if len(got) != len(tt.want) || res.OK != (len(tt.want) == 0) {
				t.Fatalf("failures %q, want %q", got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("failure %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
			if tt.repair != "" && !strings.Contains(res.Failures[0].Repair, tt.repair) {
				t.Errorf("repair %q lacks %q", res.Failures[0].Repair, tt.repair)
			}
		})
	}
}

func itoaLen(s string) string { b, _ := json.Marshal(len(s)); return string(b) }

// Verify is total: hostile files give failures, never a panic.
func TestVerifyTotal(t *testing.T) {
	for _, junk := range []string{"\x00\xff\n", "[]\n", "null\n", `{"v":2}` + "\n", strings.Repeat("{", 10000) + "\n",
		`{"child_run_id":"r","child_sha":"sha256:zz","hmac":1,"parent_call_id":"","prev_hmac":"","summary":"","task_id":"T","ts_ns":1e400,"v":2}` + "\n",
		`{"child_run_id":"r","child_sha":"sha256:` + refChildHex + `","hmac":"","parent_call_id":"","prev_hmac":"","summary":"\ud800","task_id":"T","ts_ns":99999999999999999999,"v":2}` + "\n",
		"\n\n\n"} {
		root := writeReferenceStore(t)
		write(t, filepath.Join(root, "parent.jsonl"), junk)
		write(t, filepath.Join(root, "children", refChildHex+".jsonl"), junk)
		if res := Open(root, PublicKey()).Verify(VerifyOptions{}); res.OK {
			t.Errorf("junk %q verified", junk)
		}
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "parent.jsonl"), 0o755)
	if res := Open(root, PublicKey()).Verify(VerifyOptions{}); res.OK {
		t.Error("parent.jsonl as a folder verified")
	}
	if res := Open(filepath.Join(root, "none"), PublicKey()).Verify(VerifyOptions{}); !res.OK || res.ParentCount != 0 {
		t.Errorf("missing store: %+v (upstream reports an empty store as OK)", res)
	}
}

func TestAppendRefusesTornTip(t *testing.T) {
	root := writeReferenceStore(t)
	write(t, filepath.Join(root, "parent.jsonl"), refParent+"\n"+`{"trunc`)
	s := Open(root, PublicKey())
	ref, body := refRecords()
	body.TsNs = 2
	if _, _, err := s.Append(ref, body); err == nil || !strings.Contains(err.Error(), "torn") {
		t.Fatalf("append onto a torn parent log: %v", err)
	}
	ents, _ := os.ReadDir(filepath.Join(root, "children"))
	if len(ents) != 1 {
		t.Errorf("refused append still wrote a child file (%d files)", len(ents))
	}
}

func TestKeys(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "k")
	write(t, secret, "hunter2\n")
	k, err := ResolveKey("", func(string) string { return secret })
	if err != nil || string(k.Bytes) != "hunter2" || k.Class != KeySecretFile {
		t.Fatalf("env key: %+v %v", k, err)
	}
	write(t, secret, DefaultKey+"\n")
	if k, _ := LoadKeyFile(secret); k.Class != KeyPublicDefault {
		t.Errorf("a file holding the public key is %s", k.Class)
	}
	write(t, secret, "two\n\n")
	if k, _ := LoadKeyFile(secret); string(k.Bytes) != "two\n" {
		t.Errorf("only one trailing newline may go: %q", k.Bytes)
	}
	for _, bad := range []string{filepath.Join(dir, "missing"), func() string { p := filepath.Join(dir, "empty"); write(t, p, "\n"); return p }()} {
		if _, err := ResolveKey(bad, nil); err == nil {
			t.Errorf("key file %s accepted", bad)
		}
	}
	if k, _ := ResolveKey("", func(string) string { return "" }); k.Class != KeyPublicDefault || string(k.Bytes) != DefaultKey {
		t.Errorf("default key: %+v", k)
	}
	// A store under the secret key verifies only with it.
	root := t.TempDir()
	ref, body := refRecords()
	if _, _, err := Open(root, Key{Bytes: []byte("hunter2"), Class: KeySecretFile}).Append(ref, body); err != nil {
		t.Fatal(err)
	}
	if res := Open(root, Key{Bytes: []byte("hunter2"), Class: KeySecretFile}).Verify(VerifyOptions{Strict: true}); !res.OK {
		t.Errorf("secret-key store: %v", res.Messages())
	}
	if res := Open(root, PublicKey()).Verify(VerifyOptions{}); res.OK {
		t.Error("secret-key store verified under the public key")
	}
}

// The sigstore export follows in-toto Statement v1: _type, a non-empty subject list of name + digest with hex
// sha256, predicateType a URI, predicate an object.
func TestExportSigstoreStatement(t *testing.T) {
	s := Open(writeReferenceStore(t), PublicKey())
	tl, err := s.Replay("T")
	if err != nil {
		t.Fatal(err)
	}
	out, err := ExportSigstore(tl)
	if err != nil {
		t.Fatal(err)
	}
	var sts []struct {
		Type    string `json:"_type"`
		Subject []struct {
			Name   string            `json:"name"`
			Digest map[string]string `json:"digest"`
		} `json:"subject"`
		PredicateType string `json:"predicateType"`
		Predicate     struct {
			BuildDefinition struct {
				BuildType          string            `json:"buildType"`
				ExternalParameters map[string]string `json:"externalParameters"`
			} `json:"buildDefinition"`
			RunDetails struct {
				Builder  struct{ ID string } `json:"builder"`
				Metadata struct {
					InvocationID string `json:"invocationId"`
					StartedOn    string `json:"startedOn"`
				} `json:"metadata"`
				Byproducts []struct {
					Name   string            `json:"name"`
					Digest map[string]string `json:"digest"`
				} `json:"byproducts"`
			} `json:"runDetails"`
		} `json:"predicate"`
	}
	if err := json.Unmarshal(out, &sts); err != nil || len(sts) != 1 {
		t.Fatalf("%s: %v", out, err)
	}
	st := sts[0]
	if st.Type != "https://in-toto.io/Statement/v1" || len(st.Subject) != 1 || st.PredicateType != "https://slsa.dev/provenance/v0.3" {
		t.Errorf("statement header: %+v", st)
	}
	if st.Subject[0].Name != "bernstein-lineage-v2/T/r1" || !reflect.DeepEqual(st.Subject[0].Digest, map[string]string{"sha256": refChildHex}) {
		t.Errorf("subject: %+v", st.Subject)
	}
	p := st.Predicate
	if p.BuildDefinition.BuildType != BuildType || p.BuildDefinition.ExternalParameters["parent_call_id"] != "call" ||
		p.RunDetails.Builder.ID != BuilderID || p.RunDetails.Metadata.InvocationID != "r1" ||
		p.RunDetails.Metadata.StartedOn != "1970-01-01T00:00:00Z" || len(p.RunDetails.Byproducts) != 1 ||
		p.RunDetails.Byproducts[0].Name != "child_body[0]" || len(p.RunDetails.Byproducts[0].Digest["sha256"]) != 64 {
		t.Errorf("predicate: %+v", p)
	}
	if !strings.HasPrefix(string(out), "[\n  {\n    \"_type\": ") {
		t.Errorf("not json.dumps(indent=2, sort_keys=True) layout:\n%s", out)
	}
}

func TestNsToISO(t *testing.T) {
	for _, tt := range []struct {
		ns   int64
		want string
	}{
		{0, "1970-01-01T00:00:00Z"},
		{-5, "1970-01-01T00:00:00Z"},
		{1, "1970-01-01T00:00:00Z"},
		{1_700_000_000_000_000_000, "2023-11-14T22:13:20Z"},
		{1_700_000_000_999_999_000, "2023-11-14T22:13:20Z"},
		{1_700_000_000_999_999_600, "2023-11-14T22:13:21Z"}, // Python rounds the microseconds up into the next second
		{1_700_000_000_999_999_499, "2023-11-14T22:13:21Z"}, // the double nearest ts/1e9 already rounds up
		{1_999_999_999_999_999_999, "2033-05-18T03:33:20Z"},
	} {
		if got := nsToISO(tt.ns); got != tt.want {
			t.Errorf("nsToISO(%d) = %s, want %s", tt.ns, got, tt.want)
		}
	}
}
