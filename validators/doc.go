// Package validators checks JSON (RFC 8259), JSONC (JSON with comments and
// trailing commas), YAML 1.2 and TOML 1.0 files in process, in micro- to
// milliseconds, without a language server. The engine runs them on every
// changed file whose name selects one (KindOf), and a hook that finds no
// daemon runs them on its own (DESIGN.md "One change, end to end").
//
// It owns: choosing a validator from a file name, the syntax checks, the
// duplicate-key checks the parsers leave out, and the conversion of each
// parser's error position to diag's units: 1-based lines and 1-based columns
// counted in Unicode code points, with "\n", "\r\n" and "\r" ending lines
// (see position.go). A validator reports problems as diagnostics and never
// fails or panics, whatever the input: binary data and invalid UTF-8 are
// diagnostics too.
//
// From lsp-hook it imports only diag; besides the standard library it uses
// gopkg.in/yaml.v3 and github.com/BurntSushi/toml. It must not import
// sidecar, lsp, parsers or config.
package validators
