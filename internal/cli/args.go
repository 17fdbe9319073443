package cli

import (
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// positional returns the command's positional arguments, applying any flags that follow them. urfave/cli stops
// parsing flags at the first argument, but users (and the Bernstein docs) write `bundle ticket github ENG-42
// --out x.tar.gz`, as git's own commands allow. "--" ends flag parsing.
func positional(c *ucli.Context) ([]string, error) {
	args := c.Args().Slice()
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		fl := lookupFlag(c.Command, name)
		if fl == nil {
			return nil, usageError("flag provided but not defined: %s; see 'git bernstein help %s'", a, c.Command.Name)
		}
		if isBoolFlag(fl) && !hasVal {
			val = "true"
		} else if !hasVal {
			if i+1 >= len(args) {
				return nil, usageError("flag needs an argument: %s", a)
			}
			i++
			val = args[i]
		}
		if err := c.Set(name, val); err != nil {
			return nil, usageError("invalid value %q for flag %s: %v", val, a, err)
		}
	}
	return pos, nil
}

// isBoolFlag says whether a flag may stand alone: a BoolFlag, or a flag whose value says it is boolean to
// the flag parser (--repo[=DIR]).
func isBoolFlag(fl ucli.Flag) bool {
	if o, ok := fl.(optionalValueFlag); ok {
		fl = o.GenericFlag
	}
	if _, ok := fl.(*ucli.BoolFlag); ok {
		return true
	}
	if g, ok := fl.(*ucli.GenericFlag); ok {
		b, ok := g.Value.(interface{ IsBoolFlag() bool })
		return ok && b.IsBoolFlag()
	}
	return false
}

func lookupFlag(cmd *ucli.Command, name string) ucli.Flag {
	if cmd == nil {
		return nil
	}
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}
