package lsp

import (
	"bytes"
	"go/build/constraint"

	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// maxConstraintScan bounds the bytes of a Go file read for its build
// constraints: they come before the package clause, after at most the
// file's leading comments (a licence header).
const maxConstraintScan = 64 << 10

// GoBuildConstraint returns the build constraint lines of a Go file's
// text (UTF-8; its first maxConstraintScan bytes are read) — its
// `//go:build` and `// +build` lines before the package clause (`go help
// buildconstraint`; go/build/constraint's IsGoBuild and IsPlusBuild),
// joined by newlines — or "" when it has none. Lines inside /* */
// comments are not read as constraints, as the go command does not.
//
// gopls loads a file its default build leaves out only once the file is
// open, as a package of its own (a standalone file: its standaloneTags
// setting, default "ignore", gopls/doc/settings.md) or in a view for
// another GOOS/GOARCH, and with diagnosticsDelay 0s it publishes the
// open file's diagnostics before that load: an empty list, never the
// errors (config.Server.RecheckUnloaded).
func GoBuildConstraint(text []byte) string {
	if len(text) > maxConstraintScan {
		text = text[:maxConstraintScan]
	}
	var lines [][]byte
	inBlock := false
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case inBlock:
			if i := bytes.Index(line, []byte("*/")); i >= 0 {
				inBlock = false
				if rest := bytes.TrimSpace(line[i+2:]); len(rest) > 0 && !bytes.HasPrefix(rest, []byte("//")) {
					return string(bytes.Join(lines, []byte("\n"))) // code after the comment: the package clause or worse
				}
			}
		case len(line) == 0:
		case bytes.HasPrefix(line, []byte("//")):
			if s := string(line); constraint.IsGoBuild(s) || constraint.IsPlusBuild(s) {
				lines = append(lines, line)
			}
		case bytes.HasPrefix(line, []byte("/*")):
			inBlock = !bytes.Contains(line[2:], []byte("*/"))
		default:
			return string(bytes.Join(lines, []byte("\n"))) // the package clause (or anything else) ends the header
		}
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// staleIgnoredText reports whether a Go file of this text can be left out
// of its package's build only by a server's stale view of it: it has no
// build constraint (GoBuildConstraint) and imports no "C" (cgo's files
// are left out of a build with cgo off: `go help buildconstraint`).
// A file name's _GOOS or _GOARCH suffix is gopls's other message.
func staleIgnoredText(text []byte) bool {
	return GoBuildConstraint(text) == "" && !cgoImport().Match(text)
}

// cgoImport matches an import of the pseudo-package "C" (cmd/cgo), alone
// or in an import block.
var cgoImport = lazyre.New(`(?m)^\s*(?:import\s+)?"C"\s*$`)
