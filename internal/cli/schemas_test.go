package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/schematest"
)

// The JSON the commands write is what its JSON Schema (internal/schematest) says: a bundle's manifest.json,
// git/commits.json and pr/sources.json, its .sigstore.json, keygen's card, the note record writes, a lineage v2
// checkpoint and audit --json (of a bundle audited and of one that failed). The check is here, in process, rather than in the transcripts: their test binary
// is the git-bernstein every transcript runs, and linking the schema validator there cost its start-up work on
// each of those runs.
func TestOutputsMatchTheirSchemas(t *testing.T) {
	t.Parallel()
	r, key, card, archive := offlineBundle(t)
	valid := func(schema, what string, doc []byte) {
		t.Helper()
		if err := schematest.Validate(schema, doc); err != nil {
			t.Errorf("%s: %v\n%s", what, err, doc)
		}
	}
	_, files := readArchive(t, archive)
	valid("manifest", "manifest.json", files["manifest.json"])
	valid("commits", "git/commits.json", files["git/commits.json"])
	valid("sources", "pr/sources.json", files["pr/sources.json"])
	cardJSON, err := os.ReadFile(card)
	if err != nil {
		t.Fatal(err)
	}
	valid("card", "keygen's card", cardJSON)

	out, errOut, code := runIn(t, r.Dir, r.Env, "audit", archive, "--card", card, "--json")
	if code == 2 || out == "" {
		t.Fatalf("audit --json: exit %d\n%s", code, errOut)
	}
	valid("audit", "audit --json", []byte(out))

	attested := filepath.Join(filepath.Dir(r.Dir), "attested.tar.gz")
	if _, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-42", "--no-pr", "--attest", "--sign-key", key, "--sign-kid",
		"alice-2026", "--out", attested); c != 0 {
		t.Fatalf("bundle --attest: exit %d\n%s", c, e)
	}
	sigstore, err := os.ReadFile(attested + ".sigstore.json")
	if err != nil {
		t.Fatal(err)
	}
	valid("sigstore-bundle", "bundle --attest's .sigstore.json", sigstore)
	// A bundle that is not VERIFIED is not audited: the report has verify's verdict and "controls": null.
	out, errOut, code = runIn(t, r.Dir, r.Env, "audit", attested, archive+".jws", "--card", card, "--json")
	if code != 1 || !strings.Contains(out, `"controls": null`) {
		t.Fatalf("audit --json of another archive under the signature: exit %d\n%s%s", code, out, errOut)
	}
	valid("audit", "audit --json of a FAILED bundle", []byte(out))

	if _, e, c := runIn(t, r.Dir, r.Env, "record", "HEAD", "--no-pr"); c != 0 {
		t.Fatalf("record: exit %d\n%s", c, e)
	}
	note := r.Git("notes", "--ref=bernstein", "show", "HEAD")
	for _, line := range strings.Split(note, "\n") {
		valid("note", "record's note line", []byte(line))
	}

	run := func(args ...string) {
		t.Helper()
		if _, e, c := runIn(t, r.Dir, r.Env, append([]string{"lineage", "v2"}, args...)...); c != 0 {
			t.Fatalf("lineage v2 %s: exit %d\n%s", args[0], c, e)
		}
	}
	run("append", "--task", "ENG-42-impl", "--run", "r1", "--kind", "plan", "--payload", `{"step":1}`)
	cp := filepath.Join(filepath.Dir(r.Dir), "cp.json")
	run("checkpoint", "--out", cp)
	cpJSON, err := os.ReadFile(cp)
	if err != nil {
		t.Fatal(err)
	}
	valid("checkpoint", "lineage v2 checkpoint", cpJSON)
}
