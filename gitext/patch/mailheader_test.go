package patch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// commitAs commits what is staged plus a one-line change with an exact message (no cleanup), author and author date.
func commitAs(t *testing.T, r *gittest.Repo, author, date, msg string) string {
	t.Helper()
	msgFile := filepath.Join(t.TempDir(), "msg")
	if err := os.WriteFile(msgFile, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("f.txt", msg+"\n")
	r.Git("add", "f.txt") // only f.txt: callers may have staged what `add -A` would drop, such as a gitlink
	args := []string{"commit", "-q", "--cleanup=verbatim", "-F", msgFile, "--author", author}
	if date != "" {
		args = append(args, "--date", date)
	}
	r.Git(args...)
	return r.Rev("HEAD")
}

// TestHeadersLikeGit holds From, Date, Subject, MIME headers and body against git format-patch for the
// encodings and foldings pretty.c applies.
func TestHeadersLikeGit(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	needGit(t)
	long := "Make the ticket bundle deterministic across machines and timezones so that signatures match"
	cases := []struct{ name, author, date, msg string }{
		{"plain", "Ada Author <ada@example.com>", "", "Add a file\n"},
		{"non-ASCII name and subject", "Zoë Ünïcode <zoe@example.com>", "", "Réparer l'été\n\nCorps du message.\n"},
		{"RFC 822 specials in name", `Doe, John (QA) "JJ" <jj@example.com>`, "", "Fix it\n"},
		{"long ASCII subject folds", "Ada Author <ada@example.com>", "", long + " and  double\tspaced words stay put\n"},
		{"long non-ASCII subject splits encoded words", "Ada <a@example.com>", "", strings.Repeat("Ünïcödé wörds ", 12) + "\n"},
		{"encoded-word lookalike", "Ada <a@example.com>", "", "Handle =?UTF-8?q?x?= in subjects_and = signs\n"},
		{"multi-line title and untidy body", "Ada <a@example.com>", "",
			"\n\nFirst line of title  \nsecond line of title\n\n\n\nBody with trailing blanks   \n\tindented\n\n\n"},
		{"subject only with trailing blank lines", "Ada <a@example.com>", "", "Subject only\n\n\n"},
		{"non-ASCII only in body", "Ada <a@example.com>", "", "ASCII subject\n\nnaïve body\n"},
		{"long ASCII name wraps", strings.Repeat("Longname ", 10) + "<l@example.com>", "", "Name\n"},
		{"long email goes to its own line", "Ada Author <" + strings.Repeat("x", 70) + "@example.com>", "", "Email\n"},
		{"positive offset", "Ada <a@example.com>", "2026-03-04T05:06:07+05:30", "East\n"},
		{"negative offset", "Ada <a@example.com>", "2026-11-30T23:59:59-08:00", "West\n"},
		{"no message body at all", "Ada <a@example.com>", "", "x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := gittest.New(t)
			r.Commit("base", map[string]string{"base": "b\n"})
			c := commitAs(t, r, tc.author, tc.date, tc.msg)
			assertLikeGit(t, r, c, series(t, r, c))
		})
	}
}
