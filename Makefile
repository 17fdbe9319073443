# git-bernstein: `make demo` shows the main job on a demo repository, `make test` runs every test.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
# The version is what Go stamps from the clone (the commit, -dirty with changes, or a tag on it), exactly as
# `go build` and `go install ./cmd/git-bernstein` name it; VERSION=… overrides it for a release build. Go
# stamps nothing in a linked worktree, so the same commit and -dirty rule (git status --porcelain, as Go
# reads it) is passed as a fallback used only then.
VERSION ?=
GO      ?= go
BUILDINFO := github.com/git-bernstein/git-bernstein/internal/buildinfo
FALLBACK := $(shell git rev-parse HEAD 2>/dev/null | cut -c1-7)$(shell [ -n "$$(git status --porcelain 2>/dev/null)" ] && echo -dirty)
LDFLAGS := -s -w $(if $(VERSION),-X $(BUILDINFO).version=$(VERSION)) $(if $(FALLBACK),-X $(BUILDINFO).fallback=$(FALLBACK))
BIN     := bin/git-bernstein
FULL    := bin/git-bernstein-full
DEMO    ?= build/demo
FUZZTIME ?= 60s

.PHONY: all build install uninstall release demo test test-browser test-cosign verify-wasm vet lint fmt fuzz bench clean modules

all: build

# Long steps say what they do before they start, and tool chatter ("go: downloading …", apt's progress and
# debconf notes) goes to a log under build/ that is printed only when the step fails.
LOG := build/make.log
quiet = mkdir -p build; ( $(1) ) >$(LOG) 2>&1 || { cat $(LOG); exit 1; }

# The Go modules, fetched once into Go's module cache (about a minute on a fresh machine).
modules:
	@GOPROXY=off GOFLAGS=-mod=mod $(GO) mod download -json >/dev/null 2>&1 || { echo "downloading Go modules (the first time: about a minute)…"; $(call quiet,$(GO) mod download -x); }

# CGO_ENABLED=0: a static binary (no cgo, as the release builds it), which also starts faster: no dynamic loader
# and no libc mapped into every run of the hook.
build: modules
	@echo "building $(BIN) and $(FULL) (the first build compiles every dependency: a minute or two)…"
	@$(call quiet,CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=auto -ldflags '$(LDFLAGS)' -o bin/ ./cmd/git-bernstein ./cmd/git-bernstein-full)
	@$(BIN) --version

MANDIR  ?= $(PREFIX)/share/man/man1

# git turns `git bernstein --help` into `man git-bernstein`, so the manual page is installed too. It is
# rendered by its own program (internal/manpage), so that the binary does not carry the renderer.
install: build
	@echo "installing git-bernstein and git-bernstein-full to $(DESTDIR)$(BINDIR) and the manual page to $(DESTDIR)$(MANDIR)"
	@install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	@install -m 0755 $(FULL) $(DESTDIR)$(BINDIR)/git-bernstein-full
	@install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/git-bernstein
	@$(GO) run ./internal/manpage/cmd/manpage > $(DESTDIR)$(MANDIR)/git-bernstein.1.tmp
	@mv $(DESTDIR)$(MANDIR)/git-bernstein.1.tmp $(DESTDIR)$(MANDIR)/git-bernstein.1
	@echo "done: run 'git bernstein help'; shell completion: see README, \"Shell completion\""

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/git-bernstein $(DESTDIR)$(BINDIR)/git-bernstein-full $(DESTDIR)$(MANDIR)/git-bernstein.1

# A release that proves itself (internal/release/doc.go): the binaries for linux, darwin and windows × amd64 and arm64,
# built as `build` builds (-trimpath, this LDFLAGS) plus an empty build id and CGO_ENABLED=0, so that two runs on
# one commit give the same bytes; then the CycloneDX SBOM, SHA256SUMS and its .sig, and the SLSA provenance
# (.intoto.jsonl, .sigstore.json), signed with SIGN_KEY (else git config bernstein.signingKey) as SIGN_KID
# (default: the SSH key's fingerprint). `git bernstein verify-release $(RELEASE) --card CARD` checks it.
RELEASE  ?= build/release
SIGN_KEY ?=
SIGN_KID ?=
release: modules
	@echo "building the release into $(RELEASE): 6 targets, several minutes the first time…"
	@$(GO) run ./internal/release/cmd/release -out '$(RELEASE)' -ldflags '$(LDFLAGS)' $(if $(SIGN_KEY),-sign-key '$(SIGN_KEY)') $(if $(SIGN_KID),-sign-kid '$(SIGN_KID)')
	@cat '$(RELEASE)/SHA256SUMS'

# The demo puts our binary first on PATH so that `git bernstein` runs it, exactly as after `make install`.
demo: build
	@sh testdata/demo/make-demo-repo.sh $(DEMO)
	@sh testdata/demo/run-demo.sh $(DEMO) $(CURDIR)/bin

# The S3 store's tests need a real S3 server with Object Lock: versitygw (Apache-2.0), built from the Go module
# proxy at a pinned version into build/tools/ (about 80 s, once per version), run by internal/s3test/gateway on
# 127.0.0.1 with a posix backend under build/s3 (versioning on; metadata in a sidecar folder where the filesystem
# has no user xattrs), and stopped by its pid when the tests end, pass or fail. The tests read its endpoint and the
# run's credentials from BERNSTEIN_TEST_S3_*; plain `go test` skips them.
VERSITYGW_VERSION := v1.8.0
VERSITYGW := build/tools/versitygw-$(VERSITYGW_VERSION)/versitygw
S3DIR := build/s3

$(VERSITYGW):
	@echo "building versitygw $(VERSITYGW_VERSION) for the S3 tests (once: about 80 s)…"
	@$(call quiet,GOBIN=$(CURDIR)/$(dir $@) $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION))

test: vet lint $(VERSITYGW)
	@echo "running go test ./... (the first run compiles every package and its tests: a few minutes)…"
	@$(GO) build -o build/tools/s3gateway ./internal/s3test/gateway
	@env=$$(build/tools/s3gateway start $(VERSITYGW) $(S3DIR)) || exit 1; eval "$$env"; \
	  trap 'build/tools/s3gateway stop $(S3DIR)' EXIT INT TERM; \
	  echo "S3 server (versitygw $(VERSITYGW_VERSION)) at $$BERNSTEIN_TEST_S3_ENDPOINT"; \
	  $(GO) test -count=1 -timeout 20m ./...

# The view and verify-page pages in headless Chromium (Debian's package, installed when missing; as root in CI):
# each page from file://, the demo bundle signed, tampered and unsigned, no network request. Screenshots land in
# build/browser/.
test-browser: demo
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  echo "installing chromium with apt (about a minute)…"; \
	  $(call quiet,$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium); }
	@echo "running the page tests in headless chromium; screenshots go to build/browser/"
	BERNSTEIN_BROWSER_TESTS=1 BERNSTEIN_DEMO=$(CURDIR)/$(DEMO) $(GO) test -tags browser -count=1 -timeout 5m -v ./internal/browsertest/

# Real cosign checks what we sign, offline, as README's recipes do (`cosign verify-blob-attestation --bundle
# X.sigstore.json --key card.pub.pem --insecure-ignore-tlog --type …`, and `--signature X.intoto.jsonl`): a
# bundle's attestation and a release's provenance, intact and tampered with. cosign v3 and v2 (Apache-2.0) are
# built from the Go module proxy at pinned versions into build/tools/cosign-<version>/ (several minutes each,
# once per version; a new pin builds anew) and handed to the tests in BERNSTEIN_TEST_COSIGN. Not part of `make
# test`: the builds alone are longer than CI's 10-minute budget.
COSIGN_VERSIONS := v3.1.3 v2.6.5
COSIGNS := $(foreach v,$(COSIGN_VERSIONS),build/tools/cosign-$(v)/cosign)
space := $() $()

# The module's major version is the pin's first part: github.com/sigstore/cosign/v3 for v3.1.3.
build/tools/cosign-%/cosign:
	@echo "building cosign $* for test-cosign (once: several minutes)…"
	@$(call quiet,CGO_ENABLED=0 GOBIN=$(CURDIR)/$(dir $@) $(GO) install \
	  github.com/sigstore/cosign/$(firstword $(subst ., ,$*))/cmd/cosign@$*)

test-cosign: $(COSIGNS)
	BERNSTEIN_TEST_COSIGN='$(subst $(space),:,$(addprefix $(CURDIR)/,$(COSIGNS)))' \
	  $(GO) test -count=1 -tags cosign -run TestCosign -v ./internal/cli

# Rebuild the browser verifier that verify-page embeds (commit internal/verifypage afterwards).
verify-wasm:
	$(GO) generate ./internal/verifypage

vet: modules
	@echo "checking gofmt and go vet…"
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo 'gofmt: files above need formatting (run make fmt)'; exit 1; }
	$(GO) vet ./...
	@echo "checking that the windows build compiles and vets (GOOS=windows go vet)…"
	GOOS=windows $(GO) vet ./...

# golangci-lint with .golangci.yml (staticcheck, unused, errcheck, govet, ineffassign, revive's receiver-naming),
# built once from the module proxy at the pinned version into build/tools (a few minutes the first time; a new
# version gets a new file name, so bumping GOLANGCI_VERSION rebuilds it).
GOLANGCI_VERSION := v2.15.0
GOLANGCI := build/tools/golangci-lint-$(GOLANGCI_VERSION)

$(GOLANGCI):
	@echo "building golangci-lint $(GOLANGCI_VERSION) into build/tools (once: a few minutes)…"
	@$(call quiet,GOBIN=$(CURDIR)/build/tools.tmp $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION) && mkdir -p build/tools && mv build/tools.tmp/golangci-lint $@ && rm -rf build/tools.tmp)

lint: modules $(GOLANGCI)
	@echo "running golangci-lint $(GOLANGCI_VERSION)…"
	$(GOLANGCI) run ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

fuzz:
	@for t in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  for f in $$(grep -h '^func Fuzz' $$t/*_test.go | sed 's/func \(Fuzz[A-Za-z0-9_]*\).*/\1/'); do \
	    echo "== $$t $$f"; $(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$t || exit 1; \
	  done; \
	done

# Go benchmarks of the hot paths, then the comparisons against git, tar and gzip on generated inputs (cached
# under .cache/bench: a 200,000-commit repository and 1 GiB of .sdd files), written to BENCHMARKS.md; and, when
# BERNSTEIN_BENCH_REPOS names a folder of fresh `git clone --no-local` clones (kafka, nova, go-git, commons-lang),
# first and warm runs on those real repositories, and the post-merge hook on Kafka and commons-lang (skipped with a
# message otherwise; BENCHFLAGS=-only=real runs only them); and, when BERNSTEIN_BENCH_MONOREPO names a number of
# commits (1000000 for issue 26's size), the same on a monorepo of that many commits generated once with git
# fast-import into the cache (minutes to hours; BENCHFLAGS=-only=mono runs only it).
BENCHFLAGS ?=
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./internal/benchcompare -bin $(BIN) $(BENCHFLAGS)

clean:
	rm -rf bin build
