package install

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// ProgramName is the name lsp-hook is installed under; a hook command
// runs it by this name when it is on PATH.
const ProgramName = "lsp-hook"

// HookProgram returns the program a hook command starts: "lsp-hook" when
// an lsp-hook is on PATH, else the absolute path of the running binary.
// A running binary whose name does not start with "lsp-hook" is an error:
// uninstall recognises entries by that name (IsHookCommand).
//
// The bare name keeps a project's config file portable (it is usually
// committed, and a teammate's lsp-hook lives elsewhere) and survives
// upgrades; the absolute path makes a binary that is not installed on
// PATH (a release tarball, `go build` output) work at all. An
// lsp-hook on PATH that is not the running one still wins: it is the one
// the user's shell, and so the agent, would run.
func HookProgram() (prog string, onPath bool, err error) {
	return hookProgram(exec.LookPath, os.Executable)
}

// hookProgram is HookProgram with its look-ups passed in, for tests.
func hookProgram(lookPath func(string) (string, error), executable func() (string, error)) (string, bool, error) {
	if _, err := lookPath(ProgramName); err == nil {
		return ProgramName, true, nil
	}
	exe, err := executable()
	if err != nil {
		return "", false, fmt.Errorf("finding the lsp-hook binary (not on PATH): %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if !strings.HasPrefix(filepath.Base(exe), ProgramName) {
		return "", false, fmt.Errorf("lsp-hook is not on PATH and this binary, %s, is not named lsp-hook: "+
			"rename it or put lsp-hook on PATH (or pass the hook command yourself)", exe)
	}
	return exe, false, nil
}

// HookCommand is the command line a hook entry runs for agent:
// `<program> hook <agent>`, the program quoted for a POSIX shell when it
// needs to be (every agent runs hook commands through a shell).
func HookCommand(program, agent string) string {
	return hookShellQuote(program) + " hook " + agent
}

// hookShellSafe matches words a POSIX shell takes literally.
var hookShellSafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`) })

// hookShellQuote quotes s for a POSIX shell: as is when it is safe, else in
// single quotes.
func hookShellQuote(s string) string {
	if hookShellSafe().MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// hookShellWords splits a command line into words the way a POSIX shell does
// for the simple cases a hook command uses: blanks separate words, single
// quotes are literal, double quotes and backslashes escape. Expansions,
// operators and the like are kept as literal text.
func hookShellWords(s string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				w.WriteString(s[i+1:])
				i = len(s)
				break
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			w.WriteByte(s[i])
		default:
			inWord = true
			w.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// hookEnvAssign matches a leading NAME=value word of a command line.
var hookEnvAssign = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

// IsHookCommand reports whether command runs `lsp-hook hook <agent>`: after
// any NAME=value words, a program in any directory whose base name starts
// with "lsp-hook" (lsp-hook, lsp-hook.exe, lsp-hook_linux_amd64 as a
// release archive names it), then "hook" and the agent ("claude-code"
// counts as "claude"). Later arguments do not matter. This is how
// uninstall recognises lsp-hook's entries.
func IsHookCommand(command, agent string) bool {
	words := hookShellWords(command)
	for len(words) > 0 && hookEnvAssign().MatchString(words[0]) {
		words = words[1:]
	}
	if len(words) < 3 {
		return false
	}
	if !strings.HasPrefix(filepath.Base(words[0]), ProgramName) || words[1] != "hook" {
		return false
	}
	return words[2] == agent || (agent == "claude" && words[2] == "claude-code")
}
