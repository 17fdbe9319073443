package gitext

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
