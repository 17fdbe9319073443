package bundle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
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

// member is one file to put in the archive: a file on disk, or the first size bytes of it.
type member struct {
	entry manifest.Entry
	path  string // where its bytes are read from (the .sdd file, or a slice or generated file in the workspace)
}

// selectSDD walks the .sdd sections and returns the members for the ticket. Slices are written into work.
func selectSDD(sdd string, sel Selector, work string) ([]member, []string, error) {
	if sel.ProbeLimit == 0 {
		sel.ProbeLimit = DefaultProbeLimit
	}
	var members []member
	var warnings []string
	if st, err := os.Stat(sdd); err != nil || !st.IsDir() {
		return nil, []string{fmt.Sprintf("no .sdd folder at %s: the bundle holds only git evidence", sdd)}, nil
	}
	for _, section := range sddSections {
		dir := filepath.Join(sdd, section)
		ents, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w (evidence is never dropped silently: fix its permissions)", dir, err)
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, e := range ents {
			path := filepath.Join(dir, e.Name())
			m, why, err := selectFile(path, section, e, sel, work)
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

// selectFile decides one directory entry. It returns a warning when it skips something a user might expect.
func selectFile(path, section string, e os.DirEntry, sel Selector, work string) (*member, string, error) {
	name := e.Name()
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
	f, size, err := openRegular(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	arc := section + "/" + name
	whole := &member{entry: manifest.Entry{Arcname: arc, Section: section, SizeBytes: size}, path: path}
	if byName {
		return whole, "", nil
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
			return whole, "", nil
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
		return whole, "", nil
	}
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

// errSymlink is returned by openRegular for a symlink: we never follow one.
var errSymlink = errors.New("is a symlink; symlinks are never followed")

// openRegular opens path without following a symlink put there after the directory was read, and checks
// that it is still a regular file.
func openRegular(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, 0, fmt.Errorf("open %s: %w", path, errSymlink)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("open %s: %w (evidence is never dropped silently: fix it or move it out of .sdd)", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("stat %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s changed into a non-regular file while bundling; run again", path)
	}
	return f, st.Size(), nil
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
