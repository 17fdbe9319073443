package schematest

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldensAgainstSchemas: every golden file of a format we write is what its schema says.
func TestGoldensAgainstSchemas(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ schema, file string }{
		{"manifest", "internal/bundle/testdata/manifest.golden.json"},
		{"commits", "internal/bundle/testdata/commits.golden.json"},
		{"card", "testdata/verify/test-only.card.json"},
	} {
		if err := ValidateFile(c.schema, filepath.Join(Root(), c.file)); err != nil {
			t.Error(err)
		}
	}
}

// TestSchemasRefuse: the schemas are strict where the readers are: an unknown member, a missing one, a wrong
// type each fail (so the goldens' passing means something).
func TestSchemasRefuse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ schema, doc, why string }{
		{"manifest", `{"schema_version":1,"created_at":"x","bernstein_version":"x","tracker":"t","ticket_id":"T","files":[],"pr_number":null,"commits":[],"extra":1}`, "extra"},
		{"manifest", `{"schema_version":2,"created_at":"x","bernstein_version":"x","tracker":"t","ticket_id":"T","files":[],"pr_number":null,"commits":[]}`, "schema_version"},
		{"manifest", `{"schema_version":1,"created_at":"x","bernstein_version":"x","tracker":"t","ticket_id":"T","files":[{"arcname":"a/b","size_bytes":1,"sha256":"00","section":"git"}],"pr_number":null,"commits":[]}`, "sha256"},
		{"commits", `{"tracker":"t","ticket_id":"T","commits":[],"details":[],"Details":[]}`, "Details"},
		{"note", `{"bundle":"a.tar.gz","bundle_sha256":"` + strings.Repeat("0", 64) + `","commits":1,"created_at":"x","files":1,"kid":"","manifest_sha256":"` + strings.Repeat("0", 64) + `","signed":false,"ticket":"T","tracker":"t"}`, "v"},
		{"sources", `{"v":1,"members":[{"arcname":"pr/pr_1.json","source":"guessed","path":null,"requests":[]}]}`, "source"},
		{"checkpoint", `{"children":{},"created_at":"2026-01-01T00:00:00Z","format":"git-bernstein/lineage-v2-checkpoint","key_class":"public-default","parent":{"count":-1,"last_hmac":""},"v":1}`, "count"},
		{"card", `{"agent_id":"a","kid":"k","public_key_pem":"-----BEGIN PUBLIC KEY-----\n","AGENT_ID":"b"}`, "AGENT_ID"},
		{"audit", `{"verify":{"verdict":"VERIFIED","exit_code":0,"checks":[]},"controls":{"v":1,"tracker":"github","ticket_id":"1","outcomes":[{"control":"self-review","subject":"#1","status":"pass","detail":"","evidence":[]}],"counts":{"pass":1,"exception":0,"unknown":0},"notes":[]},"exit_code":0}`, "control"},
		{"sigstore-bundle", sigstoreBundle(`"tlogEntries":[]`, `"sig":"`+strings.Repeat("A", 86)+`=="`), "nothing: the control, must pass"},
		{"sigstore-bundle", sigstoreBundle(`"tlogEntries":[{}]`, `"sig":"`+strings.Repeat("A", 86)+`=="`), "tlogEntries"},
		{"sigstore-bundle", sigstoreBundle(`"tlogEntries":[]`, `"keyid":1,"sig":"`+strings.Repeat("A", 86)+`=="`), "keyid a number"},
		{"sigstore-bundle", sigstoreBundle(`"tlogEntries":[],"certificate":{}`, `"sig":"`+strings.Repeat("A", 86)+`=="`), "certificate"},
	} {
		if c.why == "nothing: the control, must pass" {
			if err := Validate(c.schema, []byte(c.doc)); err != nil {
				t.Errorf("control: %v", err)
			}
			continue
		}
		if err := Validate(c.schema, []byte(c.doc)); err == nil {
			t.Errorf("%s: %s passes its schema; it must not (%s)", c.schema, c.doc, c.why)
		}
	}
}

// sigstoreBundle is a .sigstore.json with the given verificationMaterial members after publicKey and the given
// signature members.
func sigstoreBundle(material, signature string) string {
	return `{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json","verificationMaterial":{"publicKey":{"hint":"k1"},` + material +
		`},"dsseEnvelope":{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[{` + signature + `}]}}`
}
