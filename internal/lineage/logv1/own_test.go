package logv1

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/pyjson"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// writer writes a lineage v1 folder the way upstream's recorder does: canonical lines, operator HMAC, one
// detached JWS a line named <entry hex>.jws, and flat cards in <agent>/card.json.
type writer struct {
	t     *testing.T
	root  string
	cards string
	opKey []byte
	keys  map[string]ed25519.PrivateKey // agent -> key
	log   []byte
	n     int64
}

func newWriter(t *testing.T, agents ...string) *writer {
	dir := t.TempDir()
	w := &writer{t: t, root: filepath.Join(dir, "lineage"), cards: filepath.Join(dir, "cards"), opKey: []byte("operator secret"), keys: map[string]ed25519.PrivateKey{}}
	for i, a := range agents {
		seed := sha256.Sum256([]byte(a))
		w.keys[a] = ed25519.NewKeyFromSeed(seed[:])
		card, err := sign.MarshalCard(a, w.kid(a), w.keys[a].Public().(ed25519.PublicKey))
		if err != nil {
			t.Fatal(err)
		}
		d := filepath.Join(w.cards, strings.ReplaceAll(a, ":", "_"))
		if i%2 == 1 {
			d = filepath.Join(d, w.kid(a)) // the per-kid layout
		}
		os.MkdirAll(d, 0o755)
		if err := os.WriteFile(filepath.Join(d, "card.json"), card, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(w.root, 0o755)
	return w
}

func (w *writer) kid(agent string) string { return "kid-" + strings.TrimPrefix(agent, "agent:") }

// add records agent writing content to path after parents and returns the entry hash.
func (w *writer) add(agent, path, content string, parents ...string) string {
	w.n++
	ps := []any{}
	for _, p := range parents {
		ps = append(ps, p)
	}
	sum := sha256.Sum256([]byte(content))
	obj := map[string]any{"v": 1, "artefact_path": path, "artefact_kind": "file", "content_hash": "sha256:" + hex.EncodeToString(sum[:]),
		"parent_hashes": ps, "agent_id": agent, "agent_card_kid": w.kid(agent), "tool_call_id": "tc-" + string(rune('a'+w.n)),
		"span_id": "s", "ts_ns": 1768294800000000000 + w.n*1e9, "operator_hmac": ""}
	body, _ := pyjson.Canonical(obj)
	m := hmac.New(sha256.New, w.opKey)
	m.Write(body)
	obj["operator_hmac"] = hex.EncodeToString(m.Sum(nil))
	canon, _ := pyjson.Canonical(obj)
	w.log = append(append(w.log, canon...), '\n')
	h := sha256.Sum256(canon)
	jws, err := sign.SignDetached(w.keys[agent], w.kid(agent), canon)
	if err != nil {
		w.t.Fatal(err)
	}
	e := &Entry{ArtefactPath: path, Hash: "sha256:" + hex.EncodeToString(h[:])}
	p := filepath.Join(w.root, SidecarNames(e)[0])
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(jws), 0o644); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.root, LogName), w.log, 0o644); err != nil {
		w.t.Fatal(err)
	}
	return e.Hash
}

func (w *writer) gate(opts Options) *Result {
	f := &fixture{root: w.root, cards: w.cards}
	return f.gate(w.t, opts)
}

func TestOwnLogWithMergeAndHMAC(t *testing.T) {
	w := newWriter(t, "agent:alice", "agent:bob", "agent:steward")
	a := w.add("agent:alice", "src/a.go", "package a\n")
	b1 := w.add("agent:alice", "src/a.go", "package a // alice\n", a)
	b2 := w.add("agent:bob", "src/a.go", "package a // bob\n", a)
	w.add("agent:bob", "docs/é.md", "# ünïcode\n")
	r := w.gate(Options{OperatorKey: w.opKey})
	wantFail(t, r, "unresolved fork: line 2 by agent:alice", "line 3 by agent:bob")

	w.add("agent:steward", "src/a.go", "package a // both\n", b1, b2)
	if r := w.gate(Options{OperatorKey: w.opKey, Stewards: []string{"agent:steward"}}); !r.OK() {
		t.Fatalf("a merged fork fails:\n%s", failures(r))
	} else if len(r.Warnings) != 0 {
		t.Errorf("canonical lines warned: %q", r.Warnings)
	}
	wantFail(t, w.gate(Options{Stewards: []string{"agent:alice"}}), `line 5 src/a.go`, `merge entry written by "agent:steward", who is not an allowed steward`)
	checkWithPython(t, w.root, w.cards, w.opKey)
}

// checkWithPython recomputes, in CPython, every line's canonical bytes and entry hash (which must be the line
// itself for our writer), the operator HMAC, and, with the cryptography package, each signature, and compares
// with what this package says.
func checkWithPython(t *testing.T, root, cards string, opKey []byte) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	script := `import json, sys, hashlib, hmac, base64, glob, os
root, cards, key = sys.argv[1], sys.argv[2], sys.argv[3].encode()
try:
    from cryptography.hazmat.primitives.serialization import load_pem_public_key
except ImportError:
    load_pem_public_key = None
pubs = {}
for f in glob.glob(os.path.join(cards, "*.json")) + glob.glob(os.path.join(cards, "*", "card.json")) + glob.glob(os.path.join(cards, "*", "*", "card.json")):
    c = json.load(open(f))
    if "public_key_pem" in c:
        pubs[(c["agent_id"], c["kid"])] = c["public_key_pem"]
    else:
        for k in c["keys"]:
            pubs[(c.get("agent_id") or c["name"], k["kid"])] = k["pem"]
out = []
for raw in open(os.path.join(root, "log.jsonl"), "rb").read().split(b"\n")[:-1]:
    e = json.loads(raw)
    canon = json.dumps(e, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    h = hashlib.sha256(canon).hexdigest()
    body = dict(e, operator_hmac="")
    mac = hmac.new(key, json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(), hashlib.sha256).hexdigest()
    p = hashlib.sha256(e["artefact_path"].encode()).hexdigest()
    sig = None
    if load_pem_public_key:
        for name in (h + ".jws", "sha256_" + h + ".jws"):
            f = os.path.join(root, "signatures", p[:2], p, name)
            if os.path.exists(f):
                tok = open(f).read().strip()
                hdr, _, s = tok.split(".")
                pub = load_pem_public_key(pubs[(e["agent_id"], e["agent_card_kid"])].encode())
                try:
                    pub.verify(base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)), hdr.encode() + b"." + canon)
                    sig = True
                except Exception:
                    sig = False
    out.append({"canonical": canon.decode(), "hash": "sha256:" + h, "hmac_ok": mac == e["operator_hmac"], "sig": sig})
print(json.dumps(out))`
	out, err := exec.Command("python3", "-c", script, root, cards, string(opKey)).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var py []struct {
		Canonical string `json:"canonical"`
		Hash      string `json:"hash"`
		HMACOK    bool   `json:"hmac_ok"`
		Sig       *bool  `json:"sig"`
	}
	if err := json.Unmarshal(out, &py); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(root, LogName))
	var c Cards
	if err := c.LoadCardsDir(cards); err != nil {
		t.Fatal(err)
	}
	r := Verify(Parse(data), Options{Cards: &c, Sidecars: func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(root, rel)) }, OperatorKey: opKey})
	if len(py) != len(r.Log.Entries) {
		t.Fatalf("python read %d entries, we %d", len(py), len(r.Log.Entries))
	}
	hmacBad := map[int]bool{}
	for _, f := range r.Failures {
		if strings.Contains(f.Message, "operator HMAC") {
			hmacBad[f.Line] = true
		}
	}
	for i, e := range r.Log.Entries {
		if py[i].Canonical != string(e.Canonical) || py[i].Hash != e.Hash {
			t.Errorf("line %d: python canonical %q hash %s, ours %q %s", e.Line, py[i].Canonical, py[i].Hash, e.Canonical, e.Hash)
		}
		if py[i].HMACOK == hmacBad[e.Line] {
			t.Errorf("line %d: python says HMAC ok %v, we %v", e.Line, py[i].HMACOK, !hmacBad[e.Line])
		}
		if py[i].Sig == nil {
			continue // cryptography not installed
		}
		if *py[i].Sig != (r.Signatures[e] == SigVerified) {
			t.Errorf("line %d: python says signature %v, we %s", e.Line, *py[i].Sig, r.Signatures[e])
		}
	}
}

func TestFintechAgainstPython(t *testing.T) {
	f := newFixture(t)
	checkWithPython(t, f.root, f.cards, []byte("wrong key"))
	// A flipped byte: python and we agree the signature (under the renamed sidecar) no longer verifies.
	log := f.log(t)
	old := Parse(log).Entries[2]
	log[strings.Index(string(log), "tc-fintech-0002")+14] = '9'
	f.write(t, log)
	changed := Parse(log).Entries[2]
	b, _ := os.ReadFile(filepath.Join(f.root, SidecarNames(old)[1]))
	os.WriteFile(filepath.Join(f.root, SidecarNames(changed)[1]), b, 0o644)
	checkWithPython(t, f.root, f.cards, []byte("wrong key"))
}
