package main

import (
	"context"
	"fmt"
	"go/build"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/safefile"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/parsers"
	"github.com/lsp-hook/lsp-hook/wire"
)

// outputFlags are the flags parse and diagnose share: the output format and
// the severity threshold.
func outputFlags(format *diag.OutputFormat, sev *diag.Severity) []cli.Flag {
	*format, *sev = diag.FormatText, diag.SeverityError
	return []cli.Flag{
		&cli.GenericFlag{Name: "format", Aliases: []string{"f"}, Value: format,
			Usage: "output `FORMAT`: lint, text, json, sarif, github, rdjsonl or rdjson (reviewdog)"},
		&cli.GenericFlag{Name: "severity", Value: sev,
			Usage: "lowest `SEVERITY` shown and failing the run: error, warning, info or hint"},
		&cli.IntFlag{Name: "issues-exit-code", Value: exitFindings,
			Usage: "exit `CODE` when diagnostics at --severity are found (0–255; golangci-lint's flag)"},
	}
}

// issuesExit returns the exit for a run that found diagnostics: the
// --issues-exit-code the user chose (default 1), or a usage error naming
// the flag when it is outside 0–255. cmd names the command.
func issuesExit(c *cli.Context, cmd string) error {
	code := c.Int("issues-exit-code")
	if code < 0 || code > 255 {
		return cli.Exit(fmt.Sprintf("%s: --issues-exit-code %d: want 0 to 255", cmd, code), exitError)
	}
	if code == 0 {
		return nil
	}
	return cli.Exit("", code)
}

func parseCommand() *cli.Command {
	var format diag.OutputFormat
	var sev diag.Severity
	return &cli.Command{
		Name:      "parse",
		Usage:     "read a compiler's or linter's output on stdin and print its diagnostics (exit 1 when any at --severity)",
		ArgsUsage: "[FORMAT] (default auto; `lsp-hook parse --list` names them)",
		Flags: append(outputFlags(&format, &sev),
			&cli.StringFlag{Name: "dir", Usage: "`DIR` the tool ran in: relative paths are taken from it (default: the working directory)"},
			rootFlag,
			&cli.StringSliceFlag{Name: "errorformat", Aliases: []string{"efm"}, Usage: "Vim errorformat `STRING` (repeatable), instead of FORMAT"},
			&cli.BoolFlag{Name: "list", Usage: "list the formats and the tool output each reads"},
		),
		Action: func(c *cli.Context) error {
			if c.Bool("list") {
				for _, f := range parsers.Formats() {
					fmt.Fprintf(c.App.Writer, "%-16s %s\n", f.Name, f.Doc)
				}
				return nil
			}
			if c.NArg() > 1 {
				return cli.Exit(fmt.Sprintf("parse: want at most one FORMAT, got %q (flags go before it: lsp-hook parse --format github tsc)",
					c.Args().Slice()), exitError)
			}
			dir := absPath(c.String("dir"))
			root, err := workspaceRoot(c) // output paths are relative to it, as GitHub and SARIF want
			if err != nil {
				root = absPath(".")
			}
			ds, err := parseInput(c.App.Reader, c.Args().First(), c.StringSlice("errorformat"), dir)
			if err != nil {
				return cli.Exit("parse: "+err.Error(), exitError)
			}
			ds = diag.Filter(ds, sev)
			rep := diag.Report{Root: root, Files: diag.Group(ds, root), Text: fileTexts(),
				Tool: diag.Tool{Name: "lsp-hook", Version: buildVersion(), InformationURI: informationURI}}
			if err := diag.WriteReport(c.App.Writer, format, rep); err != nil {
				return cli.Exit("parse: writing output: "+err.Error(), exitError)
			}
			if len(ds) > 0 {
				return issuesExit(c, "parse")
			}
			return nil
		},
	}
}

// fileTexts returns diag.Report.Text for diagnose and parse: the current
// text of the file at an absolute path, read once (the renderers ask per
// file), a regular file of at most wire.MaxFileSize bytes
// (safefile.ReadFollow), and false for anything it cannot read. The line
// text gives SARIF its fingerprints and snippets and rdjson its UTF-8
// byte columns.
func fileTexts() func(path string) (string, bool) {
	type read struct {
		text string
		ok   bool
	}
	seen := make(map[string]read)
	return func(path string) (string, bool) {
		if r, done := seen[path]; done {
			return r.text, r.ok
		}
		b, err := safefile.ReadFollow(path, wire.MaxFileSize)
		r := read{text: string(b), ok: err == nil}
		seen[path] = r
		return r.text, r.ok
	}
}

// informationURI is the project's home, for SARIF's tool.driver.
const informationURI = "https://github.com/lsp-hook/lsp-hook"

// parseInput parses r with the format called name ("" or "auto" detects
// it), or with errorformat strings when efms is not empty, and normalizes
// the result against dir (parsers.Read).
func parseInput(r io.Reader, name string, efms []string, dir string) ([]diag.Diagnostic, error) {
	if len(efms) == 0 {
		if name == "" {
			name = parsers.Auto
		}
		ds, _, err := parsers.Read(name, r, dir, "")
		return ds, err
	}
	if name != "" {
		return nil, fmt.Errorf("give FORMAT or --errorformat, not both")
	}
	p, err := parsers.Errorformat(efms)
	if err != nil {
		return nil, err
	}
	return parsers.ReadWith(p, diag.UnitBytes, r, dir, "errorformat")
}

func diagnoseCommand() *cli.Command {
	var format diag.OutputFormat
	var sev diag.Severity
	return &cli.Command{
		Name:      "diagnose",
		Usage:     "check files with validators, language servers and linters, for CI (exit 1 when anything at --severity is found)",
		ArgsUsage: "[PATH|GLOB...] (default: the whole workspace)",
		Flags: append(outputFlags(&format, &sev), rootFlag, socketFlag,
			&cli.BoolFlag{Name: "changed", Usage: "only files changed against --base (and untracked files), and the files importing them, directly or through others"},
			&cli.StringFlag{Name: "base", Usage: "git `REV` that --changed compares with (default: the working tree against HEAD)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 2, Usage: "`N` chunks of files checked at once"},
			&cli.StringFlag{Name: "shard", Usage: "check only shard `K/N` of the files (CI matrix), by a stable hash of each path"},
			&cli.BoolFlag{Name: "no-daemon", Usage: "run language servers in this process even when a daemon is running"},
			&cli.BoolFlag{Name: "fixtures", Usage: "also check test fixtures in what a directory or glob selects: files under testdata/, and Go files the go command ignores (vendor/, names starting with . or _); skipped by default"},
			&cli.BoolFlag{Name: "allow-incomplete", Usage: "exit by the diagnostics alone when a checker timed out or failed (without it such a run exits 2)"},
			&cli.DurationFlag{Name: "timeout", Value: 2 * time.Minute, Usage: "time one chunk of files may take, servers' start-up included"},
		),
		Action: func(c *cli.Context) error { return diagnose(c, format, sev) },
	}
}

func diagnose(c *cli.Context, format diag.OutputFormat, sev diag.Severity) error {
	stderr := c.App.ErrWriter
	if code := c.Int("issues-exit-code"); code < 0 || code > 255 {
		return issuesExit(c, "diagnose") // the usage error, before any work
	}
	root, err := workspaceRoot(c)
	if err != nil {
		return cli.Exit(err.Error(), exitError)
	}
	cfg, problems := engine.LoadConfig(root)
	for _, p := range problems {
		fmt.Fprintln(stderr, "lsp-hook: config:", p.Error())
	}
	q := workspace.FileQuery{Root: root, Args: c.Args().Slice(), Dir: absPath("."), Changed: c.Bool("changed"),
		Base: c.String("base"), Want: checkable(cfg), SkipFixtures: !c.Bool("fixtures")}
	if s := c.String("shard"); s != "" {
		if q.Shard, q.Shards, err = workspace.ParseShard(s); err != nil {
			return cli.Exit("diagnose: --shard: "+err.Error(), exitError)
		}
	}
	// With --changed, the files that depend on a changed one are checked
	// too: a change breaks its callers, and a check of the changed files
	// alone passed a pull request whose callers tsc and go build reject;
	// a changed project configuration (go.mod, tsconfig.json), the files
	// of its project (lsp.Importers).
	var importers []string
	var importersCapped bool
	if q.Changed {
		q.Importers = func(ctx context.Context, changed []string) ([]string, error) {
			var err error
			importers, importersCapped, err = lsp.Importers(ctx, cfg, root, changed, func(path string) ([]byte, bool) {
				rel, ok := workspace.Rel(root, path)
				if !ok {
					return nil, false
				}
				return workspace.BaseText(ctx, root, q.Base, rel)
			})
			return importers, err
		}
	}
	files, err := workspace.CollectFiles(c.Context, q)
	if err != nil {
		return cli.Exit("diagnose: "+err.Error(), exitError)
	}
	var extraNotes []string
	if n := countIn(importers, files); n > 0 || importersCapped {
		note := fmt.Sprintf("%d files that depend on the changed ones (import them, use their globals, embed them, or are configured by them) were checked too", n)
		if importersCapped {
			note += fmt.Sprintf("; more depend on them than lsp-hook follows (%d importers a language server, %d files a changed project configuration), and those were not: lsp-hook diagnose without --changed checks them all",
				lsp.MaxDependents, lsp.MaxProjectDocs)
		}
		extraNotes = append(extraNotes, note)
	}
	check, closeCheck := diagnoseChecker(c, root, cfg)
	defer closeCheck()
	var progress *engine.Progress
	if f, ok := stderr.(*os.File); ok {
		progress = engine.NewProgress(stderr, len(files), engine.IsTerminal(f))
	}
	rep, err := engine.Diagnose(c.Context, engine.DiagnoseOptions{
		Files: files, Check: check, Jobs: c.Int("jobs"), Severity: sev, Budget: c.Duration("timeout"), Progress: progress,
	})
	if progress != nil {
		progress.Finish()
	}
	if err != nil {
		return cli.Exit("diagnose: "+err.Error(), exitError)
	}
	notes := append(extraNotes, rep.Notes...)
	for _, s := range rep.Checkers {
		notes = append(notes, "incomplete: "+s.String())
	}
	out := diag.Report{Root: root, Files: rep.Files, Notes: notes, Text: fileTexts(),
		Tool: diag.Tool{Name: "lsp-hook", Version: buildVersion(), InformationURI: informationURI}}
	if q.Shards > 0 {
		out.AutomationID = fmt.Sprintf("diagnose/%dof%d/", q.Shard, q.Shards)
	}
	if err := diag.WriteReport(c.App.Writer, format, out); err != nil {
		return cli.Exit("diagnose: writing output: "+err.Error(), exitError)
	}
	errs, warns := 0, 0
	for _, f := range rep.Files {
		e, w := diag.Counts(f.Diagnostics)
		errs, warns = errs+e, warns+w
	}
	notChecked := ""
	if n := len(rep.Unchecked); n > 0 {
		notChecked = fmt.Sprintf(" (%d not checked: see below)", n)
	}
	fmt.Fprintf(stderr, "lsp-hook: %d files checked%s in %v: %d errors, %d warnings\n", rep.Checked, notChecked,
		rep.Elapsed.Round(time.Millisecond), errs, warns)
	for _, n := range notes {
		fmt.Fprintln(stderr, "lsp-hook:", n)
	}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		s := diag.Summary{Title: "lsp-hook diagnose", Root: root, Files: rep.Files, FilesChecked: rep.Checked,
			Elapsed: rep.Elapsed, Notes: notes}
		if err := diag.AppendStepSummary(path, s); err != nil {
			fmt.Fprintln(stderr, "lsp-hook: writing the step summary:", err)
		}
	}
	switch {
	case len(rep.Files) > 0 && c.Int("issues-exit-code") != 0:
		return issuesExit(c, "diagnose")
	case !rep.Complete && !c.Bool("allow-incomplete"):
		return cli.Exit("diagnose: some checkers did not answer; the result is incomplete (see above; --allow-incomplete to accept)", exitError)
	}
	return nil
}

// checkable reports whether some checker in cfg looks at path: a validator,
// a language server or a linter.
func checkable(cfg *config.Config) func(string) bool {
	return func(path string) bool {
		if filepath.Ext(path) == ".go" && !hostBuild(path) {
			return false // go build and go vet skip it too; gopls would check it in another OS's view
		}
		return engine.Covered(cfg, path)
	}
}

// hostBuild reports whether the Go file at path is part of the host's build
// (GOOS, GOARCH, build tags; go/build's MatchFile). Files for other systems
// (os_windows.go) are left out of diagnose: go build and go vet leave them
// out too, and opening them makes gopls check the module again in that
// system's view, whose findings come back tagged " [windows]".
func hostBuild(path string) bool {
	ok, err := build.Default.MatchFile(filepath.Dir(path), filepath.Base(path))
	return err != nil || ok
}

// diagnoseChecker returns how diagnose checks a chunk: through the
// workspace's running daemon when one answers with this protocol and the
// config as it is now (its warm servers), else an engine in this process. Either way servers get the
// whole --timeout of a chunk (Manager.CheckWithin), not a hook's per-edit
// timeouts. The second value releases it.
func diagnoseChecker(c *cli.Context, root string, cfg *config.Config) (engine.CheckFunc, func()) {
	if !c.Bool("no-daemon") {
		if cl, err := wire.Dial(c.Context, socketFor(c, root), buildVersion()); err == nil {
			if cl.Hello.Protocol == wire.ProtocolVersion && !cl.Hello.ConfigChanged {
				return engine.ClientChecker(cl), func() { cl.Close() }
			}
			cl.Close()
		}
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("LSP_HOOK_DEBUG") != "" {
		log = slog.New(slog.NewTextHandler(c.App.ErrWriter, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	m := lsp.NewManager(cfg, root, log)
	e := engine.NewEngine(root, cfg, m, log)
	return engine.EngineChecker(e), m.Shutdown
}

// countIn returns how many of paths are in files (sorted).
func countIn(paths, files []string) int {
	n := 0
	for _, p := range paths {
		if _, ok := slices.BinarySearch(files, p); ok {
			n++
		}
	}
	return n
}
