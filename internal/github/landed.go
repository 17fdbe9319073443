package github

import (
	"encoding/json"
	"time"
)

// Landed picks the pull request that merged the work: the latest merged_at; when none is merged, the newest
// (latest created_at, then the highest number). nil when prs is empty.
func Landed(prs []PR) *int {
	type cand struct {
		number            int
		merged, createdAt time.Time
	}
	var best *cand
	better := func(a, b *cand) bool { // is a better than b
		if !a.merged.IsZero() || !b.merged.IsZero() {
			return a.merged.After(b.merged) || (a.merged.Equal(b.merged) && a.number > b.number)
		}
		if !a.createdAt.Equal(b.createdAt) {
			return a.createdAt.After(b.createdAt)
		}
		return a.number > b.number
	}
	for _, pr := range prs {
		var f struct {
			MergedAt  *string `json:"merged_at"`
			CreatedAt *string `json:"created_at"`
		}
		_ = json.Unmarshal(pr.Payload, &f) // payloads were checked to be objects; a bad time is just unknown
		c := &cand{number: pr.Number}
		if f.MergedAt != nil {
			c.merged, _ = time.Parse(time.RFC3339, *f.MergedAt)
		}
		if f.CreatedAt != nil {
			c.createdAt, _ = time.Parse(time.RFC3339, *f.CreatedAt)
		}
		if best == nil || better(c, best) {
			best = c
		}
	}
	if best == nil {
		return nil
	}
	n := best.number
	return &n
}
