package github

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// OfflineCopy is a pull request payload saved under .sdd/pr/ (upstream Bernstein's offline fallback), with its
// reviews when a <name>.reviews.json lies beside it.
type OfflineCopy struct {
	Number  int
	Path    string
	Payload []byte
	Reviews []byte
	// NamesTicket: its title or head branch names the ticket, so it belongs to the ticket by itself; other copies
	// are used only for numbers found elsewhere.
	NamesTicket bool
}

// ReadOffline reads dir/*.json (regular files only, no symlinks, one level) as pull request payloads. A missing
// dir is no copies. Files that are not a pull request object are skipped with a warning; of two copies of one
// number the first by name wins.
func ReadOffline(dir string, tk ticket.Ticket) (map[int]*OfflineCopy, []string) {
	out := map[int]*OfflineCopy{}
	if dir == "" {
		return out, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return out, nil
		}
		return out, []string{fmt.Sprintf("offline pull requests: %v", err)}
	}
	var warnings []string
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".reviews.json") || e.Type()&fs.ModeType != 0 {
			continue
		}
		path := filepath.Join(dir, name)
		data, err := readSmall(path)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("offline pull request %s skipped: %v", path, err))
			continue
		}
		var pr struct {
			Number int    `json:"number"`
			Title  string `json:"title"`
			Head   struct {
				Ref string `json:"ref"`
			} `json:"head"`
		}
		if err := json.Unmarshal(data, &pr); err != nil || pr.Number <= 0 {
			warnings = append(warnings, fmt.Sprintf("offline pull request %s skipped: not a pull request JSON object with a \"number\"", path))
			continue
		}
		if out[pr.Number] != nil {
			continue
		}
		cp := &OfflineCopy{Number: pr.Number, Path: path, Payload: data,
			NamesTicket: tk.NamedIn(pr.Title) || tk.NamedInRef(pr.Head.Ref)}
		if rv, err := readSmall(strings.TrimSuffix(path, ".json") + ".reviews.json"); err == nil && json.Valid(rv) {
			cp.Reviews = rv
		}
		out[pr.Number] = cp
	}
	return out, warnings
}

// readSmall reads a regular file (not through a symlink) of at most maxBody bytes.
func readSmall(path string) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if st.Size() > maxBody {
		return nil, fmt.Errorf("larger than %d MiB", maxBody>>20)
	}
	return os.ReadFile(path)
}
