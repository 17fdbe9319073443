package report

import (
	"regexp"
	"strings"
	"sync"
)

// patchView is one commit's patch out of git/diff.patch (a `git format-patch` series, one mail per commit).
type patchView struct {
	SHA     string
	Subject string
	Files   []string
	Lines   []line // Class: add, del, hunk, file, meta or ""
	Note    string // the patch is cut short
}

// mailStart is the first line of each patch mail, as git format-patch writes it.
// mailStart is compiled when first used, not at every command's start-up.
var mailStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^From ([0-9a-f]{40}|[0-9a-f]{64}) Mon Sep 17 00:00:00 2001$`)
})

// patches splits the series at each mail's first line and marks each line for colour.
func patches(mb *Member) []patchView {
	var out []patchView
	var cur *patchView
	inDiff := false
	for _, l := range strings.Split(strings.TrimSuffix(mb.Text(), "\n"), "\n") {
		if m := mailStart().FindStringSubmatch(l); m != nil {
			out = append(out, patchView{SHA: m[1]})
			cur, inDiff = &out[len(out)-1], false
		}
		if cur == nil { // text before the first mail: keep it, in a patch of its own
			out = append(out, patchView{})
			cur = &out[0]
		}
		cls := ""
		switch {
		case l == "-- ":
			// format-patch's signature separator: the mail's diff is over.
			cls, inDiff = "meta", false
		case strings.HasPrefix(l, "diff --git "):
			cls, inDiff = "file", true
			cur.Files = append(cur.Files, diffName(l))
		case !inDiff:
			cls = "meta"
			if s, ok := strings.CutPrefix(l, "Subject: "); ok && cur.Subject == "" {
				cur.Subject = s
			}
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- "):
			cls = "file"
		case strings.HasPrefix(l, "@@"):
			cls = "hunk"
		case strings.HasPrefix(l, "+"):
			cls = "add"
		case strings.HasPrefix(l, "-"):
			cls = "del"
		}
		cur.Lines = append(cur.Lines, line{cls, l})
	}
	if mb.Truncated && cur != nil {
		cur.Note = "git/diff.patch is " + sizeText(mb.Size) + ": only its first " + sizeText(int64(len(mb.Head))) + " are shown"
	}
	return out
}

// diffName is the file a `diff --git a/X b/Y` line is about (Y; X when Y cannot be told apart).
func diffName(l string) string {
	rest := strings.TrimPrefix(l, "diff --git ")
	if i := strings.LastIndex(rest, " b/"); i >= 0 {
		return rest[i+3:]
	}
	return rest
}
