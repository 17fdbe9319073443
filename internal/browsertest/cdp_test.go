//go:build browser

package browsertest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// browser is headless Chromium spoken to over --remote-debugging-pipe: JSON messages ended by a NUL byte, the
// browser reading fd 3 and writing fd 4.
type browser struct {
	t       *testing.T
	cmd     *exec.Cmd
	w       *os.File
	mu      sync.Mutex
	nextID  int
	waiting map[int]chan message
	events  []message
}

type message struct {
	ID        int                       `json:"id,omitempty"`
	Method    string                    `json:"method,omitempty"`
	Params    json.RawMessage           `json:"params,omitempty"`
	Result    json.RawMessage           `json:"result,omitempty"`
	Error     *struct{ Message string } `json:"error,omitempty"`
	SessionID string                    `json:"sessionId,omitempty"`
}

// chromiumFlags are what Chromium needs as root on a machine with no network (see the machine notes): no
// sandbox, no GPU, none of its own background connections, a fresh profile.
func chromiumFlags(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-default-apps",
		"--disable-extensions", "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"}
}

func startBrowser(t *testing.T, bin string) *browser {
	t.Helper()
	toBrowser, ourEnd, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromBrowser, theirEnd, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, chromiumFlags(t.TempDir())...)
	cmd.ExtraFiles = []*os.File{toBrowser, theirEnd} // fd 3, fd 4
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	toBrowser.Close()
	theirEnd.Close()
	b := &browser{t: t, cmd: cmd, w: ourEnd, waiting: map[int]chan message{}}
	go b.read(fromBrowser)
	t.Cleanup(func() {
		b.call("", "Browser.close", nil)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	})
	return b
}

func (b *browser) read(r *os.File) {
	br := bufio.NewReader(r)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.waiting[m.ID]
			delete(b.waiting, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		b.mu.Lock()
		b.events = append(b.events, m)
		b.mu.Unlock()
	}
}

// call sends a command (to the page session when session is set) and returns its result.
func (b *browser) call(session, method string, params any) (json.RawMessage, error) {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan message, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	data, _ := json.Marshal(msg)
	if _, err := b.w.Write(append(data, 0)); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		return m.Result, nil
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("%s: no answer in 30 s", method)
	}
}

// page opens a new tab and returns its session.
func (b *browser) page() *tab {
	b.t.Helper()
	res, err := b.call("", "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		b.t.Fatal(err)
	}
	var target struct{ TargetID string }
	json.Unmarshal(res, &target)
	res, err = b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true})
	if err != nil {
		b.t.Fatal(err)
	}
	var att struct{ SessionID string }
	json.Unmarshal(res, &att)
	tb := &tab{b: b, session: att.SessionID}
	for _, m := range []string{"Page.enable", "Network.enable", "Runtime.enable", "Log.enable"} {
		tb.must(m, nil)
	}
	tb.must("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false})
	return tb
}

type tab struct {
	b       *browser
	session string
}

func (tb *tab) must(method string, params any) json.RawMessage {
	tb.b.t.Helper()
	res, err := tb.b.call(tb.session, method, params)
	if err != nil {
		tb.b.t.Fatal(err)
	}
	return res
}

// eval runs a JavaScript expression in the page and returns its value.
func (tb *tab) eval(expr string) any {
	tb.b.t.Helper()
	res := tb.must("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	var r struct {
		Result struct {
			Value any
		}
		ExceptionDetails *struct{ Text string }
	}
	json.Unmarshal(res, &r)
	if r.ExceptionDetails != nil {
		tb.b.t.Fatalf("%s: %s", expr, r.ExceptionDetails.Text)
	}
	return r.Result.Value
}

// waitFor polls expr until it is a non-empty string or true.
func (tb *tab) waitFor(expr string, timeout time.Duration) any {
	tb.b.t.Helper()
	v, err := tb.poll(expr, timeout)
	if err != nil {
		tb.b.t.Fatal(err)
	}
	return v
}

func (tb *tab) poll(expr string, timeout time.Duration) (any, error) {
	deadline := time.Now().Add(timeout)
	for {
		v := tb.eval(expr)
		if s, ok := v.(string); (ok && s != "") || v == true {
			return v, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("waited %v for %s", timeout, expr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// seen returns the events of this tab so far, and forgets them.
func (tb *tab) seen() []message {
	tb.b.mu.Lock()
	defer tb.b.mu.Unlock()
	var mine, rest []message
	for _, m := range tb.b.events {
		if m.SessionID == tb.session {
			mine = append(mine, m)
		} else {
			rest = append(rest, m)
		}
	}
	tb.b.events = rest
	return mine
}
