package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// TestVerifyRepoProvesCompleteness is issue 25's item 7, tampered the way the red team did: a ticket index
// rewritten with a valid CRC-32 drops a commit, so the signed bundle silently lacks it; a poisoned patch id
// cache entry; and bundles re-signed with a made-up patch_id, matched_by or landed_on. `verify --repo` finds
// the ticket again at the tips the bundle records, reading no index or cache, and FAILs naming the sha; a
// commit tied only after the bundle was made is a notice.
func TestVerifyRepoProvesCompleteness(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Add the login form\n\nRefs: ENG-42", map[string]string{"login.html": "<form>\n</form>\n"})
	r.Commit("Unrelated work\n\nRefs: ENG-420", map[string]string{"other.txt": "other\n"})
	r.Commit("Check the login form\n\nRefs: ENG-42", map[string]string{"login.html": "<form required>\n</form>\n"})
	dropped := r.Git("rev-parse", "HEAD")
	r.Commit("Style the login form\n\nRefs: ENG-42", map[string]string{"login.css": "form {}\n"})
	unrelated := r.Git("rev-parse", "HEAD~2")
	dir := filepath.Dir(r.Dir)
	key, card := filepath.Join(dir, "alice.pem"), filepath.Join(dir, "alice.card.json")
	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "alice-2026", "--key", key, "--card", card); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	bundle := func(name string) (string, string) {
		t.Helper()
		out := filepath.Join(dir, name)
		o, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-42", "--no-pr", "--out", out, "--sign-key", key, "--sign-kid", "alice-2026", "--created-at", "2026-01-01T00:00:00Z")
		if c != 0 {
			t.Fatalf("bundle: %s %s", o, e)
		}
		return out, e
	}
	verifyRepo := func(archive string, args ...string) (string, int) {
		t.Helper()
		out, errOut, code := runIn(t, r.Dir, r.Env, append([]string{"verify", archive, "--card", card, "--repo"}, args...)...)
		return out + errOut, code
	}

	// The honest bundle: complete, and proven so.
	honest, _ := bundle("honest.tar.gz")
	if out, code := verifyRepo(honest); code != 0 || !strings.Contains(out, "found ENG-42 again at the 2 tips the bundle records, from the objects alone (no ticket index, no cache): the bundle lacks no commit tied there") {
		t.Fatalf("honest bundle: exit %d\n%s", code, out)
	}

	t.Run("ticket index drops a commit", func(t *testing.T) {
		// `commits` wrote the index; rewrite it without the commit, with a valid checksum.
		if _, e, c := runIn(t, r.Dir, r.Env, "commits", "ENG-42"); c != 0 {
			t.Fatal(e)
		}
		index := filepath.Join(r.Dir, ".git", "bernstein", "index")
		data, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(index, dropFromIndex(t, data, dropped), 0o644); err != nil {
			t.Fatal(err)
		}
		archive, _ := bundle("dropped.tar.gz")
		_, files := readArchive(t, archive)
		if m := manifestCommits(t, files); len(m) != 2 || slices.Contains(m, dropped) {
			t.Fatal("the tampered index did not drop the commit: the test does not tamper as the review did")
		}
		if out, _, code := runIn(t, r.Dir, r.Env, "verify", archive, "--card", card); code != 0 {
			t.Fatalf("without --repo the dropped bundle must verify (signed, consistent): exit %d\n%s", code, out)
		}
		out, code := verifyRepo(archive)
		if code != 1 || !strings.Contains(out, "[FAIL] repository") ||
			!strings.Contains(out, dropped+` ("Check the login form") is tied to ENG-42 (trailer:Refs, message) in the history below the tips the bundle records, so it was reachable when the bundle was made, but the bundle lacks it`) ||
			!strings.Contains(out, "make it again after deleting <git dir>/bernstein/index and patch-ids") {
			t.Fatalf("exit %d, want 1 naming %s\n%s", code, dropped, out)
		}
		os.Remove(index)
	})

	t.Run("poisoned patch id cache", func(t *testing.T) {
		// The cache says the unrelated commit has the fix's patch id: bundle computes every id again, says so,
		// and signs the true one.
		if _, e, c := runIn(t, r.Dir, r.Env, "commits", "ENG-42"); c != 0 {
			t.Fatal(e)
		}
		cache := filepath.Join(r.Dir, ".git", "bernstein", "patch-ids")
		data, err := os.ReadFile(cache)
		if err != nil {
			t.Fatal(err)
		}
		poisoned := poisonPatchIDs(t, data, dropped, strings.Repeat("e", 40))
		if err := os.WriteFile(cache, poisoned, 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, _ := runIn(t, r.Dir, r.Env, "commits", "ENG-42", "--json")
		if !strings.Contains(out, `"patch_id": "`+strings.Repeat("e", 40)+`"`) {
			t.Fatalf("the poisoned cache is not read by commits: the test does not tamper as the review did\n%s\n%q", out, poisoned)
		}
		os.WriteFile(cache, poisoned, 0o644)
		archive, warnings := bundle("poisoned.tar.gz")
		if !strings.Contains(warnings, "the patch id cache ("+cache+") held another id for 1 commit ("+dropped[:12]+") than its diff gives: replaced") {
			t.Errorf("bundle does not warn of the poisoned entry:\n%s", warnings)
		}
		_, files := readArchive(t, archive)
		if bytes.Contains(files["git/commits.json"], []byte(strings.Repeat("e", 40))) {
			t.Fatal("bundle signed the poisoned patch id")
		}
		if out, code := verifyRepo(archive); code != 0 {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})

	// Bundles that claim what the repository contradicts, re-signed with alice's key.
	_, files := readArchive(t, honest)
	var doc struct {
		Details []struct {
			SHA     string  `json:"sha"`
			PatchID *string `json:"patch_id"`
		} `json:"details"`
	}
	if err := json.Unmarshal(files["git/commits.json"], &doc); err != nil || len(doc.Details) != 3 || doc.Details[1].SHA != dropped {
		t.Fatalf("%v %+v", err, doc)
	}
	trueID := *doc.Details[1].PatchID
	for _, tc := range []struct{ name, old, new, want string }{
		{"made-up patch id", `"patch_id": "` + trueID + `"`, `"patch_id": "` + strings.Repeat("e", 40) + `"`,
			dropped[:12] + ": git/commits.json says its patch_id is " + strings.Repeat("e", 40) + ", but its diff gives " + trueID},
		{"made-up reason", `"matched_by": [` + "\n" + `        "trailer:Refs",`, `"matched_by": [` + "\n" + `        "trailer:Fixes",`,
			": git/commits.json says it matched by trailer:Fixes, message, finding the ticket again gives trailer:Refs, message"},
		{"made-up branch", `"branches": [` + "\n" + `          "main"`, `"branches": [` + "\n" + `          "main", "release/1.0"`,
			": git/commits.json says it landed on branches [main release/1.0] and first tags [], the recorded refs give [main] and []"},
		{"made-up first tag of a branch", `"first_tags_by_branch": {` + "\n" + `          "main": []`, `"first_tags_by_branch": {` + "\n" + `          "main": ["v9.9"]`,
			": git/commits.json says its first tags on main are [v9.9], the recorded refs give []"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".tar.gz")
			resign(t, honest, bad, key, "alice-2026", "git/commits.json", tc.old, tc.new)
			out, code := verifyRepo(bad)
			if code != 1 || !strings.Contains(out, "[FAIL] repository") || !strings.Contains(out, tc.want) {
				t.Fatalf("exit %d, want 1 with %q\n%s", code, tc.want, out)
			}
		})
	}

	t.Run("a bundle that ties an unrelated commit", func(t *testing.T) {
		bad := filepath.Join(dir, "unrelated.tar.gz")
		resignWith(t, honest, bad, key, func(files map[string][]byte) {
			files["git/commits.json"] = addDetail(t, files["git/commits.json"], unrelated, 1)
		})
		out, code := verifyRepo(bad)
		want := unrelated[:12] + ": git/commits.json ties it to ENG-42 (message), but finding the ticket again at the state the bundle records does not"
		if code != 1 || !strings.Contains(out, want) {
			t.Fatalf("exit %d, want 1 with %q\n%s", code, want, out)
		}
	})

	t.Run("later commit", func(t *testing.T) {
		r.Commit("Fix the login form again\n\nRefs: ENG-42", map[string]string{"login.css": "form { x }\n"})
		later := r.Git("rev-parse", "HEAD")
		out, code := verifyRepo(honest)
		if code != 0 || !strings.Contains(out, "[WARN] repository") ||
			!strings.Contains(out, later+` ("Fix the login form again") is tied to ENG-42 (trailer:Refs, message) at this clone's refs now, but not at the state the bundle records: a later commit or ref`) {
			t.Fatalf("exit %d\n%s", code, out)
		}
		if _, code := verifyRepo(honest, "--strict"); code != 3 {
			t.Errorf("--strict: exit %d, want 3", code)
		}
		r.Git("reset", "-q", "--hard", "HEAD~1")
	})

	t.Run("clone lacks a recorded tip", func(t *testing.T) {
		clone := filepath.Join(dir, "clone")
		r.Git("clone", "-q", r.Dir, clone)
		r.Git("checkout", "-q", "-b", "wip")
		r.Commit("Work in progress", map[string]string{"wip.txt": "wip\n"})
		wip := r.Git("rev-parse", "HEAD")
		r.Git("checkout", "-q", "main")
		archive, _ := bundle("wip.tar.gz")
		out, errOut, code := runIn(t, clone, r.Env, "verify", archive, "--card", card, "--repo")
		want := "the bundle records 1 tip that this clone does not have (refs/heads/wip at " + wip[:12] + "): commits only they reach were not searched"
		if code != 0 || !strings.Contains(out, "[WARN] repository") || !strings.Contains(out, want) ||
			!strings.Contains(out, "found ENG-42 again at the 2 tips of the 3 the bundle records that this clone has: it lacks no commit tied there") {
			t.Fatalf("exit %d, want 0 with %q\n%s%s", code, want, out, errOut)
		}
	})

	t.Run("bundle without discovery", func(t *testing.T) {
		old := filepath.Join(dir, "old.tar.gz")
		resignWith(t, honest, old, key, func(files map[string][]byte) {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(files["git/commits.json"], &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "discovery")
			files["git/commits.json"], _ = json.Marshal(m)
		})
		out, code := verifyRepo(old)
		if code != 0 || !strings.Contains(out, "[WARN] repository") || !strings.Contains(out, "git/commits.json records no discovery settings") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})
}

// resignWith is resign with the members changed by edit (name → content).
func resignWith(t *testing.T, from, to, key string, edit func(map[string][]byte)) {
	t.Helper()
	_, files := readArchive(t, from)
	edit(files)
	tmp := to + ".src.tar.gz"
	if err := os.WriteFile(tmp, retarredAll(t, from, files), 0o644); err != nil {
		t.Fatal(err)
	}
	// resign recomputes the manifest's sizes and hashes from the members and signs again; the edit it makes
	// here changes nothing.
	resign(t, tmp, to, key, "alice-2026", "manifest.json", `"schema_version"`, `"schema_version"`)
}

// retarredAll is the archive at path with every member's content from files.
func retarredAll(t *testing.T, path string, files map[string][]byte) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		raw = retarred(t, raw, name, data)
	}
	return raw
}

// addDetail adds to commits.json a commit and a details entry for it, at position at.
func addDetail(t *testing.T, commitsJSON []byte, sha string, at int) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(commitsJSON, &m); err != nil {
		t.Fatal(err)
	}
	commits := m["commits"].([]any)
	details := m["details"].([]any)
	d := map[string]any{}
	for k, v := range details[0].(map[string]any) {
		d[k] = v
	}
	d["sha"], d["matched_by"], d["subject"], d["patch_id"] = sha, []string{"message"}, "Unrelated work", nil
	d["author"] = map[string]any{"name": "Ada Author", "email": "ada@example.com", "date": ""}
	m["commits"] = append(commits[:at:at], append([]any{sha}, commits[at:]...)...)
	m["details"] = append(details[:at:at], append([]any{d}, details[at:]...)...)
	out, _ := json.Marshal(m)
	return out
}

// dropFromIndex rewrites a ticket index (internal/discover/doc.go, "Ticket index") without commit sha in any
// word's postings, with a valid CRC-32: what someone who can write .git (a restored CI cache) can do.
func dropFromIndex(t *testing.T, data []byte, sha string) []byte {
	t.Helper()
	const magic = "git-bernstein ticket index 4\n"
	if !bytes.HasPrefix(data, []byte(magic)) {
		t.Fatalf("not an index of version 3")
	}
	b := data[len(magic) : len(data)-4]
	pos := 0
	uv := func() uint64 {
		x, k := binary.Uvarint(b[pos:])
		if k <= 0 {
			t.Fatal("bad varint")
		}
		pos += k
		return x
	}
	n := int(uv())
	want, _ := hex.DecodeString(sha)
	rank := -1
	for i := 0; i < n; i++ {
		if bytes.Equal(b[pos:pos+20], want) {
			rank = i
		}
		pos += 20
		_, k := binary.Varint(b[pos:])
		pos += k
		for range uv() >> 1 {
			uv()
		}
	}
	if rank < 0 {
		t.Fatalf("%s is not in the index", sha)
	}
	pos += 4 * n
	for range uv() {
		pos += 20
	}
	out := append([]byte(magic), b[:pos]...)
	put := func(x uint64) { out = binary.AppendUvarint(out, x) }
	nw := uv()
	put(nw)
	for range nw {
		l := int(uv())
		word := b[pos : pos+l]
		pos += l
		count := uv()
		end := pos + int(uv())
		var list []uint64
		prev := uint64(0)
		for range count {
			prev += uv()
			if int(prev) != rank {
				list = append(list, prev)
			}
		}
		pos = end
		var enc []byte
		prev = 0
		for _, x := range list {
			enc = binary.AppendUvarint(enc, x-prev)
			prev = x
		}
		put(uint64(len(word)))
		out = append(out, word...)
		put(uint64(len(list)))
		put(uint64(len(enc)))
		out = append(out, enc...)
	}
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// poisonPatchIDs rewrites the patch id cache (internal/discover/patchidcache.go) with id as sha's patch id.
func poisonPatchIDs(t *testing.T, data []byte, sha, id string) []byte {
	t.Helper()
	head := bytes.IndexByte(data, '\n') + 1
	head += bytes.IndexByte(data[head:], '\n') + 1
	recs := map[string][]byte{}
	for rest := data[head:]; len(rest) >= 40; rest = rest[40:] {
		recs[string(rest[:20])] = rest[20:40]
	}
	h, _ := hex.DecodeString(sha)
	if _, ok := recs[string(h)]; !ok {
		t.Fatalf("%s is not in the cache", sha)
	}
	recs[string(h)], _ = hex.DecodeString(id)
	keys := make([]string, 0, len(recs))
	for k := range recs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := append([]byte{}, data[:head]...)
	for _, k := range keys {
		out = append(append(out, k...), recs[k]...)
	}
	return out
}

// manifestCommits is the commits the signed manifest lists.
func manifestCommits(t *testing.T, files map[string][]byte) []string {
	t.Helper()
	var m struct {
		Commits []string `json:"commits"`
	}
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	return m.Commits
}
