package verify

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify/internal/corpus"
)

// The differential test (issue 12): VERIFIED must mean that the bytes an auditor unpacks are the bytes that
// were signed, whatever tool unpacks them. For every archive Verify calls VERIFIED (the committed corpus, the
// fuzz corpus, and header variants of a genuine bundle made below), GNU tar and Python's tarfile, the two
// readers auditors reach for, must list exactly manifest.json and the manifest's members, extract exactly the
// signed bytes, and write nothing outside the folder they extract into. A reader that is not installed is
// skipped, saying so; CI has both.

// subject is an archive to verify and, when VERIFIED, to hand to the readers.
type subject struct {
	name    string
	archive []byte
	sig     []byte
	keys    []sign.TrustedKey
	opts    Options
}

// extraction is what one reader made of one archive.
type extraction struct {
	listed  []string          // member names as the reader lists them
	files   map[string][]byte // regular files under the target folder, by slash path
	dirs    map[string]bool   // folders under the target folder
	odd     []string          // anything else: outside the target, not a file or folder, a setuid mode
	failure string            // the reader's error, when it reported one
}

// readers finds GNU tar and python3, logging what is missing.
type readers struct {
	gnuTar, python string
}

func findReaders(t testing.TB) readers {
	var r readers
	if p, err := exec.LookPath("tar"); err != nil {
		t.Logf("GNU tar: not installed; its half of the differential test is skipped")
	} else if out, _ := exec.Command(p, "--version").Output(); !bytes.Contains(out, []byte("GNU tar")) {
		t.Logf("tar at %s is not GNU tar; its half of the differential test is skipped", p)
	} else {
		r.gnuTar = p
	}
	if p, err := exec.LookPath("python3"); err != nil {
		t.Logf("python3: not installed; the tarfile half of the differential test is skipped")
	} else {
		r.python = p
	}
	return r
}

// pythonReader lists and extracts each job's archive with tarfile as a user would call it, without an
// extraction filter (filter="fully_trusted" is that, and keeps Python 3.14's new default out of the way).
// One process reads every archive: Python starts slowly. Unfiltered extraction writes an absolute name, or
// through a link, anywhere on the machine; such an archive is listed, reported and not extracted (the test
// fails on it all the same: a verified bundle has neither).
const pythonReader = `
import json, os, sys, tarfile
out = []
for job in json.load(sys.stdin):
    r = {"names": [], "error": ""}
    try:
        with tarfile.open(job["archive"], "r:gz") as t:
            members = t.getmembers()
            r["names"] = [os.fsencode(m.name).hex() for m in members]
        unsafe = [m for m in members if os.path.isabs(m.name) or not (m.isfile() or m.isdir())]
        if unsafe:
            m = unsafe[0]
            r["error"] = "not extracted, to keep this machine safe: member %r is absolute or of type %r" % (m.name, m.type)
            out.append(r)
            continue
        with tarfile.open(job["archive"], "r:gz") as t:
            kw = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}
            t.extractall(job["target"], **kw)
    except Exception as e:
        r["error"] = "%s: %s" % (type(e).__name__, e)
    out.append(r)
json.dump(out, sys.stdout)
`

// extractAll runs the available readers on each archive. Each archive and reader gets a fresh root folder and
// extracts into root/a/b, two levels down, so that a ../../ escape lands in root where it is seen.
func extractAll(t *testing.T, rd readers, archives [][]byte) (gnu, py []*extraction) {
	t.Helper()
	tmp := t.TempDir()
	paths := make([]string, len(archives))
	for i, a := range archives {
		paths[i] = filepath.Join(tmp, fmt.Sprintf("%d.tar.gz", i))
		if err := os.WriteFile(paths[i], a, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mkroot := func(reader string, i int) (root, target string) {
		root = filepath.Join(tmp, fmt.Sprintf("%s-%d", reader, i))
		target = filepath.Join(root, "a", "b")
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		return root, target
	}
	if rd.gnuTar != "" {
		gnu = make([]*extraction, len(archives))
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for i := range archives {
			root, target := mkroot("gnu", i)
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				gnu[i] = runGNUTar(rd.gnuTar, paths[i], root, target)
			}()
		}
		wg.Wait()
	}
	if rd.python != "" {
		type job struct {
			Archive string `json:"archive"`
			Target  string `json:"target"`
		}
		jobs := make([]job, len(archives))
		roots := make([]string, len(archives))
		for i := range archives {
			root, target := mkroot("py", i)
			roots[i] = root
			jobs[i] = job{paths[i], target}
		}
		in, _ := json.Marshal(jobs)
		cmd := exec.Command(rd.python, "-c", pythonReader)
		cmd.Stdin = bytes.NewReader(in)
		cmd.Env = append(os.Environ(), "PYTHONUTF8=1", "PYTHONDONTWRITEBYTECODE=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python3 tarfile reader: %v\n%s", err, stderr.Bytes())
		}
		var res []struct {
			Names []string `json:"names"`
			Error string   `json:"error"`
		}
		if err := json.Unmarshal(out, &res); err != nil || len(res) != len(archives) {
			t.Fatalf("python3 tarfile reader: %v (%d results for %d archives)", err, len(res), len(archives))
		}
		py = make([]*extraction, len(archives))
		for i, r := range res {
			e := walkExtracted(roots[i])
			for _, h := range r.Names {
				b, _ := hex.DecodeString(h)
				e.listed = append(e.listed, string(b))
			}
			e.failure = r.Error
			py[i] = e
		}
	}
	return gnu, py
}

// runGNUTar lists and extracts the archive with GNU tar as an auditor would: tar -tzf, tar -xzf.
func runGNUTar(tarPath, archive, root, target string) *extraction {
	var failures []string
	list := exec.Command(tarPath, "--quoting-style=c", "-tzf", archive)
	list.Env = append(os.Environ(), "LC_ALL=C")
	var stderr bytes.Buffer
	list.Stderr = &stderr
	out, err := list.Output()
	if err != nil {
		failures = append(failures, fmt.Sprintf("tar -tzf: %v: %s", err, strings.TrimSpace(stderr.String())))
	}
	var listed []string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		if s, err := strconv.Unquote(line); err == nil {
			line = s
		}
		listed = append(listed, line)
	}
	x := exec.Command(tarPath, "-xzf", archive, "-C", target)
	x.Env = append(os.Environ(), "LC_ALL=C")
	if b, err := x.CombinedOutput(); err != nil {
		failures = append(failures, fmt.Sprintf("tar -xzf: %v: %s", err, strings.TrimSpace(string(b))))
	}
	e := walkExtracted(root)
	e.listed = listed
	e.failure = strings.Join(failures, "; ")
	return e
}

// walkExtracted reads what a reader left under root, where the target folder is root/a/b.
func walkExtracted(root string) *extraction {
	e := &extraction{files: map[string][]byte{}, dirs: map[string]bool{}}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			e.odd = append(e.odd, fmt.Sprintf("%s: %v", path, err))
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if rel == "." || rel == "a" || rel == "a/b" {
			return nil
		}
		in, ok := strings.CutPrefix(rel, "a/b/")
		if !ok {
			e.odd = append(e.odd, fmt.Sprintf("%q written outside the target folder", rel))
			return nil
		}
		info, err := os.Lstat(path)
		switch {
		case err != nil:
			e.odd = append(e.odd, fmt.Sprintf("%s: %v", in, err))
		case info.Mode().IsDir():
			e.dirs[in] = true
		case info.Mode().IsRegular():
			if info.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0 {
				e.odd = append(e.odd, fmt.Sprintf("%q extracted with mode %v", in, info.Mode()))
			}
			data, err := os.ReadFile(path)
			if err != nil {
				e.odd = append(e.odd, fmt.Sprintf("%s: %v", in, err))
			}
			e.files[in] = data
		default:
			e.odd = append(e.odd, fmt.Sprintf("%q extracted as %v", in, info.Mode().Type()))
		}
		return nil
	})
	return e
}

// disagreement says how an extraction differs from the signed bundle, or "" when it is exactly the bundle:
// its manifest.json is signed by sig under keys, it lists manifest.json and the manifest's files each once,
// and the target folder holds exactly those files with those bytes (and the folders above them), nothing else.
func disagreement(e *extraction, sig []byte, keys []sign.TrustedKey) string {
	var why []string
	if e.failure != "" {
		why = append(why, "the reader failed: "+e.failure)
	}
	why = append(why, e.odd...)
	mj, ok := e.files[manifest.Name]
	if !ok {
		return strings.Join(append(why, "no manifest.json extracted"), "; ")
	}
	if !signedManifest(mj, sig, keys) {
		return strings.Join(append(why, "the extracted manifest.json is not the signed one"), "; ")
	}
	m, err := manifest.Parse(mj)
	if err != nil {
		return strings.Join(append(why, "the extracted manifest.json does not parse: "+err.Error()), "; ")
	}
	want := map[string]string{manifest.Name: ""}
	dirs := map[string]bool{}
	for _, f := range m.Files {
		want[f.Arcname] = f.SHA256
		for d := filepath.ToSlash(filepath.Dir(f.Arcname)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			dirs[d] = true
		}
	}
	listed := append([]string(nil), e.listed...)
	sort.Strings(listed)
	wantList := make([]string, 0, len(want))
	for n := range want {
		wantList = append(wantList, n)
	}
	sort.Strings(wantList)
	if strings.Join(listed, "\x00") != strings.Join(wantList, "\x00") {
		why = append(why, fmt.Sprintf("lists %q, the manifest %q", listed, wantList))
	}
	for n, sum := range want {
		data, ok := e.files[n]
		switch {
		case !ok:
			why = append(why, fmt.Sprintf("%q not extracted", n))
		case n != manifest.Name && hexSum(data) != sum:
			why = append(why, fmt.Sprintf("%q extracted with other bytes (%d bytes: %.60q)", n, len(data), data))
		}
	}
	for n := range e.files {
		if _, ok := want[n]; !ok {
			why = append(why, fmt.Sprintf("%q extracted, not in the manifest", n))
		}
	}
	for d := range e.dirs {
		if !dirs[d] {
			why = append(why, fmt.Sprintf("folder %q extracted, not above any member", d))
		}
	}
	return strings.Join(why, "; ")
}

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// signedManifest says whether sig is a trusted signature over manifestJSON (JCS, or the legacy form).
func signedManifest(mj, sig []byte, keys []sign.TrustedKey) bool {
	if canon, err := sign.Canonicalize(mj); err == nil {
		if _, err := sign.VerifyDetached(string(sig), canon, keys); err == nil {
			return true
		}
	}
	if legacy, err := sign.LegacyCanonical(mj); err == nil {
		if _, err := sign.VerifyDetached(string(sig), legacy, keys); err == nil {
			return true
		}
	}
	return false
}

// corpusSubjects are the committed corpus cases, each as the CLI would verify it.
func corpusSubjects(t *testing.T) []subject {
	var out []subject
	for _, c := range loadIndex(t).Cases {
		archive, sig, keys, opts := caseInputs(t, c)
		out = append(out, subject{"corpus/" + c.Name, archive, sig, keys, opts})
	}
	return out
}

// fuzzSubjects are the inputs `go test -fuzz=FuzzVerify` saved under testdata/fuzz/FuzzVerify (its seeds are the
// corpus, already covered): the test key's card is trusted when the input says so.
func fuzzSubjects(t *testing.T, keys []sign.TrustedKey) []subject {
	dir := filepath.Join("testdata", "fuzz", "FuzzVerify")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	var out []subject
	for _, ent := range ents {
		data, err := os.ReadFile(filepath.Join(dir, ent.Name()))
		if err != nil {
			t.Fatal(err)
		}
		vals, err := parseFuzzFile(data)
		if err != nil || len(vals) != 4 {
			t.Errorf("%s: not a FuzzVerify input (%v)", ent.Name(), err)
			continue
		}
		s := subject{name: "fuzz/" + ent.Name(), archive: vals[0].([]byte), sig: vals[1].([]byte)}
		if vals[2].(bool) {
			s.keys = keys
		}
		s.opts.Strict = vals[3].(bool)
		s.opts.Limits = Limits{MaxMemberSize: 1 << 20, MaxTotalSize: 4 << 20, MaxManifestSize: 1 << 20, MaxEntries: 1000}
		out = append(out, s)
	}
	return out
}

// parseFuzzFile reads the "go test fuzz v1" encoding of []byte and bool values.
func parseFuzzFile(data []byte) ([]any, error) {
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) == 0 || lines[0] != "go test fuzz v1" {
		return nil, errors.New("no go test fuzz v1 line")
	}
	var vals []any
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "[]byte(") && strings.HasSuffix(l, ")"):
			s, err := strconv.Unquote(l[len("[]byte(") : len(l)-1])
			if err != nil {
				return nil, err
			}
			vals = append(vals, []byte(s))
		case l == "bool(true)" || l == "bool(false)":
			vals = append(vals, l == "bool(true)")
		default:
			return nil, fmt.Errorf("value %q", l)
		}
	}
	return vals, nil
}

// goodBundle is the intact corpus bundle: its archive, signature and trusted keys.
func goodBundle(t *testing.T) (archive, sig []byte, keys []sign.TrustedKey) {
	for _, c := range loadIndex(t).Cases {
		if c.Name == "good" {
			archive, sig, keys, _ = caseInputs(t, c)
			return archive, sig, keys
		}
	}
	t.Fatal("no good case in the corpus")
	return nil, nil, nil
}

// TestDifferential runs the readers on every archive Verify calls VERIFIED.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	rd := findReaders(t)
	good, sig, keys := goodBundle(t)
	subjects := corpusSubjects(t)
	subjects = append(subjects, fuzzSubjects(t, keys)...)
	variants := headerVariants(t, good)
	for _, v := range variants {
		subjects = append(subjects, subject{"variant/" + v.name, v.archive, sig, keys, Options{}})
	}

	var verified []subject
	for _, s := range subjects {
		r := Verify(bytes.NewReader(s.archive), s.sig, s.keys, s.opts)
		if r.Verdict == Verified {
			verified = append(verified, s)
		}
	}
	nv := 0
	for _, s := range verified {
		if strings.HasPrefix(s.name, "variant/") {
			nv++
		}
	}
	t.Logf("%d archives (%d header variants of the good bundle); %d VERIFIED (%d variants)", len(subjects), len(variants), len(verified), nv)
	if testing.Verbose() {
		for _, s := range verified {
			t.Logf("VERIFIED: %s", s.name)
		}
	}
	if rd.gnuTar == "" && rd.python == "" {
		t.Skip("neither GNU tar nor python3 is installed: nothing to compare the verifier with")
	}
	archives := make([][]byte, len(verified))
	for i, s := range verified {
		archives[i] = s.archive
	}
	gnu, py := extractAll(t, rd, archives)
	bad := 0
	for i, s := range verified {
		for _, x := range []struct {
			reader string
			e      []*extraction
		}{{"GNU tar", gnu}, {"Python tarfile", py}} {
			if x.e == nil {
				continue
			}
			if d := disagreement(x.e[i], s.sig, s.keys); d != "" {
				bad++
				t.Errorf("%s: VERIFIED, but %s: %s", s.name, x.reader, d)
			}
		}
	}
	t.Logf("%d VERIFIED archives read by GNU tar: %v, by Python tarfile: %v; %d disagreements", len(verified), gnu != nil, py != nil, bad)
}

// TestShapeAttacksAreReal shows that the corpus's three attacks work on the readers auditors use: archive/tar
// reads exactly the signed bundle (so a verifier built on it alone says VERIFIED), while GNU tar or Python
// extracts other content. The verifier must refuse them (TestCorpus).
func TestShapeAttacksAreReal(t *testing.T) {
	rd := findReaders(t)
	if rd.gnuTar == "" && rd.python == "" {
		t.Skip("neither GNU tar nor python3 is installed")
	}
	cases := map[string]corpus.Case{}
	for _, c := range loadIndex(t).Cases {
		cases[c.Name] = c
	}
	names := []string{corpus.AttackLongNameVsPath, corpus.AttackPAXSizePlus, corpus.AttackPAXTwice}
	var archives [][]byte
	var sigs [][]byte
	var keys []sign.TrustedKey
	for _, n := range names {
		a, s, k, _ := caseInputs(t, cases[n])
		if !naiveVerified(a, s, k) {
			t.Errorf("%s: archive/tar does not read the signed bundle from it; the attack is not the one described", n)
		}
		archives, sigs, keys = append(archives, a), append(sigs, s), k
	}
	gnu, py := extractAll(t, rd, archives)
	commits, diff := "git/commits.json", "git/diff.patch"
	for i, n := range names {
		t.Run(n, func(t *testing.T) {
			check := func(reader string, es []*extraction, want func(e *extraction) bool) {
				if es == nil {
					t.Logf("%s: not installed, not tried", reader)
					return
				}
				d := disagreement(es[i], sigs[i], keys)
				if d == "" || !want(es[i]) {
					t.Errorf("%s does not fall for it: %s", reader, d)
					return
				}
				t.Logf("%s: %s", reader, d)
			}
			swapped := func(e *extraction) bool {
				return bytes.HasPrefix(e.files[diff], []byte("{")) && bytes.HasPrefix(e.files[commits], []byte("From "))
			}
			hidden := func(e *extraction) bool { return string(e.files[diff]) == corpus.Hidden }
			switch n {
			case corpus.AttackLongNameVsPath:
				check("GNU tar", gnu, swapped)
				check("Python tarfile", py, swapped)
			case corpus.AttackPAXSizePlus:
				check("GNU tar", gnu, hidden)
			case corpus.AttackPAXTwice:
				check("Python tarfile", py, func(e *extraction) bool {
					return hidden(e) && strings.Contains(strings.Join(e.odd, "\n"), `"outside" written outside the target folder`)
				})
			}
		})
	}
}

// variant is a header variant of the good bundle.
type variant struct {
	name    string
	archive []byte
}

// headerVariants are a few hundred archives made from the good bundle by changing its tar headers one way each
// (or its gzip wrapper), seeded and so the same on every run. They probe every field of the header blocks with
// encodings readers parse differently, with the checksum redone and left stale; the typeflags; PAX and GNU
// headers inserted before a member with assorted records; duplicated headers; bytes in padding.
func headerVariants(t *testing.T, good []byte) []variant {
	base, ok := inflate(good)
	if !ok {
		t.Fatal("the good bundle does not inflate")
	}
	hdrs := headerOffsets(t, base)
	var out []variant
	add := func(name string, tarBytes []byte) {
		out = append(out, variant{name, corpus.Gzip(tarBytes, nil, "")})
	}
	// rng picks which member's header a change goes to: seeded, so every run makes the same variants.
	seed := uint64(12)
	rnd := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % n
	}
	pick := func() int { return rnd(len(hdrs)) }
	// paxBase is the good bundle with PAX headers as Python's tarfile writes them for a long or non-ASCII name
	// and a fractional mtime: a path record before member 3, path and mtime records before member 4.
	// xHdrs are the offsets of those two headers.
	rec := corpus.Record
	x3 := corpus.PAX('x', "m", rec("path", fieldString(base[hdrs[3]:], corpus.FName)))
	x4 := corpus.PAX('x', "m", rec("path", fieldString(base[hdrs[4]:], corpus.FName)), rec("mtime", "1767323045.25"))
	paxBase := bytes.Join([][]byte{base[:hdrs[3]], x3, base[hdrs[3]:hdrs[4]], x4, base[hdrs[4]:]}, nil)
	xHdrs := []int{hdrs[3], hdrs[4] + len(x3)}
	add("pax-base", paxBase)
	// changeHeader applies f to header k (two headers per change: the manifest's and one picked), once with
	// the checksum redone and once with it left as it was; and to one of paxBase's PAX headers.
	changeHeader := func(name string, f func(h []byte)) {
		if k := pick() % len(xHdrs); true {
			b := bytes.Clone(paxBase)
			h := b[xHdrs[k] : xHdrs[k]+corpus.Block]
			f(h)
			if !bytes.Equal(h, paxBase[xHdrs[k]:xHdrs[k]+corpus.Block]) {
				corpus.SetChecksum(h)
				add(fmt.Sprintf("x%d:%s", k, name), b)
			}
		}
		for _, k := range []int{0, 1 + pick()%(len(hdrs)-1)} {
			for _, redo := range []bool{true, false} {
				b := bytes.Clone(base)
				h := b[hdrs[k] : hdrs[k]+corpus.Block]
				f(h)
				if bytes.Equal(h, base[hdrs[k]:hdrs[k]+corpus.Block]) {
					continue
				}
				suffix := ""
				if redo {
					corpus.SetChecksum(h)
				} else {
					suffix = ",stale-checksum"
				}
				add(fmt.Sprintf("h%d:%s%s", k, name, suffix), b)
			}
		}
	}
	// Numbers: each numeric field in encodings other than canonical octal, and other values.
	for _, f := range []corpus.Field{corpus.FMode, corpus.FUID, corpus.FGID, corpus.FSize, corpus.FMtime, corpus.FDevmajor, corpus.FDevminor} {
		w := f.Len
		for _, enc := range []struct {
			name string
			fn   func(v int64) string
		}{
			{"plus", func(v int64) string { return fmt.Sprintf("+%0*o\x00", w-2, v) }},
			{"leading-spaces", func(v int64) string { return fmt.Sprintf("%*o\x00", w-1, v) }},
			{"space-terminated", func(v int64) string { return fmt.Sprintf("%0*o ", w-1, v) }},
			{"nul-space", func(v int64) string { return fmt.Sprintf("%0*o\x00 ", w-2, v) }},
			{"no-terminator", func(v int64) string { return fmt.Sprintf("%0*o", w, v) }},
			{"short", func(v int64) string { return fmt.Sprintf("%o\x00", v) }},
			{"digit-after-nul", func(v int64) string { return fmt.Sprintf("%0*o\x007", w-2, v) }},
			{"trailing-spaces", func(v int64) string { return fmt.Sprintf("%o", v) + strings.Repeat(" ", w-len(fmt.Sprintf("%o", v))) }},
			{"all-nul", func(int64) string { return "" }},
			{"base256", func(v int64) string {
				b := make([]byte, w)
				b[0] = 0x80
				for i := w - 1; i > 0 && v > 0; i, v = i-1, v>>8 {
					b[i] = byte(v)
				}
				return string(b)
			}},
			{"base256-negative", func(int64) string { return strings.Repeat("\xff", w) }},
			{"decimal-digit", func(v int64) string { return fmt.Sprintf("%0*o\x00", w-1, v)[:w-2] + "9\x00" }},
		} {
			changeHeader(f.Name+"="+enc.name, func(h []byte) { f.Set(h, enc.fn(numeric(h, f))) })
		}
		var values []int64
		switch f {
		case corpus.FMode:
			values = []int64{0o4644, 0o2644, 0o1644, 0o755, 0o777, 0o100644, 0}
		case corpus.FSize:
			values = []int64{-1, +1, 512}
		case corpus.FMtime:
			values = []int64{1, 1 << 32, 0o77777777777}
		default:
			values = []int64{1, 1000, 0o7777777}
		}
		for _, v := range values {
			name := fmt.Sprintf("%s=%#o", f.Name, v)
			if f == corpus.FSize {
				name = fmt.Sprintf("size%+d", v)
			}
			changeHeader(name, func(h []byte) {
				nv := v
				if f == corpus.FSize {
					nv += numeric(h, f)
				}
				f.Set(h, corpus.Octal(nv, w))
			})
		}
	}
	// The checksum itself, in other encodings of the right sum.
	for _, enc := range []struct{ name, format string }{
		{"six-digits-space-space", "%06o  "}, {"seven-digits-nul", "%07o\x00"}, {"seven-digits-space", "%07o "},
		{"eight-digits", "%08o"}, {"short", "%o\x00"}, {"leading-spaces", "%7o\x00"}, {"plus", "+%06o\x00"},
	} {
		for _, k := range []int{0, 1 + pick()%(len(hdrs)-1)} {
			b := bytes.Clone(base)
			h := b[hdrs[k] : hdrs[k]+corpus.Block]
			corpus.FChksum.Set(h, fmt.Sprintf(enc.format, corpus.Sum(h, false)))
			add(fmt.Sprintf("h%d:chksum=%s", k, enc.name), b)
		}
	}
	// Strings: bytes after the terminator, fields bundles leave empty, other magics.
	for _, s := range []struct {
		name string
		fn   func(h []byte)
	}{
		{"name-bytes-after-nul", func(h []byte) { appendAfterNUL(h, corpus.FName, "evil") }},
		{"name-filled-after-nul", func(h []byte) { fillAfterNUL(h, corpus.FName, 'x') }},
		{"name-dot-slash", func(h []byte) { corpus.FName.Set(h, "./"+fieldString(h, corpus.FName)) }},
		{"name-trailing-slash", func(h []byte) { corpus.FName.Set(h, fieldString(h, corpus.FName)+"/") }},
		{"name-double-slash", func(h []byte) { corpus.FName.Set(h, strings.Replace(fieldString(h, corpus.FName), "/", "//", 1)) }},
		{"name-split-into-prefix", func(h []byte) {
			n := fieldString(h, corpus.FName)
			if i := strings.LastIndex(n, "/"); i > 0 {
				corpus.FPrefix.Set(h, n[:i])
				corpus.FName.Set(h, n[i+1:])
			}
		}},
		{"prefix-x", func(h []byte) { corpus.FPrefix.Set(h, "x") }},
		{"prefix-after-nul", func(h []byte) { corpus.FPrefix.Set(h, "\x00x") }},
		{"prefix-dotdot", func(h []byte) { corpus.FPrefix.Set(h, "../..") }},
		{"linkname", func(h []byte) { corpus.FLinkname.Set(h, "x") }},
		{"linkname-after-nul", func(h []byte) { corpus.FLinkname.Set(h, "\x00x") }},
		{"uname-root", func(h []byte) { corpus.FUname.Set(h, "root") }},
		{"gname-root", func(h []byte) { corpus.FGname.Set(h, "root") }},
		{"uname-after-nul", func(h []byte) { corpus.FUname.Set(h, "\x00x") }},
		{"magic-gnu", func(h []byte) { corpus.FMagic.Set(h, "ustar "); corpus.FVersion.Set(h, " ") }},
		{"magic-v7", func(h []byte) { clear(h[corpus.FMagic.Off:]) }},
		{"magic-no-version", func(h []byte) { corpus.FVersion.Set(h, "") }},
		{"version-01", func(h []byte) { corpus.FVersion.Set(h, "01") }},
		{"version-space-0", func(h []byte) { corpus.FVersion.Set(h, " 0") }},
		{"magic-upper", func(h []byte) { corpus.FMagic.Set(h, "USTAR") }},
		{"pad-500", func(h []byte) { h[500] = 'x' }},
		{"pad-511", func(h []byte) { h[511] = 0xff }},
	} {
		changeHeader(s.name, s.fn)
	}
	for _, tf := range "\x00123456789xgLKSADMNVXZ" {
		changeHeader(fmt.Sprintf("typeflag=%q", tf), func(h []byte) { h[corpus.FTypeflag.Off] = byte(tf) })
	}
	// Headers inserted before a member: PAX records, GNU long names, copies of the header.
	insert := func(name string, k int, blocks func(hname string, size int64) []byte) {
		b := append(bytes.Clone(base[:hdrs[k]]), blocks(fieldString(base[hdrs[k]:], corpus.FName), numeric(base[hdrs[k]:], corpus.FSize))...)
		add(fmt.Sprintf("h%d:insert-%s", k, name), append(b, base[hdrs[k]:]...))
	}
	other := fieldString(base[hdrs[1]:], corpus.FName) // git/commits.json
	paxes := []struct {
		name    string
		records func(n string, size int64) []string
	}{
		{"path-same", func(n string, _ int64) []string { return []string{rec("path", n)} }},
		{"path-other", func(string, int64) []string { return []string{rec("path", other)} }},
		{"path-dot-slash", func(n string, _ int64) []string { return []string{rec("path", "./"+n)} }},
		{"path-trailing-slash", func(n string, _ int64) []string { return []string{rec("path", n+"/")} }},
		{"path-empty", func(string, int64) []string { return []string{rec("path", "")} }},
		{"path-dotdot", func(n string, _ int64) []string { return []string{rec("path", "../../"+n)} }},
		{"path-twice", func(n string, _ int64) []string { return []string{rec("path", other), rec("path", n)} }},
		{"mtime-0", func(string, int64) []string { return []string{rec("mtime", "0")} }},
		{"mtime-fraction", func(string, int64) []string { return []string{rec("mtime", "1.5")} }},
		{"mtime-negative", func(string, int64) []string { return []string{rec("mtime", "-1")} }},
		{"mtime-plus", func(string, int64) []string { return []string{rec("mtime", "+1")} }},
		{"mtime-path", func(n string, _ int64) []string { return []string{rec("mtime", "0"), rec("path", n)} }},
		{"mtime-exponent", func(string, int64) []string { return []string{rec("mtime", "1e3")} }},
		{"mtime-two-dots", func(string, int64) []string { return []string{rec("mtime", "1.5.3")} }},
		{"mtime-leading-space", func(string, int64) []string { return []string{rec("mtime", " 1")} }},
		{"mtime-trailing-dot", func(string, int64) []string { return []string{rec("mtime", "1.")} }},
		{"mtime-leading-dot", func(string, int64) []string { return []string{rec("mtime", ".5")} }},
		{"mtime-negative-fraction", func(string, int64) []string { return []string{rec("mtime", "-0.5")} }},
		{"mtime-huge", func(string, int64) []string { return []string{rec("mtime", "99999999999999999999")} }},
		{"mtime-hex", func(string, int64) []string { return []string{rec("mtime", "0x10")} }},
		{"mtime-leading-zero", func(string, int64) []string { return []string{rec("mtime", "01")} }},
		{"mtime-long-fraction", func(string, int64) []string { return []string{rec("mtime", "1767323045.123456789123")} }},
		{"mtime-empty", func(string, int64) []string { return []string{rec("mtime", "")} }},
		{"path-nul-inside", func(n string, _ int64) []string { return []string{rec("path", n+"\x00x")} }},
		{"path-dot-segment", func(n string, _ int64) []string { return []string{rec("path", strings.Replace(n, "/", "/./", 1))} }},
		{"path-dotdot-segment", func(n string, _ int64) []string { return []string{rec("path", "x/../"+n)} }},
		{"path-invalid-utf8", func(n string, _ int64) []string { return []string{rec("path", n+"\xff")} }},
		{"path-newline", func(n string, _ int64) []string { return []string{rec("path", n+"\n")} }},
		{"path-other-case", func(n string, _ int64) []string { return []string{rec("path", strings.ToUpper(n))} }},
		{"path-then-mtime-twice", func(n string, _ int64) []string {
			return []string{rec("path", n), rec("mtime", "1"), rec("mtime", "2")}
		}},
		{"size-same", func(_ string, s int64) []string { return []string{rec("size", fmt.Sprint(s))} }},
		{"size-plus", func(_ string, s int64) []string { return []string{rec("size", fmt.Sprintf("+%d", s))} }},
		{"size-leading-zero", func(_ string, s int64) []string { return []string{rec("size", fmt.Sprintf("0%d", s))} }},
		{"size-larger", func(_ string, s int64) []string { return []string{rec("size", fmt.Sprint(s+512))} }},
		{"size-zero", func(string, int64) []string { return []string{rec("size", "0")} }},
		{"size-empty", func(string, int64) []string { return []string{rec("size", "")} }},
		{"comment", func(string, int64) []string { return []string{rec("comment", "unsigned")} }},
		{"uid-gid", func(string, int64) []string { return []string{rec("uid", "0"), rec("gid", "0")} }},
		{"uname-gname", func(string, int64) []string { return []string{rec("uname", "root"), rec("gname", "root")} }},
		{"linkpath", func(string, int64) []string { return []string{rec("linkpath", "/etc/passwd")} }},
		{"atime-ctime", func(string, int64) []string { return []string{rec("atime", "1"), rec("ctime", "1")} }},
		{"charset", func(string, int64) []string { return []string{rec("charset", "ISO-IR 10646 2000 UTF-8")} }},
		{"hdrcharset", func(n string, _ int64) []string { return []string{rec("hdrcharset", "BINARY"), rec("path", n)} }},
		{"gnu-sparse", func(_ string, s int64) []string {
			return []string{rec("GNU.sparse.major", "1"), rec("GNU.sparse.minor", "0"), rec("GNU.sparse.realsize", fmt.Sprint(s))}
		}},
		{"xattr", func(string, int64) []string { return []string{rec("SCHILY.xattr.user.k", "v")} }},
		{"libarchive", func(string, int64) []string { return []string{rec("LIBARCHIVE.creationtime", "1")} }},
		{"length-leading-zero", func(n string, _ int64) []string { r := rec("path", n); return []string{"0" + bumpLength(r, 1)} }},
		{"length-long", func(n string, _ int64) []string { return []string{bumpLength(rec("path", n), 1)} }},
		{"length-short", func(n string, _ int64) []string { return []string{bumpLength(rec("path", n), -1)} }},
		{"no-newline", func(n string, _ int64) []string { r := rec("path", n); return []string{r[:len(r)-1] + " "} }},
		{"empty", func(string, int64) []string { return nil }},
	}
	for _, p := range paxes {
		for _, k := range []int{0, 1 + pick()%(len(hdrs)-1)} {
			insert("pax-"+p.name, k, func(n string, s int64) []byte { return corpus.PAX('x', "m", p.records(n, s)...) })
		}
	}
	for _, k := range []int{0, 1 + pick()%(len(hdrs)-1)} {
		insert("pax-twice-path", k, func(n string, _ int64) []byte {
			return append(corpus.PAX('x', "m", rec("path", other)), corpus.PAX('x', "m", rec("path", n))...)
		})
		insert("pax-twice-size-first", k, func(n string, s int64) []byte {
			return append(corpus.PAX('x', "m", rec("size", fmt.Sprint(s+512))), corpus.PAX('x', "m", rec("path", n))...)
		})
		insert("pax-global-path", k, func(string, int64) []byte { return corpus.PAX('g', "g", rec("path", other)) })
		insert("pax-global-comment", k, func(string, int64) []byte { return corpus.PAX('g', "g", rec("comment", "x")) })
		insert("pax-solaris-X", k, func(n string, _ int64) []byte { return corpus.PAX('X', "m", rec("path", n)) })
		insert("gnu-L-same", k, func(n string, _ int64) []byte { return corpus.GNULong('L', n) })
		insert("gnu-L-other", k, func(string, int64) []byte { return corpus.GNULong('L', other) })
		insert("gnu-K", k, func(string, int64) []byte { return corpus.GNULong('K', "/etc/passwd") })
		insert("gnu-L-and-pax-path", k, func(n string, _ int64) []byte {
			return append(corpus.PAX('x', "m", rec("path", n)), corpus.GNULong('L', other)...)
		})
		insert("pax-path-and-gnu-L", k, func(n string, _ int64) []byte {
			return append(corpus.GNULong('L', n), corpus.PAX('x', "m", rec("path", other))...)
		})
		insert("header-copy", k, func(string, int64) []byte { return bytes.Clone(base[hdrs[k] : hdrs[k]+corpus.Block]) })
		insert("zero-block", k, func(string, int64) []byte { return make([]byte, corpus.Block) })
	}
	// Single bytes: 300 header bytes of either base, picked at random (seeded), set to a byte readers treat
	// specially, the checksum redone.
	interesting := []byte{0, ' ', '0', '7', '8', '+', '-', '.', '/', '\n', 'x', 0x80, 0xff}
	for i := 0; i < 300; i++ {
		src, offs, label := base, hdrs, "h"
		if rnd(2) == 0 {
			src, offs, label = paxBase, []int{xHdrs[0], xHdrs[0] + len(x3), xHdrs[1], xHdrs[1] + len(x4)}, "p"
		}
		k := rnd(len(offs))
		at := rnd(corpus.Block)
		if at >= corpus.FChksum.Off && at < corpus.FChksum.Off+corpus.FChksum.Len {
			continue
		}
		c := interesting[rnd(len(interesting))]
		b := bytes.Clone(src)
		if b[offs[k]+at] == c {
			continue
		}
		b[offs[k]+at] = c
		corpus.SetChecksum(b[offs[k] : offs[k]+corpus.Block])
		add(fmt.Sprintf("%s%d:byte-%d=%#02x", label, k, at, c), b)
	}
	// Padding and the end of the archive.
	for k := range hdrs {
		size := numeric(base[hdrs[k]:], corpus.FSize)
		if size%corpus.Block != 0 {
			b := bytes.Clone(base)
			b[hdrs[k]+corpus.Block+int(size)] = 'x'
			add(fmt.Sprintf("h%d:padding-byte", k), b)
		}
	}
	end := hdrs[len(hdrs)-1] + corpus.Block + int((numeric(base[hdrs[len(hdrs)-1]:], corpus.FSize)+corpus.Block-1)/corpus.Block*corpus.Block)
	add("end:one-zero-block", base[:end+corpus.Block])
	add("end:record-padded", append(bytes.Clone(base), make([]byte, 10240-len(base)%10240)...))
	add("end:byte-after", append(bytes.Clone(base), 'x'))
	{
		b := bytes.Clone(base)
		b[end+corpus.Block] = 'x'
		add("end:second-block-not-zero", b)
	}
	// The gzip wrapper.
	out = append(out, gzipVariants(base)...)
	return out
}

// gzipVariants wrap the good tar in gzip headers of other shapes.
func gzipVariants(tarBytes []byte) []variant {
	with := func(level int, f func(zw *gzip.Writer)) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, level)
		f(zw)
		zw.Write(tarBytes)
		zw.Close()
		return b.Bytes()
	}
	const name = "ENG-42.tar"
	named := with(gzip.BestCompression, func(zw *gzip.Writer) { zw.Name = name })
	// FHCRC: the flag and the low 16 bits of the header's CRC-32, after the file name (RFC 1952 section 2.3.1).
	hl := 10 + len(name) + 1
	h := bytes.Clone(named[:hl])
	h[3] |= 0x02
	c := crc32.ChecksumIEEE(h)
	hcrc := append(append(h, byte(c), byte(c>>8)), named[hl:]...)
	half := len(tarBytes) / 2
	two := append(corpus.Gzip(tarBytes[:half], nil, ""), corpus.Gzip(tarBytes[half:], nil, "")...)
	reserved := corpus.Gzip(tarBytes, nil, "")
	reserved[3] |= 0x20
	return []variant{
		{"gzip:fname", named},
		{"gzip:fname-fhcrc", hcrc},
		{"gzip:mtime-os-level", with(gzip.BestSpeed, func(zw *gzip.Writer) { zw.ModTime = time.Unix(1767323045, 0); zw.OS = 3 })},
		{"gzip:fextra", corpus.Gzip(tarBytes, []byte{'G', 'B', 1, 0, 'x'}, "")},
		{"gzip:fcomment", corpus.Gzip(tarBytes, nil, "unsigned")},
		{"gzip:reserved-flag", reserved},
		{"gzip:two-members", two},
		{"gzip:trailing-zeros", append(corpus.Gzip(tarBytes, nil, ""), make([]byte, 8)...)},
	}
}

// headerOffsets are the offsets of the member headers of a plain ustar archive.
func headerOffsets(t *testing.T, tarBytes []byte) []int {
	var out []int
	for off := 0; off+corpus.Block <= len(tarBytes); {
		h := tarBytes[off : off+corpus.Block]
		if bytes.Count(h, []byte{0}) == corpus.Block {
			break
		}
		out = append(out, off)
		off += corpus.Block + int((numeric(h, corpus.FSize)+corpus.Block-1)/corpus.Block*corpus.Block)
	}
	if len(out) < 3 {
		t.Fatalf("the good bundle has %d headers", len(out))
	}
	return out
}

// numeric reads a canonical octal field.
func numeric(h []byte, f corpus.Field) int64 {
	v, _ := strconv.ParseInt(strings.Trim(string(h[f.Off:f.Off+f.Len]), " \x00"), 8, 64)
	return v
}

// fieldString is a string field up to its first NUL.
func fieldString(h []byte, f corpus.Field) string {
	b := h[f.Off : f.Off+f.Len]
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func appendAfterNUL(h []byte, f corpus.Field, s string) {
	n := len(fieldString(h, f))
	copy(h[f.Off+n+1:f.Off+f.Len], s)
}

func fillAfterNUL(h []byte, f corpus.Field, c byte) {
	for i := f.Off + len(fieldString(h, f)) + 1; i < f.Off+f.Len; i++ {
		h[i] = c
	}
}

// bumpLength changes a PAX record's stated length by d, leaving the record as it is.
func bumpLength(r string, d int) string {
	i := strings.IndexByte(r, ' ')
	n, _ := strconv.Atoi(r[:i])
	return strconv.Itoa(n+d) + r[i:]
}
