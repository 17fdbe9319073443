package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/git-bernstein/git-bernstein/internal/signing"
	"io"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

func lineageCheckpointCommand() *ucli.Command {
	return withLineageHelp(&ucli.Command{
		Name:  "checkpoint",
		Usage: "write the store's head (parent ref count and last hmac, each child file's body count and last hmac) as a checkpoint file",
		Description: `The store is verified first (under --key-file's key, else the public one); a store that fails gets no
checkpoint (exit 1). The checkpoint is one line of canonical JSON (see 'go doc ./internal/lineage',
"Checkpoints"), written atomically to --out (default: standard output). With --sign-key and --sign-kid
(default: git config bernstein.signingKey and bernstein.signingKid, as for bundles) --out F also gets F.jws,
the detached JWS bundles use, over the checkpoint's JCS form. Later, 'lineage v2 verify --checkpoint F'
fails when the store no longer extends it: keep the file (and its .jws) where the store's writers cannot
change it. The post-merge hook and 'record' take one with every bundle when lineage v2 is enabled.`,
		Flags: []ucli.Flag{
			lineageRootFlag(),
			lineageKeyFlag(),
			&ucli.StringFlag{Name: "out", Usage: "write the checkpoint to `FILE` (and its signature to FILE.jws)"},
			&ucli.StringFlag{Name: "sign-key", Usage: signKeyUsage},
			&ucli.StringFlag{Name: "sign-kid", Usage: "key id `KID` written into the signature (default: git config bernstein.signingKid)"},
		},
		Action: runLineageCheckpoint,
	})
}

func runLineageCheckpoint(_ context.Context, c *ucli.Command) error {
	if err := noLineageArgs(c); err != nil {
		return err
	}
	store, err := lineageStore(c)
	if err != nil {
		return err
	}
	env := envOf(c)
	cp, res, err := store.TakeCheckpoint(env.now())
	if err != nil {
		if errors.Is(err, lineage.ErrStoreFails) {
			printVerify(c.Root().ErrWriter, res, store.Key)
			return fmt.Errorf("no checkpoint: the store does not verify (above)")
		}
		return err
	}
	data, err := cp.Marshal()
	if err != nil {
		return err
	}
	signer, err := checkpointSigner(c, env)
	if err != nil {
		return err
	}
	defer signer.Close()
	out := c.String("out")
	if out != "" {
		wd, err := env.getwd()
		if err != nil {
			return err
		}
		out = inDir(wd, out) // relative to the folder the command runs in, like every file flag
	}
	if out == "" {
		if signer != nil {
			return usageError("signing a checkpoint needs --out FILE: the signature goes to FILE.jws")
		}
		_, err := c.Root().Writer.Write(data)
		return err
	}
	if signer != nil {
		payload, err := sign.Canonicalize(data)
		if err != nil {
			return err
		}
		jws, err := signer.SignJWS(payload)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(out+".jws", []byte(jws), 0o644); err != nil {
			return err
		}
	}
	if err := atomicfile.WriteFile(out, data, 0o644); err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	signed := "unsigned"
	if signer != nil {
		signed = "signed -> " + out + ".jws, kid " + signer.Kid
	}
	fmt.Fprintf(c.Root().Writer, "Checkpoint of %s written to %s (%s; %s key; sha256 %s; %s).\n",
		termtext.Clean(store.Root), termtext.Clean(c.String("out")), cp.Summary(), cp.KeyClass, hex.EncodeToString(sum[:]), termtext.Clean(signed))
	return nil
}

// checkpointSigner signs with the key bundles sign with (package signing: --sign-key and --sign-kid, else,
// in a repository, bernstein.signingKey or git's SSH signing key); nil when no key is given. The JWS is the
// bundles', over the checkpoint's JCS form. The caller closes the signer.
func checkpointSigner(c *ucli.Command, env *Env) (*signing.Signer, error) {
	s, err := openSession(env)
	if err != nil {
		s = nil // outside a repository only the flags count
	}
	return signer(c, env, s)
}

// withCheckpoints gives `lineage v2 verify` the checkpoint flags; without them it is the plain verify.
func withCheckpoints(cmd *ucli.Command) *ucli.Command {
	cmd.Flags = append(cmd.Flags,
		&ucli.StringSliceFlag{Name: "checkpoint", Usage: "also fail when the store no longer extends checkpoint `FILE` (repeatable)"},
		&ucli.StringFlag{Name: "since", Usage: "also check every checkpoint noted on `REV`'s history (git notes of record and the hook)"},
		&ucli.StringSliceFlag{Name: "card", Usage: "require each --checkpoint FILE to be signed (FILE.jws) by a key in this agent card `FILE` (repeatable)"},
		&ucli.StringFlag{Name: "bundle-dir", Usage: "where --since finds recorded bundles (default: git config bernstein.bundleDir, else <git common dir>/bernstein/bundles)"},
	)
	cmd.Description += `
--checkpoint F (repeatable) also fails when the store no longer extends F: fewer parent refs than F counted,
a different hmac at F's last ref, a child file missing, with fewer bodies or a different hmac at F's last
body; each failure names the file and the position. Appends since F pass. F.jws, when present, is checked
against --card; with --card every checkpoint must be signed by a key in one.
--since REV checks the store against every checkpoint noted on REV and its ancestors: each noted digest is
found in the recorded bundle (--bundle-dir) or among the --checkpoint files, and one that cannot be found
fails (fetch the bundle, or pass its lineage/v2/checkpoint.json with --checkpoint).`
	plain := cmd.Action
	cmd.Action = func(ctx context.Context, c *ucli.Command) error {
		if len(c.StringSlice("checkpoint")) == 0 && c.String("since") == "" {
			if len(c.StringSlice("card")) > 0 {
				return usageError("--card checks checkpoint signatures: give --checkpoint FILE")
			}
			return plain(ctx, c)
		}
		return runLineageVerifyCheckpoints(c)
	}
	return cmd
}

// checkedCheckpoint is one checkpoint verify held the store against.
type checkedCheckpoint struct {
	Label     string `json:"checkpoint"`
	SHA256    string `json:"sha256"`
	CreatedAt string `json:"created_at"`
	Pins      string `json:"pins"`
	Signature string `json:"signature"`
	OK        bool   `json:"ok"`
}

func runLineageVerifyCheckpoints(c *ucli.Command) error {
	if err := noLineageArgs(c); err != nil {
		return err
	}
	store, err := lineageStore(c)
	if err != nil {
		return err
	}
	key := store.Key
	// Relative paths are from the folder the command runs in (Env.Dir in tests), like every other file flag.
	wd, err := envOf(c).getwd()
	if err != nil {
		return err
	}
	abs := func(p string) string { return inDir(wd, p) }
	keys, err := trustedCards(wd, c.StringSlice("card"))
	if err != nil {
		return usageError("%v", err)
	}
	res := store.Verify(lineage.VerifyOptions{Strict: c.Bool("strict")})
	var checked []checkedCheckpoint
	fail := func(msg string) { res.Failures = append(res.Failures, lineage.Failure{Record: -1, Message: msg}) }
	hold := func(label string, data []byte, sig string) {
		sum := sha256.Sum256(data)
		cc := checkedCheckpoint{Label: label, SHA256: hex.EncodeToString(sum[:]), Signature: sig}
		cp, err := checkpoint.Parse(data)
		if err != nil {
			fail(fmt.Sprintf("checkpoint %s: %v", label, err))
			checked = append(checked, cc)
			return
		}
		cc.CreatedAt, cc.Pins = cp.CreatedAt.Format(time.RFC3339), cp.Summary()
		fails := store.CheckCheckpoint(cp, label)
		res.Failures = append(res.Failures, fails...)
		cc.OK = len(fails) == 0 && !strings.HasPrefix(sig, "FAILED")
		checked = append(checked, cc)
	}
	given := map[string][]byte{} // --checkpoint files by digest, for --since
	for _, path := range c.StringSlice("checkpoint") {
		data, err := regularfile.ReadFile(abs(path), "lineage v2 checkpoint", checkpoint.MaxSize)
		if err != nil {
			return usageError("%v", err)
		}
		sum := sha256.Sum256(data)
		given[hex.EncodeToString(sum[:])] = data
		sig := checkpointSignature(abs(path), data, keys)
		if strings.HasPrefix(sig, "FAILED") {
			fail(fmt.Sprintf("checkpoint %s: signature %s", path, strings.TrimPrefix(sig, "FAILED: ")))
		}
		hold(path, data, sig)
	}
	if rev := c.String("since"); rev != "" {
		noted, err := notedCheckpoints(c, rev, given)
		if err != nil {
			return err
		}
		if len(noted) == 0 {
			fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: no lineage v2 checkpoint is noted on %s or its ancestors\n", termtext.Clean(rev))
		}
		for _, n := range noted {
			if n.err != nil {
				fail(fmt.Sprintf("checkpoint %s: %v", n.label, n.err))
				checked = append(checked, checkedCheckpoint{Label: n.label, SHA256: n.sha256, Signature: "noted in git"})
				continue
			}
			hold(n.label, n.data, "noted in git")
		}
	}
	res.OK = len(res.Failures) == 0
	w := c.Root().Writer
	if c.Bool("json") {
		if err := printJSON(c, struct {
			OK          bool                `json:"ok"`
			Failures    []string            `json:"failures"`
			ParentCount int                 `json:"parent_count"`
			ChildCount  int                 `json:"child_count"`
			Key         lineage.KeyClass    `json:"key"`
			Checkpoints []checkedCheckpoint `json:"checkpoints"`
		}{res.OK, res.Messages(), res.ParentCount, res.ChildCount, res.Key, checked}); err != nil {
			return err
		}
	} else {
		printVerify(w, res, key)
		for _, cc := range checked {
			state := "extended"
			if !cc.OK {
				state = "NOT EXTENDED"
			}
			fmt.Fprintf(w, "Checkpoint %s: %s (%s, %s; sha256 %.16s…; %s)\n", termtext.Clean(cc.Label), state, cc.CreatedAt, cc.Pins, cc.SHA256, termtext.Clean(cc.Signature))
		}
	}
	if !res.OK {
		return errReported
	}
	return nil
}

// checkpointSignature checks path.jws over the checkpoint's JCS form: "" when there is none and no card asks
// for one, a short description when it verifies or was not checked, "FAILED: why" otherwise.
func checkpointSignature(path string, data []byte, keys []sign.TrustedKey) string {
	jws, err := regularfile.ReadFile(path+".jws", "checkpoint signature", 64<<10)
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

// notedCheckpoint is one checkpoint digest noted on REV's history and, when found, its file.
type notedCheckpoint struct {
	label, sha256 string
	data          []byte
	err           error
}

// notedCheckpoints collects the distinct checkpoint digests noted on rev and its ancestors, oldest note first,
// and finds each one's file: among the --checkpoint files, else in a bundle recorded with it.
func notedCheckpoints(c *ucli.Command, rev string, given map[string][]byte) ([]notedCheckpoint, error) {
	s, err := openSession(envOf(c))
	if err != nil {
		return nil, err
	}
	h, err := s.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, usageError("--since %s: %v", rev, err)
	}
	tip, err := s.repo.CommitObject(*h)
	if err != nil {
		return nil, err
	}
	ref := notes.RefFrom(s.cfg)
	all, err := s.repo.Notes(ref)
	if err != nil {
		return nil, err
	}
	root := s.repo.WorkTree
	if root == "" {
		root = s.repo.GitDir
	}
	wd, _ := s.env.getwd()
	bundleDir := s.bundleDir(c, root, wd)
	type found struct {
		when    time.Time
		entries []notes.Entry
		commit  string
	}
	var onHistory []found
	for _, n := range all {
		commit, err := s.repo.CommitObject(n.Target)
		if err != nil {
			continue // a note on a blob or a commit not here
		}
		if commit.Hash != tip.Hash {
			if ok, err := commit.IsAncestor(tip); err != nil || !ok {
				continue
			}
		}
		text, ok, err := s.repo.Note(ref, n.Target)
		if err != nil || !ok {
			continue
		}
		entries, _ := notes.Parse(text)
		onHistory = append(onHistory, found{commit.Committer.When, entries, n.Target.String()})
	}
	sort.SliceStable(onHistory, func(i, j int) bool { return onHistory[i].when.Before(onHistory[j].when) })
	seen := map[string]bool{}
	var out []notedCheckpoint
	for _, f := range onHistory {
		for _, e := range f.entries {
			d := e.LineageV2Checkpoint
			if d == "" || seen[d] {
				continue
			}
			seen[d] = true
			n := notedCheckpoint{sha256: d, label: fmt.Sprintf("noted on %.12s (%s %s, %s)", f.commit, e.Tracker, e.Ticket, e.Bundle)}
			if data, ok := given[d]; ok {
				n.data = data
			} else {
				n.data, n.err = checkpointFromBundle(bundleDir, e, d)
			}
			out = append(out, n)
		}
	}
	return out, nil
}

// checkpointFromBundle reads lineage/v2/checkpoint.json from the bundle a note names (opened as record.OpenRecorded
// opens a noted archive), through the verifier's one tar reader, and holds it to the digest noted for it.
func checkpointFromBundle(bundleDir string, e notes.Entry, digest string) ([]byte, error) {
	f, path, err := record.OpenRecorded(bundleDir, e.Tracker, e.Ticket, e.Bundle)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("not found: %s is missing; fetch the bundle (a CI artifact) there, or pass its %s with --checkpoint", path, bundle.LineageV2CheckpointMember)
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
	sum := sha256.Sum256(grab.buf.Bytes())
	if got := hex.EncodeToString(sum[:]); got != digest {
		return nil, fmt.Errorf("the checkpoint in %s has sha256 %s, not the noted %s: the bundle was rebuilt or replaced", path, got, digest)
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
