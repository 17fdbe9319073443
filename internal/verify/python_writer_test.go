package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify/internal/corpus"
)

// pythonWriter packs a bundle the way upstream Bernstein's ticket_bundle.py does: tarfile.open(path, "w:gz")
// (PAX format, Python's default since 3.8; gzip with the file name in its header), manifest.json first, each
// member a TarInfo with mode 0644, mtime 0, uid and gid 0 and no user or group name, added with addfile. The
// mtime is the third argument: a float one (a writer that copies os.stat's st_mtime) makes Python add a PAX
// mtime record to every member.
const pythonWriter = `
import io, json, sys, tarfile
out, members, mtime = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
with tarfile.open(out, "w:gz") as tar:
    for name, path in members:
        data = open(path, "rb").read()
        info = tarfile.TarInfo(name)
        info.size = len(data)
        info.mode = 0o644
        info.mtime = float(mtime) if "." in mtime else int(mtime)
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        tar.addfile(info, io.BytesIO(data))
`

// TestPythonWrittenBundleVerifies holds the verifier to the interop issue 12 asks for: a bundle written by
// Python's tarfile as upstream writes one, with a member name longer than 100 bytes and a non-ASCII one (both
// go into PAX path records), signed by the test key, is VERIFIED, and GNU tar and Python read it as signed.
// It logs the header shapes Python wrote, which are what the archive shape must allow. With a fractional mtime
// Python also writes a PAX mtime record for every member, beside the path records.
func TestPythonWrittenBundleVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: cannot write a bundle the way upstream Bernstein does")
	}
	t.Run("upstream", func(t *testing.T) { pythonWrittenBundle(t, python, "0") })
	t.Run("fractional-mtime", func(t *testing.T) { pythonWrittenBundle(t, python, "1767323045.25") })
}

func pythonWrittenBundle(t *testing.T, python, mtime string) {
	long := "transcripts/" + strings.Repeat("session-0123456789-", 6) + "agent.jsonl"
	files := []struct{ name, section, data string }{
		{"git/commits.json", manifest.SectionGit, `{"commits": [], "ticket_id": "ENG-42", "tracker": "github"}` + "\n"},
		{long, manifest.SectionTranscripts, `{"role": "assistant", "content": "a long session name"}` + "\n"},
		{"transcripts/agent-é-ünïcode.jsonl", manifest.SectionTranscripts, `{"note": "ünïcode"}` + "\n"},
		{"traces/s1-trace.jsonl", manifest.SectionTraces, `{"event": "tool_call", "ticket_id": "ENG-42"}` + "\n"},
	}
	if len(long) <= 100 {
		t.Fatal("the long name must not fit the ustar name field")
	}
	m := &manifest.Manifest{SchemaVersion: manifest.SchemaVersion, CreatedAt: "2026-01-02T03:04:05Z", BernsteinVersion: "python-writer",
		Tracker: "github", TicketID: "ENG-42", Files: []manifest.Entry{}, Commits: []string{}}
	dir := t.TempDir()
	var members [][2]string
	for i, f := range files {
		sum := sha256.Sum256([]byte(f.data))
		m.Files = append(m.Files, manifest.Entry{Arcname: f.name, SizeBytes: int64(len(f.data)), SHA256: hex.EncodeToString(sum[:]), Section: f.section})
		p := filepath.Join(dir, fmt.Sprintf("f%d", i))
		if err := os.WriteFile(p, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
		members = append(members, [2]string{f.name, p})
	}
	mj, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(dir, "manifest")
	if err := os.WriteFile(mp, mj, 0o644); err != nil {
		t.Fatal(err)
	}
	members = append([][2]string{{manifest.Name, mp}}, members...)
	spec, _ := json.Marshal(members)
	specPath, archivePath := filepath.Join(dir, "members.json"), filepath.Join(dir, "ENG-42.tar.gz")
	if err := os.WriteFile(specPath, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", pythonWriter, archivePath, specPath, mtime)
	cmd.Env = append(os.Environ(), "PYTHONUTF8=1", "PYTHONDONTWRITEBYTECODE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3 tarfile writer: %v\n%s", err, out)
	}
	archive, err := os.ReadFile(archivePath)
	if err != nil {
		t.Fatal(err)
	}

	key, err := sign.LoadPrivateKey(filepath.Join(corpusDir, corpus.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := sign.LoadCard(filepath.Join(corpusDir, corpus.CardFile))
	if err != nil {
		t.Fatal(err)
	}
	canon, err := sign.Canonicalize(mj)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := sign.SignDetached(key, corpus.Kid, canon)
	if err != nil {
		t.Fatal(err)
	}
	sig := []byte(jws)

	shape := describeShape(t, archive)
	t.Logf("the shapes Python's tarfile wrote:\n%s", shape)
	r := Verify(bytes.NewReader(archive), sig, keys, Options{})
	if r.Verdict != Verified || r.ExitCode != ExitVerified {
		t.Fatalf("a bundle written by Python's tarfile, as upstream writes one, is not VERIFIED:\n%s\nits shapes:\n%s", r.Text(), shape)
	}

	rd := findReaders(t)
	gnu, py := extractAll(t, rd, [][]byte{archive})
	for _, x := range []struct {
		reader string
		e      []*extraction
	}{{"GNU tar", gnu}, {"Python tarfile", py}} {
		if x.e != nil {
			if d := disagreement(x.e[0], sig, keys); d != "" {
				t.Errorf("%s: %s", x.reader, d)
			}
		}
	}
}

// describeShape lists the gzip header and every tar header block of a .tar.gz as its bytes are: flags, the
// fields that are not what bundle writers leave empty, and the PAX records.
func describeShape(t *testing.T, archive []byte) string {
	var b strings.Builder
	if len(archive) < 10 {
		t.Fatal("archive too short")
	}
	flg := archive[3]
	var flags []string
	for bit, n := range []string{"FTEXT", "FHCRC", "FEXTRA", "FNAME", "FCOMMENT", "reserved5", "reserved6", "reserved7"} {
		if flg&(1<<bit) != 0 {
			flags = append(flags, n)
		}
	}
	fmt.Fprintf(&b, "gzip: FLG %#02x %v, XFL %d, OS %d", flg, flags, archive[8], archive[9])
	if flg&0x08 != 0 {
		name := archive[10:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			fmt.Fprintf(&b, ", FNAME %q", name[:i])
		}
	}
	b.WriteString("\n")
	tarBytes, ok := inflate(archive)
	if !ok {
		t.Fatal("the archive does not inflate as one gzip member")
	}
	off := 0
	for ; off+corpus.Block <= len(tarBytes); off += corpus.Block {
		h := tarBytes[off : off+corpus.Block]
		if bytes.Count(h, []byte{0}) == corpus.Block {
			break
		}
		size := numeric(h, corpus.FSize)
		var fields []string
		for _, f := range []corpus.Field{corpus.FName, corpus.FMode, corpus.FUID, corpus.FGID, corpus.FSize, corpus.FMtime, corpus.FChksum,
			corpus.FLinkname, corpus.FMagic, corpus.FVersion, corpus.FUname, corpus.FGname, corpus.FDevmajor, corpus.FDevminor, corpus.FPrefix, corpus.FPad} {
			v := h[f.Off : f.Off+f.Len]
			if !f.Numeric && f != corpus.FMagic && f != corpus.FVersion && bytes.Count(v, []byte{0}) == len(v) {
				continue // empty
			}
			fields = append(fields, fmt.Sprintf("%s=%q", f.Name, v))
		}
		fmt.Fprintf(&b, "header at %d: typeflag %q %s\n", off, h[corpus.FTypeflag.Off], strings.Join(fields, " "))
		body := tarBytes[off+corpus.Block : off+corpus.Block+int(size)]
		if h[corpus.FTypeflag.Off] == 'x' || h[corpus.FTypeflag.Off] == 'g' {
			fmt.Fprintf(&b, "  PAX records: %q\n", body)
		}
		padded := (int(size) + corpus.Block - 1) / corpus.Block * corpus.Block
		if bytes.Count(tarBytes[off+corpus.Block+int(size):off+corpus.Block+padded], []byte{0}) != padded-int(size) {
			b.WriteString("  non-zero padding\n")
		}
		off += padded
	}
	rest := tarBytes[off:]
	fmt.Fprintf(&b, "end: %d bytes after the last member, all zero: %v\n", len(rest), bytes.Count(rest, []byte{0}) == len(rest))
	return b.String()
}
