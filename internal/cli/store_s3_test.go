package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/s3test"
)

// withS3 is env with the AWS variables that reach the test's S3 server.
func withS3(env []string, srv *s3test.Server) []string {
	out := append([]string(nil), env...)
	for k, v := range srv.Env() {
		out = append(out, k+"="+v)
	}
	return out
}

// keepOnlyStoreRecords rewrites the clone's refs/bernstein/archives to hold its store records alone, as a clone
// whose team keeps the archives in the bucket and only their versions in git would have it: get must then read
// the archive from the store, at the recorded version.
func keepOnlyStoreRecords(t *testing.T, cl *gittest.Repo) {
	t.Helper()
	index := filepath.Join(t.TempDir(), "index")
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = cl.Dir, append(append([]string(nil), cl.Env...), "GIT_INDEX_FILE="+index)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	kept := 0
	for _, line := range strings.Split(git("ls-tree", "-r", string(archives.Ref)), "\n") {
		meta, path, _ := strings.Cut(line, "\t")
		if f := strings.Fields(meta); strings.HasSuffix(path, archives.StoreKind) {
			git("update-index", "--add", "--cacheinfo", f[0]+","+f[2]+","+path)
			kept++
		}
	}
	if kept == 0 {
		t.Fatalf("%s holds no store record", archives.Ref)
	}
	commit := git("commit-tree", git("write-tree"), "-m", "store records only")
	git("update-ref", string(archives.Ref), commit)
}

// The "done when", through an S3 bucket with Object Lock (versitygw, started by make test): the hook
// uploads the signed archive it records and keeps the versions in refs/bernstein/archives, push finds nothing
// left to upload, and a reviewer's clone whose archives ref holds only those records gets the archive from the
// bucket at the recorded version (a later version planted under the key is not read) and verifies it. A bucket
// without Object Lock is refused (exit 2) unless push --no-retention.
func TestS3StoreHookPushGetVerify(t *testing.T) {
	t.Parallel()
	srv := s3test.Need(t)
	bucket := srv.Bucket(t, true)
	url := "s3://" + bucket + "/evidence"
	r := ticketRepo(t)
	env := withS3(r.Env, srv)
	keyDir := t.TempDir()
	if _, e, c := runIn(t, keyDir, env, "keygen", "--kid", "k1"); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	head, sum := hookToStore(t, r, env, filepath.Join(keyDir, "k1.pem"), url, "bernstein.retention", "3650d")
	key := "evidence/" + archives.ArchivePath("github", "ENG-42", sum)
	ctx := context.Background()
	info, err := srv.Client.StatObject(ctx, bucket, key, minio.StatObjectOptions{})
	if err != nil || info.Headers.Get("X-Amz-Object-Lock-Mode") != "COMPLIANCE" {
		t.Fatalf("the hook's upload: %v %v", err, info.Headers)
	}
	if !strings.Contains(r.Git("ls-tree", "-r", "--name-only", string(archives.Ref)), archives.StoreKind) {
		t.Fatal("the hook kept no store record")
	}

	bare := bareOrigin(r)
	r.Git("push", "-q", "origin", "main")
	out, e, c := runIn(t, r.Dir, env, "push")
	if c != 0 || !strings.Contains(out, "Uploaded 0 files to "+url+" (1 archive checked") {
		t.Fatalf("push after the hook uploaded: %d\n%s\n%s", c, out, e)
	}

	clone := filepath.Join(filepath.Dir(r.Dir), "clone")
	r.Git("clone", "-q", bare, clone)
	if _, e, c := runIn(t, clone, env, "fetch"); c != 0 {
		t.Fatalf("fetch: %s", e)
	}
	cl := r.Open(clone)
	keepOnlyStoreRecords(t, cl)
	// Someone with write access puts other bytes under the archive's key: the latest version is now theirs.
	forged := bytes.Repeat([]byte("x"), int(info.Size))
	if _, err := srv.Client.PutObject(ctx, bucket, key, bytes.NewReader(forged), info.Size, minio.PutObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, e, c := runIn(t, clone, env, "get", "HEAD", "--out", "ev"); c != 1 || !strings.Contains(e, "no copy with the noted digest") {
		t.Fatalf("get without a store: %d %s", c, e)
	}
	cl.Git("config", "bernstein.store", url)
	out, e, c = runIn(t, clone, env, "get", "HEAD", "--out", "ev")
	if c != 0 || !strings.Contains(out, "from "+url) || !strings.Contains(out, head[:12]+".tar.gz.jws") ||
		!strings.Contains(out, head[:12]+".tar.gz.intoto.jsonl") || !strings.Contains(out, head[:12]+".tar.gz.sigstore.json") {
		t.Fatalf("get from the store: %d\n%s\n%s", c, out, e)
	}
	if got, _ := record.FileSHA256(filepath.Join(clone, "ev", "github", "ENG-42", head[:12]+".tar.gz")); got != sum {
		t.Fatalf("got an archive with sha256 %s, noted %s", got, sum)
	}
	out, e, c = runIn(t, clone, env, "verify", "--rev", "HEAD", "--card", filepath.Join(keyDir, "k1.card.json"))
	if c != 0 || !strings.Contains(out, "VERIFIED") || !strings.Contains(out, "from "+url) ||
		!strings.Contains(out, "[PASS] attestation") || !strings.Contains(out, "[PASS] sigstore-bundle") {
		t.Fatalf("verify --rev HEAD from the store: %d\n%s\n%s", c, out, e)
	}
	// Without the records, the latest version is read, and it is not the noted archive: refused, said.
	cl.Git("update-ref", "-d", string(archives.Ref))
	if _, e, c := runIn(t, clone, env, "get", "HEAD", "--out", "ev2"); c != 1 || !strings.Contains(e, "refused") {
		t.Fatalf("get of a replaced latest version: %d %s", c, e)
	}

	// A bucket without Object Lock: nothing is uploaded, exit 2, unless --no-retention.
	plain := "s3://" + srv.Bucket(t, false)
	r.Git("config", "bernstein.store", plain)
	if out, e, c := runIn(t, r.Dir, env, "push"); c != 2 || !strings.Contains(e, "has no Object Lock") || !strings.Contains(e, "--no-retention") {
		t.Fatalf("push to a bucket without Object Lock: %d\n%s\n%s", c, out, e)
	}
	if out, e, c := runIn(t, r.Dir, env, "push", "--no-retention"); c != 0 || !strings.Contains(out, "Uploaded 4 files to "+plain) {
		t.Fatalf("push --no-retention: %d\n%s\n%s", c, out, e)
	}
	if _, err := os.Stat(filepath.Join(clone, "ev2")); err == nil {
		t.Error("get wrote a refused archive")
	}
}

// The hook never fails a merge: a bucket without Object Lock is one line in hook.log, with the command that
// uploads anyway.
func TestS3HookBucketWithoutObjectLock(t *testing.T) {
	t.Parallel()
	srv := s3test.Need(t)
	url := "s3://" + srv.Bucket(t, false) + "/evidence"
	r := ticketRepo(t)
	env := withS3(r.Env, srv)
	r.Git("config", "bernstein.hookBudget", "20s")
	r.Git("config", "bernstein.retention", "30d")
	r.Git("config", "bernstein.store", url)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	_, e, c := runIn(t, r.Dir, env, "hook", "post-merge", "0")
	if c != 0 || !strings.Contains(e, "post-merge: archives not all uploaded to "+url) || !strings.Contains(e, "has no Object Lock") ||
		!strings.Contains(e, "'git bernstein push --no-retention' uploads them unlocked") {
		t.Fatalf("hook with a bucket without Object Lock: %d %s", c, e)
	}
	if strings.Contains(e, srv.SecretKey) {
		t.Fatal("the hook printed the secret key")
	}
}

// Retention settings that do not parse stop push (exit 2, naming the key) before any upload, and do not stand
// in the way of get, which writes nothing to a store.
func TestStoreRetentionSettings(t *testing.T) {
	t.Parallel()
	r := ticketRepo(t)
	bareOrigin(r)
	r.Git("config", "bernstein.store", "s3://evidence-bucket")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	if _, e, c := runIn(t, r.Dir, r.Env, "record", "HEAD"); c != 0 {
		t.Fatalf("record: %s", e)
	}
	for key, bad := range map[string]string{"bernstein.retention": "forever", "bernstein.retentionMode": "LEGAL", "bernstein.legalHold": "maybe"} {
		cl := r.Open(r.Dir)
		cl.Git("config", key, bad)
		if out, e, c := runIn(t, r.Dir, r.Env, "push"); c != 2 || !strings.Contains(e, key) || strings.Contains(out, "Uploaded") {
			t.Errorf("push with %s=%s: %d\n%s\n%s", key, bad, c, out, e)
		}
		if _, e, c := runIn(t, r.Dir, r.Env, "get", "HEAD", "--out", t.TempDir()); c != 0 {
			t.Errorf("get with %s=%s: %d %s", key, bad, c, e)
		}
		cl.Git("config", "--unset", key)
	}
}
