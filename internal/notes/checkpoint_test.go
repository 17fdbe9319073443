package notes

import (
	"strings"
	"testing"
)

// The optional lineage_v2_checkpoint_sha256: a line without it is exactly what earlier versions wrote (the
// golden line of TestEntryLine), a line with it has it in its sorted place, and a reader that knows nothing of
// it (a struct without the field, as earlier versions have) reads the line as the same bundle.
func TestEntryCheckpointField(t *testing.T) {
	t.Parallel()
	e := entry("ENG-42", "abc1234.tar.gz")
	old, _ := e.Line()
	if strings.Contains(old, "lineage") {
		t.Fatalf("line without a checkpoint names one: %s", old)
	}
	e.LineageV2Checkpoint = strings.Repeat("c", 64)
	line, err := e.Line()
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(old, `"kid":"",`, `"kid":"","lineage_v2_checkpoint_sha256":"`+strings.Repeat("c", 64)+`",`, 1); line != want {
		t.Fatalf("line\n got %s\nwant %s", line, want)
	}
	back, other := Parse([]byte(line + "\n" + old + "\n"))
	if len(back) != 2 || len(other) != 0 || back[0] != e || back[1].LineageV2Checkpoint != "" {
		t.Fatalf("Parse: %+v %q", back, other)
	}
}

// cat_sort_uniq still merges notes whose lines carry the new key, and ones that do not, to what MergeLines
// writes: two clones, one noting with checkpoints and one without.
func TestNotesMergeWithCheckpoints(t *testing.T) {
	t.Parallel()
	withCP := entry("ENG-1", "s.tar.gz")
	withCP.LineageV2Checkpoint = strings.Repeat("d", 64)
	plain, other := entry("ENG-2", "p.tar.gz"), entry("ENG-3", "o.tar.gz")
	other.LineageV2Checkpoint = strings.Repeat("e", 64)
	_, _, want := mergeByGit(t, []Entry{withCP, plain}, []Entry{other, withCP})
	if got := string(MergeLines([]byte(strings.Join(want[:2], "\n")+"\n"), want[1:], nil)); got != strings.Join(want, "\n")+"\n" {
		t.Fatalf("MergeLines:\n%s", got)
	}
}
