// Package policy is the auditor's change-control policy for `git bernstein audit`: how many independent
// approvals a pull request needs, which checks must pass, which bots are trusted, whether CODEOWNERS must
// approve agent-written paths, and which branches are protected. The auditor brings it; a bundle never supplies
// it (a bundle that could lower its own bar would prove nothing).
//
// # File
//
// YAML or JSON (JSON is YAML), one object with only these keys, each optional:
//
//	required_approvals: 2          # independent approvals a merged pull request needs
//	                               # (default: the captured rules or branch protection, else 1)
//	required_checks: [ci/build, test]   # check run names or status contexts
//	                               # (default: the captured rules or branch protection)
//	trusted_bots: ['dependabot[bot]']   # bot logins whose commits are not agent work
//	require_codeowners: true       # agent-written paths need an approval by a CODEOWNERS owner
//	protected_branches: [main, release/*]   # branches whose commits must arrive through a pull request
//	                               # (default: the pull requests' base branches and the ticket's base branch)
//
// An unknown key is an error, so a misspelt rule is never silently ignored.
package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// Policy is the policy file. Zero values mean "not set": the controls then take the captured rules.
type Policy struct {
	RequiredApprovals int      `yaml:"required_approvals" json:"required_approvals,omitempty"`
	RequiredChecks    []string `yaml:"required_checks" json:"required_checks,omitempty"`
	TrustedBots       []string `yaml:"trusted_bots" json:"trusted_bots,omitempty"`
	RequireCodeowners bool     `yaml:"require_codeowners" json:"require_codeowners,omitempty"`
	ProtectedBranches []string `yaml:"protected_branches" json:"protected_branches,omitempty"`
}

// maxFile bounds a policy file: a real one is a few hundred bytes.
const maxFile = 1 << 20

// Parse reads a policy file (YAML or JSON).
func Parse(data []byte) (*Policy, error) {
	if len(data) > maxFile {
		return nil, fmt.Errorf("policy file is larger than %d bytes", maxFile)
	}
	var p Policy
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil {
		if errors.Is(err, io.EOF) {
			return &p, nil
		}
		return nil, fmt.Errorf("policy file: %v", err)
	}
	if p.RequiredApprovals < 0 {
		return nil, fmt.Errorf("policy file: required_approvals is %d; give 0 or more", p.RequiredApprovals)
	}
	for _, b := range p.ProtectedBranches {
		if _, err := path.Match(b, ""); err != nil || b == "" {
			return nil, fmt.Errorf("policy file: protected_branches: %q is not a branch name or pattern", b)
		}
	}
	return &p, nil
}

// Protects says whether branch (a short name such as main, or remotes/origin/main) matches protected_branches.
func (p *Policy) Protects(branch string) bool {
	branch = ShortBranch(branch)
	for _, pat := range p.ProtectedBranches {
		if ok, _ := path.Match(pat, branch); ok {
			return true
		}
	}
	return false
}

// ShortBranch is a branch name without refs/heads/, refs/remotes/<remote>/ or remotes/<remote>/.
func ShortBranch(b string) string {
	b = strings.TrimPrefix(b, "refs/")
	b = strings.TrimPrefix(b, "heads/")
	if rest, ok := strings.CutPrefix(b, "remotes/"); ok {
		if _, after, ok := strings.Cut(rest, "/"); ok {
			return after
		}
	}
	return b
}

// TrustsBot says whether login is one of trusted_bots.
func (p *Policy) TrustsBot(login string) bool {
	for _, b := range p.TrustedBots {
		if strings.EqualFold(b, login) {
			return true
		}
	}
	return false
}

// ReadOptional is ReadFile of the --policy file at path, or, when none was given (path ""), the defaults.
func ReadOptional(path, given string) (*Policy, error) {
	if path == "" {
		return &Policy{}, nil
	}
	return ReadFile(path, given)
}

// ReadFile reads and parses the policy file at path (given: the path as the user wrote it, for messages): a
// regular file of at most 1 MiB. Its errors name the --policy flag, which is where a path comes from.
func ReadFile(path, given string) (*Policy, error) {
	data, err := regularfile.ReadFile(path, "policy file", maxFile)
	if err != nil {
		return nil, fmt.Errorf("--policy: %w", err)
	}
	pol, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("--policy %s: %w", given, err)
	}
	return pol, nil
}
