package corpus

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// file is a bundle member before packing.
type file struct {
	name    string
	section string
	data    []byte
}

// entry is one tar member as written: hdr fields beyond name, size and type come from regular().
type entry struct {
	hdr  tar.Header
	data []byte
}

func regular(name string, data []byte) entry {
	return entry{hdr: tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(data)), Mode: 0o644,
		ModTime: time.Unix(0, 0), Format: tar.FormatPAX}, data: data}
}

// baseFiles is a small, plausible bundle: what bundle.Build writes for a ticket with two commits.
func baseFiles() []file {
	return []file{
		{"git/commits.json", manifest.SectionGit, []byte(`{
  "commits": ["1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"],
  "ticket_id": "ENG-42",
  "tracker": "github"
}
`)},
		{"git/diff.patch", manifest.SectionGit, []byte("From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n" +
			"From: Ada Author <ada@example.com>\nSubject: [PATCH 1/2] login: add form\n\nRefs: ENG-42\n---\n" +
			"diff --git a/login.txt b/login.txt\nnew file mode 100644\n--- /dev/null\n+++ b/login.txt\n@@ -0,0 +1 @@\n+form\n")},
		{"traces/s1-trace.jsonl", manifest.SectionTraces, []byte(`{"event":"tool_call","ticket_id":"ENG-42","tracker":"github"}` + "\n")},
		{"transcripts/agent-s1.jsonl", manifest.SectionTranscripts, []byte(`{"role":"assistant","content":"Fixing ENG-42"}` + "\n")},
	}
}

func manifestFor(files []file) *manifest.Manifest {
	m := &manifest.Manifest{
		SchemaVersion:    manifest.SchemaVersion,
		CreatedAt:        "2026-01-02T03:04:05Z",
		BernsteinVersion: "corpus",
		Tracker:          "github",
		TicketID:         "ENG-42",
		Files:            []manifest.Entry{},
		Commits:          []string{"1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"},
	}
	sorted := append([]file(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	for _, f := range sorted {
		sum := sha256.Sum256(f.data)
		m.Files = append(m.Files, manifest.Entry{Arcname: f.name, SizeBytes: int64(len(f.data)), SHA256: hex.EncodeToString(sum[:]), Section: f.section})
	}
	return m
}

func marshal(m *manifest.Manifest) []byte {
	b, err := m.Marshal()
	if err != nil {
		panic(err)
	}
	return b
}

// entries lays out a bundle as bundle.Build does: manifest first, then the files in the order given.
func entries(manifestJSON []byte, files []file) []entry {
	out := []entry{regular(manifest.Name, manifestJSON)}
	for _, f := range files {
		out = append(out, regular(f.name, f.data))
	}
	return out
}

// tarBytes writes entries as an uncompressed tar with its end-of-archive marker.
func tarBytes(es []entry) []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range es {
		h := e.hdr
		if err := tw.WriteHeader(&h); err != nil {
			panic(fmt.Sprintf("tar header %q: %v", h.Name, err))
		}
		if _, err := tw.Write(e.data); err != nil {
			panic(err)
		}
	}
	if err := tw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// gz compresses as bundle.Build does: one member, no name, mtime 0.
func gz(data []byte) []byte { return Gzip(data, nil, "") }
