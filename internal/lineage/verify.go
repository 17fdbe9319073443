package lineage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Failure is one broken thing in a store. Message keeps upstream's wording (doc.go, "Verify") so reports from
// either implementation read the same; File and Repair say where to look and what to do.
type Failure struct {
	File    string // relative to the store root: "parent.jsonl", "children/<hex>.jsonl", or "" for the store
	Record  int    // index among the file's non-empty lines, -1 when the whole file is meant
	Message string
	Repair  string // empty when the only repair is restoring the file from a copy
}

// VerifyResult is the verdict on a store.
type VerifyResult struct {
	OK          bool
	Failures    []Failure
	ParentCount int
	ChildCount  int
	Key         KeyClass
}

// Messages is the failure list in upstream's form.
func (r VerifyResult) Messages() []string {
	out := make([]string, len(r.Failures))
	for i, f := range r.Failures {
		out[i] = f.Message
	}
	return out
}

// VerifyOptions tune the verdict.
type VerifyOptions struct {
	// Strict fails a store checked under the public default key: its HMACs prove nothing against forgery.
	Strict bool
}

const (
	repairOrphan = "a crash between the child write and the parent append leaves this: remove %s to clear, or replay the run"
	repairTorn   = "a write was cut short (crash during append): truncate %s to %d bytes to drop the partial line, then verify again"
	repairNL     = "the record is whole but lost its newline (crash during append): append one newline to %s, then verify again"
)

// Verify checks both HMAC chain layers, every line's bytes against its canonical form, each child's content
// address and orphan child files, in upstream's order and wording. It is total: any input gives a verdict.
func (s *Store) Verify(opts VerifyOptions) VerifyResult {
	v := verifier{s: s, children: map[string]childFile{}, referenced: map[string]bool{}}
	v.parents()
	v.orphans()
	if opts.Strict && s.Key.Class == KeyPublicDefault {
		v.fail("", -1, "store checked under the public default key "+DefaultKey+" (--strict): anyone can forge its HMACs",
			"give the writers' secret key with --key-file or $"+KeyFileEnv)
	}
	return VerifyResult{
		OK:          len(v.failures) == 0,
		Failures:    v.failures,
		ParentCount: v.parentCount,
		ChildCount:  v.childCount,
		Key:         s.Key.Class,
	}
}

type childFile struct {
	l   lines
	err error
}

type verifier struct {
	s                       *Store
	failures                []Failure
	parentCount, childCount int
	children                map[string]childFile
	referenced              map[string]bool
}

func (v *verifier) fail(file string, rec int, msg, repair string) {
	v.failures = append(v.failures, Failure{File: file, Record: rec, Message: msg, Repair: repair})
}

func undecodable(err error) string {
	var de *decodeError
	if errors.As(err, &de) {
		return "undecodable record (" + de.pyName + ")"
	}
	return "undecodable record (" + err.Error() + ")"
}

// tornRepair is the repair for a failure on the last line of a file that does not end in a newline.
func tornRepair(l lines, idx int, rel string, decoded bool) string {
	if !l.torn || idx != len(l.recs)-1 {
		return ""
	}
	if decoded {
		return fmt.Sprintf(repairNL, rel)
	}
	return fmt.Sprintf(repairTorn, rel, l.keep)
}

func (v *verifier) parents() {
	l, err := readLines(v.s.ParentPath())
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		v.fail(parentFile, -1, fmt.Sprintf("parent log unreadable: %v", err), "")
		return
	}
	prev := ""
	for idx, raw := range l.recs {
		v.parentCount++
		ref, err := DecodeParentRef(raw)
		if err != nil {
			repair := tornRepair(l, idx, parentFile, false)
			if repair != "" {
				repair += "; the child it named then shows as an orphan: remove that child file, or replay the run"
			}
			v.fail(parentFile, idx, fmt.Sprintf("parent[%d] %s", idx, undecodable(err)), repair)
			continue
		}
		if c, err := ref.Canonical(); err != nil || string(c) != string(raw) {
			v.fail(parentFile, idx, fmt.Sprintf("parent[%d] non-canonical bytes (task=%s)", idx, ref.TaskID), tornRepair(l, idx, parentFile, true))
		} else if l.torn && idx == len(l.recs)-1 {
			v.fail(parentFile, idx, fmt.Sprintf("parent[%d] torn last line (no trailing newline) (task=%s)", idx, ref.TaskID), tornRepair(l, idx, parentFile, true))
		}
		if want, err := ref.ComputeHMAC(v.s.Key.Bytes); err != nil || !macEqual(ref.HMAC, want) {
			v.fail(parentFile, idx, fmt.Sprintf("parent[%d] hmac mismatch (task=%s)", idx, ref.TaskID), "")
		}
		if ref.PrevHMAC != prev {
			v.fail(parentFile, idx, fmt.Sprintf("parent[%d] prev_hmac break (task=%s)", idx, ref.TaskID), "")
		}
		prev = ref.HMAC
		v.referenced[ref.ChildSHA] = true
		v.child(idx, ref)
	}
}

func (v *verifier) child(idx int, ref ParentRef) {
	hexPart, err := childHex(ref.ChildSHA)
	if err != nil {
		v.fail(parentFile, idx, fmt.Sprintf("parent[%d] missing child file %s", idx, ref.ChildSHA), "")
		return
	}
	rel := childrenDir + "/" + hexPart + ".jsonl"
	cf, ok := v.children[hexPart]
	if !ok {
		cf.l, cf.err = readLines(filepath.Join(v.s.Root, childrenDir, hexPart+".jsonl"))
		v.children[hexPart] = cf
	}
	if errors.Is(cf.err, fs.ErrNotExist) {
		v.fail(rel, -1, fmt.Sprintf("parent[%d] missing child file %s", idx, ref.ChildSHA),
			"restore "+rel+" from a copy (a bundle or backup); the parent ref cannot be checked without it")
		return
	}
	if cf.err != nil {
		v.fail(rel, -1, fmt.Sprintf("parent[%d] child file %s unreadable: %v", idx, ref.ChildSHA, cf.err), "")
		return
	}
	if len(cf.l.recs) == 0 {
		// Upstream passes an empty child file; nothing then backs the parent's content address.
		v.fail(rel, -1, fmt.Sprintf("parent[%d] child_sha mismatch (expected %s got an empty file)", idx, ref.ChildSHA),
			"restore "+rel+" from a copy, or replay the run")
		return
	}
	label := fmt.Sprintf("child[%s..]", ref.ChildSHA[:16])
	childPrev := ""
	for bidx, raw := range cf.l.recs {
		v.childCount++
		body, err := DecodeChildBody(raw)
		if err != nil {
			v.fail(rel, bidx, fmt.Sprintf("%s[%d] %s", label, bidx, undecodable(err)), tornRepair(cf.l, bidx, rel, false))
			continue
		}
		if c, err := body.Canonical(); err != nil || string(c) != string(raw) {
			v.fail(rel, bidx, fmt.Sprintf("%s[%d] non-canonical bytes", label, bidx), tornRepair(cf.l, bidx, rel, true))
		} else if cf.l.torn && bidx == len(cf.l.recs)-1 {
			v.fail(rel, bidx, fmt.Sprintf("%s[%d] torn last line (no trailing newline)", label, bidx), tornRepair(cf.l, bidx, rel, true))
		}
		if bidx == 0 {
			got, err := body.ChildSHA()
			if err != nil {
				got = "(not encodable)"
			}
			if got != ref.ChildSHA {
				v.fail(rel, bidx, fmt.Sprintf("parent[%d] child_sha mismatch (expected %s got %s)", idx, ref.ChildSHA, got), "")
			}
		}
		if want, err := body.ComputeHMAC(v.s.Key.Bytes); err != nil || !macEqual(body.HMAC, want) {
			v.fail(rel, bidx, fmt.Sprintf("%s[%d] hmac mismatch", label, bidx), "")
		}
		if body.PrevHMAC != childPrev {
			v.fail(rel, bidx, fmt.Sprintf("%s[%d] prev_hmac break", label, bidx), "")
		}
		childPrev = body.HMAC
	}
}

func (v *verifier) orphans() {
	dir := filepath.Join(v.s.Root, childrenDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		v.fail(childrenDir, -1, fmt.Sprintf("children folder unreadable: %v", err), "")
		return
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, name := range names {
		stem, ok := strings.CutSuffix(name, ".jsonl")
		if !ok || stem == "" {
			continue
		}
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		sha := "sha256:" + stem
		if !v.referenced[sha] {
			rel := childrenDir + "/" + name
			v.fail(rel, -1, "orphan child file "+sha, fmt.Sprintf(repairOrphan, rel))
		}
	}
}
