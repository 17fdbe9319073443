package logv1

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fintech = "testdata/fintech/fixtures"

// fixture is a copy of the fintech example in a temp folder laid out as .sdd/lineage: log.jsonl, signatures/,
// and the cards beside it in cards/.
type fixture struct {
	root, cards string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{root: filepath.Join(dir, "lineage"), cards: filepath.Join(dir, "cards")}
	copyTree(t, filepath.Join(fintech, "signatures"), filepath.Join(f.root, "signatures"))
	copyTree(t, filepath.Join(fintech, "agent-cards"), f.cards)
	data, err := os.ReadFile(filepath.Join(fintech, "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.write(t, data)
	return f
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) write(t *testing.T, log []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.root, LogName), log, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) log(t *testing.T) []byte {
	b, err := os.ReadFile(filepath.Join(f.root, LogName))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gate runs the CI gate as `lineage verify` does.
func (f *fixture) gate(t *testing.T, opts Options) *Result {
	t.Helper()
	root, err := OpenRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	data, err := root.ReadLog()
	if err != nil {
		t.Fatal(err)
	}
	var cards Cards
	if err := cards.LoadCardsDir(f.cards); err != nil {
		t.Fatal(err)
	}
	opts.Cards, opts.Sidecars, opts.Forks = &cards, root.Sidecar, true
	return Verify(Parse(data), opts)
}

func failures(r *Result) string {
	var s []string
	for _, p := range r.Failures {
		s = append(s, p.String())
	}
	return strings.Join(s, "\n")
}

// wantOnly checks that every failure contains one of the substrings and each substring is in some failure.
func wantFail(t *testing.T, r *Result, subs ...string) {
	t.Helper()
	if r.OK() {
		t.Fatalf("gate passed, want failures %q", subs)
	}
	all := failures(r)
	for _, s := range subs {
		if !strings.Contains(all, s) {
			t.Errorf("no failure mentions %q; failures:\n%s", s, all)
		}
	}
}

func TestFintechPasses(t *testing.T) {
	f := newFixture(t)
	r := f.gate(t, Options{})
	if !r.OK() {
		t.Fatalf("fintech example fails the gate:\n%s", failures(r))
	}
	if len(r.Log.Entries) != 30 {
		t.Fatalf("%d entries, want 30", len(r.Log.Entries))
	}
	for _, e := range r.Log.Entries {
		if r.Signatures[e] != SigVerified {
			t.Errorf("line %d: signature %s", e.Line, r.Signatures[e])
		}
	}
	// The example's lines use Python's default separators: accepted, never silently.
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "30 of 30 entries") {
		t.Errorf("warnings %q, want one about the spaced spelling", r.Warnings)
	}
}

func TestFintechRogueForkFails(t *testing.T) {
	f := newFixture(t)
	rogue, err := os.ReadFile(filepath.Join(fintech, "rogue-agent.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.write(t, append(f.log(t), rogue...))
	copyTree(t, filepath.Join(fintech, "signatures-rogue"), filepath.Join(f.root, "signatures"))
	r := f.gate(t, Options{})
	// Entry #14 (counted from 0, upstream's README) is line 15, sha256:3e56…; line 16 continues it, and so does
	// the rogue line 31.
	wantFail(t, r, "line 15 src/payments/flow.py (entry sha256:3e56c83393fd2ad85ea52f4c97fdd872f70f2b49af38a20e920490c67a3eb818): unresolved fork: "+
		"line 16 by agent:docs-bot (entry sha256:de51954292587178d7e485d3e1337ecf2f02564b3743c2bcc47173ce32ab1d10) and "+
		"line 31 by agent:rogue-helper (entry sha256:49060c043afaac9b834829a8e43a62c17ac9068af0491c39d6e3767923efa486) both continue this entry",
		"2 unresolved open tips")
	for _, p := range r.Failures {
		if strings.Contains(p.Message, "signature") {
			t.Errorf("the rogue entry is signed; only the fork should fail: %s", p)
		}
	}
}

func TestFintechFlippedByteFails(t *testing.T) {
	f := newFixture(t)
	log := f.log(t)
	lines := bytes.SplitAfter(log, []byte("\n"))
	// Line 5's tool call id ends in "0004"; make it "0005": still valid JSON, still sorted and spaced.
	i := bytes.Index(lines[4], []byte(`tc-fintech-0004`))
	if i < 0 {
		t.Fatalf("line 5 is not what the test expects: %s", lines[4])
	}
	lines[4][i+len("tc-fintech-0004")-1] = '5'
	f.write(t, bytes.Join(lines, nil))
	r := f.gate(t, Options{})
	// The entry's hash changed with its bytes, so no sidecar is named for it, and the next entry's parent is gone.
	wantFail(t, r, "line 5 src/payments/flow.py", "missing signature sidecar", "the entry's bytes changed after it was signed",
		"line 6 src/payments/flow.py", "dangling parent")

	// Renaming the old sidecar to the new hash does not help: the signature covers the old bytes.
	old, changed := Parse(newFixture(t).log(t)).Entries[4], r.Log.Entries[4]
	b, err := os.ReadFile(filepath.Join(f.root, SidecarNames(old)[1]))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.root, SidecarNames(changed)[0]), b, 0o644); err != nil {
		t.Fatal(err)
	}
	wantFail(t, f.gate(t, Options{}), "line 5 src/payments/flow.py (entry "+changed.Hash+"): invalid signature")
}

func TestFintechMissingSidecarFails(t *testing.T) {
	f := newFixture(t)
	e := Parse(f.log(t)).Entries[6]
	if err := os.Remove(filepath.Join(f.root, SidecarNames(e)[1])); err != nil {
		t.Fatal(err)
	}
	wantFail(t, f.gate(t, Options{}), "line 7 src/payments/flow.py (entry "+e.Hash+"): missing signature sidecar")
}

func TestFintechSwappedSidecarFails(t *testing.T) {
	f := newFixture(t)
	es := Parse(f.log(t)).Entries
	// One entry's sidecar replaced by another entry's: by another agent (a kid that does not match), and by the
	// same agent and kid (a signature over other bytes).
	var other, same *Entry
	for _, e := range es[1:] {
		if other == nil && e.AgentCardKid != es[0].AgentCardKid {
			other = e
		}
		if same == nil && e.AgentCardKid == es[0].AgentCardKid {
			same = e
		}
	}
	swap := func(to, from *Entry) {
		b, err := os.ReadFile(filepath.Join(f.root, SidecarNames(from)[1]))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(f.root, SidecarNames(to)[1]), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	swap(es[0], other)
	swap(same, es[2])
	r := f.gate(t, Options{})
	wantFail(t, r, "line 1 src/payments/flow.py (entry "+es[0].Hash+"): kid binding mismatch: the entry says kid \""+es[0].AgentCardKid+"\", its signature's header kid \""+other.AgentCardKid+"\"")
	if es[2].AgentCardKid == same.AgentCardKid {
		wantFail(t, r, "entry "+same.Hash+"): invalid signature")
	} else {
		wantFail(t, r, "entry "+same.Hash+"): kid binding mismatch")
	}
}

func TestFintechKidSubstitutedCardFails(t *testing.T) {
	f := newFixture(t)
	// The audit helper's card now claims the code reviewer's kid (with the audit helper's key): its entries
	// have no card for the kid they signed with, and the reviewer's kid now has two keys for one agent? No: the
	// pair differs by agent, so the reviewer is unaffected.
	p := filepath.Join(f.cards, "agent_audit-helper.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, []byte("key-2026-fintech-001"), []byte("key-2026-fintech-002"))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := f.gate(t, Options{})
	wantFail(t, r, `no agent card for (agent_id "agent:audit-helper", kid "key-2026-fintech-001"): kid binding cannot be established`)
	for _, pr := range r.Failures {
		if !strings.Contains(pr.Message, "agent:audit-helper") {
			t.Errorf("only the audit helper's entries should fail: %s", pr)
		}
	}

	// A second card that binds the reviewer's (agent, kid) to another key is a conflict, not a choice.
	f2 := newFixture(t)
	b2, _ := os.ReadFile(filepath.Join(f2.cards, "agent_audit-helper.json"))
	b2 = bytes.ReplaceAll(b2, []byte("key-2026-fintech-001"), []byte("key-2026-fintech-002"))
	b2 = bytes.ReplaceAll(b2, []byte(`"agent:audit-helper"`), []byte(`"agent:code-reviewer"`))
	os.MkdirAll(filepath.Join(f2.cards, "agent:code-reviewer"), 0o755)
	if err := os.WriteFile(filepath.Join(f2.cards, "agent:code-reviewer", "card.json"), b2, 0o644); err != nil {
		t.Fatal(err)
	}
	wantFail(t, f2.gate(t, Options{}), `conflicting agent cards for (agent_id "agent:code-reviewer", kid "key-2026-fintech-002")`,
		`line 2 src/payments/flow.py (entry sha256:77f1161d4be51ff8fdf694f485e7d783e4137f485a0938be4889e386ebf79f42): conflicting agent cards`)
}

func TestFintechWrongOperatorKeyFails(t *testing.T) {
	f := newFixture(t)
	r := f.gate(t, Options{OperatorKey: []byte("not the operator's key")})
	wantFail(t, r, "line 1 src/payments/flow.py (entry sha256:c81599bf0bcb83ac0b55767c6240e23861f72147bca383402bca5c1bef5c6249): operator HMAC mismatch")
	if len(r.Failures) != 30 {
		t.Errorf("%d failures, want one per entry:\n%s", len(r.Failures), failures(r))
	}
}

func TestFintechFramingAttackFails(t *testing.T) {
	f := newFixture(t)
	log := f.log(t)
	// Turn the terminator of line 10 into "\r": a text-mode reader still sees 30 records, every one verifying.
	at := 0
	for range 10 {
		at += bytes.IndexByte(log[at:], '\n') + 1
	}
	log[at-1] = '\r'
	f.write(t, log)
	r := f.gate(t, Options{})
	wantFail(t, r, `line 10: not one JSON object`, `a terminator changed to "\r" (a framing attack)`, "line 11 src/payments/flow.py", "dangling parent")
	if len(r.Log.Entries) != 28 {
		t.Errorf("%d entries survive, want 28", len(r.Log.Entries))
	}
}

func TestMissingFinalNewlineFails(t *testing.T) {
	f := newFixture(t)
	f.write(t, bytes.TrimSuffix(f.log(t), []byte("\n")))
	wantFail(t, f.gate(t, Options{}), `log: no "\n" after the last line`)
}

func TestNonCanonicalLineFails(t *testing.T) {
	f := newFixture(t)
	log := f.log(t)
	// Same values, keys out of order: json.loads reads the same entry, the bytes are not what was written.
	log = bytes.Replace(log, []byte(`{"agent_card_kid": "key-2026-fintech-001", "agent_id": "agent:audit-helper"`),
		[]byte(`{"agent_id": "agent:audit-helper", "agent_card_kid": "key-2026-fintech-001"`), 1)
	f.write(t, log)
	wantFail(t, f.gate(t, Options{}), "line 1 src/payments/flow.py (entry sha256:c81599bf0bcb83ac0b55767c6240e23861f72147bca383402bca5c1bef5c6249): non-canonical line bytes")
}
