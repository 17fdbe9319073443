package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// LineageV2Enabled says whether the project writes lineage v2, as the Bernstein docs enable it:
// BERNSTEIN_LINEAGE_V2=1, or `lineage: {version: 2}` in <project root>/bernstein.yaml.
func LineageV2Enabled(projectRoot string, getenv func(string) string) (bool, error) {
	if v := getenv("BERNSTEIN_LINEAGE_V2"); v != "" {
		return v == "1" || strings.EqualFold(v, "true"), nil
	}
	path := filepath.Join(projectRoot, "bernstein.yaml")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	var cfg struct {
		Lineage struct {
			Version any `yaml:"version"`
		} `yaml:"lineage"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return false, fmt.Errorf("parse %s: %w (fix the YAML, or set BERNSTEIN_LINEAGE_V2=0 to ignore it)", path, err)
	}
	return fmt.Sprint(cfg.Lineage.Version) == "2", nil
}

// selectLineageV2 packs the v2 store's records of tasks tied to the ticket: the parent refs of those tasks as a
// slice of parent.jsonl (byte-identical lines) and their child files whole, so each child's chain stays
// checkable. A task is tied when its task id names the ticket, or when one of its parent refs or child bodies
// carries string values equal to the tracker and the ticket (the rule .sdd files are chosen by).
func selectLineageV2(root string, sel Selector, work string) ([]member, []string, error) {
	store := lineage.Open(root, lineage.PublicKey())
	parentPath := store.ParentPath()
	f, _, err := openRegular(parentPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	defer f.Close()

	tied := map[string]bool{}
	checked := map[string]bool{} // child files already probed
	var warnings []string
	err = eachLine(f, func(line []byte) error {
		var ref struct {
			TaskID   string `json:"task_id"`
			ChildSHA string `json:"child_sha"`
		}
		if json.Unmarshal(line, &ref) != nil || ref.TaskID == "" {
			return nil
		}
		if tied[ref.TaskID] {
			return nil
		}
		if sel.Ticket.NamedIn(ref.TaskID) || recordNames(line, sel.Ticket) {
			tied[ref.TaskID] = true
			return nil
		}
		child, err := store.ChildPath(ref.ChildSHA)
		if err != nil || checked[child] {
			return nil
		}
		checked[child] = true
		names, err := fileNamesTicket(child, sel)
		if err != nil {
			return err
		}
		tied[ref.TaskID] = names
		return nil
	})
	if err != nil || len(tied) == 0 {
		return nil, nil, err
	}

	// Second pass: the slice of parent refs and the child files they point at.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", parentPath, err)
	}
	children := map[string]bool{}
	parentSlice, err := workMember(work, "lineage/v2/parent.jsonl", manifest.SectionLineage, func(w io.Writer) error {
		return eachLine(f, func(line []byte) error {
			var ref struct {
				TaskID   string `json:"task_id"`
				ChildSHA string `json:"child_sha"`
			}
			if json.Unmarshal(line, &ref) != nil || !tied[ref.TaskID] {
				return nil
			}
			if child, err := store.ChildPath(ref.ChildSHA); err == nil {
				children[child] = true
			}
			_, err := w.Write(line)
			return err
		})
	})
	if err != nil {
		return nil, nil, fmt.Errorf("slice %s: %w", parentPath, err)
	}
	members := []member{parentSlice}
	var paths []string
	for p := range children {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		cf, csize, err := openRegular(p)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				warnings = append(warnings, fmt.Sprintf("lineage v2: %s is missing (a parent ref points at it); `git bernstein lineage v2 verify` reports it", p))
				continue
			}
			if errors.Is(err, errSymlink) {
				warnings = append(warnings, fmt.Sprintf("skipped symlink %s: symlinks are never followed", p))
				continue
			}
			return nil, nil, err
		}
		cf.Close()
		members = append(members, member{entry: manifest.Entry{Arcname: "lineage/v2/children/" + filepath.Base(p),
			Section: manifest.SectionLineage, SizeBytes: csize}, path: p})
	}
	return members, warnings, nil
}

// fileNamesTicket says whether one record of a JSONL file (read up to the probe limit) names tracker and ticket.
func fileNamesTicket(path string, sel Selector) (bool, error) {
	f, size, err := openRegular(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, errSymlink) {
			return false, nil
		}
		return false, err
	}
	defer f.Close()
	if size > sel.ProbeLimit {
		return false, nil
	}
	found := false
	err = eachLine(f, func(line []byte) error {
		if recordNames(line, sel.Ticket) {
			found = true
			return errStopLines
		}
		return nil
	})
	if errors.Is(err, errStopLines) {
		err = nil
	}
	return found, err
}
