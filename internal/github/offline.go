package github

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/nofollow"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// OfflineCopy is a pull request payload saved under .sdd/pr/ (upstream Bernstein's offline fallback), with its
// reviews when a <name>.reviews.json lies beside it.
type OfflineCopy struct {
	Number  int
	Path    string
	Name    string // Path's file name
	Payload []byte
	Reviews []byte
	// ReviewsName is the file name of the reviews beside it.
	ReviewsName string
	// NamesTicket: its title or head branch names the ticket, so it belongs to the ticket by itself; other copies
	// are used only for numbers found elsewhere.
	NamesTicket bool
}

// ReadOffline reads sdd/pr/*.json (regular files only, one level) as pull request payloads. The folder is read
// through nofollow: a symlink at .sdd, at pr or at a file is never followed (a symlinked folder is skipped with a
// warning), and each payload is read from the descriptor that was checked, so a swap cannot slip another file
// in. A missing folder is no copies. Files that are not a pull request object are skipped with a warning; of two
// copies of one number the first by name wins.
func ReadOffline(sdd string, tk ticket.Ticket) (map[int]*OfflineCopy, []string) {
	out := map[int]*OfflineCopy{}
	if sdd == "" {
		return out, nil
	}
	root, err := nofollow.OpenDir(sdd)
	if err == nil {
		defer root.Close()
		var dir *nofollow.Dir
		if dir, err = root.OpenDir("pr"); err == nil {
			defer dir.Close()
			return readOfflineDir(dir, tk, out)
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, nofollow.ErrNotDir):
		return out, nil
	case errors.Is(err, nofollow.ErrSymlink):
		return out, []string{fmt.Sprintf("offline pull requests not read: %v", err)}
	}
	return out, []string{fmt.Sprintf("offline pull requests: %v", err)}
}

func readOfflineDir(dir *nofollow.Dir, tk ticket.Ticket, out map[int]*OfflineCopy) (map[int]*OfflineCopy, []string) {
	ents, err := dir.ReadDir()
	if err != nil {
		return out, []string{fmt.Sprintf("offline pull requests: %v", err)}
	}
	var warnings []string
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".reviews.json") || e.Type()&fs.ModeType != 0 {
			continue
		}
		path := filepath.Join(dir.Path(), name)
		data, err := readSmall(dir, name)
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
		cp := &OfflineCopy{Number: pr.Number, Path: path, Name: name, Payload: data,
			NamesTicket: tk.NamedIn(pr.Title) || tk.NamedInRef(pr.Head.Ref)}
		rvName := strings.TrimSuffix(name, ".json") + ".reviews.json"
		if rv, err := readSmall(dir, rvName); err == nil && json.Valid(rv) {
			cp.Reviews, cp.ReviewsName = rv, rvName
		}
		out[pr.Number] = cp
	}
	return out, warnings
}

// readSmall reads the regular file name in dir, not through a symlink, of at most maxBody bytes, from the
// descriptor it checked (a stat of the path and a later open of it would let a swap in between).
func readSmall(dir *nofollow.Dir, name string) ([]byte, error) {
	f, st, err := dir.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > maxBody {
		return nil, fmt.Errorf("larger than %d MiB", maxBody>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxBody {
		return nil, fmt.Errorf("larger than %d MiB", maxBody>>20)
	}
	return data, nil
}
