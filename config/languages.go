package config

import (
	"path/filepath"
	"strings"
	"sync"
)

// sourceLanguages maps the file extensions of programming languages
// (lower case, with the dot) to their LSP language identifiers: those of
// the table in LSP 3.17, "Text Document Item", whose languages a compiler
// or interpreter rejects wrong source of, and kotlin, haskell, ocaml, zig,
// vue and svelte, which the table does not list, by the identifiers their
// language servers use, and Jupyter notebooks (.ipynb: LSP 3.17's
// notebook type "jupyter-notebook"), whose cells are code that nothing
// here checks (nor does the pyright CLI): a notebook edited through
// Claude Code's NotebookEdit was answered in silence. Prose, data and
// markup (markdown, plaintext, ini,
// xml, html, css) are left out: a file of those that nothing checks is not
// one whose errors anything would report.
// Built on first use: a hook never reads it (issue 18, init).
var sourceLanguages = sync.OnceValue(func() map[string]string {
	return map[string]string{
		".bat": "bat", ".cmd": "bat",
		".clj": "clojure", ".cljs": "clojure", ".cljc": "clojure",
		".coffee": "coffeescript",
		".c":      "c", ".h": "c",
		".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
		".cs":   "csharp",
		".dart": "dart",
		".ex":   "elixir", ".exs": "elixir",
		".erl": "erlang", ".hrl": "erlang",
		".fs": "fsharp", ".fsi": "fsharp", ".fsx": "fsharp",
		".go":     "go",
		".groovy": "groovy", ".gradle": "groovy",
		".hs":    "haskell",
		".ipynb": "jupyter-notebook",
		".java":  "java",
		".js":    "javascript", ".mjs": "javascript", ".cjs": "javascript",
		".jsx": "javascriptreact",
		".kt":  "kotlin", ".kts": "kotlin",
		".lua": "lua",
		".m":   "objective-c",
		".mm":  "objective-cpp",
		".ml":  "ocaml", ".mli": "ocaml",
		".pl": "perl", ".pm": "perl",
		".php": "php",
		".ps1": "powershell", ".psm1": "powershell",
		".py": "python", ".pyi": "python",
		".r":     "r",
		".rb":    "ruby",
		".rs":    "rust",
		".scala": "scala", ".sc": "scala",
		".sh": "shellscript", ".bash": "shellscript", ".zsh": "shellscript", ".ksh": "shellscript",
		".svelte": "svelte",
		".swift":  "swift",
		".ts":     "typescript", ".mts": "typescript", ".cts": "typescript",
		".tsx": "typescriptreact",
		".vb":  "vb",
		".vue": "vue",
		".zig": "zig",
	}
})

// SourceLanguage returns the LSP language identifier of path when it is
// the source of a programming language (its extension, compared without
// regard to case: sourceLanguages), and false otherwise.
func SourceLanguage(path string) (string, bool) {
	id, ok := sourceLanguages()[strings.ToLower(filepath.Ext(path))]
	return id, ok
}
