package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/nofollow"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// LineageV1Dir is where a bundle carries lineage v1: the log slice, its sidecars and the commits' files.
const LineageV1Dir = "lineage/v1"

// selectLineageV1 packs the lineage v1 of the code the ticket's commits contain (package logv1's doc,
// "Lineage v1 in bundles"): for every file version the commits wrote, the entries of .sdd/lineage/log.jsonl whose
// artefact_path and content_hash match it and their ancestors for that artefact, as lineage/v1/log.jsonl (the
// original lines, byte for byte, in log order), their signature sidecars under lineage/v1/signatures/ as they are
// named, and lineage/v1/commit-files.json, the file versions the verifier joins them to. With no log nothing is
// packed. Everything is read beneath sdd without following a symlink.
func selectLineageV1(sdd *nofollow.Dir, repo *gitext.Repo, commits []gitext.Hash, work string) ([]member, []string, error) {
	dir, err := sdd.OpenDir(manifest.SectionLineage)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, nofollow.ErrSymlink), errors.Is(err, nofollow.ErrNotDir):
		return nil, nil, nil // selectSDD has said so already
	case err != nil:
		return nil, nil, fmt.Errorf("%w (evidence is never dropped silently: fix its permissions)", err)
	}
	defer dir.Close()
	f, st, err := dir.Open(logv1.LogName)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, nofollow.ErrNotDir):
		return nil, nil, nil
	case errors.Is(err, nofollow.ErrSymlink), errors.Is(err, nofollow.ErrHardLink):
		return nil, []string{fmt.Sprintf("lineage v1: skipped %v: symlinks and hard links are never followed", err)}, nil
	case err != nil:
		return nil, nil, err
	}
	defer f.Close()
	if st.Size() > logv1.MaxLogSize {
		return nil, []string{fmt.Sprintf("lineage v1: %s/%s is %d bytes, more than %d: not packed", dir.Path(), logv1.LogName, st.Size(), logv1.MaxLogSize)}, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, logv1.MaxLogSize))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s/%s: %w", dir.Path(), logv1.LogName, err)
	}
	files, err := commitFiles(repo, commits)
	if err != nil {
		return nil, nil, err
	}
	log := logv1.Parse(data)
	var warnings []string
	if n := len(log.Problems); n > 0 {
		warnings = append(warnings, fmt.Sprintf("lineage v1: %s of %s/%s cannot be packed: not entries; run `git bernstein lineage verify`", plural.Count(n, "line"), dir.Path(), logv1.LogName))
	}
	var all []logv1.File
	for _, c := range files.Commits {
		all = append(all, c.Files...)
	}
	picked := logv1.Select(log, all)

	var members []member
	lm, err := workMember(work, LineageV1Dir+"/"+logv1.LogName, manifest.SectionLineage, func(w io.Writer) error {
		for _, e := range picked {
			if _, err := w.Write(append(e.Raw[:len(e.Raw):len(e.Raw)], '\n')); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	members = append(members, lm)
	fm, err := workMember(work, LineageV1Dir+"/"+logv1.FilesName, manifest.SectionLineage, func(w io.Writer) error {
		b, err := files.Marshal()
		if err == nil {
			_, err = w.Write(b)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	members = append(members, fm)
	for _, e := range picked {
		found := false
		for _, name := range logv1.SidecarNames(e) {
			sf, sst, err := dir.Open(name)
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, nofollow.ErrNotDir) {
				continue
			}
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("lineage v1: skipped the sidecar of line %d: %v", e.Line, err))
				found = true
				break
			}
			sf.Close()
			members = append(members, sddMember(sdd, manifest.SectionLineage+"/"+name, sst, LineageV1Dir+"/"+name, manifest.SectionLineage))
			found = true
			break
		}
		if !found {
			warnings = append(warnings, fmt.Sprintf("lineage v1: line %d (%s, entry %s) has no signature sidecar; the bundle's lineage check will fail it", e.Line, e.ArtefactPath, e.Hash))
		}
	}
	return members, warnings, nil
}

// commitFiles lists, for each commit (tied, non-merge, oldest first), the regular files and symlinks it added or
// changed against its first parent, with the SHA-256 of their bytes.
func commitFiles(repo *gitext.Repo, commits []gitext.Hash) (*logv1.CommitFiles, error) {
	out := &logv1.CommitFiles{V: 1, Commits: []logv1.Commit{}}
	for _, h := range commits {
		c, err := repo.Commit(h)
		if err != nil {
			return nil, fmt.Errorf("lineage v1: read commit %s: %w", h, err)
		}
		var parent gitext.Hash // zero: the empty tree
		if len(c.ParentHashes) > 0 {
			p, err := repo.Commit(c.ParentHashes[0])
			if err != nil {
				return nil, fmt.Errorf("lineage v1: parent of %s: %w", h, err)
			}
			parent = p.TreeHash
		}
		changes, err := objstore.Of(repo).DiffTree(parent, c.TreeHash)
		if err != nil {
			return nil, fmt.Errorf("lineage v1: diff %s: %w", h, err)
		}
		cf := logv1.Commit{SHA: h.String(), Files: []logv1.File{}}
		for _, ch := range changes {
			to := ch.To
			if to.Path == "" {
				continue // deleted: no content written
			}
			switch to.Mode {
			case gitext.ModeRegular, gitext.ModeExecutable, gitext.ModeDeprecated, gitext.ModeSymlink:
			default:
				continue // a submodule or tree
			}
			_, data, err := repo.ReadObject(to.Hash)
			if err != nil {
				return nil, fmt.Errorf("lineage v1: read %s of %s: %w", to.Path, h, err)
			}
			sum := sha256.Sum256(data)
			cf.Files = append(cf.Files, logv1.File{Path: to.Path, SHA256: hex.EncodeToString(sum[:]), Blob: to.Hash.String()})
		}
		out.Commits = append(out.Commits, cf)
	}
	return out, nil
}
