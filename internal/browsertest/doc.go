// Package browsertest holds the browser tests of the HTML pages (`view` and `verify-page`): headless Chromium,
// driven over the DevTools protocol through a pipe (--remote-debugging-pipe), so no port is opened and no
// client library is needed. They run only with BERNSTEIN_BROWSER_TESTS=1 (`make test-browser`), and build only
// with the tag browser: without it `go test ./...` does not link a test binary (the whole CLI) that would skip.
package browsertest
