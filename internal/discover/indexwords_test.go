package discover

import (
	"reflect"
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
// (ticket.IsWordRune) that are digits only and at most maxIndexWord bytes long.
func indexWordsPlain(text string) []string {
	var out []string
	start, digits := -1, true
	for i := 0; i <= len(text); {
		r, size := rune(-1), 1
		if i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if r >= 0 && ticket.IsWordRune(r) {
			if start < 0 {
				start, digits = i, true
			}
			digits = digits && unicode.IsDigit(r)
		} else if start >= 0 {
			if digits && i-start <= maxIndexWord {
				out = append(out, text[start:i])
			}
			start = -1
		}
		i += size
	}
	return out
}

func TestIndexWordsAsStated(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"", "42", "a42", "42a", "_42", "42_", "4_2", "x 42 y", "ENG-42, #7; v1.19 (1.2.3)", "é42 42é ٤٢ x٤٢",
		"\xff42\xfe 4\x802", "42\u00a042", "123456789012345678901234567890123 12345678901234567890123456789012",
		"Fix ENG-42: see #123, ABC123 and ÉX9 in feature/eng-42-login",
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
	f.Fuzz(func(t *testing.T, text string) {
		var got []string
		IndexWords(text, func(w string) { got = append(got, w) })
		if want := indexWordsPlain(text); !reflect.DeepEqual(got, want) {
			t.Errorf("IndexWords(%q) = %q, want %q", text, got, want)
		}
	})
}
