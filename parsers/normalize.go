package parsers

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
)

// maxNormalizeFile bounds the file size Normalize reads to convert columns;
// larger files keep the tool's columns.
const maxNormalizeFile = 16 << 20

// Normalize turns parser output into diag's units, in place, and returns ds:
//
//   - a relative Path is joined to dir (the directory the tool ran in) and
//     every Path is cleaned; an empty Path stays empty;
//   - Column and EndColumn are converted from unit to code points with the
//     text of their lines, read once per file; a file that cannot be read
//     (deleted, too large, not a regular file) keeps the tool's columns;
//   - Source is set to source where the parser left it empty;
//   - a Severity outside error…hint becomes error, so nothing is dropped.
func Normalize(ds []diag.Diagnostic, dir string, unit diag.ColumnUnit, source string) []diag.Diagnostic {
	n := newNormalizer(dir, source)
	for i := range ds {
		n.normalize(&ds[i], unit)
	}
	return ds
}

// normalizer holds what Normalize reads once per call: each file's lines.
type normalizer struct {
	dir, source string
	lines       map[string][]string // path → its lines; nil: unreadable
}

func newNormalizer(dir, source string) *normalizer {
	return &normalizer{dir: dir, source: source, lines: make(map[string][]string)}
}

// fileLines returns path's lines (without line endings), reading the file
// the first time; false when it cannot be read.
func (n *normalizer) fileLines(path string) ([]string, bool) {
	ls, seen := n.lines[path]
	if !seen {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() <= maxNormalizeFile {
			if b, err := os.ReadFile(path); err == nil {
				ls = strings.Split(string(b), "\n")
				for i, l := range ls {
					ls[i] = strings.TrimSuffix(l, "\r")
				}
			}
		}
		n.lines[path] = ls
	}
	return ls, ls != nil
}

func (n *normalizer) normalize(d *diag.Diagnostic, unit diag.ColumnUnit) {
	if d.Path != "" {
		if !filepath.IsAbs(d.Path) {
			d.Path = filepath.Join(n.dir, d.Path)
		}
		d.Path = filepath.Clean(d.Path)
	}
	if d.Source == "" {
		d.Source = n.source
	}
	if d.Severity < diag.SeverityError || d.Severity > diag.SeverityHint {
		d.Severity = diag.SeverityError
	}
	if unit == diag.UnitCodePoints || d.Path == "" {
		return
	}
	ls, ok := n.fileLines(d.Path)
	if !ok {
		return
	}
	if d.Line >= 1 && d.Line <= len(ls) {
		d.Column = diag.ToCodePoints(ls[d.Line-1], d.Column, unit)
	}
	if d.EndLine >= 1 && d.EndLine <= len(ls) {
		d.EndColumn = diag.ToCodePoints(ls[d.EndLine-1], d.EndColumn, unit)
	}
}
