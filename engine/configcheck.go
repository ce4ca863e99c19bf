package engine

import (
	"slices"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/parsers"
	"github.com/lsp-hook/lsp-hook/wire"
)

// LoadConfig is config.Load plus the checks config cannot make itself
// because they need the parsers package: every linter's parser name must
// be a known format, and its errorformat strings must compile. Such a
// problem is reported with the file and line that set the key; the linter
// stays configured and fails visibly when it runs (status, lint block).
func LoadConfig(root string) (*config.Config, []config.Problem) {
	cfg, problems := config.Load(root)
	return cfg, append(problems, linterProblems(cfg)...)
}

func linterProblems(cfg *config.Config) []config.Problem {
	var out []config.Problem
	for _, name := range slices.Sorted(mapsKeys(cfg.Linters)) {
		l := cfg.Linters[name]
		key := "linters." + name + ".parser"
		var err error
		if l.Parser == "errorformat" {
			key = "linters." + name + ".errorformat"
			_, err = parsers.Errorformat(l.Errorformat)
		} else {
			_, err = parsers.Lookup(l.Parser)
		}
		if err != nil {
			file, line := config.SplitSource(cfg.Sources[key])
			out = append(out, config.Problem{File: file, Line: line, Key: key, Message: err.Error()})
		}
	}
	return out
}

// configChecker names the check of lsp-hook's own config files, as a
// diagnostic's source and in a Result's servers.
const configChecker = "lsp-hook-config"

// checkConfigFiles adds to byFile, for each target that is an lsp-hook
// config file — the workspace's (config.FileNames) or the user's
// (config.UserFile) — the problems LoadConfig would report of its text
// (config.CheckFile, linterProblems), each an error at its line (column
// 1; the whole file: line 1), "key: message": an unknown key, with the
// closest known one; a value of the wrong type; a linter's unknown
// parser. Such a key keeps its default, so whoever wrote it — an agent
// editing the config — must hear of it in the lint block, not only in the
// daemon's log. A file that does not parse is left to its validator when
// that reported something (the same error twice otherwise). It returns
// the checker's result when it ran.
func (e *Engine) checkConfigFiles(targets []target, byFile map[string][]diag.Diagnostic) []wire.ServerResult {
	ran := false
	for _, t := range targets {
		problems, cfg, ok := config.CheckFile(e.Root, t.path, t.text)
		if !ok {
			continue
		}
		ran = true
		validated := len(byFile[t.path]) > 0
		for _, p := range append(problems, linterProblems(cfg)...) {
			if p.File != t.path || (p.Key == "" && validated) {
				continue
			}
			msg := p.Message
			if p.Key != "" {
				msg = p.Key + ": " + msg
			}
			line := max(p.Line, 1)
			byFile[t.path] = append(byFile[t.path], diag.Diagnostic{Path: t.path, Line: line, Column: 1, EndLine: line, EndColumn: 1,
				Severity: diag.SeverityError, Source: configChecker, Message: msg})
		}
	}
	if !ran {
		return nil
	}
	return []wire.ServerResult{{Name: configChecker, Kind: wire.KindValidator, State: lsp.StateActive, Freshness: string(lsp.Fresh)}}
}
