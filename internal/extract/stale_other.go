//go:build !unix

package extract

import "os"

// lockNow does nothing where there is no flock: staging folders are still marked, but never swept.
func lockNow(*os.File) error { return nil }

// removeIfAbandoned removes nothing: without a lock nothing proves a staging folder's writer gone.
func removeIfAbandoned(parent, name string) (Stale, sweepOutcome) { return Stale{}, unproven }
