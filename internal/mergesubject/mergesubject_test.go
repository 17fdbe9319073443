package mergesubject

import (
	"reflect"
	"testing"
)

func TestBranches(t *testing.T) {
	t.Parallel()
	for subject, want := range map[string][]string{
		"Merge branch 'feature/ENG-42-x'":                       {"feature/ENG-42-x"},
		"Merge branch 'feature/ENG-42-x' into main":             {"feature/ENG-42-x"},
		"Merge branch 'ENG-42' of github.com:acme/app into dev": {"ENG-42"},
		"Merge branches 'a' and 'ENG-42-b'":                     {"a", "ENG-42-b"},
		"Merge remote-tracking branch 'origin/ENG-42'":          {"origin/ENG-42"},
		"Merge pull request #17 from acme/ENG-42-x":             {"acme/ENG-42-x"},
		"Merge branch 'main' into 'ENG-42'":                     {"main"},
		"Merged in feature/ENG-42 (pull request #5)":            {"feature/ENG-42"},
		"Add ENG-42": nil,
	} {
		if got := Branches(subject); !reflect.DeepEqual(got, want) {
			t.Errorf("Branches(%q) = %v, want %v", subject, got, want)
		}
	}
}

func TestPullRequestNumber(t *testing.T) {
	t.Parallel()
	for subject, want := range map[string]string{
		"Merge pull request #17 from acme/ENG-42-x":  "17",
		"  Merge pull request #5 from a/b  ":         "5",
		"Merge pull request from acme/x":             "",
		"Merged in feature/ENG-42 (pull request #5)": "",
		"Merge branch 'pull-request-3'":              "",
	} {
		if got := PullRequestNumber(subject); got != want {
			t.Errorf("PullRequestNumber(%q) = %q, want %q", subject, got, want)
		}
	}
}
