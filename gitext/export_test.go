package gitext

import (
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// GraphOfNodes is a graph of nodes as they are (no index, ranks or generations): for tests that hand
// ReadWalkCommits a node the repository lacks.
func GraphOfNodes(nodes []Node) *Graph { return &Graph{nodes: nodes} }

// RefListing is a ref as listRefs (own, true) or go-git (own, false) lists it: "name id peeled" or "name -> symbolic".
func (r *Repo) RefListing(own bool) ([]string, bool, error) {
	refs, ok := r.listRefs()
	if !own {
		var err error
		refs, err = r.goGitRefs()
		if err != nil {
			return nil, false, err
		}
		ok = true
	}
	var out []string
	for _, l := range refs {
		switch {
		case l.symbolic:
			out = append(out, l.name.String()+" symbolic")
		case l.peeled.IsZero():
			out = append(out, l.name.String()+" "+l.id.String())
		default:
			out = append(out, l.name.String()+" "+l.id.String()+" ^"+l.peeled.String())
		}
	}
	return out, ok, nil
}

// SweepAloneFrom makes bulk walks sweep their list of commits marked before they arrived from n items on, so that
// a short history exercises the sweep.
func (r *Repo) SweepAloneFrom(n int) { r.aloneSweep = n }

// ResolveRange is revparse.ResolveRange for this package's own tests, which cannot import revparse (it imports
// gitext): revisions read by go-git's parser, as revparse reads them.
func (r *Repo) ResolveRange(spec string) (*Range, error) {
	return r.RangeOf(spec, func(rev string) (Hash, error) {
		wt := r.wt
		if wt == nil {
			wt = r.st.Filesystem()
		}
		g, err := git.Open(r.st, wt)
		if err != nil {
			return Hash{}, err
		}
		h, err := g.ResolveRevision(plumbing.Revision(rev))
		if err != nil {
			return Hash{}, err
		}
		return *h, nil
	})
}
