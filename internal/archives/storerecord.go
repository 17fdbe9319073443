package archives

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

// StoreRecord says at which versions a store keeps the files of one archive (the package comment, "Store
// records").
type StoreRecord struct {
	Objects []StoredObject `json:"objects"`
	Store   string         `json:"store"` // the bernstein.store URL
	V       int            `json:"v"`
}

// StoredObject is one file in a store: its key, the sha256 of its bytes and the version the store gave it.
type StoredObject struct {
	Key       string `json:"key"`
	SHA256    string `json:"sha256"`
	VersionID string `json:"version_id"`
}

// Bytes is the record as it is kept: objects sorted by key, keys sorted, no spaces.
func (rec StoreRecord) Bytes() []byte {
	rec.V = 1
	rec.Objects = append([]StoredObject(nil), rec.Objects...)
	sort.Slice(rec.Objects, func(i, j int) bool { return rec.Objects[i].Key < rec.Objects[j].Key })
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(rec) // strings and an int: cannot fail
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// ParseStoreRecord reads a record from the ref: v 1, every object with a key, a sha256 and a bounded version id.
func ParseStoreRecord(data []byte) (StoreRecord, error) {
	var rec StoreRecord
	if err := strictjson.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("store record: %w", err)
	}
	if rec.V != 1 || rec.Store == "" {
		return rec, fmt.Errorf("store record: v %d, store %q", rec.V, rec.Store)
	}
	for _, o := range rec.Objects {
		if o.Key == "" || len(o.Key) > 1024 || !archiveName().MatchString(o.SHA256+".tar.gz") || len(o.VersionID) > 1024 {
			return rec, fmt.Errorf("store record: object %q is not a key, a sha256 and a version id", o.Key)
		}
	}
	return rec, nil
}

// KnownTo is the objects records keep for the store with that URL.
func KnownTo(records []StoreRecord, store string) []StoredObject {
	var out []StoredObject
	for _, r := range records {
		if r.Store == store {
			out = append(out, r.Objects...)
		}
	}
	return out
}

// Recorded is a store record for the archive with digest SHA256 of the ticket.
type Recorded struct {
	Tracker, Ticket, SHA256 string
	Record                  StoreRecord
}

// AddStoreRecords keeps the records beside their archives, in one commit; added counts those the ref did not hold.
func AddStoreRecords(r *gitext.Repo, sig gitext.Signature, recs []Recorded) (added int, err error) {
	var files []objstore.TreeFile
	seen := map[string]bool{}
	for _, rc := range recs {
		data := rc.Record.Bytes()
		path := SidecarPath(rc.Tracker, rc.Ticket, rc.SHA256, sum(data), StoreKind)
		if seen[path] {
			continue
		}
		seen[path] = true
		blob, err := objstore.Of(r).WriteBlob(data)
		if err != nil {
			return 0, err
		}
		files = append(files, objstore.TreeFile{Path: path, Blob: blob})
	}
	return objstore.Of(r).AddFiles(Ref, sig, "Store records added by 'git bernstein'\n", files)
}

// Records reads the store records the ref keeps for the archive with that digest of the ticket (whether or not it
// keeps the archive itself); a record that does not match its name or does not parse is left out.
func Records(r *gitext.Repo, tracker, ticket, digest string) ([]StoreRecord, error) {
	_, tree, err := objstore.Of(r).RefCommit(Ref)
	if err != nil || tree.IsZero() {
		return nil, err
	}
	dirHash, mode, ok, err := objstore.Of(r).TreeEntryAt(tree, Dir(tracker, ticket))
	if err != nil || !ok || mode != gitext.ModeDir {
		return nil, err
	}
	dir, err := objstore.Of(r).TreeEntries(dirHash)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Ref, err)
	}
	var out []StoreRecord
	for _, e := range dir {
		m := sidecarName().FindStringSubmatch(e.Name)
		if m == nil || m[1] != digest || m[3] != StoreKind || e.Mode != gitext.ModeRegular {
			continue
		}
		data, err := objstore.Of(r).ReadBlobMax(e.Hash, MaxStoreRecord)
		if err != nil || sum(data) != m[2] {
			continue
		}
		if rec, err := ParseStoreRecord(data); err == nil {
			out = append(out, rec)
		}
	}
	return out, nil
}
