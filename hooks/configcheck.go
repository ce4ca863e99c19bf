package hooks

import (
	"errors"

	"github.com/lsp-hook/lsp-hook/config"
)

// CheckConfig adds to the problems of a loaded configuration (as the
// daemon loads it, engine.LoadConfig: files, keys, types, linter parsers;
// or config.Load) the problems of its `hooks:` declarations, each a
// config.Problem with the file and line of the hook it concerns. A config
// without a `hooks:` key has no declarations to check and is not a
// problem: hooks are optional. This is `lsp-hook config check`.
func CheckConfig(cfg *config.Config, problems []config.Problem) []config.Problem {
	if cfg.Hooks == nil {
		return problems
	}
	_, err := ConfigDeclarations(cfg)
	return append(problems, declarationProblems(cfg, err)...)
}

// declarationProblems turns the error of ConfigDeclarations (nil, one
// error, or several joined) into problems, one per *DeclarationError; an
// empty list is one problem at the hooks: key.
func declarationProblems(cfg *config.Config, err error) []config.Problem {
	if err == nil {
		return nil
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	out := make([]config.Problem, 0, len(errs))
	for _, e := range errs {
		var de *DeclarationError
		if errors.As(e, &de) {
			key := de.Hook // `hook "ID"`, as DeclarationError.Error renders it
			if de.Key != "" {
				key += ": " + de.Key
			}
			out = append(out, config.Problem{File: de.File, Line: de.Line, Key: key, Message: de.Message})
			continue
		}
		p := config.Problem{Key: "hooks", Message: e.Error()}
		if errors.Is(e, ErrNoDeclarations) {
			p.File, p.Line = config.SplitSource(cfg.Sources["hooks"])
			p.Message = "an empty list: no hook declarations (remove the key, or declare hooks)"
		}
		out = append(out, p)
	}
	return out
}
