// Package lazyre holds regular expressions compiled on their first use, not
// at package init: every lsp-hook command is one binary, so a regexp
// compiled at init is paid by each `lsp-hook hook` run, which starts once
// per agent edit and uses almost none of them (issue 18, "Hook process
// start"). It imports nothing of lsp-hook's.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr (RE2 syntax, as
// regexp.MustCompile) on its first call and returns the same *regexp.Regexp
// on every call, from any goroutine. An invalid expr panics on that first
// call, as regexp.MustCompile would have at init: each package's tests
// reach its expressions.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
