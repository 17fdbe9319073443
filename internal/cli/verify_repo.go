package cli

import (
	"os"
	"strings"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/repocheck"
)

// repoValue is --repo[=DIR]: alone it names the repository around the working folder, with a value the
// repository at DIR. Like git's own optional-argument options it takes its value only after "=" (a following
// argument is the archive), so it is a boolean flag to the flag parser (flag.Value's IsBoolFlag), which passes
// "true" when it stands alone.
type repoValue struct {
	set bool
	dir string
}

func (v *repoValue) Set(s string) error {
	v.set, v.dir = true, s
	if s == "true" {
		v.dir = ""
	}
	return nil
}

func (v *repoValue) String() string   { return v.dir }
func (v *repoValue) Get() any         { return v }
func (v *repoValue) IsBoolFlag() bool { return true }

func repoFlag() ucli.Flag {
	return optionalValueFlag{&ucli.GenericFlag{Name: "repo", Value: &repoValue{},
		Usage: "also check the bundle's git section against the repository in DIR " +
			"(--repo alone: the repository around the working folder; a value only after =): every commit of " +
			"git/commits.json is there with the details it lists, and each part of git/diff.patch, applied in " +
			"memory, turns its parent's tree into its commit's tree, the ticket found again at the state the " +
			"bundle records ties no commit the bundle lacks, and each head's patch id in git/patchids/ is the clone's"}}
}

// optionalValueFlag is a flag whose value may only follow "=", shown in help as git shows such options
// (--repo[=DIR]): the flag library would print "--repo DIR", which the parser does not take.
type optionalValueFlag struct{ *ucli.GenericFlag }

// TakesValue is false: the flag stands alone unless "=" follows it (completion and the man page read this).
func (f optionalValueFlag) TakesValue() bool { return false }

func (f optionalValueFlag) String() string {
	s := f.GenericFlag.String()
	name := "--" + f.Name
	if rest, ok := strings.CutPrefix(s, name+" value"); ok {
		return name + "[=DIR]" + rest
	}
	return s
}

// repoWrittenApart catches `--repo DIR` written for `--repo=DIR`: --repo takes its value only after "=", so the
// folder became a positional argument, and the command would then say the signature (or archive) "is a
// directory". When --repo stands alone and an argument is a folder, or when a repository's folder is given as
// the SIGNATURE without --repo, this says how to write it (exit 2).
func repoWrittenApart(c *ucli.Command, wd string, args []string) error {
	v, ok := c.Generic("repo").(*repoValue)
	if !ok || v.set && v.dir != "" {
		return nil
	}
	if !v.set {
		// No --repo at all: a folder as SIGNATURE is still no signature; when it is a repository, say how to
		// check against it.
		if len(args) == 2 {
			if fi, err := os.Stat(inDir(wd, args[1])); err == nil && fi.IsDir() {
				if _, err := gitext.Discover(inDir(wd, args[1]), envOf(c).getenv); err == nil {
					return usageError("%s is a folder in a repository, not a SIGNATURE (.jws): to check the bundle against that repository, write --repo=%s", args[1], args[1])
				}
			}
		}
		return nil
	}
	for i, a := range args {
		if fi, err := os.Stat(inDir(wd, a)); err == nil && fi.IsDir() {
			role := "ARCHIVE"
			if i == 1 {
				role = "SIGNATURE"
			}
			return usageError("%s is a folder, read as the %s because --repo takes its folder only after \"=\": write --repo=%s "+
				"(--repo alone means the repository around the working folder)", a, role, a)
		}
	}
	return nil
}

// repoArg is --repo[=DIR] as the user gave it, for the repository check (repocheck.Open); nil without --repo.
func repoArg(c *ucli.Command, env *Env, wd string) *repocheck.Flag {
	v, ok := c.Generic("repo").(*repoValue)
	if !ok || !v.set {
		return nil
	}
	return &repocheck.Flag{Dir: v.dir, Wd: wd, Getenv: env.getenv, Notice: env.notice}
}
