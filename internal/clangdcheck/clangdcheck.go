// Package clangdcheck runs clangd's own check mode, `clangd --check=FILE`
// (clangd/tool/Check.cpp), as the judge of tests about clangd: what
// clangd itself says of a file, its clang-tidy checks included. Only
// tests import it.
package clangdcheck

import (
	"cmp"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Error is one error `clangd --check` lists: its 1-based line and its
// code, a clang-tidy check's name ("bugprone-sizeof-expression") or
// clang's warning flag ("-Wunused-variable") for a warning raised to an
// error.
type Error struct {
	Line int
	Code string
}

// String is "line [code]".
func (e Error) String() string { return fmt.Sprintf("%d [%s]", e.Line, e.Code) }

// Tidy reports whether the error is a clang-tidy check's, not clang's.
func (e Error) Tidy() bool { return len(e.Code) > 0 && e.Code[0] != '-' }

// errLine is an error line of check mode's log, which lists errors only:
// "E[time] [code] Line N: message".
var errLine = regexp.MustCompile(`(?m)^E\[[^]]*\] \[([^]]+)\] Line (\d+): `)

// Errors runs `exe --check=rel` in dir with env (nil: this process's)
// and returns the errors it lists, sorted by line, then code. A non-zero
// exit (clangd's when it finds errors) is not a failure; not starting is.
func Errors(exe, dir, rel string, env []string) ([]Error, error) {
	cmd := exec.Command(exe, "--check="+rel)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		return nil, fmt.Errorf("clangd --check=%s: %w", rel, err)
	}
	return Parse(out), nil
}

// Parse reads the errors out of check mode's log (what Errors runs),
// sorted by line, then code. Lines of any other form are skipped.
func Parse(out []byte) []Error {
	var errs []Error
	for _, m := range errLine.FindAllSubmatch(out, -1) {
		line, err := strconv.Atoi(string(m[2]))
		if err != nil {
			continue // too many digits for an int: no line clangd prints
		}
		errs = append(errs, Error{Line: line, Code: string(m[1])})
	}
	slices.SortFunc(errs, func(a, b Error) int {
		if a.Line != b.Line {
			return cmp.Compare(a.Line, b.Line)
		}
		return strings.Compare(a.Code, b.Code)
	})
	return errs
}
