package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
)

// genSDD writes files of about size bytes each under dir/traces, named for ticket, with log-like JSONL that
// compresses about as well as real agent traces (a ratio of roughly 3-5).
func genSDD(dir, ticket string, files int, size int64, seed int64) error {
	traces := filepath.Join(dir, "traces")
	if err := os.MkdirAll(traces, 0o755); err != nil {
		return err
	}
	rnd := rand.New(rand.NewSource(seed))
	words := []string{"plan", "edit", "read", "tool_call", "shell", "apply_patch", "test", "lint", "review",
		"src/login.py", "src/auth.go", "pkg/server", "ok", "error", "retry", "model", "tokens", "latency_ms"}
	for i := 0; i < files; i++ {
		path := filepath.Join(traces, fmt.Sprintf("%s-session-%05d.jsonl", ticket, i))
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 256<<10)
		var n int64
		for seq := 0; n < size; seq++ {
			line := fmt.Sprintf(`{"seq":%d,"span":"%s","target":"%s","status":"%s","ms":%d,"tokens":%d,"note":"%s %s %x"}`+"\n",
				seq, words[rnd.Intn(9)], words[9+rnd.Intn(3)], words[12+rnd.Intn(3)], rnd.Intn(5000), rnd.Intn(90000),
				words[rnd.Intn(len(words))], words[rnd.Intn(len(words))], rnd.Uint64())
			if n+int64(len(line)) > size {
				line = line[:size-n-1] + "\n"
			}
			w.WriteString(line)
			n += int64(len(line))
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
