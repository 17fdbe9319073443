package logv1

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// maxOperatorKey bounds the operator's HMAC secret file.
const maxOperatorKey = 64 << 10

// ReadOperatorKey reads the operator's HMAC secret (`lineage verify --operator-key-file`): the file's bytes less
// one trailing "\n" or "\r\n", not empty.
func ReadOperatorKey(path string) ([]byte, error) {
	b, err := regularfile.ReadFile(path, "operator key", maxOperatorKey)
	if err != nil {
		return nil, err
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	if len(b) == 0 {
		return nil, fmt.Errorf("operator key %s is empty", path)
	}
	return b, nil
}

// Agents counts the distinct agent ids of the log's entries.
func (l *Log) Agents() int {
	agents := map[string]bool{}
	for _, e := range l.Entries {
		agents[e.AgentID] = true
	}
	return len(agents)
}

// UnresolvedForks counts the forks no merge entry joins.
func (r *Result) UnresolvedForks() int {
	open := 0
	for _, f := range r.Forks {
		if !f.Resolved {
			open++
		}
	}
	return open
}

// History is what the log says of one artefact (its path as the log names it: artefact_path): its entries,
// oldest first (ts_ns; ties in the log's order), and the forks among them (Forks).
func History(l *Log, path string) ([]*Entry, []Fork) {
	var entries []*Entry
	for _, e := range l.Entries {
		if e.ArtefactPath == path {
			entries = append(entries, e)
		}
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].TsNs < entries[j].TsNs })
	var forks []Fork
	for _, f := range Forks(l) {
		if f.Artefact == path {
			forks = append(forks, f)
		}
	}
	return entries, forks
}
