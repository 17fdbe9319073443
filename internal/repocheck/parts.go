package repocheck

import (
	"bytes"
	"fmt"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/gitext/patch/apply"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// checkParts holds each part of git/diff.patch to its commit and returns the commits that have a part.
//
// A part must be what format-patch writes for its commit as part i of the series' n (package patch writes it
// here, from the repository): the mbox From line, From:, Date:, Subject: (RFC 2047 encoding and folding
// included), the MIME lines and the message, up to the "---" line, byte for byte, since `git am` records
// them as the new commit's author, date and message. What follows is compared byte for byte too, but for the
// signature line and binary hunks, whose inflated data is compared (the deflated bytes depend on the zlib).
// The diff part depends on the settings of the repository the part was made in, so it is also compared with
// what format-patch writes under each diff.renames (true, false, copies); when it differs still (other diff
// drivers in .gitattributes, another diff.renameLimit), the part is not failed for that alone: it is held to
// the shape format-patch writes (diffstat lines, then "diff --git" sections back to back, then the signature; package
// apply reads it as git am does and fails anything else) and applied in memory, and the check says so
// (RepoResult.Inexact). Every part, exact or not, is also applied: it must turn the parent's tree into
// exactly the commit's tree.
func checkParts(r *gitext.Repo, diffPatch []byte, listed map[string]bool, found map[string]*gitext.Commit, res *verify.RepoResult, mismatch func(string, ...any)) (map[string]bool, error) {
	parted := map[string]bool{}
	parts, err := apply.ParseSeries(diffPatch)
	if err != nil {
		mismatch("git/diff.patch: %v", err)
		return parted, nil
	}
	differ := patch.NewDiffer(r)
	others := make([]*patch.Differ, len(renameSettings)) // made when a part needs them
	for i, p := range parts {
		name := fmt.Sprintf("git/diff.patch, part %d (line %d, for %s)", i+1, p.Line, short(p.Commit))
		switch {
		case parted[p.Commit]:
			mismatch("%s: a second part for the same commit", name)
			continue
		case !listed[p.Commit]:
			mismatch("%s: git/commits.json does not list that commit", name)
			continue
		}
		parted[p.Commit] = true
		c := found[p.Commit]
		if c == nil {
			continue // missing, or not a commit: said above
		}
		if len(c.ParentHashes) > 1 {
			mismatch("%s: it is a merge, which a format-patch series has no part for", name)
			continue
		}
		from, ok, err := parentTree(r, c)
		if err != nil {
			return nil, err
		}
		if !ok {
			res.Missing = append(res.Missing, fmt.Sprintf("%s: its parent %s is not in the repository (a shallow clone?), so its part cannot be checked", c.Hash, c.ParentHashes[0]))
			continue
		}
		header, diff, changes, err := differ.Part(c.Hash, i+1, len(parts))
		if err != nil {
			return nil, fmt.Errorf("write the part for %s: %w", short(p.Commit), err)
		}
		if !changes {
			mismatch("%s: the commit changes no file, and format-patch writes no part for it", name)
			continue
		}
		if !bytes.HasPrefix(p.Raw, header) {
			at, got, want := firstDifference(p.Raw, header)
			mismatch("%s: line %d: the part has %q where format-patch writes %q: the mail header and message (From:, Date:, Subject:, body) are not the commit's, and git am would record them",
				name, p.Line+at, got, want)
			continue
		}
		if p.Err != nil {
			mismatch("%s: %v", name, p.Err)
			continue
		}
		rest := p.Raw[len(header):]
		restLine := p.Line + bytes.Count(header, []byte("\n"))
		exact, unjudged, err := sameDiff(rest, diff, p, header)
		// The bundle may have been made under another diff.renames than this repository has: its diff is then
		// exactly what format-patch writes under that one.
		for k := 0; k < len(renameSettings) && err == nil && !exact && unjudged == ""; k++ {
			if others[k] == nil {
				others[k] = patch.NewDiffer(r, patch.WithRenames(renameSettings[k]))
			}
			_, alt, _, werr := others[k].Part(c.Hash, i+1, len(parts))
			if werr != nil {
				return nil, fmt.Errorf("write the part for %s: %w", short(p.Commit), werr)
			}
			if !bytes.Equal(alt, diff) {
				exact, unjudged, err = sameDiff(rest, alt, p, header)
			}
		}
		if err != nil {
			mismatch("%s: %v", name, err)
			continue
		}
		if unjudged != "" {
			res.Unverifiable = append(res.Unverifiable, name+": "+unjudged)
			continue
		}
		if !exact {
			// Before the first section, format-patch writes the diffstat and summary (lines starting with a
			// space) and one empty line: nothing else, there, is ours.
			k, b := restLine, rest
			for ; len(b) > 0 && b[0] == ' '; k++ {
				b = b[len(line(b)):]
			}
			if !bytes.HasPrefix(b, []byte("\ndiff --git ")) {
				if string(line(b)) == "\n" {
					k, b = k+1, b[1:]
				}
				mismatch("%s: line %d: %q where format-patch ends its diffstat with one empty line and the first \"diff --git\" section", name, k, clip(line(b)))
				continue
			}
			res.Inexact = append(res.Inexact, name)
		}
		problems, over, err := apply.CheckTrees(r.ReadObject, from, c.TreeHash, p.Files)
		if err != nil {
			return nil, fmt.Errorf("apply the part for %s: %w", short(p.Commit), err)
		}
		for _, pr := range problems {
			mismatch("%s: %s", name, pr)
		}
		for _, u := range over {
			res.Unverifiable = append(res.Unverifiable, name+": "+u)
		}
		res.Parts++
	}
	return parted, nil
}

// renameSettings are the values of diff.renames a part's diff is also compared under when it is not what this
// repository's settings write.
var renameSettings = []string{"true", "false", "copies"}

// sameDiff says whether rest (a part after its "---" line) is diff, what format-patch writes there, then the
// signature (whose shape package apply has checked): byte for byte but for binary hunks' base85 lines, whose
// inflated data is compared instead, each bounded by the size format-patch states, which is the commit's.
// unjudged is set when that size is over the budget (apply.MaxFileSize): the part is then not judged.
func sameDiff(rest, diff []byte, got apply.Part, header []byte) (exact bool, unjudged string, err error) {
	g, w := rest, diff
	for len(w) > 0 {
		gl, wl := line(g), line(w)
		if !bytes.Equal(gl, wl) {
			return false, "", nil
		}
		g, w = g[len(gl):], w[len(wl):]
		// Only a binary patch starts a line of the diff with "literal " or "delta " (hunk lines start with ' ',
		// '+' or '-', diffstat lines with ' '): its data lines, up to the empty line, are compared inflated.
		if bytes.HasPrefix(wl, []byte("literal ")) || bytes.HasPrefix(wl, []byte("delta ")) {
			g, w = skipData(g), skipData(w)
		}
	}
	if !bytes.HasPrefix(g, []byte("-- \n")) {
		return false, "", nil
	}
	// The binary hunks, by their data.
	wantParts, err := apply.ParseSeries(append(append(append([]byte{}, header...), diff...), "-- \nformat-patch\n"...))
	if err == nil && len(wantParts) != 1 {
		err = fmt.Errorf("%d parts", len(wantParts))
	} else if err == nil {
		err = wantParts[0].Err
	}
	if err != nil {
		return false, "", fmt.Errorf("the part format-patch writes for the commit does not read back (%v): please report this", err)
	}
	want := wantParts[0].Files
	if len(want) != len(got.Files) {
		return false, "", nil
	}
	for k, wf := range want {
		gf := got.Files[k]
		for _, h := range [][2]*apply.BinaryHunk{{gf.Binary, wf.Binary}, {gf.Reverse, wf.Reverse}} {
			gh, wh := h[0], h[1]
			if (gh == nil) != (wh == nil) {
				return false, "", nil
			}
			if wh == nil {
				continue
			}
			if wh.Size > apply.MaxFileSize {
				return false, fmt.Sprintf("line %d: a binary hunk of %d bytes, more than the %d the check inflates (over the check's budget)", gh.Line, wh.Size, apply.MaxFileSize), nil
			}
			wd, err := wh.Data(wh.Size)
			if err != nil {
				return false, "", fmt.Errorf("the part format-patch writes for the commit: %v: please report this", err)
			}
			gd, err := gh.Data(wh.Size)
			if err != nil {
				return false, "", fmt.Errorf("the binary hunk format-patch writes with %d bytes: %v", wh.Size, err)
			}
			if !bytes.Equal(gd, wd) {
				return false, "", fmt.Errorf("line %d: the binary hunk's data is not the commit's", gh.Line)
			}
		}
	}
	return true, "", nil
}

// skipData skips a binary hunk's base85 lines, up to the empty line that ends them.
func skipData(b []byte) []byte {
	for len(b) > 0 && string(line(b)) != "\n" {
		b = b[len(line(b)):]
	}
	return b
}

// firstDifference finds the first line where got differs from want: its 0-based number and both lines.
func firstDifference(got, want []byte) (int, string, string) {
	for n := 0; ; n++ {
		gl, wl := line(got), line(want)
		if !bytes.Equal(gl, wl) || len(wl) == 0 {
			return n, clip(gl), clip(wl)
		}
		got, want = got[len(gl):], want[len(wl):]
	}
}

// line is b's first line with its "\n".
func line(b []byte) []byte {
	if k := bytes.IndexByte(b, '\n'); k >= 0 {
		return b[:k+1]
	}
	return b
}

func clip(l []byte) string {
	l = bytes.TrimSuffix(l, []byte("\n"))
	if len(l) > 80 {
		return string(l[:80]) + "…"
	}
	return string(l)
}
