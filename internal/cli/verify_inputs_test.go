package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
)

// TestVerifyInputsNeverHang: a FIFO as the archive, as the auto-found .jws or as a --card (unpacking an
// evidence tar makes exactly such FIFOs) is refused at once with exit 2, by verify, view and extract.
func TestVerifyInputsNeverHang(t *testing.T) {
	t.Parallel()
	r, card := aliceBundles(t, "traces/ENG-42.jsonl", `{"ticket_id":"ENG-42"}`+"\n")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := fifotest.Make(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// A bundle whose .jws beside it is a FIFO.
	os.Mkdir(filepath.Join(dir, "jws"), 0o755)
	data, _ := os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz"))
	os.WriteFile(filepath.Join(dir, "jws", "b.tar.gz"), data, 0o644)
	fifotest.Make(filepath.Join(dir, "jws", "b.tar.gz.jws"), 0o644)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", fifo, "--card", card}, "is a FIFO"},
		{[]string{"verify", filepath.Join(dir, "jws", "b.tar.gz"), "--card", card}, "is a FIFO"},
		{[]string{"verify", "ENG-42.tar.gz", "--card", fifo}, "is a FIFO"},
		{[]string{"verify", "/dev/zero", "--card", card}, "character device"},
		{[]string{"view", fifo, "--card", card}, "is a FIFO"},
		{[]string{"extract", fifo, "--card", card, "--into", filepath.Join(dir, "out")}, "is a FIFO"},
	} {
		done := make(chan struct{})
		var out, errOut string
		var code int
		go func() {
			defer close(done)
			out, errOut, code = runIn(t, r.Dir, r.Env, tc.args...)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%v hangs", tc.args)
		}
		if code != 2 || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%v: exit %d, want 2 saying %q\n%s\n%s", tc.args, code, tc.want, out, errOut)
		}
	}
}

// TestVerifyRefusesOneKidForTwoKeys: two cards that give one kid two different keys are not both trusted.
func TestVerifyRefusesOneKidForTwoKeys(t *testing.T) {
	t.Parallel()
	r, card := aliceBundles(t, "traces/ENG-42.jsonl", `{"ticket_id":"ENG-42"}`+"\n")
	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "alice-2026", "--key", "../mallory.pem", "--card", "../mallory.card.json"); c != 0 {
		t.Fatalf("keygen: %d %s", c, e)
	}
	mallory := filepath.Join(filepath.Dir(r.Dir), "mallory.card.json")
	out, errOut, code := runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card, "--card", mallory)
	if code != 2 || !strings.Contains(out, "alice.card.json") || !strings.Contains(out, "mallory.card.json") || !strings.Contains(out, "two different keys") {
		t.Errorf("exit %d, want 2 naming both cards\n%s\n%s", code, out, errOut)
	}
	// The same card twice is one key, and fine.
	if out, errOut, code := runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card, "--card", card); code != 0 {
		t.Errorf("the same card twice: exit %d\n%s\n%s", code, out, errOut)
	}
}
