//go:build browser

package browsertest

import (
	"fmt"
	"strconv"
)

// checkPictures looks at the view page's pictures as drawn: the verdict badge (sticky at the top, linking to the
// check lines), and, for a bundle whose archive check passed, the activity timeline and the diffstat bars, each
// present and with a real size on screen. The page's network and CSP silence is checked by the caller.
func checkPictures(tb *tab, verdict string) {
	t := tb.b.t
	t.Helper()
	num := func(expr string) float64 {
		v := tb.eval(expr)
		f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
		if err != nil {
			t.Errorf("%s: %v", expr, v)
		}
		return f
	}
	if got := tb.eval(`document.querySelector("#badge a").textContent`); !startsWith(fmt.Sprint(got), verdict) {
		t.Errorf("badge says %q, want %s", got, verdict)
	}
	if got := tb.eval(`getComputedStyle(document.getElementById("badge")).position`); got != "sticky" {
		t.Errorf("badge position %v, want sticky", got)
	}
	if got := tb.eval(`document.querySelector("#badge a").getAttribute("href")`); got != "#verdict" {
		t.Errorf("badge links to %v", got)
	}
	// Scrolled to the end, the badge is still at the top of the window.
	tb.eval(`window.scrollTo(0, document.body.scrollHeight), 0`)
	if top := num(`document.getElementById("badge").getBoundingClientRect().top`); top < -1 || top > 1 {
		t.Errorf("scrolled down, the badge is at %v px, not at the top", top)
	}
	tb.eval(`window.scrollTo(0, 0), 0`)

	if w := num(`document.getElementById("timeline").getBoundingClientRect().width`); w < 400 {
		t.Errorf("timeline %v px wide", w)
	}
	if h := num(`document.getElementById("timeline").getBoundingClientRect().height`); h < 50 {
		t.Errorf("timeline %v px high", h)
	}
	if n := num(`document.querySelectorAll("#timeline .lane").length`); n < 2 {
		t.Errorf("timeline has %v lanes, want one per actor (the demo has several)", n)
	}
	if n := num(`Array.from(document.querySelectorAll("#timeline rect[class^=k-]")).filter((r) => r.getBoundingClientRect().width > 0 && r.getBoundingClientRect().height > 0).length`); n < 5 {
		t.Errorf("timeline draws %v marks", n)
	}
	if w := num(`Math.max(...Array.from(document.querySelectorAll("#pictures .bar-add")).map((r) => r.getBoundingClientRect().width))`); w < 20 {
		t.Errorf("widest + bar %v px", w)
	}
	if got := tb.eval(`getComputedStyle(document.querySelector("#pictures .bar-add")).fill`); got == "rgb(0, 0, 0)" || got == "" {
		t.Errorf("diffstat bars unstyled (fill %v): the CSP refused the style", got)
	}
}

func startsWith(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
