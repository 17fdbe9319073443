package discover

import (
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// IndexedWords returns, sorted, the words of the ticket index (IndexWords: digits only; not its pair words, which
// hold a '-' and so never follow what completion splits off) that start with prefix, ignoring case, at most max
// of them; nil when there is no usable index. Shell completion uses it to
// offer the ticket ids history names without walking it: it reads the index file and the few commits added since
// it was written (which runs leave to be read until there are enough of them, rewriteDue), never writes or
// rebuilds it.
func IndexedWords(r *gitext.Repo, prefix string, max int) []string {
	ix, err := loadIndex(r)
	if err != nil || ix == nil {
		return nil
	}
	prefix = strings.ToLower(prefix)
	var out []string
	seen := map[string]bool{}
	if tips, err := r.HistoryTips(); err == nil {
		var fresh []gitext.Tip
		for _, t := range tips {
			if _, ok := ix.g.Index(t.Commit); !ok {
				fresh = append(fresh, t)
			}
		}
		if len(fresh) > 0 {
			// Completion offers what it can: a walk that fails leaves the indexed words.
			_, _ = r.WalkFrom(ix.g, fresh, func(c *gitext.WalkCommit) error {
				IndexWords(c.Message, func(w string) {
					if strings.HasPrefix(w, prefix) && !strings.Contains(w, "-") && !seen[w] {
						seen[w] = true
						out = append(out, w)
					}
				})
				return nil
			})
		}
	}
	d := &decoder{b: ix.words}
	nw := d.uv()
	for k := uint64(0); k < nw && d.err == nil; k++ {
		w := string(d.take(int(d.uv())))
		d.uv()              // posting count
		d.take(int(d.uv())) // postings
		if d.err != nil {
			return nil
		}
		if strings.HasPrefix(w, prefix) && !strings.Contains(w, "-") && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	if len(out) > max {
		out = out[:max]
	}
	return out
}
