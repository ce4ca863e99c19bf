package config

import (
	"maps"
	"slices"
	"strings"
)

// Install methods (Install.Method).
const (
	// InstallGo: `go install Packages[0]` (a module path at a pinned
	// version) with GOBIN set to lsp-hook's servers directory.
	InstallGo = "go"
	// InstallNPM: `npm install` of Packages (each name@version, the
	// server's package first) into a prefix under lsp-hook's servers
	// directory, with Binary linked into its bin.
	InstallNPM = "npm"
	// InstallApt: the Debian package Packages[0]; lsp-hook prints the
	// apt-get command and does not run it.
	InstallApt = "apt"
	// InstallSystem: a toolchain's own installer or a release download;
	// lsp-hook prints Hint.
	InstallSystem = "system"
)

// Install says how a catalogue server's program gets onto the machine
// (`lsp-hook servers install NAME`). Versions are pinned to ones checked
// to run on the toolchains lsp-hook is tested with (Go 1.26, Node 20).
type Install struct {
	// Method is InstallGo, InstallNPM, InstallApt or InstallSystem.
	Method string
	// Packages: for InstallGo one module path@version
	// ("golang.org/x/tools/gopls@v0.23.0"); for InstallNPM npm
	// name@version specs, the server's package first and then what it
	// needs beside it ("typescript@5.9.3"); for InstallApt one Debian
	// package name; none for InstallSystem.
	Packages []string
	// Binary is the program the install provides, the server's Command[0].
	Binary string
	// Hint is how a person installs an InstallSystem server: a command
	// line or the download page, in the server's own words.
	Hint string
}

// Suggest returns `; did you mean "x"?` for the word in known closest to
// got by edit distance when it is close enough to be a likely typo, else "".
func Suggest(got string, known []string) string { return suggest(got, known) }

// Catalogue returns the built-in language servers, in name order. Each
// entry is a fact taken from the server's own documentation or source, and
// the root markers are tried in order (see Server.RootMarkers: the first
// marker found between the file and the workspace root wins, at its
// nearest directory). A server only starts when its program is installed
// (lsp.LookPath) and a file it serves changes, so a language nobody uses
// costs nothing.
//
// On by default: the five below, measured against lsp-hook's tests, and
// the servers of languages nothing else in lsp-hook checks
// (catalogue_langs.go). Off by default, so that turning one on is a
// choice: a second server for an extension another default already
// serves (basedpyright, ruff, pylsp beside pyright; eslint, biome beside
// typescript-language-server), and servers for what lsp-hook's built-in
// checks already cover (vscode-json-language-server and
// yaml-language-server: the JSON and YAML validators; bash-language-server:
// its diagnostics are shellcheck's, which the built-in shellcheck linter
// runs). Each entry's Install says how `lsp-hook servers install` gets it:
//
//   - clangd: `clangd` speaks LSP on stdio with no arguments
//     (clangd.llvm.org/installation, "Editor plugins"). --background-index=false: the
//     background index (on by default since clangd 9) serves cross-file
//     navigation, not diagnostics, costs CPU while the agent waits, and is
//     written into the project (.cache/clangd/index beside the compilation
//     database), where it would dirty the agent's repository.
//     --log=error: clangd logs every request to stderr at its default
//     level, which would crowd the real error out of the stderr tail that
//     status shows for a broken server. Root markers: .clangd (clangd's
//     project config, clangd.llvm.org/config), then compile_commands.json,
//     then compile_flags.txt (clangd.llvm.org/installation, "Project
//     setup"), which are also its ProjectFiles (a change of one starts it
//     afresh and re-checks the tree's files); one clangd per tree is
//     enough, since clangd itself finds the nearest compilation database
//     for each file. Language ids per LSP 3.17 "Text Document Item": c,
//     cpp, objective-c, objective-cpp; a .h is sent as c (clangd takes the
//     language from the compile command, not from the id). Measured with
//     clangd 14.0.6: versioned publishDiagnostics; only open files are
//     diagnosed, and on didSave of any file every open file is rebuilt, so
//     a changed header re-reports the open files that include it.
//     IgnoresUnchangedText: measured with clangd 14, a didChange whose text
//     equals the last one gets no publishDiagnostics (the soak's forced
//     re-checks of unchanged importers waited out 3 s in 35% of C calls);
//     didClose then didOpen rebuilds and publishes. --sync and DoneSignal
//     in-order, no settle window: with --sync (AsyncThreadsCount 0) clangd
//     builds the preamble and the AST of each didOpen, didChange and
//     didSave and publishes before it reads the next message, so the
//     answer to a request sent after a change's notifications comes after
//     every publication the change set off. Without it, clangd 14 builds
//     on worker threads after a debounce (the last rebuild's time, at
//     least 50 ms) and reads a changed header from disk whenever its
//     worker gets to it; a check then had to wait for every changed file's
//     clangd.fileStatus to go idle and a 150 ms window after it (over the
//     soak, seed 3846318338036128363, no window gave 2 false cleans in 100
//     C calls, a window after header changes only 1–2 in each of 4
//     replays, 150 ms after every change none). Measured over
//     make soak's C (1000 calls each, seeds 7032313442142592835 and
//     297760403509648013), without --sync then with it: hooks took
//     4m10.9s and 4m9.6s in all, then 1m6.5s and 1m2.9s; timeout notes
//     (a newer text overtook the check) 20 and 27, then 12 and 15; 0
//     stale, false clean, missed cross-file and ghost either way. The
//     answer to the request is what tells the check complete:
//     lsp/inorder_servers_test.go's open file, four includes away from
//     the changed header, was missing from checks that ended on the
//     header's own publication. The soak's seed
//     3846318338036128363 (100 C calls) replays with 0 false clean. A warm
//     Edit of testdata/langs/c's main.c (make bench, section 3) went from
//     216 ms to 17.7 ms p50 (clangd's own part 7 ms), one of Go's 2,286-line
//     testregex.c (section 11) from 273 ms to 72.1 ms (clangd's 61 ms,
//     clang -fsyntax-only's 61.4 ms). MtimeSeconds: clangd 14 keeps a
//     preamble whose headers have the size and the mtime, in whole
//     seconds, that it recorded (clang's PrecompiledPreamble::CanReuse),
//     so a header written twice within a second with the same size left
//     an open file that only clangd's rebuild after didSave covers (one
//     past the importers a check re-opens) with its old diagnostics:
//     lsp/inorder_servers_test.go's TestClangdSameSecondHeader, a false
//     clean in 3 of 3 rounds before open documents were re-opened for it;
//     --use-dirty-headers did not help.
//     No "wantDiagnostics" on didChange (clangd's extension to skip the
//     debounce, which --sync has none of): measured with clangd 14.0.6
//     without --sync, it wedged clangd under the soak (seed
//     240710156372349752: every later check timed out, clangd idle with
//     366 threads).
//     --clang-tidy=false while nothing can make clang-tidy's findings
//     errors (Server.WarningsOnlyArgs): clang-tidy's checks give warnings,
//     which the default severity threshold (error) never shows, yet they
//     cost clangd 14.0.6 40% of a rebuild: on Go's 2,286-line
//     testregex.c, clangd's own time per edit was 56–57 ms p50 with them
//     and 31–33 ms without (12 edits each, two rounds). A .clang-tidy
//     with WarningsAsErrors turns them and every compiler warning into
//     errors (clangd --check=main.c lists -Wunused-variable and
//     bugprone-sizeof-expression as errors with one, nothing with
//     --clang-tidy=false), so one in the root, above it or under it, a
//     threshold below error, or a check asking for warnings keeps clangd
//     whole, and one that appears later restarts it whole.
//     OpenDependents: measured with clangd 14.0.6
//     (lsp/dependents_servers_test.go): after a header's prototype gains a
//     parameter, the closed .c and .h files including it get no
//     publication; opened, each gets the "Too few arguments" error clang
//     -fsyntax-only reports, at the same line and column.
//   - gopls: `gopls` speaks LSP on stdio with no arguments
//     (golang.org/x/tools/gopls/doc/daemon.md); root is the nearest go.work,
//     else the workspace root, as an editor opens the repository's folder:
//     gopls makes a view for the go.mod of each file it is given
//     (gopls/doc/workspace.md, "zero-config gopls"), and its views share
//     the files it was sent. Rooted at each go.mod, two modules linked by a
//     replace directive and no go.work had a gopls each, and an edit of one
//     that broke the other was answered clean (measured with v0.23.0;
//     cmd/lsp-hook TestGoReplaceModules). Its diagnosticsDelay setting
//     (gopls/doc/settings.md, default 1s) holds back diagnostics of packages
//     that depend on the changed one, to spare typing users; an agent's write
//     is whole and infrequent, and a write that breaks a caller elsewhere is
//     exactly what must be reported in the same answer, so lsp-hook sets it
//     to 0s. Measured with gopls v0.23.0: a dependent package's diagnostics
//     arrive ~1,010 ms after a change by default and ~10 ms with 0s;
//     versioned publishDiagnostics, and every package of the workspace is
//     diagnosed, open or not. verboseWorkDoneProgress (an internal option,
//     gopls/internal/settings InternalOptions, which gopls's own regression
//     tests set to know when diagnostics are done) makes gopls report each
//     diagnostic pass a change sets off as work-done progress, "diagnosing
//     didChange" and the like, ended once the pass has published (or was
//     cancelled by a newer change, whose pass then follows): lsp-hook waits
//     for those passes to end (lsp.Client.Update), because gopls's first
//     versioned publication for a changed file can be empty. Measured with
//     v0.23.0: when a change arrives while the pass of an earlier one is
//     re-publishing open files (its orphaned-file step,
//     internal/server/diagnostics.go updateOrphanedFileDiagnostics), each
//     file is published under its newest version with the diagnostics
//     stored for that version, which for the changed file are none yet: an
//     empty list for the new version, the real one only when the next pass
//     ends, up to ~50 ms later on a loaded 2-core machine, or never for
//     that version when a newer change's pass answers first (1-3% of
//     changes in bursts of edits to the files of one package).
//     DoneSignal progress, no settle window: once those passes have ended and each
//     changed file has its versioned publication, the answer is whole;
//     with diagnosticsDelay 0s the pass that ends includes the dependent
//     packages. Measured over the soak with the old windows in place (seed
//     6086318533037230816, 400 calls): of 146 gopls checks (109 with a
//     write's 150 ms window, 37 with an edit's 15 ms), none saw a
//     publication arrive inside the window after the passes ended.
//     Env GO_TELEMETRY_CHILD=2: gopls's main calls golang.org/x/telemetry's
//     Start, which, unless the user's telemetry mode is "off", starts a
//     second gopls process (crash monitor, and once a day the uploader);
//     GO_TELEMETRY_CHILD=2 is that package's own "started by a telemetry
//     child: do nothing" (start.go), so this gopls starts none and keeps
//     no counters, while the user's mode file (and every other Go tool's
//     telemetry) is left as it is. Measured with v0.23.0 on this module
//     (github.com/lsp-hook/lsp-hook), one file open and 10 edits: the
//     child is 26–28 MiB of RSS, 122 MiB while it prepares an upload; the
//     main process's live heap after gopls.mem_stats's GCs was 171–217 MiB
//     under a minimal client (capabilities {}, no options) and 184–215 MiB
//     under lsp-hook's capabilities and options (diagnosticsDelay 0s,
//     verboseWorkDoneProgress, pull-diagnostic and watched-file
//     registration): no setting of ours makes it larger beyond the run-to-run
//     spread, and its RSS (101–450 MiB in either) follows the collector's
//     timing, not the options. gopls runs no staticcheck unless asked
//     (settings.md "staticcheck", default false) and gives semantic tokens
//     only when asked for them, which lsp-hook never does. Its default
//     analyzers (go vet's) stay on: the soak judges compile errors only,
//     but their findings are what output.severity warning shows, and
//     turning them off was not measured. UncheckedMessages: a file no
//     package gopls loads includes (a //go:build line with a custom tag,
//     such as integration; a nested module outside the workspace) gets
//     one warning, "No packages found for open file …", and no type
//     check; measured with v0.23.0, its type errors, which `go vet -tags
//     integration` reports, were silence under the default threshold
//     (cmd/lsp-hook TestUncheckedFileNoted). A file another GOOS or GOARCH
//     includes is checked in a view of its own, its errors suffixed
//     " [windows]"; a `//go:build ignore` file, as a package of its own
//     (gopls's standaloneTags). RecheckUnloaded: gopls loads either only
//     once the file is open, and with diagnosticsDelay 0s it answers the
//     open (or the change that gave the file its constraint) before that
//     load, with an empty list, and publishes nothing more until the next
//     change: measured with v0.23.0, a `//go:build ignore` program's type
//     error, which `go build FILE` reports, was answered clean opened cold,
//     opened warm and made one from a package's file, 3 of 3 runs each
//     (lsp TestGoplsBuildConstrainedFile); such a first answer, and that of
//     a file of a directory new to gopls, is re-checked. Made a package's
//     file again, the file stays among its package's ignored files until
//     gopls restarts ("… This file is ignored by your gopls build."), and
//     the package's other files call what it declares undefined: gopls is
//     restarted then (StaleIgnoredMessages). EmbedReloadCommand: gopls
//     learns what a //go:embed pattern matches only as it loads the
//     package, so a matched file deleted or created later left a false
//     clean or a ghost "pattern …: no matching files found" (lsp
//     TestGoplsEmbeddedFiles); gopls.regenerate_cgo resets its view, which
//     loads the packages again.
//   - pyright: `pyright-langserver --stdio` (the pyright npm package's
//     bin; it needs one of --stdio, --node-ipc, --socket, and says so).
//     Root markers: pyrightconfig.json first (pyright's own config file,
//     which governs the whole tree below it; it and pyproject.toml, whose
//     [tool.pyright] table pyright also reads, are its ProjectFiles: a
//     change of one starts it afresh and re-checks the root's files), then a uv workspace's root
//     (a pyproject.toml with [tool.uv.workspace]: its members, installed
//     editable into one environment, import each other, and with a server
//     per member an edit of one that broke another was answered clean;
//     cmd/lsp-hook TestPythonUvWorkspace), then pyproject.toml, setup.py,
//     setup.cfg, requirements.txt, so each package of any other monorepo
//     gets its own root. Settings answer workspace/configuration for the sections
//     pyright asks for, "python" and "pyright" (docs/settings.md):
//     python.analysis.diagnosticMode stays pyright's default,
//     "openFilesOnly". "workspace" would also report callers nobody opened,
//     but pyright then analyses the whole tree at start and re-checks it
//     after every change: measured with pyright 1.1.414 on a 300-file
//     package (pygments), an edit of one module took 0.8–1.5 s instead of
//     0.7–1.1 s, and each answer carried 5–14 re-published other files, most
//     unrelated to the change. Open importers of a changed file are
//     re-checked either way, and the agent's earlier edits are what open
//     them. Versioned publishDiagnostics; when the client declares pull
//     diagnostics it registers textDocument/diagnostic instead (identifier
//     "Pyright", interFileDependencies) and stops pushing.
//     OpenDependents: measured with pyright 1.1.414
//     (lsp/dependents_servers_test.go): after make_user gains a parameter,
//     a closed importer gets no diagnostics, and a textDocument/diagnostic
//     pull for it is answered {"kind":"full","items":[]}, so pulling is no
//     way around opening it; opened, it gets the "Argument missing for
//     parameter" error `pyright --outputjson` reports, at the same place.
//     DoneSignal pull, no settle window: lsp-hook declares pull diagnostics,
//     so a changed file's answer is the report its pull returns, whole,
//     and a check also waits for the pulls of the other open files that
//     the change re-runs (interFileDependencies; lsp/pull.go). Measured
//     over the soak with the old windows in place (seed
//     6086318533037230816, 400 calls): of 109 pyright checks, none saw
//     anything arrive inside the window once the pulls had answered.
//     VirtualEnvSetting python.analysis.extraPaths (docs/settings.md):
//     pyright resolves imports against the first python on PATH unless
//     told an environment, so a project whose packages live in a .venv not
//     activated where the agent runs got, measured with pyright 1.1.414,
//     "Import could not be resolved" errors for each of them, and none of
//     the errors their types give (cmd/lsp-hook TestPythonVirtualEnv,
//     against `pyright` with venvPath and venv in pyrightconfig.json). The
//     environment's site-packages and the directories its .pth files name
//     (editable installs) are given as extra paths, read, not run:
//     python.pythonPath would have pyright run the workspace's interpreter.
//     VirtualEnvInterpreterSetting python.pythonPath (docs/settings.md):
//     a project whose pyright config sets its own extraPaths
//     (pyrightconfig.json, [tool.pyright]) replaces ours, and its imports
//     of the environment's packages came back unresolved (measured with
//     1.1.414); the paths pyright asks the named interpreter for are not
//     replaced (cmd/lsp-hook TestPythonVirtualEnvProjectPaths, trusted and
//     untrusted). Trusted: the environment's interpreter; untrusted: a
//     stand-in environment linking the python on PATH, whose one .pth
//     names the directories read (lsp/standin.go).
//     ClosesGoneAcross: pyright 1.1.414 hands a watched-file event for a
//     file outside its include, under an extraPaths directory (a nested
//     root's import of the outer package), to its library watcher, which
//     re-analyses 5 s later (AnalyzerService._scheduleLibraryAnalysis,
//     the language server's libraryReanalysisTimeProvider: 5000 ms);
//     until then a pull of an importer of a deleted file was answered
//     "full", no diagnostics, while `pyright -p app` reported the import
//     (the soak's nested root, seed 5719384628337728360: a false clean).
//     A document closed whose file is gone is re-read at once: its parse
//     finds it deleted, drops the import cache and marks its importers
//     (Program._parseFile), so the next pull answers as the CLI does
//     (cmd/lsp-hook TestNestedRootGoneUnopened).
//   - rust-analyzer: `rust-analyzer` speaks LSP on stdio with no arguments
//     (rust-analyzer book, "rust-analyzer Binary"; `rustup component add
//     rust-analyzer`). Root markers in rust-analyzer's own discovery order
//     (crates/project-model ProjectManifest::discover): rust-project.json,
//     .rust-project.json, then the nearest Cargo.toml. From there
//     rust-analyzer asks `cargo metadata` for the whole cargo workspace and
//     runs cargo check from its root, so each member crate with its own
//     Cargo.toml gets a process of its own that loads the whole workspace.
//     Language id rust (LSP 3.17). No settings: rust-analyzer asks
//     workspace/configuration (section "rust-analyzer") only after
//     workspace/didChangeConfiguration, which lsp-hook never sends, so an
//     option has to go in InitializationOptions (docs/book/src/contributing/
//     lsp-extensions.md, "Configuration in initializationOptions"). Read
//     from its source, not measured (it cannot be installed where the tests
//     run; lsp/rustanalyzer_trace_test.go replays
//     testdata/traces/rust-analyzer, whose README cites each file): it picks
//     utf-8 when offered; to a client that pulls, its own diagnostics come
//     only by pull, under identifier "rust-analyzer" with
//     interFileDependencies, and a pull before the workspace has loaded is
//     answered with an empty report; it sends workspace/diagnostic/refresh
//     after every change and when a cargo check ends; on didSave it runs
//     cargo check and pushes rustc's diagnostics when cargo reports them,
//     tagged with the version the open document has when they are
//     published, typically after lsp-hook has answered.
//   - typescript-language-server: `typescript-language-server --stdio`
//     (its README). It needs the typescript package and looks for it in
//     this order (docs/configuration.md, tsserver.path and fallbackPath;
//     lib/cli.mjs findTypescriptVersion): initializationOptions tsserver.path,
//     then node_modules/typescript/lib in the workspace root or any of its
//     parents (the project's own version), then tsserver.fallbackPath, then
//     the typescript its own Node resolution finds, which is the one
//     installed next to it (npm i -g typescript typescript-language-server,
//     or the same local prefix, as `make tools` does). So no path is set
//     here: a project's own TypeScript wins, and the bundled one is the
//     fallback. Options (docs/configuration.md):
//     disableAutomaticTypingAcquisition, since typing acquisition runs npm
//     to fetch @types packages in the background, which a hook must not;
//     tsserver.useSyntaxServer "never", since the second, syntax-only
//     tsserver it starts by default is there for editor responsiveness
//     while a project loads (every geterr in our traces went to the full
//     one), and costs another Node process per root;
//     tsserver.useClientFileWatcher true (TypeScript ≥ 5.4.4), so tsserver
//     takes file events from lsp-hook's watcher (it registers
//     didChangeWatchedFiles watchers, lib/cli.mjs canUseWatchEvents)
//     instead of its own: measured with 5.3.0/5.9.3, a module deleted and
//     restored 150–300 ms apart left its importers with "Cannot find
//     module" for good (lsp.TestDeletedAndRestored), and lsp-hook's events
//     reach it in order, before the check that follows. DependencyDirs
//     node_modules: the watcher never descends into it, so without the
//     client telling which packages appeared there, tsserver kept "Cannot
//     find module" after `npm install`, and none of the errors the
//     package's types give (cmd/lsp-hook TestTypeScriptPackageInstalled,
//     against tsc; it registers "**/*" under the root). Root
//     markers: a JavaScript monorepo's root first — pnpm-workspace.yaml, a
//     package.json with "workspaces" (npm, yarn, bun), lerna.json,
//     rush.json, nx.json — so every package of a monorepo shares one
//     server, as an editor's one tsserver does: with a server per package, an edit of
//     one package that broke another was answered clean (`tsc -p` of the
//     other reported the error; cmd/lsp-hook TestTypeScriptMonorepo).
//     Then tsconfig.json, jsconfig.json and package.json, so a project
//     with its own tsconfig.json gets its own root, and one without shares
//     the root of the nearest tsconfig.json above it; the same three, and
//     the tsconfig.*.json a tsconfig.json extends (tsconfig.base.json),
//     are its ProjectFiles (a change of one starts it afresh and re-checks
//     the root's files: a tsconfig.json turning strict on). Language ids:
//     typescript, typescriptreact (.tsx), javascript, javascriptreact
//     (.jsx); .mts/.cts and .mjs/.cjs are TypeScript and JavaScript modules.
//     Measured with typescript-language-server 5.3.0 and TypeScript 5.9.3:
//     no pull diagnostics; unversioned publishDiagnostics, sent at least
//     300 ms after a change (its own delay before asking tsserver), for
//     every open file and only for open files, none at all when a file's
//     diagnostics stay empty, and some unasked: tsserver re-checks the open
//     files by itself about 2.5 s after a closed file of the project changes
//     on disk. None of that can be told fresh from stale, so lsp-hook
//     ignores these pushes and asks tsserver itself, through the
//     typescript.tsserverRequest command the server lists in its
//     executeCommandProvider (lsp/tsserver.go): measured on
//     testdata/langs/ts, a warm edit is answered in ~15 ms instead of ~385 ms.
//     OpenDependents, since its pushes cover open files only: with the
//     tsserver pull in use, lsp-hook already asks for a changed file's
//     importers (tsserver's fileReferences), open or not; opened, they get
//     the errors `tsc --noEmit` reports (lsp/dependents_servers_test.go).
//     fileReferences lists importers only: the files using a global a
//     changed file declares (a declaration file's `declare const`, its
//     `interface Window` members) are found by name (lsp/
//     dependents_globals.go, TestTypeScriptGlobalsWithServer).
//     DoneSignal tsserver, no settle window: tsserver's answer to each request
//     lsp-hook passes through is complete as it comes.
//
// A DoneSignal holds only while the client has it in use
// (lsp.Client.signalling): with the tsserver pass-through turned off, a
// pyright that offers no pull, or a gopls that reports no progress, the
// pushes are all there is and a check waits the window it asks for.
//
// Installs of these five: gopls v0.23.0 with go install (the Makefile's
// pin; v0.24.0's go.mod asks for Go 1.27); pyright 1.1.414, and
// typescript-language-server 5.3.0 with typescript 5.9.3 beside it, from
// npm (tools/package.json's pins; typescript-language-server 6 needs Node
// 22); clangd from Debian's clangd package; rust-analyzer with rustup
// (the rust-analyzer book, "Installation").
func Catalogue() []Server {
	servers := []Server{
		{
			Name:       "clangd",
			Command:    []string{"clangd", "--background-index=false", "--log=error", "--sync"},
			Extensions: []string{".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".m", ".mm"},
			LanguageIDs: map[string]string{
				".c": "c", ".h": "c",
				".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp", ".h++": "cpp",
				".m": "objective-c", ".mm": "objective-cpp",
			},
			RootMarkers:          []string{".clangd", "compile_commands.json", "compile_flags.txt"},
			Enabled:              true,
			OpenDependents:       true,
			IgnoresUnchangedText: true,
			MtimeSeconds:         true,
			DoneSignal:           SignalInOrder,
			InOrderArg:           "--sync",
			WarningsOnlyArgs:     []string{"--clang-tidy=false"},
			WarningsConfigFiles:  []string{".clang-tidy"},
			ProjectFiles:         []string{"compile_flags.txt", "compile_commands.json", ".clangd"},
			// clangd's per-file status (lsp/filestatus.go): a check waits
			// for its files to go idle.
			InitializationOptions: map[string]any{"clangdFileStatus": true},
			Install:               Install{Method: InstallApt, Packages: []string{"clangd"}, Binary: "clangd"},
		},
		{
			Name:              "gopls",
			Command:           []string{"gopls"},
			Extensions:        []string{".go"},
			FileNames:         []string{"go.mod", "go.work"},
			SavedOnlyFiles:    []string{"go.mod", "go.sum", "go.work", "go.work.sum"}, // see Server.SavedOnlyFiles
			LanguageIDs:       map[string]string{".go": "go", "go.mod": "go.mod", "go.work": "go.work"},
			RootMarkers:       []string{"go.work"},
			LoadErrorProgress: []string{"Error loading workspace"},         // gopls server/diagnostics.go, WorkspaceLoadFailure
			LoadErrorMessages: []string{"Error loading workspace folders"}, // gopls server/general.go, addFolders
			// gopls internal/cache snapshot.go (orphanedFileDiagnostics) and session.go (errNoViews)
			UncheckedMessages:     []string{"No packages found for open file", "This file is within module", "No active builds contain"},
			StaleIgnoredMessages:  []string{"This file is ignored by your gopls build."}, // snapshot.go, orphanedFileDiagnostics
			RecheckUnloaded:       true,
			EmbedReloadCommand:    "gopls.regenerate_cgo", // internal/server/command.go RegenerateCgo: session.ResetView
			OpenReplacingModules:  true,
			Enabled:               true,
			DoneSignal:            SignalProgress,
			Env:                   map[string]string{"GO_TELEMETRY_CHILD": "2"}, // no telemetry child process: see above
			InitializationOptions: map[string]any{"diagnosticsDelay": "0s", "verboseWorkDoneProgress": true},
			Settings:              map[string]any{"gopls": map[string]any{"diagnosticsDelay": "0s", "verboseWorkDoneProgress": true}},
			Install:               Install{Method: InstallGo, Packages: []string{"golang.org/x/tools/gopls@v0.23.0"}, Binary: "gopls"},
		},
		{
			Name:        "pyright",
			Command:     []string{"pyright-langserver", "--stdio"},
			Extensions:  []string{".py", ".pyi"},
			LanguageIDs: map[string]string{".py": "python", ".pyi": "python"},
			RootMarkers: []string{"pyrightconfig.json", "pyproject.toml#tool.uv.workspace",
				"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"},
			Enabled:          true,
			OpenDependents:   true,
			ClosesGoneAcross: true,
			ProjectFiles:     []string{"pyrightconfig.json", "pyproject.toml"},
			DoneSignal:       SignalPull,
			Settings: map[string]any{
				"python": map[string]any{"analysis": map[string]any{"diagnosticMode": "openFilesOnly"}},
			},
			VirtualEnvSetting:            "python.analysis.extraPaths",
			VirtualEnvInterpreterSetting: "python.pythonPath",
			Install:                      Install{Method: InstallNPM, Packages: []string{"pyright@1.1.414"}, Binary: "pyright-langserver"},
		},
		{
			Name:        "rust-analyzer",
			Command:     []string{"rust-analyzer"},
			Extensions:  []string{".rs"},
			LanguageIDs: map[string]string{".rs": "rust"},
			RootMarkers: []string{"rust-project.json", ".rust-project.json", "Cargo.toml"},
			Enabled:     true,
			Install:     Install{Method: InstallSystem, Binary: "rust-analyzer", Hint: "rustup component add rust-analyzer"},
		},
		{
			Name:       "typescript-language-server",
			Command:    []string{"typescript-language-server", "--stdio"},
			Extensions: []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"},
			LanguageIDs: map[string]string{
				".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
				".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
			},
			RootMarkers: []string{"pnpm-workspace.yaml", "package.json#workspaces", "lerna.json", "rush.json", "nx.json",
				"tsconfig.json", "jsconfig.json", "package.json"},
			Enabled:            true,
			OpenDependents:     true,
			ImportedExtensions: []string{".json"}, // resolveJsonModule: see Server.ImportedExtensions
			ProjectFiles:       []string{"tsconfig.json", "tsconfig.*.json", "jsconfig.json", "package.json"},
			DoneSignal:         SignalTsserver,
			DependencyDirs:     []string{"node_modules"},
			InitializationOptions: map[string]any{
				"disableAutomaticTypingAcquisition": true,
				"tsserver":                          map[string]any{"useSyntaxServer": "never", "useClientFileWatcher": true},
			},
			Install: Install{Method: InstallNPM, Binary: "typescript-language-server",
				Packages: []string{"typescript-language-server@5.3.0", "typescript@5.9.3"}},
		},
	}
	servers = append(servers, moreServers()...)
	slices.SortFunc(servers, func(a, b Server) int { return strings.Compare(a.Name, b.Name) })
	return servers
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
