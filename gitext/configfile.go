package gitext

import (
	"fmt"
	"io"

	"github.com/go-git/gcfg/scanner"
	"github.com/go-git/gcfg/token"
)

// readConfigFile reads one git config file (git-config(1), "CONFIGURATION FILE") and calls add with each
// variable's section, subsection ("" for none), name and value, in file order; a name without "=" has the
// value "". Each section header is given too, with the name "" (a section may hold no variable). It is
// go-git's config decoder (plumbing/format/config, which calls gcfg.ReadWithCallback) on gcfg's own scanner:
// the same tokens, the same checks and the same error messages. It does not import the gcfg package itself,
// whose struct-filling half links encoding/gob and reflect, a tenth of a millisecond of start-up on every run
// of the front for a file of a few lines.
func readConfigFile(r io.Reader, add func(section, subsection, name, value string)) error {
	src, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	var errs scanner.ErrorList
	s.Init(file, src, func(p token.Position, m string) { errs.Add(p, m) }, 0)
	sect, sectsub := "", ""
	pos, tok, lit := s.Scan()
	errAt := func(msg string) error { return fmt.Errorf("%s: %s", fset.Position(pos), msg) }
	// gcfg's collector treats every error of this reader as fatal: the first one ends the read.
	for {
		if errs.Len() > 0 {
			return errs.Err()
		}
		switch tok {
		case token.EOF:
			return nil
		case token.EOL, token.COMMENT:
			pos, tok, lit = s.Scan()
		case token.LBRACK:
			pos, tok, lit = s.Scan()
			if errs.Len() > 0 {
				return errs.Err()
			}
			if tok != token.IDENT {
				return errAt("expected section name")
			}
			sect, sectsub = lit, ""
			pos, tok, lit = s.Scan()
			if errs.Len() > 0 {
				return errs.Err()
			}
			if tok == token.STRING {
				if sectsub = unquoteConfig(lit); sectsub == "" {
					return errAt("empty subsection name")
				}
				pos, tok, _ = s.Scan()
				if errs.Len() > 0 {
					return errs.Err()
				}
			}
			if tok != token.RBRACK {
				if sectsub == "" {
					return errAt("expected subsection name or right bracket")
				}
				return errAt("expected right bracket")
			}
			pos, tok, lit = s.Scan()
			if tok != token.EOL && tok != token.EOF && tok != token.COMMENT {
				return errAt("expected EOL, EOF, or comment")
			}
			add(sect, sectsub, "", "")
		case token.IDENT:
			if sect == "" {
				return errAt("expected section header")
			}
			n := lit
			pos, tok, lit = s.Scan()
			if errs.Len() > 0 {
				return errs.Err()
			}
			blank, v := tok == token.EOF || tok == token.EOL || tok == token.COMMENT, ""
			if !blank {
				if tok != token.ASSIGN {
					return errAt("expected '='")
				}
				pos, tok, lit = s.Scan()
				if errs.Len() > 0 {
					return errs.Err()
				}
				if tok != token.STRING {
					return errAt("expected value")
				}
				v = unquoteConfig(lit)
				pos, tok, lit = s.Scan()
				if errs.Len() > 0 {
					return errs.Err()
				}
				if tok != token.EOL && tok != token.EOF && tok != token.COMMENT {
					return errAt("expected EOL, EOF, or comment")
				}
			}
			add(sect, sectsub, n, v)
		default:
			if sect == "" {
				return errAt("expected section header")
			}
			return errAt("expected section header or variable declaration")
		}
	}
}

// configUnescape is what an escape stands for in a config value (gcfg's table, but for a backslash before the
// end of the line, which unquoteConfig drops); ok is false for none.
func configUnescape(c rune) (rune, bool) {
	switch c {
	case '\\', '"':
		return c, true
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'b':
		return '\b', true
	}
	return 0, false
}

// unquoteConfig is gcfg's unquote: quotes dropped, escapes replaced. A backslash at the end of a line continues
// the value on the next, in quotes or not, and stands for nothing, as in git (config.c, parse_value); gcfg, and
// go-git with it, kept a newline there inside quotes. The scanner has refused any literal it could not read, so
// what reaches it is well formed.
func unquoteConfig(s string) string {
	u, q, esc := make([]rune, 0, len(s)), false, false
	for _, c := range s {
		if esc {
			esc = false
			if c == '\n' {
				continue
			}
			uc, ok := configUnescape(c)
			if !ok {
				panic("invalid escape sequence")
			}
			u = append(u, uc)
			continue
		}
		switch c {
		case '"':
			q = !q
		case '\\':
			esc = true
		default:
			u = append(u, c)
		}
	}
	if q {
		panic("missing end quote")
	}
	if esc {
		panic("invalid escape sequence")
	}
	return string(u)
}
