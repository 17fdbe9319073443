package report

import (
	"bytes"
	_ "embed"
	"html/template"
	"io"
	"sync"

	"github.com/git-bernstein/git-bernstein/internal/report/csp"

	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

//go:embed report.css
var style string

//go:embed report.html.tmpl
var pageTemplate string

// The pictures (pictures.go) keep their templates and style in files of their own.
var (
	//go:embed pictures.html.tmpl
	picturesTemplate string
	//go:embed pictures.css
	picturesStyle string
)

// pageStyle is the page's one style sheet, whose hash the CSP allows.
func pageStyle() string { return style + picturesStyle }

// tmpl is parsed when a page is first written, not at every command's start-up (a fifth of what all packages'
// initialisation allocated).
var tmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"short": func(s string) string {
			if len(s) > 12 {
				return s[:12]
			}
			return s
		},
		"deref":    func(p *int) int { return *p },
		"add":      func(a, b int) int { return a + b },
		"barwidth": func() int { return picBarWidth },
	}).Parse(pageTemplate + picturesTemplate))
})

// Policy is the page's Content Security Policy: nothing may load or be sent (default-src 'none', and the
// directives that do not fall back to it), and the one inline style is allowed by its hash, not by
// 'unsafe-inline'. The page has no script at all.
func Policy() string {
	return "default-src 'none'; style-src " + csp.Hash(pageStyle()) + "; img-src 'none'; base-uri 'none'; form-action 'none'"
}

// Write renders the bundle's page to w. version names the git-bernstein that made it.
func Write(w io.Writer, b *Bundle, version string) error {
	var buf bytes.Buffer
	err := tmpl().Execute(&buf, struct {
		CSP   string
		Style template.CSS
		P     *page
		Pics  *pictures
	}{Policy(), template.CSS(pageStyle()), build(b, version), buildPictures(b)})
	if err != nil {
		return err
	}
	// The template has no control characters of its own, so this cleans every bundle string at once, wherever
	// it was shown: escaping makes bundle text inert as HTML, this keeps it from rearranging or hiding what the
	// reader sees (bidi overrides, escape sequences).
	_, err = io.WriteString(w, termtext.CleanText(buf.String()))
	return err
}
