package diag

import "github.com/lsp-hook/lsp-hook/internal/workspace"

// Group sorts and de-duplicates ds (SortDedupe) and splits them by file, in
// path order. Rel is each Path relative to root, slash-separated; a path
// outside root keeps its absolute form, and an empty Path (a message about
// no file, such as tsc's config errors) stays empty (workspace.Display). Files without
// diagnostics do not appear.
func Group(ds []Diagnostic, root string) []FileDiagnostics {
	ds = SortDedupe(ds)
	var out []FileDiagnostics
	for _, d := range ds {
		if n := len(out); n > 0 && out[n-1].Path == d.Path {
			out[n-1].Diagnostics = append(out[n-1].Diagnostics, d)
			continue
		}
		out = append(out, FileDiagnostics{Path: d.Path, Rel: workspace.Display(root, d.Path), Diagnostics: []Diagnostic{d}})
	}
	return out
}
