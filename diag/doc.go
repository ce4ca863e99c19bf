// Package diag is lsp-hook's shared vocabulary: the Diagnostic every checker
// produces (language servers, validators, linters), its Severity, stable
// ordering and de-duplication, and the renderers that turn diagnostics into
// what a reader sees — chiefly the lint block injected into an agent's tool
// result (DESIGN.md "The lint block").
//
// Positions here are 1-based lines and 1-based columns counted in Unicode
// code points (characters). Wire units such as LSP's 0-based UTF-16
// positions never reach a Diagnostic; each producer converts once, with the
// one column converter here (columns.go: ToCodePoints and FromCodePoints,
// for bytes, UTF-16 code units, code points and display columns).
//
// diag is a leaf: it imports nothing from lsp-hook but internal/* leaf
// packages (fileuri, workspace).
package diag
