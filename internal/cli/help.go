package cli

import (
	ucli "github.com/urfave/cli/v3"
)

// Help pages. urfave/cli names a command by its path from the program ("git-bernstein verify"); git runs us as
// `git bernstein`, so the pages say that, and each ends with the exit codes. Otherwise these are urfave/cli's
// own templates.
const (
	// helpPath is the command's path as the user types it: "git bernstein lineage v2 verify".
	helpPath = `git bernstein{{range $i, $n := .Path}}{{if $i}} {{$n}}{{end}}{{end}}`
	helpName = `{{$v := offset .FullName 6}}` + helpPath + `{{if .Usage}} - {{wrap .Usage $v}}{{end}}`

	rootHelpTemplate = `NAME:
   ` + helpName + `

USAGE:
   ` + helpPath + ` {{if .VisibleFlags}}[global options]{{end}}{{if .VisibleCommands}} command [command options]{{end}}{{if .Version}}{{if not .HideVersion}}

VERSION:
   {{.Version}}{{end}}{{end}}{{if .VisibleCommands}}

COMMANDS:{{template "visibleCommandCategoryTemplate" .}}{{end}}{{if .VisibleFlags}}

GLOBAL OPTIONS:{{template "visibleFlagTemplate" .}}{{end}}

` + exitCodesHelp + `
`

	commandHelpTemplate = commandHelpPage + exitCodesHelp + "\n"

	// commandHelpPage is a command's page up to its exit codes, which lineage's commands have their own of.
	commandHelpPage = `NAME:
   ` + helpName + `

USAGE:
   {{if .UsageText}}{{wrap .UsageText 3}}{{else}}` + helpPath + `{{if .VisibleFlags}} [command options]{{end}}{{if .ArgsUsage}} {{.ArgsUsage}}{{end}}{{end}}{{if .Description}}

DESCRIPTION:
   {{template "descriptionTemplate" .}}{{end}}{{if .VisibleFlags}}

OPTIONS:{{template "visibleFlagTemplate" .}}{{end}}

`

	subcommandHelpTemplate = `NAME:
   ` + helpName + `

USAGE:
   {{if .UsageText}}{{wrap .UsageText 3}}{{else}}` + helpPath + `{{if .VisibleFlags}} [command options]{{end}}{{if .ArgsUsage}} {{.ArgsUsage}}{{end}}{{end}}{{if .Description}}

DESCRIPTION:
   {{template "descriptionTemplate" .}}{{end}}{{if .VisibleCommands}}

COMMANDS:{{template "visibleCommandCategoryTemplate" .}}{{end}}{{if .VisibleFlags}}

OPTIONS:{{template "visibleFlagTemplate" .}}{{end}}

` + exitCodesHelp + `
`
)

// urfave/cli v3 shows the page of a command that has subcommands (`lineage --help`, `lineage` alone) with its
// package-wide SubcommandHelpTemplate, not the command's own; this honours the command's, as its other pages
// do. Set once, before any run.
func init() {
	ucli.ShowSubcommandHelp = func(cmd *ucli.Command) error {
		tmpl := cmd.CustomHelpTemplate
		if tmpl == "" {
			tmpl = ucli.SubcommandHelpTemplate
		}
		ucli.HelpPrinter(cmd.Root().Writer, tmpl, cmd)
		return nil
	}
}

// setLocal keeps a flag to the command that declares it: urfave/cli v3 otherwise offers a command's flags to
// its subcommands too, which `bundle ticket` (its own set) and `lineage v2 …` do not take.
func setLocal(f ucli.Flag) {
	switch f := f.(type) {
	case *ucli.StringFlag:
		f.Local = true
	case *ucli.BoolFlag:
		f.Local = true
	case *ucli.StringSliceFlag:
		f.Local = true
	case *ucli.IntFlag:
		f.Local = true
	case *ucli.Int64Flag:
		f.Local = true
	case *ucli.IntSliceFlag:
		f.Local = true
	case *ucli.GenericFlag:
		f.Local = true
	case optionalValueFlag:
		f.Local = true
	}
}
