// Package config loads lsp-hook's configuration: the workspace file
// (.lsp-hook.yaml at the workspace root), the user file
// ($XDG_CONFIG_HOME/lsp-hook/config.yaml), and built-in defaults, in that
// order of precedence; and the built-in catalogue of language servers.
//
// A problem in a file is reported with file, line and key, and only the
// broken key falls back to its default: a typo never turns lsp-hook off.
//
// config is a leaf: it imports nothing from lsp-hook.
package config
