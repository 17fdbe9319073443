package gitext

// GraphOfNodes is a graph of nodes as they are (no index, ranks or generations): for tests that hand
// ReadWalkCommits a node the repository lacks.
func GraphOfNodes(nodes []Node) *Graph { return &Graph{nodes: nodes} }
