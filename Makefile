# lsp-hook — build, test, demo and benchmarks.
#
#   make test    install pinned language servers and agent CLIs into ./.tools, then go vet (every platform), actionlint, go test -race, the MCP Inspector check, the real-agent suite and the Windows unit tests under Wine
#   make demo    build, then replay recorded Claude Code events against testdata/demo
#   make soak    the long form of the compiler-judged soak (SOAK_CALLS hook calls, default 1000; SOAK_SEED replays one)
#   make bench   every bench section against baselines measured in the same run; writes docs/benchmarks.md

GO            ?= go
TOOLS         := $(CURDIR)/.tools
GOPLS_VERSION := v0.23.0
REVIEWDOG_VERSION := v0.21.0
ACTIONLINT_VERSION := v1.7.12
GORELEASER_VERSION := v2.15.1
BIN           := $(CURDIR)/bin/lsp-hook

export PATH := $(TOOLS)/bin:$(TOOLS)/npm/node_modules/.bin:$(PATH)

.PHONY: all build tools bench-tools apt-tools apt-install lint-actions release-snapshot test agents-test soak vet cross wine-test fmt-check demo bench fuzz clean

all: build

# -buildvcs=auto stamps the git revision (lsp-hook version: devel+<rev>,
# or the go command's pseudo-version) even where GOFLAGS turns it off.
# BUILD_TAGS leaves out urfave/cli's man-page and markdown writers
# (docs.go), which lsp-hook never calls: their markdown package's init
# took 0.4 ms of every hook's start (issue 18, "Hook process start").
# CGO_ENABLED=0, as the release builds (.goreleaser.yaml): a static binary
# starts without the dynamic loader, 0.5-0.7 ms of every hook on Linux
# (`lsp-hook version` 4.4 vs 5.0 ms, a JSON hook 6.1 vs 6.4-6.9 ms, 200
# runs each), and lsp-hook needs no C: its sockets are Unix ones.
BUILD_TAGS    := urfave_cli_no_docs
build:
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -tags $(BUILD_TAGS) -o $(BIN) ./cmd/lsp-hook

# Language servers the tests run against, pinned: gopls with go install,
# pyright, typescript and typescript-language-server with npm ci from
# tools/package-lock.json, clangd, clang and shellcheck from Debian's packages. Stamp files record
# what was installed so a version bump reinstalls. reviewdog, with go
# install, reads diagnose's rdjson in the tests as CI runs it; actionlint,
# with go install, lints the GitHub Action and its example workflow.
tools: $(TOOLS)/gopls-$(GOPLS_VERSION).stamp $(TOOLS)/reviewdog-$(REVIEWDOG_VERSION).stamp $(TOOLS)/actionlint-$(ACTIONLINT_VERSION).stamp $(TOOLS)/npm.stamp $(TOOLS)/ci.stamp $(TOOLS)/agents.stamp apt-tools

$(TOOLS)/actionlint-$(ACTIONLINT_VERSION).stamp:
	mkdir -p $(TOOLS)/bin
	GOBIN=$(TOOLS)/bin $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
	touch $@

$(TOOLS)/reviewdog-$(REVIEWDOG_VERSION).stamp:
	mkdir -p $(TOOLS)/bin
	GOBIN=$(TOOLS)/bin $(GO) install github.com/reviewdog/reviewdog/cmd/reviewdog@$(REVIEWDOG_VERSION)
	touch $@

$(TOOLS)/gopls-$(GOPLS_VERSION).stamp:
	mkdir -p $(TOOLS)/bin
	GOBIN=$(TOOLS)/bin $(GO) install golang.org/x/tools/gopls@$(GOPLS_VERSION)
	touch $@

$(TOOLS)/npm.stamp: tools/package.json tools/package-lock.json
	mkdir -p $(TOOLS)/npm
	cp tools/package.json tools/package-lock.json $(TOOLS)/npm/
	cd $(TOOLS)/npm && npm ci --no-audit --no-fund
	touch $@

# Consumers of diagnose's output the tests run (sarif-multitool), pinned
# in tools/ci, installed apart from the servers.
$(TOOLS)/ci.stamp: tools/ci/package.json tools/ci/package-lock.json
	mkdir -p $(TOOLS)/ci
	cp tools/ci/package.json tools/ci/package-lock.json $(TOOLS)/ci/
	cd $(TOOLS)/ci && npm ci --no-audit --no-fund
	touch $@

# The agent CLIs the real-agent suite (./agentsuite) drives, pinned in
# tools/agents/package-lock.json, in a directory of their own so that
# reinstalling them never touches the language servers in $(TOOLS)/npm.
# Their install scripts do not run (npm's default): each CLI runs from its
# platform package as installed.
$(TOOLS)/agents.stamp: tools/agents/package.json tools/agents/package-lock.json
	mkdir -p $(TOOLS)/agents
	cp tools/agents/package.json tools/agents/package-lock.json $(TOOLS)/agents/
	npm ci --prefix $(TOOLS)/agents --no-audit --no-fund
	touch $@

# The peer make bench measures beside lsp-hook (issue 18): cli-lsp-client,
# pinned in tools/bench/package-lock.json as its Linux x64 build (the
# registry serves the platform package; its launcher package is gone), an
# optional dependency, so other platforms install nothing and the bench
# says the peer is missing. BENCH_TOOLS is where it goes, overridable
# (e.g. to try it without touching a shared .tools).
BENCH_TOOLS ?= $(TOOLS)/bench
PEER_BIN    := $(BENCH_TOOLS)/node_modules/cli-lsp-client-linux-x64/bin/cli-lsp-client
bench-tools: $(BENCH_TOOLS)/bench.stamp

$(BENCH_TOOLS)/bench.stamp: tools/bench/package.json tools/bench/package-lock.json
	mkdir -p $(BENCH_TOOLS)
	cp tools/bench/package.json tools/bench/package-lock.json $(BENCH_TOOLS)/
	npm ci --prefix $(BENCH_TOOLS) --no-audit --no-fund
	touch $@

# clangd, shellcheck (the built-in shell linter the tests run) and clang
# (`clang -fsyntax-only`: the soak's judge of C, the bench's C baseline)
# and pre-commit (TestPreCommit runs .pre-commit-hooks.yaml with
# `pre-commit try-repo`): installed with apt when missing (as root, or
# through sudo).
APT_TOOLS := clangd shellcheck clang pre-commit
apt-tools:
	@$(MAKE) --no-print-directory apt-install PKGS="$(APT_TOOLS)"

# apt-install PKGS="…": install the programs of PKGS that are not on PATH;
# an entry is a package whose program shares its name, or package:program.
apt-install:
	@missing=; for t in $(PKGS); do command -v $${t#*:} >/dev/null 2>&1 || missing="$$missing $${t%%:*}"; done; \
	[ -z "$$missing" ] || { \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; }

fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.tools/*'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Every platform a release ships, built, vetted and its test binaries
# linked, without cgo, so a Linux-only call cannot land: go vet and
# go test -c for each GOOS/GOARCH of CROSS_PLATFORMS. Only linux/amd64 runs
# the tests here (README "Install" says what ran where).
CROSS_PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
cross:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for p in $(CROSS_PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; echo "cross $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -tags $(BUILD_TAGS) -o "$$tmp/bin/" ./cmd/lsp-hook; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) vet ./...; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) test -c -o "$$tmp/$$os-$$arch/" ./... >/dev/null; \
	done

# The Windows unit tests of the pure packages (WINE_PKGS), built for
# windows/amd64 and run under Debian's Wine (installed with apt when
# missing, with mingw-w64 to build scripts/wine/bcryptprimitives.c: Wine 8.0
# lacks the ProcessPrng every Go >= 1.24 program needs at start-up) in a
# Wine prefix of its own under .tools/wine. Wine 8 has no AF_UNIX and no
# working symlinks (those rows skip), and cannot remove a directory the
# way Go 1.26 asks (internal/testdir logs it). Each binary runs in its
# package's directory, as go test runs it (testdata/). One wineserver
# serves them all (-p30 keeps it between binaries: a binary started while
# the last one's server shut down once failed with no output, under
# make test's load), and a failure prints its exit status. About 8 s once set up,
# 9 s with a fresh prefix; installing wine and mingw-w64 with apt adds
# about a minute the first time.
# Not yet: diag, parsers and hooks, whose tests still write unix-absolute
# paths ("/r/a.go", file:///tmp/... fixtures captured on Linux), which are
# not absolute on Windows (internal/testdir.Abs is the way to port them).
WINE_PKGS   ?= ./internal/safefile ./internal/filelock ./internal/privdir ./internal/fileuri ./internal/proc ./config ./validators ./install
WINE_PREFIX := $(TOOLS)/wine/prefix
wine-test:
	@$(MAKE) --no-print-directory apt-install PKGS="wine gcc-mingw-w64-x86-64-win32:x86_64-w64-mingw32-gcc"
	@set -e; mkdir -p $(TOOLS)/wine/bin; \
	export WINEPREFIX=$(WINE_PREFIX) WINEDEBUG=-all; \
	wineserver -p30 >/dev/null 2>&1 || true; \
	dll=$(WINE_PREFIX)/drive_c/windows/system32/bcryptprimitives.dll; \
	if [ ! -f "$$dll" ]; then \
		wineboot --init >/dev/null 2>&1; \
		x86_64-w64-mingw32-gcc -O2 -shared -o "$$dll" scripts/wine/bcryptprimitives.c -ladvapi32; \
	fi; \
	failed=; for pkg in $(WINE_PKGS); do \
		CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) test -c -o $(TOOLS)/wine/bin/t.exe $$pkg; \
		echo "wine $$pkg"; (cd $$pkg && wine $(TOOLS)/wine/bin/t.exe -test.count=1 -test.timeout=5m) || { echo "exit status $$?"; failed="$$failed $$pkg"; }; \
	done; \
	if [ -n "$$failed" ]; then echo "failed under Wine:$$failed"; exit 1; fi

# actionlint lints workflows, not action metadata: it checks the example
# workflow as it is; TestActionMetadata, TestActionlint and
# TestActionExampleInReadme (cmd/lsp-hook/action_test.go) check action.yml
# against the documented metadata syntax, run actionlint, with shellcheck,
# over its steps and over the example using the action as `uses: ./`, and
# keep README's copy of the example the linted file.
lint-actions: $(TOOLS)/actionlint-$(ACTIONLINT_VERSION).stamp
	actionlint -shellcheck shellcheck docs/examples/lsp-hook.yml
	LSP_HOOK_REQUIRE_SERVERS=1 $(GO) test -short -count=1 -run '^TestAction' ./cmd/lsp-hook

# After go test, the MCP Inspector CLI (pinned in the script) lists
# `lsp-hook mcp`'s tools; skipped when npx is missing. go test runs the
# soak's short form (./soak, 208 judged hook calls). cross builds, vets and
# links the tests of every other platform; agents-test drives the real
# agent CLIs (run on its own, outside -race: the suite's time is the CLIs');
# wine-test runs the Windows unit tests that Wine can run. cmd/lsp-hook's
# end-to-end suite is the longest package: 17 minutes here beside the
# others under -race (25 before its compiler runs were kept by the files
# they judge, memoTruth: tsc -p takes 5 s a run), past go test's default
# 10-minute limit per package: the limit is 25 minutes.
test: tools fmt-check vet lint-actions cross build
	LSP_HOOK_REQUIRE_SERVERS=1 $(GO) test -race -count=1 -timeout 25m $$($(GO) list ./... | grep -v /agentsuite$$)
	./scripts/mcp-inspector-check.sh $(BIN)
	@$(MAKE) --no-print-directory agents-test
	@$(MAKE) --no-print-directory wine-test

# goreleaser (built here with go install; not part of make tools: it takes
# about 3 minutes to build) for make release-snapshot.
$(TOOLS)/goreleaser-$(GORELEASER_VERSION).stamp:
	mkdir -p $(TOOLS)/bin
	GOBIN=$(TOOLS)/bin $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)
	touch $@

# A release as .goreleaser.yaml makes it, offline and unpublished: the
# linux and darwin × amd64 and arm64 binaries, archives and checksums.txt
# in dist/ (goreleaser release --snapshot --clean; version
# <next patch>-snapshot), then the npm packages in dist/npm
# (tools/npmpack), then TestReleaseNPM: npm install --offline of lsp-hook
# and this platform's package into a temp prefix, and `lsp-hook version`
# through the launcher. Not part of make test: goreleaser takes about 3
# minutes to build and the first snapshot cross-builds for 4 (8 s warm);
# TestPackages, in make test, checks the packages and the launcher from a
# fake dist.
release-snapshot: $(TOOLS)/goreleaser-$(GORELEASER_VERSION).stamp
	goreleaser release --snapshot --clean
	$(GO) run ./tools/npmpack -dist dist -out dist/npm
	LSP_HOOK_RELEASE_DIST=$(CURDIR)/dist $(GO) test -count=1 -run '^TestReleaseNPM$$' -v ./tools/npmpack

# The real-agent suite (./agentsuite): each agent CLI of tools/agents,
# installed by `make tools`, driven against a scripted model on 127.0.0.1;
# a CLI that is missing fails the run (LSP_HOOK_REQUIRE_AGENTS=1) instead
# of skipping. AGENTS_FLAGS adds go test flags, e.g. -run TestAgents/claude
# or -args -record (rewrites testdata/agents/<agent>/cli-*.json). It needs
# gopls and the agents only, so it installs only those.
AGENTS_FLAGS ?=
agents-test: $(TOOLS)/gopls-$(GOPLS_VERSION).stamp $(TOOLS)/agents.stamp
	LSP_HOOK_REQUIRE_AGENTS=1 LSP_HOOK_REQUIRE_SERVERS=1 $(GO) test -count=1 -timeout 5m ./agentsuite $(AGENTS_FLAGS)

# The soak's long form: SOAK_CALLS hook calls over Go, Python, TypeScript
# and C, every answer judged against the compiler (soak/doc.go). A random
# seed unless SOAK_SEED is set; the report prints it.
SOAK_CALLS ?= 1000
soak: tools
	LSP_HOOK_REQUIRE_SERVERS=1 SOAK_CALLS=$(SOAK_CALLS) $(GO) test -count=1 -timeout 90m -run '^TestSoak$$' -v ./soak

# Every go test -fuzz target of FUZZPKGS (default all) for FUZZTIME each
# (default 30s), one after another, with FUZZPARALLEL workers (default
# GOMAXPROCS; 1 on a shared machine). Minimizing a new input is capped at
# 5s: with Go's default (60s) one minimization can eat the whole run. Every
# target runs even when one fails; the failed ones are listed at the end.
# A crasher lands in the package's testdata/fuzz and fails go test from
# then on, as a regression test.
FUZZTIME     ?= 30s
FUZZPKGS     ?= ./...
FUZZPARALLEL ?=
fuzz:
	@failed=; for pkg in $$($(GO) list $(FUZZPKGS)); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s \
				$(if $(FUZZPARALLEL),-parallel $(FUZZPARALLEL)) $$pkg || failed="$$failed $$pkg.$$f"; \
		done; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz targets that failed:$$failed"; exit 1; fi

demo: build tools
	LSP_HOOK_BIN=$(BIN) ./scripts/demo.sh

# The report goes to stdout and, as Markdown with the machine and the
# command that reproduces it, to BENCH_MD, with the charts of its
# latencies beside it as SVG (BENCH_MD with .svg for .md). BENCH_FLAGS
# adds bench flags, e.g. BENCH_FLAGS='-note "a shared, loaded machine"' or
# -only json,load. The peer (bench-tools) runs beside lsp-hook.
BENCH_MD    ?= docs/benchmarks.md
BENCH_FLAGS ?=
bench: build tools bench-tools
	$(GO) run ./bench -bin $(BIN) -peer $(PEER_BIN) -md $(BENCH_MD) $(BENCH_FLAGS)

clean:
	rm -rf bin
