package parsers

import (
	"os"
	"path/filepath"

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
	texts := map[string]*string{}
	text := func(path string) (string, bool) {
		t, seen := texts[path]
		if !seen {
			if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() <= maxNormalizeFile {
				if b, err := os.ReadFile(path); err == nil {
					s := string(b)
					t = &s
				}
			}
			texts[path] = t
		}
		if t == nil {
			return "", false
		}
		return *t, true
	}
	for i := range ds {
		d := &ds[i]
		if d.Path != "" {
			if !filepath.IsAbs(d.Path) {
				d.Path = filepath.Join(dir, d.Path)
			}
			d.Path = filepath.Clean(d.Path)
		}
		if d.Source == "" {
			d.Source = source
		}
		if d.Severity < diag.SeverityError || d.Severity > diag.SeverityHint {
			d.Severity = diag.SeverityError
		}
		if unit == diag.UnitCodePoints || d.Path == "" {
			continue
		}
		t, ok := text(d.Path)
		if !ok {
			continue
		}
		if l, ok := diag.LineText(t, d.Line); ok {
			d.Column = diag.ToCodePoints(l, d.Column, unit)
		}
		if d.EndLine > 0 {
			if l, ok := diag.LineText(t, d.EndLine); ok {
				d.EndColumn = diag.ToCodePoints(l, d.EndColumn, unit)
			}
		}
	}
	return ds
}
