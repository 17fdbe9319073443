package bundle

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/nofollow"
	"github.com/git-bernstein/git-bernstein/internal/pyjson"
)

// LineageV2CheckpointMember is where a bundle carries the checkpoint it was made with.
const LineageV2CheckpointMember = "lineage/v2/checkpoint.json"

// LineageV2CheckpointRefsMember is where a bundle carries its ticket refs (checkpoint.TicketRefs): the
// positions and hmacs, at the checkpoint, of the parent refs of the ticket's tasks.
const LineageV2CheckpointRefsMember = "lineage/v2/checkpoint-refs.json"

// selectLineageV2 packs the v2 store's records of tasks tied to the ticket: the parent refs of those tasks as a
// slice of parent.jsonl (byte-identical lines) and their child files whole, so each child's chain stays
// checkable. A task is tied when its task id names the ticket, or when one of its parent refs or child bodies
// carries string values equal to the tracker and the ticket (the rule .sdd files are chosen by). The store is
// read beneath sdd without following a symlink, like every other .sdd file.
func selectLineageV2(sdd *nofollow.Dir, sel Selector, work string) (members []member, warnings []string, tasks []string, err error) {
	const v2 = "lineage/v2"
	dir, err := sdd.OpenDir(v2)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil, nil
	case errors.Is(err, nofollow.ErrSymlink), errors.Is(err, nofollow.ErrNotDir):
		return nil, []string{skippedFolder(err)}, nil, nil
	case err != nil:
		return nil, nil, nil, fmt.Errorf("%w (evidence is never dropped silently: fix its permissions)", err)
	}
	defer dir.Close()
	// Relative names within the store: Open("") names them without a root, and ChildPath refuses anything but
	// 64 hex digits, so a record cannot steer a path outside the store.
	store := lineage.Open("", lineage.PublicKey())
	parentRel := filepath.ToSlash(store.ParentPath())
	parentPath := filepath.Join(dir.Path(), parentRel)
	f, _, err := dir.Open(parentRel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil, nil
		}
		if errors.Is(err, nofollow.ErrSymlink) {
			return nil, []string{fmt.Sprintf("skipped symlink %s: symlinks are never followed", parentPath)}, nil, nil
		}
		if errors.Is(err, nofollow.ErrHardLink) {
			return nil, []string{fmt.Sprintf("skipped %v", err)}, nil, nil
		}
		return nil, nil, nil, err
	}
	defer f.Close()

	childRel := func(sha string) (string, error) {
		p, err := store.ChildPath(sha)
		return filepath.ToSlash(p), err
	}
	tied := map[string]bool{}
	checked := map[string]bool{} // child files already probed
	err = eachLine(f, func(line []byte) error {
		ref := readParentRef(line)
		if ref.TaskID == "" {
			return nil
		}
		if tied[ref.TaskID] {
			return nil
		}
		if sel.Ticket.NamedIn(ref.TaskID) || recordNames(line, sel.Ticket) {
			tied[ref.TaskID] = true
			return nil
		}
		child, err := childRel(ref.ChildSHA)
		if err != nil || checked[child] {
			return nil
		}
		checked[child] = true
		names, err := fileNamesTicket(dir, child, sel)
		if err != nil {
			return err
		}
		tied[ref.TaskID] = names
		return nil
	})
	if err != nil || len(tied) == 0 {
		return nil, nil, nil, err
	}
	for task, yes := range tied {
		if yes {
			tasks = append(tasks, task)
		}
	}
	sort.Strings(tasks)

	// Second pass: the slice of parent refs and the child files they point at.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, nil, fmt.Errorf("read %s: %w", parentPath, err)
	}
	children := map[string]bool{}
	parentSlice, err := workMember(work, "lineage/v2/parent.jsonl", manifest.SectionLineage, func(w io.Writer) error {
		return eachLine(f, func(line []byte) error {
			ref := readParentRef(line)
			if !tied[ref.TaskID] {
				return nil
			}
			if child, err := childRel(ref.ChildSHA); err == nil {
				children[child] = true
			}
			_, err := w.Write(line)
			return err
		})
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("slice %s: %w", parentPath, err)
	}
	members = []member{parentSlice}
	var rels []string
	for p := range children {
		rels = append(rels, p)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		path := filepath.Join(dir.Path(), filepath.FromSlash(rel))
		cf, st, err := dir.Open(rel)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				warnings = append(warnings, fmt.Sprintf("lineage v2: %s is missing (a parent ref points at it); `git bernstein lineage v2 verify` reports it", path))
				continue
			}
			if errors.Is(err, nofollow.ErrSymlink) || errors.Is(err, nofollow.ErrNotDir) || errors.Is(err, nofollow.ErrHardLink) {
				warnings = append(warnings, fmt.Sprintf("skipped %s: %v", path, err))
				continue
			}
			return nil, nil, nil, err
		}
		cf.Close()
		members = append(members, sddMember(sdd, v2+"/"+rel, st, "lineage/v2/"+rel, manifest.SectionLineage))
	}
	return members, warnings, tasks, nil
}

// fileNamesTicket says whether one record of a JSONL file (read up to the probe limit) names tracker and ticket.
func fileNamesTicket(dir *nofollow.Dir, rel string, sel Selector) (bool, error) {
	f, st, err := dir.Open(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, nofollow.ErrSymlink) || errors.Is(err, nofollow.ErrNotDir) {
			return false, nil
		}
		return false, err
	}
	defer f.Close()
	if st.Size() > sel.ProbeLimit {
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

// ticketRefsMember is lineage/v2/checkpoint-refs.json: of the refs the checkpoint counted, those of the
// ticket's tasks, with their positions. The tasks are those the slice took, and every task that had refs at the
// checkpoint whose id names the ticket: a task whose refs were all cut since is still the ticket's, and its
// missing refs show. nil when the ticket has no tasks.
func ticketRefsMember(work string, opts Options, sel Selector, tasks []string) (*member, error) {
	all := append([]string(nil), tasks...)
	for _, r := range opts.LineageV2CheckpointRefs {
		if r.TaskID != "" && sel.Ticket.NamedIn(r.TaskID) {
			all = append(all, r.TaskID)
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	tr := checkpoint.TicketRefsOf(&checkpoint.Checkpoint{Refs: opts.LineageV2CheckpointRefs}, opts.LineageV2Checkpoint, all)
	data, err := tr.Marshal()
	if err != nil {
		return nil, err
	}
	m, err := workMember(work, LineageV2CheckpointRefsMember, manifest.SectionLineage, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// parentRef is what the selection reads of a parent ref.
type parentRef struct{ TaskID, ChildSHA string }

// readParentRef reads a parent ref's task_id and child_sha as the store's readers (Python's and package
// lineage's) do: json.loads, then the members by their exact names. encoding/json would match names ignoring
// case, so a canonical line with "task_id" and a twin sorting after it ("ta\u017fk_id", the long s folding to
// s) would tie the task by the twin's id. An unreadable line has neither.
func readParentRef(line []byte) parentRef {
	v, err := pyjson.Parse(line)
	if err != nil {
		return parentRef{}
	}
	m, _ := v.(map[string]any)
	task, _ := m["task_id"].(string)
	child, _ := m["child_sha"].(string)
	return parentRef{TaskID: task, ChildSHA: child}
}
