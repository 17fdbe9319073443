package termtext

import "testing"

func TestClean(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain":                     "plain",
		" ~printable ASCII!":        " ~printable ASCII!",
		"del\x7f":                   "del",
		"a\x1b[2Jb":                 "a[2Jb",
		"tab\there":                 "tab here",
		"new\nline\r":               "newline",
		"bidi\u202Eevil\u2066x":     "bidievilx",
		"c1\u009bz":                 "c1z",
		"bad\xffutf8":               "bad\uFFFDutf8",
		"ünïcödé stays":             "ünïcödé stays",
		"VERIFIED\x1b[1A\x1b[2K ok": "VERIFIED[1A[2K ok",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanTextKeepsLines(t *testing.T) {
	t.Parallel()
	if got := CleanText("a\tb\nc\x1b[2J\u202Ed\r"); got != "a\tb\nc[2Jd" {
		t.Errorf("%q", got)
	}
}
