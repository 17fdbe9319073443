package prcapture

import (
	"encoding/json"
	"fmt"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/github"
)

// maxCodeOwners is GitHub's own limit: a CODEOWNERS file over 3 MB is not read.
const maxCodeOwners = 3 << 20

// codeOwnersMembers reads, from git (never the API), the CODEOWNERS file at each pull request's base.sha, as
// git/codeowners/<sha>.json (controls.CodeOwnersDoc): the first of .github/, the root and docs/ that holds
// one, or none. A base commit this clone lacks is a warning, and require_codeowners then says unknown.
func codeOwnersMembers(repo *gitext.Repo, prs []github.PR) ([]bundle.PRMember, []string) {
	var out []bundle.PRMember
	var warnings []string
	seen := map[string]bool{}
	for _, pr := range prs {
		var p struct {
			Base struct {
				SHA string `json:"sha"`
			} `json:"base"`
		}
		if json.Unmarshal(pr.Payload, &p) != nil || len(p.Base.SHA) != 40 || seen[p.Base.SHA] {
			continue
		}
		seen[p.Base.SHA] = true
		doc, err := codeOwnersAt(repo, p.Base.SHA)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("CODEOWNERS at the base of pull request #%d (%s): %v; require_codeowners will say unknown", pr.Number, p.Base.SHA[:12], err))
			continue
		}
		data, _ := json.MarshalIndent(doc, "", "  ")
		out = append(out, bundle.PRMember{Name: controls.CodeOwnersName(p.Base.SHA), Data: append(data, '\n')})
	}
	return out, warnings
}

func codeOwnersAt(repo *gitext.Repo, sha string) (*controls.CodeOwnersDoc, error) {
	c, err := repo.Commit(gitext.NewHash(sha))
	if err != nil {
		return nil, fmt.Errorf("the commit is not in this clone (git fetch it): %v", err)
	}
	if _, err := objstore.Of(repo).TreeEntries(c.TreeHash); err != nil {
		return nil, err
	}
	doc := &controls.CodeOwnersDoc{V: 1, Commit: sha}
	for _, path := range controls.CodeOwnersPaths {
		blob, mode, ok, err := objstore.Of(repo).TreeEntryAt(c.TreeHash, path)
		if err != nil || !ok || mode != gitext.ModeRegular && mode != gitext.ModeExecutable {
			continue
		}
		size, err := objstore.Of(repo).BlobSize(blob)
		if err != nil {
			continue // as a path with no file: the blob is not in this clone
		}
		if size > maxCodeOwners {
			return nil, fmt.Errorf("%s is larger than GitHub reads (%d bytes)", path, size)
		}
		b, err := objstore.Of(repo).ReadBlobMax(blob, maxCodeOwners)
		if err != nil {
			return nil, err
		}
		p, text := path, string(b)
		doc.Path, doc.Content = &p, &text
		break
	}
	return doc, nil
}

// codeOwnersTeams lists the teams the captured CODEOWNERS files name, each once, for their members to be asked.
func codeOwnersTeams(ms []bundle.PRMember) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, m := range ms {
		var doc controls.CodeOwnersDoc
		if json.Unmarshal(m.Data, &doc) != nil || doc.Content == nil {
			continue
		}
		for _, t := range controls.CodeOwnersTeams(*doc.Content) {
			if key := controls.TeamName(t[0], t[1]); !seen[key] {
				seen[key] = true
				out = append(out, t)
			}
		}
	}
	return out
}
