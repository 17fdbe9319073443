// Package gcpace sets the garbage collector's pace for a run of `commits`, which allocates in two very
// different ways: a warm run answered by the ticket index allocates a few megabytes and should never collect,
// and a run that walks all history holds a node per commit until it exits. The pace is the process's setting:
// the programs' mains pass these functions to the CLI (cli.Env.SmallHeap, LongHeap) and to the front, so that
// no package under them changes it. GOGC set in the environment always wins.
package gcpace

import (
	"os"
	"runtime"
	"runtime/debug"
)

// CollectLate lets the heap reach 16 MB before the first collection (GOGC=400; Go's floor is 4 MB × GOGC/100),
// unless GOGC is set; `commits` asks for it (cli.Env.SmallHeap), and keeps it when the ticket index answers. A
// warm run allocates 7 to 9 MB: at GOGC=200 it collected once, at 8 MB, a sixth of its CPU time on Kafka
// (21 ms -> 18 ms). A run that walks all history calls CollectLess as soon as it starts to.
func CollectLate() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

// CollectLess halves how often the garbage collector runs (GOGC=200), unless GOGC is set; `commits` asks for it
// when it walks all history (cli.Env.LongHeap): it then holds a node per commit of history, live until it exits
// a fraction of a second later: at Go's default pace (GOGC=100) a warm run on 70000 commits collected three
// times while decoding and reading, a ninth of its time (36 ms -> 32 ms; GOGC=off: 30 ms). The price is memory
// while it runs, twice the live heap rather than once: cheap on Kafka's history (11 MB live at most), not on
// Nova's (20 MB live, 49 MB of heap) or a monorepo's (a first run on 200,000 commits held 86 MB live and peaked
// at 195 MB of heap), so once the live heap passes bigHeap the run goes back to Go's pace. Only commits does this; bundle keeps Go's pace and its memory bound.
func CollectLess() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
		afterHeapReaches(bigHeap, func() { debug.SetGCPercent(100) })
	}
}

// bigHeap is the live heap (after a collection) from which a long run collects at Go's default pace. On Nova's
// first run that took 17 MiB off the peak RSS (116 -> 99 MiB) for 2 to 3% more CPU; Kafka's stays under it.
const bigHeap = 16 << 20

// afterHeapReaches calls f once, after the first garbage collection that leaves at least limit bytes live (the
// heap allocated just after it: what it kept, and the little allocated since it ended). It looks after every
// collection (a finalizer runs once a cycle has found its object unreachable), so it costs nothing between
// collections and needs no goroutine that polls. ReadMemStats stops the world for microseconds once a cycle;
// runtime/metrics, which reads the live heap exactly, costs 0.06 ms of package init on every run, a warm
// `commits` run's included.
func afterHeapReaches(limit uint64, f func()) {
	var arm func()
	arm = func() {
		s := &cycleSentinel{}
		runtime.SetFinalizer(s, func(*cycleSentinel) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc >= limit {
				f()
				return
			}
			arm()
		})
	}
	arm()
}

// cycleSentinel is an object only the collector sees go: its finalizer marks the end of a cycle. It holds a
// pointer so that it is not one of the tiny objects the allocator packs together, whose finalizers may wait.
type cycleSentinel struct{ _ *int }
