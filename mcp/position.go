package mcp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/internal/safefile"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Units. A model names a position as a 1-based line and either a symbol
// (a substring of that line; "name#N" is its N-th occurrence, counted
// from 1, left to right, not overlapping) or a 1-based column counted in
// characters (Unicode code points). The LSP position sent to the server is
// 0-based, its character counted in the server's negotiated encoding;
// lsp.Character and lsp.Column convert between the two on the line's text,
// and nothing else here counts units.

// resolvePath turns a tool's path (absolute, or relative to root) into a
// clean absolute path inside root, following symlinks (workspace.Resolve:
// a symlink leading out, "..", an empty path or one with a NUL byte are
// refused), and says for a path outside the workspace
// (workspace.ErrOutside) that only files in it can be asked about.
func resolvePath(root, path string) (string, error) {
	p, err := workspace.Resolve(root, path)
	if errors.Is(err, workspace.ErrOutside) {
		return "", fmt.Errorf("%s is %w (%s): only files in the workspace can be asked about", path, err, root)
	}
	return p, err
}

// respell gives a tool's path spelled through the agent's symlinked
// spelling of the root (Options.Alias) the root's own spelling
// (workspace.Respell); any other path is returned as it is.
func (t *tools) respell(path string) string { return workspace.Respell(t.root, t.alias, path) }

// resolve is resolvePath for a path a tool was given: respelled first.
func (t *tools) resolve(path string) (string, error) { return resolvePath(t.root, t.respell(path)) }

// locate is locate for a position a tool was given: its path respelled
// first.
func (t *tools) locate(path string, line int, symbol string, column int) (position, error) {
	return locate(t.root, t.respell(path), line, symbol, column)
}

// maxFileSize bounds the file fileLines reads, in bytes: the daemon's
// own limit (wire.MaxFileSize, 16 MiB), past which it checks no file
// either.
const maxFileSize = wire.MaxFileSize

// fileLines reads a file and splits it into lines without their endings
// ("\n", and a "\r" before it). It refuses, before opening, anything but
// a regular file (symlinks followed; safefile.ErrNotRegular: a FIFO would
// block the tool for good, a device can be endless), and before reading, a
// kernel pseudo-file (safefile.ErrPseudoFile) or a file over maxFileSize
// (an error naming both sizes in MiB).
func fileLines(path string) ([]string, error) {
	b, err := safefile.ReadFollow(path, maxFileSize)
	if big := (*safefile.TooLargeError)(nil); errors.As(err, &big) {
		return nil, fmt.Errorf("%.1f MiB is larger than the %d MiB a file may have", float64(big.Size)/(1<<20), maxFileSize>>20)
	}
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines, nil
}

// parseSymbol splits "name#N" into name and N; a symbol without a "#"
// followed by a positive number is itself the name, occurrence 1.
func parseSymbol(symbol string) (name string, n int) {
	if i := strings.LastIndexByte(symbol, '#'); i > 0 {
		if k, err := strconv.Atoi(symbol[i+1:]); err == nil && k >= 1 {
			return symbol[:i], k
		}
	}
	return symbol, 1
}

// symbolColumn returns the 1-based code-point column where the symbol's
// N-th occurrence starts on line (see parseSymbol), or an error quoting
// the line when it is not there that often.
func symbolColumn(line, symbol string, lineNo int) (int, error) {
	name, n := parseSymbol(symbol)
	if name == "" {
		return 0, errors.New("symbol is empty")
	}
	off, found := 0, 0
	for {
		i := strings.Index(line[off:], name)
		if i < 0 {
			break
		}
		if at := off + i; !charBoundary(line, at) {
			off = at + 1 // inside a character's bytes: not an occurrence
			continue
		}
		found++
		if found == n {
			return utf8.RuneCountInString(line[:off+i]) + 1, nil
		}
		off += i + len(name)
	}
	if found == 0 {
		return 0, fmt.Errorf("symbol %q not found on line %d: %s", name, lineNo, strings.TrimSpace(line))
	}
	return 0, fmt.Errorf("symbol %q occurs %d time(s) on line %d, not %d: %s", name, found, lineNo, n, strings.TrimSpace(line))
}

// charBoundary reports whether byte offset i of s starts a character as
// columns count them (utf8.RuneCountInString, an invalid byte being a
// character of its own): cutting s there splits no character.
func charBoundary(s string, i int) bool {
	return utf8.RuneCountInString(s[:i])+utf8.RuneCountInString(s[i:]) == utf8.RuneCountInString(s)
}

// position is a resolved tool position: the file, its lines, and the
// 1-based line and code-point column.
type position struct {
	path      string
	lines     []string
	line, col int
}

// locate resolves a tool's path, line, symbol and column into a position.
// Exactly one of symbol and column must be given.
func locate(root, path string, line int, symbol string, column int) (position, error) {
	p, err := resolvePath(root, path)
	if err != nil {
		return position{}, err
	}
	lines, err := fileLines(p)
	if err != nil {
		return position{}, fmt.Errorf("reading %s: %w", path, err)
	}
	if line < 1 || line > len(lines) {
		return position{}, fmt.Errorf("line %d is out of range: %s has %d lines", line, path, len(lines))
	}
	text := lines[line-1]
	switch {
	case symbol != "" && column != 0:
		return position{}, errors.New("give symbol or column, not both")
	case symbol != "":
		if column, err = symbolColumn(text, symbol, line); err != nil {
			return position{}, err
		}
	case column < 1:
		return position{}, errors.New("give a symbol on the line (or a 1-based column)")
	case column > utf8.RuneCountInString(text)+1:
		return position{}, fmt.Errorf("column %d is past the end of line %d (%d characters)", column, line, utf8.RuneCountInString(text))
	}
	return position{path: p, lines: lines, line: line, col: column}, nil
}
