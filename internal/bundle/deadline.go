package bundle

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// ErrDeadline is wrapped by Build's error when Options.Deadline passed before the archive was written. Nothing is
// left behind, as with any error; the post-merge hook reports the ticket as left for later.
var ErrDeadline = errors.New("the time allowed ran out")

// clock holds a build to Options.Deadline. Hashing and packing a large .sdd is most of a bundle's time, so the
// deadline is also checked on every read of a member, not only between steps: a hook's budget then bounds a
// bundle of gigabytes too.
type clock struct {
	deadline time.Time // zero: none
	now      func() time.Time
}

func newClock(opts Options) clock {
	c := clock{deadline: opts.Deadline, now: opts.Now}
	if c.now == nil {
		c.now = time.Now
	}
	return c
}

// check is ErrDeadline, saying what was being done, once the deadline has passed.
func (c clock) check(doing string) error {
	if !c.deadline.IsZero() && !c.now().Before(c.deadline) {
		return fmt.Errorf("%s: %w (the deadline was %s)", doing, ErrDeadline, c.deadline.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// reader is r checked against the deadline before every read.
func (c clock) reader(r io.Reader, name string) io.Reader {
	if c.deadline.IsZero() {
		return r
	}
	return &deadlineReader{r: r, c: c, name: name}
}

type deadlineReader struct {
	r    io.Reader
	c    clock
	name string
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	if err := d.c.check("read " + d.name); err != nil {
		return 0, err
	}
	return d.r.Read(p)
}
