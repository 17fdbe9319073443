package release

import (
	"errors"
	"fmt"
	"sort"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

const (
	// ProvenanceType is the predicateType of SLSA provenance v1.0 (slsa.dev/spec/v1.0/provenance).
	ProvenanceType = "https://slsa.dev/provenance/v1"
	// BuildType names how a release is built (doc.go, "Reproducible"); its version changes with the recipe.
	BuildType = "https://github.com/git-bernstein/git-bernstein/release/v1"
	// BuilderID is `make release` in this repository.
	BuilderID = "https://github.com/git-bernstein/git-bernstein/make-release"
	// SourceURI names the source repository in resolvedDependencies.
	SourceURI = "git+https://github.com/git-bernstein/git-bernstein"
	// ProvenanceFile and ProvenanceSigstoreFile are the signed provenance, as a bare DSSE envelope and as a
	// Sigstore bundle; SumsSigFile is the SSHSIG over SHA256SUMS.
	ProvenanceFile         = "provenance" + attest.Suffix
	ProvenanceSigstoreFile = "provenance" + attest.SigstoreSuffix
	SumsSigFile            = SumsFile + ".sig"
)

// Provenance is the SLSA v1.0 provenance predicate (doc.go, "Provenance").
type Provenance struct {
	BuildDefinition BuildDefinition `json:"buildDefinition"`
	RunDetails      RunDetails      `json:"runDetails"`
}

// BuildDefinition is SLSA's buildDefinition: what was built, from what, how.
type BuildDefinition struct {
	BuildType            string               `json:"buildType"`
	ExternalParameters   ExternalParameters   `json:"externalParameters"`
	InternalParameters   InternalParameters   `json:"internalParameters"`
	ResolvedDependencies []ResourceDescriptor `json:"resolvedDependencies"`
}

// ExternalParameters are what the person who ran the build chose.
type ExternalParameters struct {
	Version string   `json:"version"`
	Targets []string `json:"targets"`
	Dirty   bool     `json:"dirty,omitempty"` // the clone had uncommitted changes
}

// InternalParameters are the recipe: the Go toolchain, its environment and its flags.
type InternalParameters struct {
	Go    string            `json:"go"`
	Env   map[string]string `json:"env"`
	Flags []string          `json:"flags"`
}

// ResourceDescriptor is in-toto's ResourceDescriptor, the members we use.
type ResourceDescriptor struct {
	URI    string            `json:"uri"`
	Digest map[string]string `json:"digest,omitempty"`
}

// RunDetails names the builder; no times (doc.go, "Reproducible").
type RunDetails struct {
	Builder struct {
		ID string `json:"id"`
	} `json:"builder"`
}

// BuildFacts are what the provenance records about a build.
type BuildFacts struct {
	Version, Commit, GoVersion string
	Dirty                      bool
	Targets                    []Target
	Flags                      []string
	Env                        map[string]string
	Modules                    []Module
}

// provenanceStatement is the JCS form of the statement over sums (every file) and SHA256SUMS itself.
func provenanceStatement(f BuildFacts, sums []Sum, sumsData []byte) ([]byte, error) {
	p := Provenance{}
	p.BuildDefinition.BuildType = BuildType
	p.BuildDefinition.ExternalParameters = ExternalParameters{Version: f.Version, Dirty: f.Dirty}
	for _, t := range f.Targets {
		p.BuildDefinition.ExternalParameters.Targets = append(p.BuildDefinition.ExternalParameters.Targets, t.String())
	}
	p.BuildDefinition.InternalParameters = InternalParameters{Go: f.GoVersion, Env: f.Env, Flags: f.Flags}
	src := ResourceDescriptor{URI: SourceURI}
	if f.Commit != "" {
		src.Digest = map[string]string{"gitCommit": f.Commit}
	}
	p.BuildDefinition.ResolvedDependencies = []ResourceDescriptor{src}
	for _, m := range f.Modules {
		p.BuildDefinition.ResolvedDependencies = append(p.BuildDefinition.ResolvedDependencies, ResourceDescriptor{URI: PURL(m.Path, m.Version)})
	}
	p.RunDetails.Builder.ID = BuilderID
	pred, err := attest.Canonical(p)
	if err != nil {
		return nil, err
	}
	subjects := []attest.Subject{{Name: SumsFile, Digest: map[string]string{"sha256": bytesSHA256(sumsData)}}}
	for _, s := range sums {
		subjects = append(subjects, attest.Subject{Name: s.Name, Digest: map[string]string{"sha256": s.SHA256}})
	}
	sort.Slice(subjects, func(i, j int) bool { return subjects[i].Name < subjects[j].Name })
	return attest.Canonical(attest.Statement{Type: attest.StatementType, Subject: subjects, PredicateType: ProvenanceType, Predicate: pred})
}

// ErrProvenance: the provenance statement is not about these files.
var ErrProvenance = errors.New("the provenance is not about this release")

// checkProvenance holds an opened statement to the release: payloadType, _type and predicateType exact, a
// predicate of our buildType, and subjects exactly the files of SHA256SUMS and SHA256SUMS itself, with their
// digests.
func checkProvenance(o *attest.Opened, sums []Sum, sumsData []byte) (*Provenance, error) {
	if o.PayloadType != attest.PayloadType {
		return nil, fmt.Errorf("%w: payloadType %q, want %q", ErrProvenance, o.PayloadType, attest.PayloadType)
	}
	var st attest.Statement
	if err := strictjson.UnmarshalKnown(o.Payload, &st); err != nil {
		return nil, fmt.Errorf("%w: the payload is not a Statement: %v", ErrProvenance, err)
	}
	if st.Type != attest.StatementType || st.PredicateType != ProvenanceType {
		return nil, fmt.Errorf("%w: _type %q, predicateType %q; want %q, %q", ErrProvenance, st.Type, st.PredicateType, attest.StatementType, ProvenanceType)
	}
	var p Provenance
	if err := strictjson.UnmarshalKnown(st.Predicate, &p); err != nil {
		return nil, fmt.Errorf("%w: the predicate is not git-bernstein's SLSA provenance: %v", ErrProvenance, err)
	}
	if p.BuildDefinition.BuildType != BuildType {
		return nil, fmt.Errorf("%w: buildType %q, want %q", ErrProvenance, p.BuildDefinition.BuildType, BuildType)
	}
	want := map[string]string{SumsFile: bytesSHA256(sumsData)}
	for _, s := range sums {
		want[s.Name] = s.SHA256
	}
	got := map[string]string{}
	for _, s := range st.Subject {
		if _, dup := got[s.Name]; dup {
			return nil, fmt.Errorf("%w: subject %q twice", ErrProvenance, s.Name)
		}
		got[s.Name] = s.Digest["sha256"]
	}
	var problems []string
	for name, sum := range want {
		switch g, ok := got[name]; {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s is not a subject", name))
		case g != sum:
			problems = append(problems, fmt.Sprintf("%s: subject sha256 %s, SHA256SUMS says %s", name, g, sum))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			problems = append(problems, fmt.Sprintf("subject %s is not in SHA256SUMS", name))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, fmt.Errorf("%w: %v", ErrProvenance, problems)
	}
	return &p, nil
}
