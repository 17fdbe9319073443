package report

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/verify"
	"github.com/git-bernstein/git-bernstein/internal/verify/verifytest"
)

// WritePage writes no page for an archive that is not a regular file or a policy that does not read (an
// UnusableInput), a page of the trust's unusable report when it gives one, and the verified page otherwise; a
// page that cannot be written is the write's error, with the report.
func TestWritePage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := verify.Files{Archive: filepath.Join(verifytest.Dir(), "good.tar.gz"),
		Cards: []verify.Card{{Path: filepath.Join(verifytest.Dir(), "test-only.card.json"), Name: "test-only.card.json"}}}
	fifo := filepath.Join(dir, "fifo.tar.gz")
	if err := fifotest.Make(fifo, 0o644); err != nil {
		t.Logf("no FIFO here (%v): the case is left out", err)
		fifo = ""
	}
	badPolicy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(badPolicy, []byte("required_approvals: many\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unusable := func(string, *verify.Options) *verify.Report {
		return verify.Unusable(verify.CheckTrust, "allowed signers: unreadable")
	}
	cardsErr := errors.New("--agent-cards: no such folder")
	badCards := func() (*logv1.Cards, error) { return nil, cardsErr }
	for _, tc := range []struct {
		name     string
		req      PageRequest
		cards    bool   // the agent cards' own error comes back
		input    string // in the UnusableInput's message
		writeErr bool
		exit     int
		page     string // in the page written
	}{
		{name: "missing archive", req: PageRequest{Files: verify.Files{Archive: filepath.Join(dir, "none.tar.gz")}},
			input: "none.tar.gz"},
		{name: "FIFO", req: PageRequest{Files: verify.Files{Archive: fifo}}, input: "fifo.tar.gz"},
		{name: "bad policy", req: PageRequest{Files: good, Policy: badPolicy, PolicyName: "policy.yaml"},
			input: "--policy policy.yaml"},
		{name: "bad policy before agent cards", input: "--policy policy.yaml",
			req: PageRequest{Files: good, Policy: badPolicy, PolicyName: "policy.yaml", AgentCards: badCards}},
		{name: "bad agent cards", req: PageRequest{Files: good, AgentCards: badCards}, cards: true},
		{name: "verified", req: PageRequest{Files: good}, page: "VERIFIED"},
		{name: "trust unusable", req: PageRequest{Files: good, Trust: unusable}, exit: verify.ExitUnverifiable,
			page: "allowed signers: unreadable"},
		{name: "out in no folder", req: PageRequest{Files: good, Out: filepath.Join(dir, "no", "page.html")}, writeErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.req.Files.Archive == "" {
				t.Skip("no FIFO on this system")
			}
			if tc.req.Out == "" {
				tc.req.Out = filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".html")
			}
			tc.req.Version = "test"
			rep, err := WritePage(tc.req)
			_, statErr := os.Stat(tc.req.Out)
			var bad *UnusableInput
			switch {
			case tc.cards:
				if !errors.Is(err, cardsErr) || rep != nil || statErr == nil {
					t.Fatalf("WritePage = %v, %v (page written: %v), want the cards' error as it is and no page",
						rep, err, statErr == nil)
				}
			case tc.input != "":
				if !errors.As(err, &bad) || !strings.Contains(err.Error(), tc.input) || rep != nil || statErr == nil {
					t.Fatalf("WritePage = %v, %v (page written: %v), want an UnusableInput naming %q and no page",
						rep, err, statErr == nil, tc.input)
				}
			case tc.writeErr:
				if err == nil || errors.As(err, &bad) || !strings.HasPrefix(err.Error(), "write "+tc.req.Out) || rep == nil {
					t.Fatalf("WritePage = %v, %v, want the write's error with the report", rep, err)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if rep.ExitCode != tc.exit {
					t.Fatalf("exit %d, want %d", rep.ExitCode, tc.exit)
				}
				page, err := os.ReadFile(tc.req.Out)
				if err != nil || !strings.Contains(string(page), tc.page) {
					t.Fatalf("page (%v) lacks %q", err, tc.page)
				}
			}
		})
	}
}
