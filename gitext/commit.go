package gitext

import (
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit is a commit as callers read it: who, when, what message, which tree and parents.
type Commit struct {
	Hash              Hash
	Author, Committer Signature
	Message           string
	TreeHash          Hash
	ParentHashes      []Hash
}

// Signature is an author or committer line: a name, an email and a time (with its zone, as written).
type Signature struct {
	Name  string
	Email string
	When  time.Time
}

func commitOf(c *object.Commit) *Commit {
	return &Commit{
		Hash: c.Hash, Author: signatureOf(c.Author), Committer: signatureOf(c.Committer), Message: c.Message,
		TreeHash: c.TreeHash, ParentHashes: c.ParentHashes,
	}
}

func signatureOf(s object.Signature) Signature {
	return Signature{Name: s.Name, Email: s.Email, When: s.When}
}

func (s Signature) object() object.Signature {
	return object.Signature{Name: s.Name, Email: s.Email, When: s.When}
}
