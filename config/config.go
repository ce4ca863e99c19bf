package config

import (
	"encoding/json"
	"fmt"
	"os"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"
	"gopkg.in/yaml.v3"

	"github.com/lsp-hook/lsp-hook/internal/safefile"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// Config is the effective configuration of one workspace.
type Config struct {
	// LSP configures language servers (the `lsp:` key; `lsp: false` sets
	// LSP.Enabled to false and turns every server off).
	LSP LSP
	// Severity is the lowest severity shown: "error", "warning", "info" or
	// "hint" (the `severity:` key). Default "error".
	Severity string
	// Validators switches the built-in validators by kind: "json" (also
	// covers JSONC), "yaml", "toml". A kind missing from the map is on.
	Validators map[string]bool
	// IdleTimeout is how long the daemon lives without a request
	// (`idle_timeout:`, a Go duration such as "30m"). Default 30 minutes.
	IdleTimeout time.Duration
	// OnlyNew shows only the diagnostics a change introduced, hiding those
	// that were there before it (`only_new:`, default false). A request's
	// own only_new overrides it.
	OnlyNew bool
	// Linters are the compiler-mode checkers by name (`linters:`): the
	// built-ins (BuiltinLinters) overlaid by config.
	Linters map[string]Linter
	// Output caps the lint block (`output:`).
	Output Output
	// Hooks is the `hooks:` list of YAML hook declarations as written (nil
	// when absent); package hooks decodes and validates it.
	Hooks *yaml.Node
	// NavigationTools is false after `navigation_tools: false`, which hides
	// the MCP navigation tools (`lsp-hook mcp`). Default true.
	NavigationTools bool
	// StopGate is `stop_gate:`: what the end of an agent's turn does with
	// the errors its session introduced that remain — "block" the end of
	// the turn once, "warn" (report them), or "off". "" means "block"
	// (StopGateMode).
	StopGate string
	// AutoInstall, when set (`auto_install: true`), lets the daemon install
	// a missing go- or npm-distributed server in the background the first
	// time a file needs it; the check that found it missing does not wait.
	// A workspace config file turns it on only once trusted (trust.go).
	AutoInstall bool
	// MemoryBudget is `memory_budget:`, which only the user config file
	// sets: the most resident memory, in bytes, that all of this user's
	// daemons and their language servers' process trees may hold together
	// before the least recently used idle servers are stopped (DESIGN.md
	// "Memory"). 0 means no budget; MemoryBudgetAuto (the default) means
	// DefaultMemoryBudgetShare of the machine's memory, resolved by the
	// daemon.
	MemoryBudget int64
	// Sources maps each dotted key a config file set ("lsp.timeout",
	// "linters.ruff.command") to "file:line"; keys absent here have their
	// built-in value.
	Sources map[string]string
	// Untrusted lists the keys of the workspace config file that run or
	// install programs (lsp.servers.NAME.command, .env, .settings or
	// .initialization_options, linters.NAME.command, auto_install) and were
	// skipped because the file is not trusted (`lsp-hook trust`; see
	// trust.go).
	Untrusted []string
	// WorkspaceTrusted is true once `lsp-hook trust` was run in this
	// workspace (TrustedWorkspace), config file or not: only then may a
	// program that lies inside the workspace (node_modules/.bin/eslint, a
	// linter command given as a workspace-relative path) run. Default
	// false.
	WorkspaceTrusted bool
	// Files lists the config files that were read, most important first.
	Files []string
	// Root is the workspace root the config was loaded for (Load); it
	// bounds the marker lookups of Server.RootRequired and GivesWay. ""
	// for Default.
	Root string
}

// LSP is the `lsp:` section.
type LSP struct {
	// Enabled is false after `lsp: false`.
	Enabled bool
	// Timeout is the per-server wait for fresh diagnostics once the server
	// is warm (`lsp.timeout`, default 3s).
	Timeout time.Duration
	// FirstTouchTimeout is the wait when the change is the server's first
	// (`lsp.first_touch_timeout`, default 10s): start-up and loading the
	// workspace count against it.
	FirstTouchTimeout time.Duration
	// IdleServerTimeout is how long a running server may go without a
	// check before it is shut down to free its memory; the next file that
	// needs it starts it again (`lsp.idle_server_timeout`, default 10m).
	IdleServerTimeout time.Duration
	// DocumentIdleTimeout is how long a document stays open in its server
	// without a check naming it before it gets didClose
	// (`lsp.document_idle_timeout`, default 5m).
	DocumentIdleTimeout time.Duration
	// MaxOpenDocuments is how many documents one server may have open; past
	// it the least recently checked get didClose (`lsp.max_open_documents`,
	// default 200).
	MaxOpenDocuments int
	// Servers is the server catalogue after config overrides, by name.
	Servers map[string]Server
}

// Server describes one language server: how to run it and which files it
// serves.
type Server struct {
	// Name is the catalogue key, e.g. "gopls".
	Name string
	// Command is argv: the program and its arguments, e.g. ["gopls", "serve"].
	Command []string
	// Extensions are the file extensions served, with the dot: [".go"].
	Extensions []string
	// FileNames are base names served whatever their extension, compared
	// case-sensitively: ["Dockerfile", "Containerfile"]. ServersForPath and
	// ServesPath consider them; ServersFor, which takes an extension, does not.
	FileNames []string
	// LanguageIDs maps an extension, or one of FileNames, to its LSP
	// language identifier (LSP 3.17 "Text Document Item" table, or the
	// identifier the language's own editor extension uses where that table
	// has none), e.g. ".go" → "go", "Dockerfile" → "dockerfile".
	LanguageIDs map[string]string
	// RootMarkers are file names whose nearest containing directory is the
	// server's root, tried in order: the first marker found anywhere up to
	// the workspace root wins (gopls: go.work before go.mod). A marker may
	// be a glob of path.Match ("*.project.json"), or a JSON or TOML file
	// and a dotted key it must set ("package.json#workspaces"; MarkerDir).
	RootMarkers []string
	// RootRequired makes the server serve a file only when one of
	// RootMarkers is found from its directory up to the workspace root
	// (luau-lsp: .lua files in a Rojo project only).
	RootRequired bool
	// GivesWay lists markers (globs as in RootMarkers) under which the
	// server serves no file: another server owns them there
	// (lua-language-server leaves a Rojo project's .lua files to luau-lsp).
	GivesWay []string
	// Enabled is false when config turned the server off.
	Enabled bool
	// FirstTouchTimeout, when positive, is this server's wait on a change
	// that is its first touch (start-up included) in place of
	// LSP.FirstTouchTimeout: config key first_touch_timeout, or a Claude
	// Code .lsp.json's startupTimeout (milliseconds there).
	FirstTouchTimeout time.Duration
	// Env is added to the server's environment.
	Env map[string]string
	// Watch is a companion command (argv) run beside the server, in its
	// root and environment, for as long as it runs, started again with
	// back-off when it exits (lsp/companion.go): a watcher that keeps a
	// file the server reads fresh as sources change, like luau-lsp's
	// `rojo sourcemap --watch`. It runs only in a trusted workspace.
	// Config key watch.
	Watch []string
	// InitializationOptions is sent as `initializationOptions` in initialize.
	InitializationOptions any
	// Settings answers `workspace/configuration`: the item whose section
	// is "a.b" gets Settings["a"]["b"]; an empty section gets Settings.
	Settings map[string]any
	// Install says how the server's program is installed (`lsp-hook
	// servers install`); the zero value for a server defined in config.
	Install Install
	// LoadErrorProgress are titles of work-done progress the server keeps
	// open for as long as it cannot load the workspace (gopls: "Error
	// loading workspace", its message the load error, until go.mod is
	// fixed). A check never waits for one to end, and while one is open
	// the answer is partial and quotes its message: the server then
	// publishes nothing for files it cannot load, which is not clean.
	// Catalogue only.
	LoadErrorProgress []string
	// LoadErrorMessages are the beginnings of window/showMessage texts of
	// type Error (LSP 3.17 "MessageType" 1) by which the server says it
	// could not load the workspace folder at all (gopls: "Error loading
	// workspace folders", internal/server/general.go addFolders, sent
	// when `go env` or `go list` fails: a go.mod naming a toolchain that
	// cannot be downloaded under GOTOOLCHAIN=auto). Such a server
	// publishes nothing but "no package" warnings for the folder's files
	// and never loads it again by itself: from the message on, every
	// answer is partial and quotes it, and once one of RootMarkers'
	// files changes the server is started afresh. Catalogue only.
	LoadErrorMessages []string
	// OpenReplacingModules makes a check of a change of a Go module open
	// one importer of the changed package in each module of the root that
	// replaces that module by its directory (a replace directive naming a
	// file path) and has no document open: a server that makes a module's
	// view only for a file it is given (gopls) says nothing of such a
	// module's callers otherwise (lsp/gomodules.go). Catalogue only.
	OpenReplacingModules bool
	// RecheckUnloaded makes the answer for a Go file whose package the
	// server may not have loaded yet a preliminary one: the file is sent
	// again, as a new version with the same text, and the answer to that
	// version is the one taken. Such a file is one in a directory new to
	// the server (created after the server started, no document of the
	// client's in it yet), or one whose build constraint (a //go:build
	// line) is new: opened with one, or changed to another. gopls answers
	// a file of a package it has not loaded with an empty list, loads the
	// package afterwards, and publishes its errors only when something
	// else changes. Measured with v0.23.0: 0 of 4 first files' type
	// errors of new directories in the first answer, each in the answer
	// to the next change; a `//go:build ignore` file (a standalone
	// program, gopls's standaloneTags), opened cold or warm or changed to
	// it from a package's file, answered empty where `go build FILE`
	// reports its type error, every time (lsp/gobuild.go). Catalogue only.
	RecheckUnloaded bool
	// ProjectFiles are the base names (or globs of path.Match) of the
	// files that say how the server checks the files under them — its
	// project configuration, read when it starts or opens a file:
	// tsconfig.json, pyrightconfig.json, compile_flags.txt. A change of
	// one, in a root the server runs in or under it, starts that server
	// afresh (or starts it, when it was not running there), and the files
	// it serves under its root, the documents it had open first, are
	// checked again with the check of the change (lsp/project.go): without
	// it a tsconfig.json turning "strict" on was answered in silence while
	// tsc reported errors. A server that takes such a file as a document
	// (gopls: go.mod, FileNames) needs none. Catalogue only.
	ProjectFiles []string
	// SavedOnlyFiles are the base names of the documents the server
	// takes only as saved on disk when it loads the files under them: a
	// text the client sends for one (didOpen, didChange) that differs from
	// the file is not what the server checks the other files against.
	// gopls loads package metadata — the module's requirements and its
	// language version — with the go command, which reads go.mod, go.sum
	// and go.work from disk, and loads it again only when one is saved
	// (golang/go#43305). Measured with v0.23.0: go.mod at "go 1.20" on
	// disk and a file using the max builtin (go1.21); a didOpen of go.mod
	// at "go 1.25.0" got go.mod's own empty publication and no new one for
	// that file, whose error stood. So the text before a change of one
	// cannot be shown to the server (lsp.Client.showBefore), and what a
	// server that may have read the change from disk as it loaded says of
	// the files the change can reach is no baseline of what it introduced
	// there: the soak's "older-go-configured" at a cold daemon (seed
	// 5686079508259208714, Go #1) was a false clean. Catalogue only.
	SavedOnlyFiles []string
	// OpenDependents says the server diagnoses open documents only: a
	// file that imports a changed one gets no diagnostics (pushed, or in
	// a pull's answer) until it is opened, so a check that wants the
	// callers a change broke opens them (lsp.ImportIndex finds them).
	// False for servers that diagnose the whole workspace by themselves
	// (gopls, rust-analyzer) and for those whose diagnostics never depend
	// on another file (ruff, linters). Each catalogue entry that sets it
	// says what was measured. Catalogue only.
	OpenDependents bool
	// ClosesGoneAcross says the server takes a watched-file deletion
	// (workspace/didChangeWatchedFiles) of a file outside its root — one
	// its program resolved from another root's directory, pyright's
	// extraPaths — only after a debounce, while closing a document of a
	// file that is gone re-reads it at once. So when such a file is
	// deleted (lsp.Manager.Gone, carried to the roots whose files import
	// it), a server that has no document of it open is sent one, an empty
	// text, and its close straight after. Catalogue only.
	ClosesGoneAcross bool
	// IgnoresUnchangedText says the server publishes nothing for a
	// didChange that leaves a document's text as it was (clangd skips the
	// rebuild), so a check that must have a fresh answer for an unchanged
	// document (a re-checked importer, a file whose header changed) closes
	// and opens it again instead (lsp.Doc.Recheck). Catalogue only.
	IgnoresUnchangedText bool
	// MtimeSeconds says the server takes a file whose size and
	// modification time, in whole seconds, are those it read it with for
	// unchanged (clangd 14 reuses a preamble so: clang's
	// PrecompiledPreamble::CanReuse), so a second text of the same size
	// written within the second of the first is never read by the open
	// documents it builds. A check of a file other files include, modified
	// in a second in which the client sent the server a text, re-opens
	// every open document (lsp/samesecond.go). Catalogue only.
	MtimeSeconds bool
	// DoneSignal names how the server tells that its answer to a change
	// is complete, so a check of it waits for that signal and then Settle,
	// not for a fixed window (SettleFor): work-done progress that ends
	// once its diagnostics are published (gopls), the answer to a
	// diagnostic pull (pyright), tsserver's answers to the requests
	// lsp-hook passes through (typescript-language-server), the answer to
	// a request sent after the change to a server that handles its
	// messages in order (clangd --sync). Each catalogue entry that sets it
	// says what was measured. "" (a server the catalogue does not
	// describe) gets the window the check asks for: lsp.DefaultSettle for
	// a write, lsp.EditSettle for an edit. Catalogue only.
	DoneSignal DoneSignal
	// InOrderArg is the command-line argument that makes the server handle
	// each message to the end, publications included, before it reads the
	// next one (clangd's --sync): SignalInOrder holds only while Command
	// has it, so a configured command without it falls back to a settle
	// window. Catalogue only.
	InOrderArg string
	// WarningsOnlyArgs are command-line arguments that turn off a part of
	// the server whose findings are warnings unless a project file raises
	// them (WarningsConfigFiles): clangd's --clang-tidy=false, since
	// clang-tidy's checks give warnings unless a .clang-tidy's
	// WarningsAsErrors makes them, and every other warning, errors. The
	// manager adds them only while the lowest severity shown is error, no
	// check asked for less, no file named in WarningsConfigFiles is in the
	// server's root, above it or under it, and Command does not already
	// set the same flag (lsp/warnings.go). Catalogue only.
	WarningsOnlyArgs []string
	// WarningsConfigFiles are the file names that keep WarningsOnlyArgs
	// off: clangd's .clang-tidy. Catalogue only.
	WarningsConfigFiles []string
	// UncheckedMessages are the beginnings of the diagnostic messages with
	// which the server says it could not check a file at all (gopls: "No
	// packages found for open file", for a file no package it loads
	// includes, such as one a //go:build line with a custom tag excludes).
	// Such a diagnostic is a warning, which the default threshold hides,
	// so the answer would be silence: a file with errors shown as clean.
	// lsp-hook takes it out of the file's diagnostics and says the file was
	// not checked, at every threshold (lsp.Outcome.Unchecked). Catalogue
	// only.
	UncheckedMessages []string
	// StaleIgnoredMessages are parts of the UncheckedMessages with which
	// the server says a Go file is left out of its build for no reason it
	// can name. gopls v0.23.0 says so ("This file is ignored by your gopls
	// build.") of a file that lost its //go:build line, from its package's
	// files loaded before, until it restarts — and meanwhile the package's
	// other files call what the file declares undefined, where `go build`
	// builds them (lsp TestGoplsBuildConstrainedFile). When such a file's text
	// has no build constraint and imports no "C" (cgo, which the build
	// leaves out when cgo is off), the manager restarts the server, once
	// for that text, and checks again (lsp/gobuild.go). Catalogue only.
	StaleIgnoredMessages []string
	// EmbedReloadCommand is a workspace/executeCommand command, given
	// [{"URI": uri}] of a Go file, that makes the server load that file's
	// packages afresh, their //go:embed matches included. gopls v0.23.0
	// reads what a //go:embed pattern matches only as it loads a package
	// (go list's EmbedFiles) and not when such a file is created or
	// deleted: a deleted embedded file left its package's "pattern …: no
	// matching files found", which `go build` reports, unsaid, and a file
	// created for a pattern left that error standing where `go build`
	// builds (lsp TestGoplsEmbeddedFiles). gopls.regenerate_cgo resets the
	// view, which loads every package again. When a file that a //go:embed
	// directive of a package at or above it may match is created or
	// deleted, the client runs the command before its next check and
	// re-checks the embedding files (lsp/embed.go). Catalogue only.
	EmbedReloadCommand string
	// ImportedExtensions are the extensions (with the dot) of files the
	// server does not check but its languages import: TypeScript's JSON
	// modules (.json, with compilerOptions.resolveJsonModule), whose
	// change breaks the importers (`config.port` gone from config.json:
	// tsc reports server.ts) while only the JSON validator was asked, and
	// answered clean. A changed file of these, which no server checks,
	// has its importers (the import rules of the server's first
	// extension) checked again by the server, as other files
	// (lsp/imported.go). Catalogue only.
	ImportedExtensions []string
	// DependencyDirs are directories under the server's root, named as
	// the watcher's skipped ones are (node_modules), whose packages the
	// server resolves imports from: before each check the client tells it
	// the packages that appeared there or went since the last one, as
	// created or deleted directories (lsp/depdirs.go), which the watcher,
	// never descending into them, would not. Catalogue only.
	DependencyDirs []string
	// VirtualEnvSetting is the dotted setting, a list of directories, in
	// which the server takes more import roots (pyright's
	// python.analysis.extraPaths). When set, the manager finds the
	// project's Python virtual environment (.venv or venv, with a
	// pyvenv.cfg, in the server's root or a parent up to the workspace
	// root, unless VIRTUAL_ENV is set) and appends its site-packages and
	// the directories its .pth files name there, without running its
	// interpreter (lsp/venv.go). Catalogue only.
	VirtualEnvSetting string
	// VirtualEnvInterpreterSetting is the dotted setting, a path, naming
	// an interpreter whose import paths are those of the virtual
	// environment VirtualEnvSetting finds (pyright's python.pythonPath):
	// the server runs that interpreter to list its import paths, and a
	// list the project's own config file sets (pyright's extraPaths in
	// pyrightconfig.json or [tool.pyright]) replaces VirtualEnvSetting's
	// but not those. In a trusted workspace (Config.WorkspaceTrusted) it
	// is the environment's own interpreter; otherwise a stand-in that runs
	// nothing of the workspace (lsp/standin.go; unix only). Catalogue only.
	VirtualEnvInterpreterSetting string
	// Settle is how long a check of this server keeps collecting after
	// every changed document has a fresh answer and its signals say its
	// work is done, in case something more arrives (a wave restarts it):
	// the whole window while its DoneSignal is in use, else the shortest
	// window a check uses. 0: none. Catalogue only.
	Settle time.Duration
}

// DoneSignal is how a server tells that its answer to a change is
// complete (Server.DoneSignal).
type DoneSignal string

// The signals a server can give that its answer to a change is complete.
const (
	// SignalNone: the server gives none the catalogue trusts; its checks
	// wait a settle window.
	SignalNone DoneSignal = ""
	// SignalProgress: work-done progress ($/progress, LSP 3.17 "Work Done
	// Progress") that begins with the change and ends once the
	// diagnostics it set off are published (gopls with its
	// verboseWorkDoneProgress option).
	SignalProgress DoneSignal = "progress"
	// SignalPull: the answer to a textDocument/diagnostic pull (LSP 3.17
	// "Document Diagnostics"), complete by definition (pyright).
	SignalPull DoneSignal = "pull"
	// SignalTsserver: tsserver's answers to the semanticDiagnosticsSync
	// and syntacticDiagnosticsSync requests lsp-hook passes through
	// typescript-language-server's _typescript.tsserverRequest command.
	SignalTsserver DoneSignal = "tsserver"
	// SignalInOrder: the answer to a request sent after the change's
	// notifications, from a server that handles every message to the end,
	// its publications sent, before it reads the next (Server.InOrderArg):
	// once it comes, everything the change set off has been published.
	// The request is one no server implements ("$/" method, LSP 3.17
	// "$ Notifications and Requests": the server answers MethodNotFound at
	// once).
	SignalInOrder DoneSignal = "in-order"
)

// SettleFor returns the settle window a check of s uses when the caller
// asks for asked and signalling says whether the client has s's
// DoneSignal in use (a server version may offer no pull, and the tsserver
// pass-through can turn out not to work): s.Settle when it has, else the
// longer of asked and s.Settle, as for a server without a signal.
func (s Server) SettleFor(asked time.Duration, signalling bool) time.Duration {
	if s.DoneSignal != SignalNone && signalling {
		return s.Settle
	}
	return max(asked, s.Settle)
}

// LanguageID returns the LSP language identifier for a file extension (with
// the dot), or "" when the server does not serve it.
func (s Server) LanguageID(ext string) string { return s.LanguageIDs[ext] }

// LanguageIDFor returns the LSP language identifier for the file at path:
// by its base name when that is one of FileNames, else by its extension;
// "" when the server does not serve it.
func (s Server) LanguageIDFor(path string) string {
	base := filepath.Base(path)
	if slices.Contains(s.FileNames, base) {
		if id := s.LanguageIDs[base]; id != "" {
			return id
		}
	}
	return s.LanguageIDs[filepath.Ext(base)]
}

// Serves reports whether the server handles files with extension ext (with
// the dot, compared case-sensitively as servers do).
func (s Server) Serves(ext string) bool {
	return slices.Contains(s.Extensions, ext)
}

// ServesPath reports whether the server handles the file at path: its base
// name is one of FileNames, or its extension one of Extensions. A base name
// that is all extension (".bashrc") has that extension, as filepath.Ext
// says.
func (s Server) ServesPath(path string) bool {
	base := filepath.Base(path)
	return slices.Contains(s.FileNames, base) || s.Serves(filepath.Ext(base))
}

// Default durations (DESIGN.md "LSP client essentials" and "One change").
const (
	DefaultTimeout           = 3 * time.Second
	DefaultFirstTouchTimeout = 10 * time.Second
	DefaultIdleTimeout       = 30 * time.Minute
	// DefaultIdleServerTimeout is LSP.IdleServerTimeout's default.
	DefaultIdleServerTimeout = 10 * time.Minute
	// DefaultDocumentIdleTimeout is LSP.DocumentIdleTimeout's default.
	DefaultDocumentIdleTimeout = 5 * time.Minute
)

// DefaultMaxOpenDocuments is LSP.MaxOpenDocuments's default.
const DefaultMaxOpenDocuments = 200

// Default returns the built-in configuration: the catalogue's servers, on
// or off as Catalogue sets them; errors only; all validators on.
func Default() *Config {
	servers := make(map[string]Server)
	for _, s := range Catalogue() {
		servers[s.Name] = s
	}
	return &Config{
		LSP: LSP{
			Enabled:             true,
			Timeout:             DefaultTimeout,
			FirstTouchTimeout:   DefaultFirstTouchTimeout,
			IdleServerTimeout:   DefaultIdleServerTimeout,
			DocumentIdleTimeout: DefaultDocumentIdleTimeout,
			MaxOpenDocuments:    DefaultMaxOpenDocuments,
			Servers:             servers,
		},
		Severity:        "error",
		Validators:      map[string]bool{},
		IdleTimeout:     DefaultIdleTimeout,
		Linters:         defaultLinters(),
		NavigationTools: true,
		MemoryBudget:    MemoryBudgetAuto,
	}
}

// ValidatorEnabled reports whether the validator kind ("json", "jsonc",
// "yaml", "toml") is on; "jsonc" follows the "json" switch.
func (c *Config) ValidatorEnabled(kind string) bool {
	if kind == "jsonc" {
		kind = "json"
	}
	on, set := c.Validators[kind]
	return !set || on
}

// ServersFor returns the enabled servers that serve extension ext (with the
// dot), in name order; none when LSP is off. It does not see FileNames: a
// Dockerfile has no extension. ServersForPath does.
func (c *Config) ServersFor(ext string) []Server {
	return c.serversWhere(func(s Server) bool { return s.Serves(ext) })
}

// IsProjectFile reports whether path's base name matches one of s's
// ProjectFiles (a name, or a glob of path.Match: "tsconfig.*.json").
func (s Server) IsProjectFile(path string) bool {
	base := filepath.Base(path)
	return slices.ContainsFunc(s.ProjectFiles, func(pat string) bool {
		ok, _ := pathpkg.Match(pat, base)
		return ok
	})
}

// IsSavedOnly reports whether path's base name is one of s's
// SavedOnlyFiles.
func (s Server) IsSavedOnly(path string) bool {
	return slices.Contains(s.SavedOnlyFiles, filepath.Base(path))
}

// ServersForPath returns the enabled servers that serve the file at path,
// by base name (Server.FileNames) or extension (Server.ServesPath), in
// name order; none when LSP is off.
func (c *Config) ServersForPath(path string) []Server {
	return c.serversWhere(func(s Server) bool { return s.ServesPath(path) && c.markersAllow(s, path) })
}

// markersAllow reports whether s's RootRequired and GivesWay let it serve
// path, looking for markers up to c.Root (the filesystem's root when
// unset).
func (c *Config) markersAllow(s Server, path string) bool {
	if s.RootRequired {
		if _, ok := MarkerDir(path, s.RootMarkers, c.Root); !ok {
			return false
		}
	}
	if len(s.GivesWay) > 0 {
		if _, ok := MarkerDir(path, s.GivesWay, c.Root); ok {
			return false
		}
	}
	return true
}

// MarkerDir returns the directory holding the first of markers found,
// trying each marker in order from path's directory up to workspace (up
// to the filesystem's root when workspace is ""), and whether one was
// found. A marker is a file name, a glob of path.Match ("*.project.json")
// matched against the names in each directory, or a JSON or TOML file
// name and a dotted key, "package.json#workspaces": a file of that name
// that sets the key (keyedMarker).
func MarkerDir(path string, markers []string, workspace string) (string, bool) {
	for _, marker := range markers {
		if name, key, ok := strings.Cut(marker, "#"); ok {
			for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
				if workspace != "" && !ws.Inside(workspace, dir) {
					break
				}
				if keyedMarker(filepath.Join(dir, name), key) {
					return dir, true
				}
				if dir == workspace || dir == filepath.Dir(dir) {
					break
				}
			}
			continue
		}
		glob := strings.ContainsAny(marker, "*?[")
		for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
			if workspace != "" && !ws.Inside(workspace, dir) {
				break
			}
			if hasMarker(dir, marker, glob) {
				return dir, true
			}
			if dir == workspace || dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return "", false
}

// MarkerFile returns the file name a root marker looks for: the marker
// itself, or its file part ("package.json" of "package.json#workspaces").
func MarkerFile(marker string) string {
	name, _, _ := strings.Cut(marker, "#")
	return name
}

// NamesMarker reports whether the file at path is one a root marker of
// markers looks for, by its base name: the marker's file (MarkerFile),
// or a name its glob matches, as MarkerDir matches names in a directory.
// "package.json#workspaces" names every package.json, whether or not it
// sets the key.
func NamesMarker(path string, markers []string) bool {
	base := filepath.Base(path)
	return slices.ContainsFunc(markers, func(m string) bool {
		ok, _ := filepath.Match(MarkerFile(m), base)
		return ok
	})
}

// DecodeFile reads the file at path (following a symlink, at most max
// bytes: safefile.ReadFollow) and decodes it into v: as TOML when its
// extension is .toml (pyproject.toml), else as JSON with comments and
// trailing commas (JSONC: package.json, tsconfig.json,
// pyrightconfig.json). The error names the file.
func DecodeFile(path string, max int64, v any) error {
	text, err := safefile.ReadFollow(path, max)
	if err != nil {
		return err
	}
	if strings.EqualFold(filepath.Ext(path), ".toml") {
		_, err = toml.Decode(string(text), v)
	} else if text, err = hujson.Standardize(text); err == nil {
		err = json.Unmarshal(text, v)
	}
	if err != nil {
		return fmt.Errorf("decoding %s: %w", path, err)
	}
	return nil
}

// maxMarkerSize bounds what keyedMarker reads of a file.
const maxMarkerSize = 1 << 20

// maxMarkerMemo bounds the answers keyedMarker remembers.
const maxMarkerMemo = 1024

// markerMemo is what keyedMarker answered, per file and key, as of the
// file's size and modification time: a check asks for a file's root at
// every change, and the file rarely changes.
var markerMemo struct {
	sync.Mutex
	m map[[2]string]markerAnswer
}

// markerAnswer is one of keyedMarker's answers and the file it was for.
type markerAnswer struct {
	size    int64
	modTime time.Time
	set     bool
}

// keyedMarker reports whether the file at path, JSON (JSONC) or TOML by
// its extension, is a table that sets the dotted key: package.json's
// "workspaces" (npm, yarn and bun workspaces), pyproject.toml's
// "tool.uv.workspace". A file that is missing, larger than
// maxMarkerSize, not a regular file or not decodable is no marker. The
// answer is remembered until the file's size or modification time
// changes (markerMemo).
func keyedMarker(path, key string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	k := [2]string{path, key}
	markerMemo.Lock()
	a, ok := markerMemo.m[k]
	markerMemo.Unlock()
	if ok && a.size == fi.Size() && a.modTime.Equal(fi.ModTime()) {
		return a.set
	}
	set := fileSetsKey(path, key)
	markerMemo.Lock()
	if markerMemo.m == nil || len(markerMemo.m) >= maxMarkerMemo {
		markerMemo.m = make(map[[2]string]markerAnswer)
	}
	markerMemo.m[k] = markerAnswer{size: fi.Size(), modTime: fi.ModTime(), set: set}
	markerMemo.Unlock()
	return set
}

// fileSetsKey reads the file at path and reports whether it sets the
// dotted key (keyedMarker).
func fileSetsKey(path, key string) bool {
	var doc map[string]any
	if DecodeFile(path, maxMarkerSize, &doc) != nil {
		return false
	}
	var cur any = doc
	for _, part := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = m[part]; !ok {
			return false
		}
	}
	return true
}

// hasMarker reports whether dir holds marker (a glob when glob is set).
func hasMarker(dir, marker string, glob bool) bool {
	if !glob {
		_, err := os.Stat(filepath.Join(dir, marker))
		return err == nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if ok, _ := filepath.Match(marker, e.Name()); ok {
			return true
		}
	}
	return false
}

// serversWhere returns the enabled servers for which match holds, in name
// order; none when LSP is off. It sorts the names of the few that match,
// not the whole catalogue's: the daemon asks twice for each file a hook
// checks (issue 18, the JSON hook's round trip).
func (c *Config) serversWhere(match func(Server) bool) []Server {
	if !c.LSP.Enabled {
		return nil
	}
	var names []string
	for name, s := range c.LSP.Servers {
		if s.Enabled && match(s) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	out := make([]Server, len(names))
	for i, name := range names {
		out[i] = c.LSP.Servers[name]
	}
	return out
}
