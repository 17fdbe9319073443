package discover

import (
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

func TestIndexedWords(t *testing.T) {
	r := gittest.New(t)
	r.Commit("Add login\n\nRefs: ENG-42", nil)
	r.Commit("Fix ENG-420 and ENG-7", nil)
	r.Commit("Bump go-1.19", nil)
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got := IndexedWords(repo, "4", 10); got != nil {
		t.Fatalf("before any index: %q", got)
	}
	tk, _ := ticket.Parse("jira", "ENG-42")
	if _, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys, UseIndex: true}); err != nil {
		t.Fatal(err)
	}
	if got, want := IndexedWords(repo, "4", 10), []string{"42", "420"}; !reflect.DeepEqual(got, want) {
		t.Errorf("IndexedWords(4) = %q, want %q", got, want)
	}
	if got, want := IndexedWords(repo, "", 2), []string{"1", "19"}; !reflect.DeepEqual(got, want) {
		t.Errorf("IndexedWords('', 2) = %q, want %q", got, want)
	}
}

// indexWordsPlain is IndexWords as its doc comment states it, rune by rune: the maximal runs of word runes
// (ticket.IsWordRune) that are digits only and at most maxIndexWord bytes long, each followed by its pair word
// when the run before it ends one '-' before it and has no digit (folded; at most maxIndexWord bytes folded).
func indexWordsPlain(text string) []string {
	var out []string
	start, digits, hasDigit := -1, true, false
	prevStart, prevEnd, prevHasDigit := -1, -1, false
	for i := 0; i <= len(text); {
		r, size := rune(-1), 1
		if i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if r >= 0 && ticket.IsWordRune(r) {
			if start < 0 {
				start, digits, hasDigit = i, true, false
			}
			digits = digits && unicode.IsDigit(r)
			hasDigit = hasDigit || unicode.IsDigit(r)
		} else if start >= 0 {
			if digits && i-start <= maxIndexWord {
				out = append(out, text[start:i])
				if prevStart >= 0 && prevEnd == start-1 && text[prevEnd] == '-' && !prevHasDigit {
					if p := foldPairPlain(text[prevStart:i]); len(p) <= maxIndexWord {
						out = append(out, p)
					}
				}
			}
			prevStart, prevEnd, prevHasDigit = start, i, hasDigit
			start = -1
		}
		i += size
	}
	return out
}

// foldPairPlain maps every rune to the lower case of the smallest rune strings.EqualFold equates with it.
func foldPairPlain(p string) string {
	var b strings.Builder
	for _, r := range p {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(unicode.ToLower(least))
	}
	return b.String()
}

func TestIndexWordsAsStated(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"", "42", "a42", "42a", "_42", "42_", "4_2", "x 42 y", "ENG-42, #7; v1.19 (1.2.3)", "é42 42é ٤٢ x٤٢",
		"\xff42\xfe 4\x802", "42\u00a042", "123456789012345678901234567890123 12345678901234567890123456789012",
		"Fix ENG-42: see #123, ABC123 and ÉX9 in feature/eng-42-login",
		"LAND-7 x-LAND-7 a1-7 -7 --7 ab--7 é-7 \u212a-7 ſ-7 É-٤٢ \xff-7 a\xff-7 _-7 x_-7 a-7a b-7_",
		strings.Repeat("a", 30) + "-1 " + strings.Repeat("b", 31) + "-1 " + strings.Repeat("\u212a", 31) + "-1 " + strings.Repeat("c", 200) + "-1",
	} {
		var got []string
		IndexWords(text, func(w string) { got = append(got, w) })
		if want := indexWordsPlain(text); !reflect.DeepEqual(got, want) {
			t.Errorf("IndexWords(%q) = %q, want %q", text, got, want)
		}
	}
}

func FuzzIndexWords(f *testing.F) {
	f.Add("Fix ENG-42: see #123, ABC123 and ÉX9 ٤٢ \xff42")
	f.Add("FOO-LAND-7 \u212aNG-42 é-9 a1-7")
	f.Fuzz(func(t *testing.T, text string) {
		var got []string
		IndexWords(text, func(w string) { got = append(got, w) })
		if want := indexWordsPlain(text); !reflect.DeepEqual(got, want) {
			t.Errorf("IndexWords(%q) = %q, want %q", text, got, want)
		}
	})
}
