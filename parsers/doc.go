// Package parsers turns the output of compilers and linters (go vet, tsc,
// ruff, eslint, cargo, shellcheck, SARIF producers, …) into diag.Diagnostic
// values. One file per format; each format registers a Format describing the
// tool and flag whose output it reads, the unit its columns count, and how
// to recognise it for "auto".
//
// A Parser returns diagnostics as the tool printed them: Path as printed
// (relative to the directory the tool ran in, or absolute), Line 1-based,
// Column 1-based in the format's ColumnUnit. Normalize then makes paths
// absolute and columns code points, reading the files it needs once.
//
// parsers imports only diag.
package parsers
