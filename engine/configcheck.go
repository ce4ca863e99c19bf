package engine

import (
	"slices"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/parsers"
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
