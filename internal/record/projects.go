package record

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// projectKey is what a Jira or Linear project key looks like: a letter, then letters, digits or '_' (Jira's
// rule for keys, without its upper-case default, since keys are compared ignoring case).
var projectKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`) })

// ParseProjects reads git config bernstein.projects, every value of it (`git config --get-all`): each value is
// one or more keys separated by spaces or commas, so `git config bernstein.projects "KAFKA ENG"` and
// `git config --add bernstein.projects KAFKA` twice say the same. Keys are compared ignoring case; a key given
// twice counts once. None configured returns nil: every key counts.
func ParseProjects(values []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, v := range values {
		for _, k := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			if !projectKey().MatchString(k) {
				return nil, fmt.Errorf("bernstein.projects: %q is not a project key: give keys such as KAFKA or ENG, "+
					"separated by spaces (git config bernstein.projects \"KAFKA ENG\")", k)
			}
			if u := strings.ToUpper(k); !seen[u] {
				seen[u] = true
				out = append(out, k)
			}
		}
	}
	return out, nil
}

// InProjects says whether id (KEY-N) belongs to one of projects, comparing keys ignoring case. With no projects
// every id does. An id without a "-" has no project key and belongs to none.
func InProjects(id string, projects []string) bool {
	if len(projects) == 0 {
		return true
	}
	key, _, ok := strings.Cut(id, "-")
	if !ok {
		return false
	}
	for _, p := range projects {
		if strings.EqualFold(key, p) {
			return true
		}
	}
	return false
}

// KeyCount is a project key, how many of the tickets found have it, and in how many places (messages, trailers,
// branch names) they were found.
type KeyCount struct {
	Key     string
	Tickets int
	Places  int
}

// Keys counts the project keys (the part before the "-") of the tickets found in the shape of the default
// pattern (KAFKA-10199, KIP-848; not #123), the most often named first (places, then tickets, then by key): the
// team's own project is named in branch names and in every commit of its work, a proposal or a typo in passing.
// Several keys in one range often mean that some are no project at all (KIP-848 is a Kafka Improvement
// Proposal, KAKFA-17173 a typo).
func Keys(found []Found) []KeyCount {
	at := map[string]int{}
	var out []KeyCount
	for _, f := range found {
		id := strings.ToUpper(f.ID)
		if !ticket.LooksLikeKey(id) {
			continue
		}
		k, _, _ := strings.Cut(id, "-")
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, KeyCount{Key: k})
		}
		out[i].Tickets++
		out[i].Places += len(f.Where)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Places != out[b].Places {
			return out[a].Places > out[b].Places
		}
		if out[a].Tickets != out[b].Tickets {
			return out[a].Tickets > out[b].Tickets
		}
		return out[a].Key < out[b].Key
	})
	return out
}
