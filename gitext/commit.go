package gitext

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
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

// errMalformedCommit is go-git's object.ErrMalformedCommit, whose words decodeCommit's errors keep.
var errMalformedCommit = errors.New("malformed commit")

// decodeCommit reads the content of commit h (the bytes after git's "commit <size>\0" header) as go-git's
// object.DecodeCommit reads it, field for field: the tree line first, the parent lines that follow it, then
// author and committer where git writes them (one anywhere else is dropped, as git's own parser drops it), the
// other headers (encoding, gpgsig, mergetag) passed over, and the message after the first empty line. It is
// gitext's own so that reading commits does not link go-git's object package (and OpenPGP with it).
func decodeCommit(h Hash, data []byte) (*Commit, error) {
	c := &Commit{Hash: h}
	const (
		atTree = iota
		atParents
		atOthers // after the parents: author, then committer, in their places, else other headers
	)
	state, committerChecked := atTree, false
	for len(data) > 0 {
		line := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, data = data[:nl+1], data[nl+1:]
		} else {
			data = nil
		}
		blank := len(line) == 1 && line[0] == '\n'
		if state == atTree {
			if blank {
				return nil, fmt.Errorf("%w: missing tree header", errMalformedCommit)
			}
			key, value := splitHeader(line)
			if key != "tree" {
				return nil, fmt.Errorf("%w: tree header must be first", errMalformedCommit)
			}
			tree, ok := ParseHash(string(value))
			if !ok {
				return nil, fmt.Errorf("%w: bad tree hash", errMalformedCommit)
			}
			c.TreeHash, state = tree, atParents
			continue
		}
		if blank {
			c.Message = string(data)
			return c, nil
		}
		key, value := splitHeader(line)
		if state == atParents {
			if key == "parent" {
				p, ok := ParseHash(string(value))
				if !ok {
					return nil, fmt.Errorf("%w: bad parent hash", errMalformedCommit)
				}
				c.ParentHashes = append(c.ParentHashes, p)
				continue
			}
			state = atOthers
			if key == "author" {
				c.Author = decodeSignature(value)
				continue
			}
		}
		// go-git takes the committer only on the line right after the author (or after the parents when there is
		// no author there): the first header past that place ends the chance.
		if !committerChecked {
			committerChecked = true
			if key == "committer" {
				c.Committer = decodeSignature(value)
			}
		}
	}
	if state == atTree {
		return nil, fmt.Errorf("%w: missing tree header", errMalformedCommit)
	}
	return c, nil
}

// splitHeader is a header line's keyword and value (nil when it has none), without the newline.
func splitHeader(line []byte) (string, []byte) {
	line = bytes.TrimRight(line, "\n")
	key, value, ok := bytes.Cut(line, []byte{' '})
	if !ok {
		return string(line), nil
	}
	return string(key), value
}

// decodeSignature reads "Name <email> <unix time> <zone>" as go-git's Signature.Decode does: what does not
// parse is left zero (no zone: UTC).
func decodeSignature(b []byte) Signature {
	var s Signature
	open, end := bytes.LastIndexByte(b, '<'), bytes.LastIndexByte(b, '>')
	if open == -1 || end == -1 || end < open {
		return s
	}
	s.Name = string(bytes.Trim(b[:open], " "))
	s.Email = string(b[open+1 : end])
	if end+2 >= len(b) {
		return s
	}
	b = b[end+2:]
	space := bytes.IndexByte(b, ' ')
	if space == -1 {
		space = len(b)
	}
	ts, err := strconv.ParseInt(string(b[:space]), 10, 64)
	if err != nil {
		return s
	}
	s.When = time.Unix(ts, 0).In(time.UTC)
	tzStart := space + 1
	if tzStart >= len(b) || tzStart+5 > len(b) {
		return s
	}
	zone := string(b[tzStart : tzStart+5])
	hours, err1 := strconv.ParseInt(zone[0:3], 10, 64)
	mins, err2 := strconv.ParseInt(zone[3:], 10, 64)
	if err1 != nil || err2 != nil {
		return s
	}
	if hours < 0 {
		mins *= -1
	}
	s.When = s.When.In(time.FixedZone("", int(hours*60*60+mins*60)))
	return s
}

// errMalformedTag is go-git's object.ErrMalformedTag.
var errMalformedTag = errors.New("malformed tag")

// tagTarget reads the object a tag names as go-git's object.DecodeTag does: the object line first, then the
// type and tag lines it requires after it.
func tagTarget(data []byte) (Hash, error) {
	next := func() []byte {
		line := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, data = data[:nl+1], data[nl+1:]
		} else {
			data = nil
		}
		return line
	}
	var target Hash
	for i, want := range [...]string{"object", "type", "tag"} {
		line := next()
		if len(line) == 0 || len(line) == 1 && line[0] == '\n' {
			return target, fmt.Errorf("%w: missing %s header", errMalformedTag, want)
		}
		key, value := splitHeader(line)
		if key != want {
			return target, fmt.Errorf("%w: %s", errMalformedTag, [...]string{
				"object header must be first", "type header must follow object", "tag header must follow type"}[i])
		}
		switch want {
		case "object":
			h, ok := ParseHash(string(value))
			if !ok {
				return target, fmt.Errorf("%w: bad object hash", errMalformedTag)
			}
			target = h
		case "type":
			if _, err := plumbing.ParseObjectType(string(value)); err != nil {
				return target, err
			}
		}
		if data == nil {
			break
		}
	}
	return target, nil
}
