package report

import (
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// attributionRow is one line of the "Who wrote each file" table beside the commits.
type attributionRow struct {
	Commit, Path, Agent, Kid, ToolCall, Time, Signature, Class string
}

// attributionRows turns the verifier's attribution into rows: one per entry that wrote a file's exact content,
// or one saying no entry did.
func attributionRows(r *verify.Report) []attributionRow {
	var rows []attributionRow
	for _, a := range r.Attribution {
		if len(a.WrittenBy) == 0 {
			rows = append(rows, attributionRow{Commit: a.Commit, Path: a.Path, Agent: "no lineage entry matches this content (a person, or not recorded)", Class: "warn"})
			continue
		}
		for _, w := range a.WrittenBy {
			cls := "pass"
			switch w.Signature {
			case logv1.SigFailed:
				cls = "fail"
			case logv1.SigUnchecked:
				cls = "warn"
			}
			rows = append(rows, attributionRow{Commit: a.Commit, Path: a.Path, Agent: w.AgentID, Kid: w.Kid, ToolCall: w.ToolCallID,
				Time: w.Time, Signature: string(w.Signature), Class: cls})
		}
	}
	return rows
}
