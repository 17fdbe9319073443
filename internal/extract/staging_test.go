//go:build unix

package extract

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// TestStagingHelperProcess is the extracting process TestStaleStagingRemoved kills: it extracts the archive on
// its standard input, which never ends.
func TestStagingHelperProcess(t *testing.T) {
	into := os.Getenv("GIT_BERNSTEIN_TEST_EXTRACT_INTO")
	if into == "" {
		t.Skip("run by TestStaleStagingRemoved")
	}
	Extract(os.Stdin, nil, nil, Options{Into: into, AllowUnverified: true})
	t.Fatal("the archive was not cut short")
}

// TestStaleStagingRemoved (issue 25, 15): an extract killed with SIGKILL leaves its staging folder with
// unverified files; the next extract beside it removes that folder, and the one a crash left before, and nothing
// else: not a live extract's, not a folder without our marker, with a marker that is a symlink, a hard link,
// or not ours, not a folder of another mode, not one reached through a symlink, not one named otherwise.
func TestStaleStagingRemoved(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	good := load(t, "good.tar.gz")

	// A real process, killed mid-extraction: everything but the gzip trailer is sent, so every member is
	// written, and the process waits for the rest.
	cmd := exec.Command(os.Args[0], "-test.run=^TestStagingHelperProcess$")
	cmd.Env = append(os.Environ(), "GIT_BERNSTEIN_TEST_EXTRACT_INTO="+filepath.Join(parent, "killed"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Write(good[:len(good)-8])
	var killed string
	for deadline := time.Now().Add(60 * time.Second); killed == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		m, _ := filepath.Glob(filepath.Join(parent, ".killed.extract-*", "transcripts", "agent-s1.jsonl"))
		if len(m) == 1 {
			killed = filepath.Dir(filepath.Dir(m[0]))
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	stdin.Close()
	if killed == "" {
		t.Fatal("the helper made no staging folder with the members in it")
	}
	if _, err := os.Lstat(filepath.Join(killed, markerName)); err != nil {
		t.Fatalf("the killed extract's staging folder has no marker: %v", err)
	}

	// A staging folder whose process ended without cleaning up (its marker's lock dropped).
	crashed, err := newStaging(filepath.Join(parent, "crashed"))
	if err != nil {
		t.Fatal(err)
	}
	crashed.root.Close()
	crashed.marker.Close()
	// A live extract: its lock is held.
	live, err := newStaging(filepath.Join(parent, "live"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.discard()

	// Folders that are not ours to remove, each with a file that must survive.
	ourMarker, _ := os.ReadFile(filepath.Join(killed, markerName))
	decoy := func(name string, mode os.FileMode, marker func(dir string)) string {
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine\n"), 0o644)
		if marker != nil {
			marker(dir)
		}
		os.Chmod(dir, mode)
		return dir
	}
	realMarker := func(dir string) { os.WriteFile(filepath.Join(dir, markerName), ourMarker, 0o600) }
	elsewhere := filepath.Join(t.TempDir(), "marker")
	os.WriteFile(elsewhere, ourMarker, 0o600)
	keep := []string{
		decoy(".nomarker.extract-1", 0o700, nil),
		decoy(".symlinked.extract-2", 0o700, func(dir string) { os.Symlink(elsewhere, filepath.Join(dir, markerName)) }),
		decoy(".hardlinked.extract-3", 0o700, func(dir string) { os.Link(elsewhere, filepath.Join(dir, markerName)) }),
		decoy(".other.extract-4", 0o700, func(dir string) { os.WriteFile(filepath.Join(dir, markerName), []byte("someone else's\n"), 0o600) }),
		decoy(".open.extract-5", 0o755, realMarker),
		decoy(".named.extract-6x", 0o700, realMarker),
		decoy("named.extract-7", 0o700, realMarker),
		decoy("target", 0o700, realMarker),
		live.path,
	}
	if err := os.Symlink(filepath.Join(parent, "target"), filepath.Join(parent, ".link.extract-8")); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, filepath.Join(parent, ".link.extract-8"))

	keys, _ := sign.LoadCard(filepath.Join(corpus, "test-only.card.json"))
	res, err := Extract(bytes.NewReader(good), load(t, "good.tar.gz.jws"), keys, Options{Into: filepath.Join(parent, "next")})
	if err != nil || !res.Extracted {
		t.Fatalf("the next extract: %v %+v", err, res)
	}
	var swept []string
	for _, s := range res.Swept {
		swept = append(swept, s.Path)
	}
	slices.Sort(swept)
	want := []string{crashed.path, killed}
	slices.Sort(want)
	if !slices.Equal(swept, want) {
		t.Errorf("removed %q, want %q", swept, want)
	}
	for _, p := range want {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", p, err)
		}
	}
	// Folders of the user's named like ours but without a marker that proves them so are named, not removed.
	wantLeft := []string{keep[0], keep[1], keep[2], keep[3]}
	slices.Sort(wantLeft)
	left := slices.Clone(res.Unproven)
	slices.Sort(left)
	if !slices.Equal(left, wantLeft) {
		t.Errorf("named as unproven %q, want %q", left, wantLeft)
	}
	for _, s := range res.Swept {
		if s.Path == killed && s.PID != cmd.Process.Pid {
			t.Errorf("the killed extract's pid: %d, want %d", s.PID, cmd.Process.Pid)
		}
	}
	for _, p := range keep {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
		if p == live.path {
			continue
		}
		if data, err := os.ReadFile(filepath.Join(p, "keep.txt")); err != nil || string(data) != "mine\n" {
			t.Errorf("%s/keep.txt: %q, %v", p, data, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(parent, "next", markerName)); !os.IsNotExist(err) {
		t.Errorf("the marker was extracted into DIR (%v)", err)
	}
}
