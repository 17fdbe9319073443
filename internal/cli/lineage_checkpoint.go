package cli

import (
	"context"
	"errors"
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/lineage/pinned"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
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
	root, key, err := lineageWhere(c)
	if err != nil {
		return err
	}
	env := envOf(c)
	out := c.String("out")
	if out != "" {
		wd, err := env.getwd()
		if err != nil {
			return err
		}
		out = inDir(wd, out) // relative to the folder the command runs in, like every file flag
	}
	done, err := lineage.WriteCheckpoint(lineage.CheckpointRequest{Root: root, Key: key, CreatedAt: env.now(), Out: out,
		Sign: func() (*lineage.CheckpointKey, error) { return checkpointSigner(c, env) }})
	if errors.Is(err, lineage.ErrStoreFails) {
		printVerify(c.Root().ErrWriter, done.Verify, key)
		return fmt.Errorf("no checkpoint: the store does not verify (above)")
	}
	if err != nil {
		return err
	}
	if out == "" {
		_, err := c.Root().Writer.Write(done.Data)
		return err
	}
	signed := "unsigned"
	if done.Kid != "" {
		signed = "signed -> " + out + ".jws, kid " + done.Kid
	}
	fmt.Fprintf(c.Root().Writer, "Checkpoint of %s written to %s (%s; %s key; sha256 %s; %s).\n",
		termtext.Clean(root), termtext.Clean(c.String("out")), done.Checkpoint.Summary(), done.Checkpoint.KeyClass,
		done.Digest, termtext.Clean(signed))
	return nil
}

// checkpointSigner signs with the key bundles sign with (package signing: --sign-key and --sign-kid, else,
// in a repository, bernstein.signingKey or git's SSH signing key); nil when no key is given. The JWS is the
// bundles', over the checkpoint's JCS form.
func checkpointSigner(c *ucli.Command, env *Env) (*lineage.CheckpointKey, error) {
	s, err := openSession(env)
	if err != nil {
		s = nil // outside a repository only the flags count
	}
	sg, err := signer(c, env, s)
	if err != nil || sg == nil {
		return nil, err
	}
	return &lineage.CheckpointKey{SignJWS: sg.SignJWS, Kid: sg.Kid, Release: sg.Close}, nil
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

func runLineageVerifyCheckpoints(c *ucli.Command) error {
	if err := noLineageArgs(c); err != nil {
		return err
	}
	root, key, err := lineageWhere(c)
	if err != nil {
		return err
	}
	// Relative paths are from the folder the command runs in (Env.Dir in tests), like every other file flag.
	wd, err := envOf(c).getwd()
	if err != nil {
		return err
	}
	req := pinned.Request{Root: root, Key: key, Strict: c.Bool("strict"), Cards: cardPaths(wd, c.StringSlice("card"))}
	for _, path := range c.StringSlice("checkpoint") {
		req.Checkpoints = append(req.Checkpoints, pinned.File{Path: inDir(wd, path), Label: path})
	}
	rev := c.String("since")
	if rev != "" {
		req.Since = func() (*pinned.Since, error) { return sinceOf(c, rev) }
	}
	out, err := pinned.Verify(req)
	if err != nil {
		return err
	}
	if out.NotedNone {
		fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: no lineage v2 checkpoint is noted on %s or its ancestors\n", termtext.Clean(rev))
	}
	res, checked := out.Verify, out.Checked
	w := c.Root().Writer
	if c.Bool("json") {
		if err := printJSON(c, struct {
			OK          bool             `json:"ok"`
			Failures    []string         `json:"failures"`
			ParentCount int              `json:"parent_count"`
			ChildCount  int              `json:"child_count"`
			Key         lineage.KeyClass `json:"key"`
			Checkpoints []pinned.Checked `json:"checkpoints"`
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

// sinceOf is where --since REV looks for the checkpoints noted in git (pinned.Since).
func sinceOf(c *ucli.Command, rev string) (*pinned.Since, error) {
	s, err := openSession(envOf(c))
	if err != nil {
		return nil, err
	}
	bundleDir, err := s.bundleDir(c)
	if err != nil {
		return nil, err
	}
	return &pinned.Since{Repo: s.repo, NotesRef: notes.RefFrom(s.cfg), Rev: rev, BundleDir: bundleDir}, nil
}
