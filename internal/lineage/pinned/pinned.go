// Package pinned holds a lineage v2 store against the checkpoints pinned earlier (`lineage v2 verify
// --checkpoint F… --since REV`): checkpoint files given, each with its F.jws checked against trusted keys, and
// the checkpoints noted in git on a commit's history, each found among the files given or in the bundle
// recorded with its note and held to the noted digest. The store extends a checkpoint as package lineage
// (Store.CheckCheckpoint) says; formats are package lineage/checkpoint's and the notes' (package notes).
package pinned

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// maxSignature bounds a checkpoint's F.jws: a detached JWS is a few hundred bytes.
const maxSignature = 64 << 10

// NotedSignature is the signature state of a checkpoint noted in git: the note, in a signed bundle, vouches for it.
const NotedSignature = "noted in git"

// Checked is one checkpoint the store was held against, as `lineage v2 verify --json` reports it.
type Checked struct {
	Label     string `json:"checkpoint"`
	SHA256    string `json:"sha256"`
	CreatedAt string `json:"created_at"`
	Pins      string `json:"pins"`
	Signature string `json:"signature"`
	OK        bool   `json:"ok"`
}

// Pin is one checkpoint to hold the store against: its file's bytes, or why it could not be had.
type Pin struct {
	Label     string // how the user names it: the path given, or "noted on <commit> (<tracker> <ticket>, <bundle>)"
	SHA256    string // the digest of Data (checkpoint.Digest), or the noted one when Data is missing
	Data      []byte
	Signature string // "unsigned", "signed by kid …", "signature not checked: …", NotedSignature, or "FAILED: why"
	Err       error  // the checkpoint could not be found (noted pins only)
}

// ReadFile reads the checkpoint file at path (label: the path as given) and checks path.jws against keys. An
// error is an unusable input (the file cannot be read); a bad signature is the pin's Signature, "FAILED: …".
func ReadFile(path, label string, keys []sign.TrustedKey) (Pin, error) {
	data, err := regularfile.ReadFile(path, "lineage v2 checkpoint", checkpoint.MaxSize)
	if err != nil {
		return Pin{}, err
	}
	return Pin{Label: label, SHA256: checkpoint.Digest(data), Data: data, Signature: signature(path, data, keys)}, nil
}

// signature checks path.jws over the checkpoint's JCS form: "unsigned" when there is none and no key asks for
// one, a short description when it verifies or was not checked, "FAILED: why" otherwise.
func signature(path string, data []byte, keys []sign.TrustedKey) string {
	jws, err := regularfile.ReadFile(path+".jws", "checkpoint signature", maxSignature)
	switch {
	case errors.Is(err, fs.ErrNotExist) && len(keys) == 0:
		return "unsigned"
	case errors.Is(err, fs.ErrNotExist):
		return "FAILED: " + path + ".jws is missing; --card asks for a signed checkpoint"
	case err != nil:
		return "FAILED: " + err.Error()
	case len(keys) == 0:
		return "signature not checked: give the signer's --card"
	}
	payload, err := sign.Canonicalize(data)
	if err != nil {
		return "FAILED: " + err.Error()
	}
	kid, err := sign.VerifyDetached(string(jws), payload, keys)
	if err != nil {
		return "FAILED: " + err.Error()
	}
	return fmt.Sprintf("signed by kid %q, a key you gave", kid)
}

// Noted is the distinct checkpoint digests noted on a history (notes.OnHistory's, oldest note first), each
// found among given (pins read with ReadFile) by its digest, else in the bundle recorded with its note under
// bundleDir (record.OpenRecorded), read by the verifier's tar reader and held to the noted digest.
func Noted(history []notes.OnCommit, given []Pin, bundleDir string) []Pin {
	byDigest := map[string][]byte{}
	for _, p := range given {
		byDigest[p.SHA256] = p.Data
	}
	seen := map[string]bool{}
	var out []Pin
	for _, on := range history {
		for _, e := range on.Entries {
			d := e.LineageV2Checkpoint
			if d == "" || seen[d] {
				continue
			}
			seen[d] = true
			p := Pin{SHA256: d, Signature: NotedSignature,
				Label: fmt.Sprintf("noted on %.12s (%s %s, %s)", on.Commit.String(), e.Tracker, e.Ticket, e.Bundle)}
			if data, ok := byDigest[d]; ok {
				p.Data = data
			} else {
				p.Data, p.Err = fromBundle(bundleDir, e, d)
			}
			out = append(out, p)
		}
	}
	return out
}

// fromBundle reads lineage/v2/checkpoint.json from the bundle a note names (opened as record.OpenRecorded opens
// a noted archive), through the verifier's one tar reader, and holds it to the digest noted for it.
func fromBundle(bundleDir string, e notes.Entry, digest string) ([]byte, error) {
	f, path, err := record.OpenRecorded(bundleDir, e.Tracker, e.Ticket, e.Bundle)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("not found: %s is missing; fetch the bundle (a CI artifact) there, or pass its %s "+
			"with --checkpoint", path, bundle.LineageV2CheckpointMember)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	grab := &memberGrab{name: bundle.LineageV2CheckpointMember}
	verify.Verify(f, nil, nil, verify.Options{Sink: grab})
	if grab.buf == nil {
		return nil, fmt.Errorf("%s holds no %s", path, bundle.LineageV2CheckpointMember)
	}
	if got := checkpoint.Digest(grab.buf.Bytes()); got != digest {
		return nil, fmt.Errorf("the checkpoint in %s has sha256 %s, not the noted %s: the bundle was rebuilt or "+
			"replaced", path, got, digest)
	}
	return grab.buf.Bytes(), nil
}

// memberGrab is a verify.Sink that keeps one member's bytes.
type memberGrab struct {
	name string
	buf  *bytes.Buffer
}

func (g *memberGrab) Member(name string, size int64) (io.Writer, error) {
	if name != g.name || size > checkpoint.MaxSize {
		return nil, nil
	}
	g.buf = &bytes.Buffer{}
	return g.buf, nil
}

// Hold holds store against each pin in turn, adding what fails to res.Failures (a failed signature, a pin that
// could not be found or parsed, each place the store no longer extends it) and setting res.OK; it returns what
// each pin came to, in order.
func Hold(store *lineage.Store, res *lineage.VerifyResult, pins []Pin) []Checked {
	fail := func(msg string) { res.Failures = append(res.Failures, lineage.Failure{Record: -1, Message: msg}) }
	var checked []Checked
	for _, p := range pins {
		cc := Checked{Label: p.Label, SHA256: p.SHA256, Signature: p.Signature}
		if p.Err != nil {
			fail(fmt.Sprintf("checkpoint %s: %v", p.Label, p.Err))
			checked = append(checked, cc)
			continue
		}
		if why, failed := strings.CutPrefix(p.Signature, "FAILED: "); failed {
			fail(fmt.Sprintf("checkpoint %s: signature %s", p.Label, why))
		}
		cp, err := checkpoint.Parse(p.Data)
		if err != nil {
			fail(fmt.Sprintf("checkpoint %s: %v", p.Label, err))
			checked = append(checked, cc)
			continue
		}
		cc.CreatedAt, cc.Pins = cp.CreatedAt.Format(time.RFC3339), cp.Summary()
		fails := store.CheckCheckpoint(cp, p.Label)
		res.Failures = append(res.Failures, fails...)
		cc.OK = len(fails) == 0 && !strings.HasPrefix(p.Signature, "FAILED")
		checked = append(checked, cc)
	}
	res.OK = len(res.Failures) == 0
	return checked
}
