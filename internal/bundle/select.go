package bundle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/nofollow"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// DefaultProbeLimit is the largest .json/.jsonl file whose content is read to see whether it names the ticket;
// larger files are selected only by name (upstream's 2 MiB, so the build never slurps pathological logs).
const DefaultProbeLimit = 2 << 20

// sddSections maps archive sections to their folders under .sdd/, read one level deep as upstream does.
var sddSections = []string{manifest.SectionTranscripts, manifest.SectionTraces, manifest.SectionLineage, manifest.SectionAudit}

// Selector decides which .sdd files belong to the ticket.
type Selector struct {
	Ticket     ticket.Ticket
	ProbeLimit int64 // 0 means DefaultProbeLimit
	WholeFiles bool  // pack lineage/audit files whole instead of as ticket slices
}

// member is one file to put in the archive: a .sdd file, or a slice or generated file in the work folder.
type member struct {
	entry  manifest.Entry
	source string // where its bytes come from, for messages
	// open gives the member's bytes from the start, each time it is hashed or packed. For a .sdd file it is the
	// file that was chosen, reopened without following a symlink and checked to be the same device and inode:
	// what was chosen is what is hashed, packed and signed, even if someone swaps the file in between.
	open func() (*os.File, error)
}

// openSDD opens the .sdd folder without following a symlink at its own name. A missing folder, or one that is a
// symlink, is a warning: the bundle then holds only git evidence.
func openSDD(path string) (*nofollow.Dir, string, error) {
	if path == "" {
		return nil, "no .sdd folder given: the bundle holds only git evidence", nil
	}
	d, err := nofollow.OpenDir(path)
	switch {
	case err == nil:
		return d, "", nil
	case errors.Is(err, nofollow.ErrSymlink):
		return nil, fmt.Sprintf("%v: .sdd skipped, the bundle holds only git evidence (move the folder itself there)", err), nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, nofollow.ErrNotDir):
		return nil, fmt.Sprintf("no .sdd folder at %s: the bundle holds only git evidence", path), nil
	}
	return nil, "", fmt.Errorf("open %s: %w (evidence is never dropped silently: fix its permissions)", path, err)
}

// skippedFolder is the warning for a folder under .sdd that is a symlink (or not a folder): it is not read.
func skippedFolder(err error) string {
	return fmt.Sprintf("%v: skipped with everything in it (move the folder itself into .sdd if it holds evidence)", err)
}

// selectSDD walks the .sdd sections and returns the members for the ticket. Slices are written into work.
// Every folder and file is reached through sdd's descriptor without following a symlink.
func selectSDD(sdd *nofollow.Dir, sel Selector, work string) ([]member, []string, error) {
	if sel.ProbeLimit == 0 {
		sel.ProbeLimit = DefaultProbeLimit
	}
	var members []member
	var warnings []string
	for _, section := range sddSections {
		dir, err := sdd.OpenDir(section)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.Is(err, nofollow.ErrSymlink), errors.Is(err, nofollow.ErrNotDir):
			warnings = append(warnings, skippedFolder(err))
			continue
		case err != nil:
			return nil, nil, fmt.Errorf("%w (evidence is never dropped silently: fix its permissions)", err)
		}
		ents, err := dir.ReadDir()
		dir.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%w (evidence is never dropped silently: fix its permissions)", err)
		}
		for _, e := range ents {
			m, why, err := selectFile(sdd, section, e, sel, work)
			if err != nil {
				return nil, nil, err
			}
			if why != "" {
				warnings = append(warnings, why)
			}
			if m != nil {
				members = append(members, *m)
			}
		}
	}
	return members, warnings, nil
}

// sddMember is a whole .sdd file as it was chosen: rel beneath sdd, identified by st.
func sddMember(sdd *nofollow.Dir, rel string, st fs.FileInfo, arcname, section string) member {
	return member{entry: manifest.Entry{Arcname: arcname, Section: section, SizeBytes: st.Size()},
		source: filepath.Join(sdd.Path(), filepath.FromSlash(rel)),
		open:   func() (*os.File, error) { return sdd.Reopen(rel, st) }}
}

// selectFile decides one directory entry. It returns a warning when it skips something a user might expect.
func selectFile(sdd *nofollow.Dir, section string, e os.DirEntry, sel Selector, work string) (*member, string, error) {
	name := e.Name()
	path := filepath.Join(sdd.Path(), section, name)
	switch {
	case e.Type()&os.ModeSymlink != 0:
		if sel.Ticket.NamedIn(name) || probeable(name) {
			return nil, fmt.Sprintf("skipped symlink %s: symlinks are never followed", path), nil
		}
		return nil, "", nil
	case e.IsDir():
		return nil, "", nil // one level deep, like upstream (lineage/v2 has a reader of its own)
	case !e.Type().IsRegular():
		return nil, fmt.Sprintf("skipped %s: not a regular file", path), nil
	}
	byName := sel.Ticket.NamedIn(name)
	if !byName && !probeable(name) {
		return nil, "", nil
	}
	if bad := unsafeName(name); bad != "" {
		return nil, fmt.Sprintf("skipped %s: its name %s, which verifiers refuse in archive names; rename it", path, bad), nil
	}
	rel := section + "/" + name
	f, st, err := sdd.Open(rel)
	switch {
	case errors.Is(err, nofollow.ErrSymlink):
		return nil, fmt.Sprintf("skipped symlink %s: symlinks are never followed", path), nil
	case errors.Is(err, nofollow.ErrHardLink):
		return nil, fmt.Sprintf("skipped %s: it has other names (a hard link), so it may be any file you can read; copy it instead of linking it", path), nil
	case errors.Is(err, regularfile.ErrNotRegular):
		return nil, "", fmt.Errorf("%w: it changed while bundling; run again", err)
	case err != nil:
		return nil, "", fmt.Errorf("%w (evidence is never dropped silently: fix it or move it out of .sdd)", err)
	}
	defer f.Close()
	size := st.Size()
	arc := section + "/" + name
	whole := sddMember(sdd, rel, st, arc, section)
	if byName {
		return &whole, "", nil
	}
	if size > sel.ProbeLimit {
		return nil, "", nil
	}
	sliceable := strings.HasSuffix(name, ".jsonl") && (section == manifest.SectionLineage || section == manifest.SectionAudit) && !sel.WholeFiles
	if strings.HasSuffix(name, ".json") {
		data, err := io.ReadAll(io.LimitReader(f, sel.ProbeLimit+1))
		if err != nil {
			return nil, "", fmt.Errorf("read %s: %w", path, err)
		}
		if recordNames(data, sel.Ticket) {
			return &whole, "", nil
		}
		return nil, "", nil
	}
	var slice bytes.Buffer
	matched := false
	err = eachLine(f, func(line []byte) error {
		if !recordNames(line, sel.Ticket) {
			return nil
		}
		matched = true
		if !sliceable {
			return errStopLines
		}
		slice.Write(line)
		return nil
	})
	if err != nil && !errors.Is(err, errStopLines) {
		return nil, "", fmt.Errorf("read %s: %w", path, err)
	}
	switch {
	case !matched:
		return nil, "", nil
	case !sliceable:
		return &whole, "", nil
	}
	// The slice is cut from the descriptor just read, so it holds bytes of the chosen file and no other.
	m, err := workMember(work, arc, section, func(w io.Writer) error { _, err := w.Write(slice.Bytes()); return err })
	if err != nil {
		return nil, "", fmt.Errorf("slice of %s: %w", path, err)
	}
	return &m, "", nil
}

// errStopLines ends an eachLine scan early.
var errStopLines = errors.New("stop")

// eachLine calls fn with every non-blank line of r, its newline included; an error from fn stops the scan.
func eachLine(r io.Reader, fn func([]byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func probeable(name string) bool {
	return strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl")
}

// unsafeName says why a file name cannot be an archive member name, or "".
func unsafeName(name string) string {
	if !utf8.ValidString(name) {
		return "is not UTF-8"
	}
	for _, r := range name {
		if r == '\\' {
			return "contains a backslash"
		}
		if unicode.IsControl(r) {
			return "contains a control character"
		}
	}
	return ""
}

// recordNames says whether one JSON record has, among its string values at any depth (keys and numbers do not
// count), one equal to the tracker and one equal to the ticket id. Invalid JSON is not a record.
func recordNames(data []byte, t ticket.Ticket) bool {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return false
	}
	var tracker, id bool
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if strings.EqualFold(x, t.Tracker) {
				tracker = true
			}
			if strings.EqualFold(x, t.ID) || (t.Numeric() && x == "#"+t.ID) {
				id = true
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return tracker && id
}
