package odb

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// CommitGraph reads git's commit-graph files (gitformat-commit-graph: a single file or a chain of layers) in
// place from mapped memory. Walks use it for parents and dates: commits it covers are never read, and graph
// positions index plain arrays instead of a hash map.
type CommitGraph struct {
	layers []cgLayer // base first; positions are global across the chain
	total  int
}

type cgLayer struct {
	data             []byte
	start, n         int
	oidf, oidl, cdat int
	edge             int // -1 when absent
}

const (
	cgNoParent   = 0x70000000
	cgEdgeFlag   = 0x80000000
	cgLastEdge   = 0x80000000
	cgDataSize   = 36
	cgHeaderSize = 8
)

// OpenCommitGraph opens the commit-graph of info (a repository's objects/info folder): the commit-graph file, else
// the layers commit-graphs/commit-graph-chain lists. It is nil when there is none or any layer does not check out
// (then walks read commit objects instead, which is always right). The layers stay mapped until Close.
func OpenCommitGraph(info string) *CommitGraph {
	var paths []string
	if _, err := os.Stat(filepath.Join(info, "commit-graph")); err == nil {
		paths = []string{filepath.Join(info, "commit-graph")}
	} else if f, err := os.Open(filepath.Join(info, "commit-graphs", "commit-graph-chain")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if h := strings.TrimSpace(sc.Text()); h != "" {
				paths = append(paths, filepath.Join(info, "commit-graphs", "graph-"+h+".graph"))
			}
		}
		f.Close()
	}
	if len(paths) == 0 {
		return nil
	}
	cg := &CommitGraph{}
	for _, p := range paths {
		data, err := mapFile(p)
		if err != nil {
			cg.Close()
			return nil
		}
		l, err := parseLayer(data, cg.total)
		if err != nil {
			unmapFile(data)
			cg.Close()
			return nil
		}
		cg.layers = append(cg.layers, l)
		cg.total += l.n
	}
	return cg
}

// Close unmaps the layers.
func (cg *CommitGraph) Close() {
	for _, l := range cg.layers {
		unmapFile(l.data)
	}
	cg.layers = nil
}

func parseLayer(data []byte, start int) (cgLayer, error) {
	bad := errors.New("commit-graph: malformed")
	if len(data) < cgHeaderSize || string(data[:4]) != "CGPH" || data[4] != 1 || data[5] != 1 {
		return cgLayer{}, bad
	}
	chunks := int(data[6])
	l := cgLayer{data: data, start: start, oidf: -1, oidl: -1, cdat: -1, edge: -1}
	table := cgHeaderSize
	if len(data) < table+(chunks+1)*12 {
		return cgLayer{}, bad
	}
	for c := 0; c < chunks; c++ {
		e := data[table+c*12:]
		off := binary.BigEndian.Uint64(e[4:12])
		if off > uint64(len(data)) {
			return cgLayer{}, bad
		}
		switch string(e[:4]) {
		case "OIDF":
			l.oidf = int(off)
		case "OIDL":
			l.oidl = int(off)
		case "CDAT":
			l.cdat = int(off)
		case "EDGE":
			l.edge = int(off)
		}
	}
	if l.oidf < 0 || l.oidl < 0 || l.cdat < 0 || l.oidf+256*4 > len(data) {
		return cgLayer{}, bad
	}
	l.n = int(binary.BigEndian.Uint32(data[l.oidf+255*4:]))
	if l.oidl+l.n*20 > len(data) || l.cdat+l.n*cgDataSize > len(data) {
		return cgLayer{}, bad
	}
	return l, nil
}

// Find returns the global position of h: positions number the commits of every layer, base first.
func (cg *CommitGraph) Find(h plumbing.Hash) (int, bool) {
	for k := len(cg.layers) - 1; k >= 0; k-- {
		l := &cg.layers[k]
		lo := 0
		if h[0] > 0 {
			lo = int(binary.BigEndian.Uint32(l.data[l.oidf+(int(h[0])-1)*4:]))
		}
		hi := int(binary.BigEndian.Uint32(l.data[l.oidf+int(h[0])*4:]))
		if hi > l.n {
			hi = l.n
		}
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			c := bytes.Compare(l.data[l.oidl+mid*20:l.oidl+mid*20+20], h[:])
			switch {
			case c == 0:
				return l.start + mid, true
			case c < 0:
				lo = mid + 1
			default:
				hi = mid
			}
		}
	}
	return 0, false
}

// Len is the number of commits the graph holds: positions run from 0 to Len()-1.
func (cg *CommitGraph) Len() int { return cg.total }

func (cg *CommitGraph) layer(pos int) (*cgLayer, int) {
	for k := len(cg.layers) - 1; k >= 0; k-- {
		if pos >= cg.layers[k].start {
			return &cg.layers[k], pos - cg.layers[k].start
		}
	}
	return &cg.layers[0], pos
}

// Hash is the id of the commit at pos.
func (cg *CommitGraph) Hash(pos int) plumbing.Hash {
	l, i := cg.layer(pos)
	var h plumbing.Hash
	copy(h[:], l.data[l.oidl+i*20:])
	return h
}

// Commit appends pos's parent positions to buf and returns them with the commit time; ok is false when the
// entry points outside the graph (a corrupt file).
func (cg *CommitGraph) Commit(pos int, buf []int) ([]int, int64, bool) {
	l, i := cg.layer(pos)
	d := l.data[l.cdat+i*cgDataSize:]
	p1 := binary.BigEndian.Uint32(d[20:])
	p2 := binary.BigEndian.Uint32(d[24:])
	when := int64(binary.BigEndian.Uint32(d[32:])) | int64(binary.BigEndian.Uint32(d[28:])&3)<<32
	if p1 != cgNoParent {
		if int(p1) >= cg.total {
			return nil, 0, false
		}
		buf = append(buf, int(p1))
	}
	switch {
	case p2 == cgNoParent:
	case p2&cgEdgeFlag == 0:
		if int(p2) >= cg.total {
			return nil, 0, false
		}
		buf = append(buf, int(p2))
	default:
		if l.edge < 0 {
			return nil, 0, false
		}
		for k := int(p2 &^ cgEdgeFlag); ; k++ {
			at := l.edge + k*4
			if at+4 > len(l.data) {
				return nil, 0, false
			}
			e := binary.BigEndian.Uint32(l.data[at:])
			if int(e&^cgLastEdge) >= cg.total {
				return nil, 0, false
			}
			buf = append(buf, int(e&^cgLastEdge))
			if e&cgLastEdge != 0 {
				break
			}
		}
	}
	return buf, when, true
}

// SortedIDs lists the ids of every commit the graph holds, sorted (each layer's list is sorted in the file; the
// layers of a split graph are merged by sorting).
func (cg *CommitGraph) SortedIDs() []plumbing.Hash {
	out := make([]plumbing.Hash, 0, cg.total)
	for k := range cg.layers {
		l := &cg.layers[k]
		for i := 0; i < l.n; i++ {
			var h plumbing.Hash
			copy(h[:], l.data[l.oidl+i*20:])
			out = append(out, h)
		}
	}
	byID := func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) }
	if !slices.IsSortedFunc(out, byID) { // several layers, or a file that is not what git writes
		slices.SortFunc(out, byID)
	}
	return out
}
