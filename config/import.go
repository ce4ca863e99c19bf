package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/lazyre"
	"github.com/tailscale/hujson"
	"gopkg.in/yaml.v3"
)

// Server definitions users already have are imported, doing what the
// source file meant:
//
//   - opencode's `lsp` section (opencode.json or opencode.jsonc at the
//     workspace root; opencode.ai/docs/lsp): {"lsp": {"NAME": {"command":
//     [argv…], "extensions": [".x"], "env": {…}, "initialization": {…},
//     "disabled": bool}}}. An entry named after one of opencode's built-in
//     servers with no command configures or disables the catalogue's
//     server for it (opencodeBuiltins); `"lsp": false` turns off every
//     catalogue server, as it turns off opencode's. Values may use
//     opencode's {env:VAR} and {file:path} substitutions.
//   - a Claude Code plugin's .lsp.json at the workspace root (Claude Code
//     plugins reference, "LSP servers"): {"NAME": {"command": "prog",
//     "args": [...], "extensionToLanguage": {".x": "langid"}, "env": {…},
//     "initializationOptions": {…}, "settings": {…}, "startupTimeout": ms,
//     …}}. ${VAR} and ${VAR:-default} expand from the environment; an
//     entry that uses ${CLAUDE_PLUGIN_ROOT} or ${CLAUDE_PLUGIN_DATA}, which
//     only an installed plugin defines, is refused with a problem.
//     startupTimeout becomes the server's first-touch timeout.
//
// An imported server replaces the catalogue's servers for its extensions
// (never two servers of one language): a catalogue server loses those
// extensions, and is turned off when none is left. Language identifiers
// an entry does not give follow the LSP 3.17 table (languageIDOf). What
// the source format defines that lsp-hook cannot honour (a socket
// transport, restart policies) is a Problem with file, line and key, so
// `config check` lists it. An imported server is used only when no
// lsp-hook config file (workspace or user) defines a server of the same
// name, and its commands are subject to workspace trust like the
// workspace's own config (Trust records these files too): a file not
// trusted changes nothing. `config show` names the file and line.

// ImportFiles are the files whose server definitions are imported, at the
// workspace root, in order (a later file does not override an earlier).
var ImportFiles = []string{"opencode.json", "opencode.jsonc", ".lsp.json"}

// opencodeBuiltins maps the names of opencode's built-in servers
// (opencode.ai/docs/lsp, "Built-in") to the catalogue's server for the
// same language.
// Built on first use: a hook never reads it (issue 18, init).
var opencodeBuiltins = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"astro": "astro-language-server", "bash": "bash-language-server", "biome": "biome",
		"clangd": "clangd", "csharp": "csharp-ls", "dart": "dart", "elixir-ls": "elixir-ls",
		"eslint": "eslint", "gopls": "gopls", "hls": "haskell-language-server", "jdtls": "jdtls",
		"kotlin-ls": "kotlin-language-server", "lua-ls": "lua-language-server", "ocaml-lsp": "ocamllsp",
		"php intelephense": "intelephense", "intelephense": "intelephense", "pyright": "pyright",
		"ruby-lsp": "ruby-lsp", "rust": "rust-analyzer", "sourcekit-lsp": "sourcekit-lsp",
		"svelte": "svelte-language-server", "terraform": "terraform-ls", "typescript": "typescript-language-server",
		"vue": "vue-language-server", "yaml-ls": "yaml-language-server", "zls": "zls",
	}
})

// imported is one server an import file defined, for the replacement of
// the catalogue's servers once trust has been decided (importAll).
type imported struct {
	name, file string
	line       int
}

// importServers reads the import files of root into c, skipping names in
// keep (set by lsp-hook config), and returns the files read, the servers
// they defined, and problems.
func importServers(c *Config, root string, keep map[string]bool) ([]string, []imported, []Problem) {
	var (
		files    []string
		servers  []imported
		problems []Problem
	)
	for _, name := range ImportFiles {
		file := filepath.Join(root, name)
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		std, err := hujson.Standardize(data) // comments and trailing commas become spaces: lines stay
		if err != nil {
			problems = append(problems, Problem{File: file, Message: fmt.Sprintf("parsing: %v", err)})
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(std, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			problems = append(problems, Problem{File: file, Message: "want a JSON object"})
			continue
		}
		top := doc.Content[0]
		claude := name == ".lsp.json"
		if !claude {
			lsp := child(top, "lsp")
			if lsp != nil && lsp.Kind == yaml.ScalarNode && lsp.Value == "false" {
				files = append(files, file)
				disableCatalogue(c, keep, file, lsp.Line, "")
				continue
			}
			if lsp == nil || lsp.Kind != yaml.MappingNode {
				continue // an opencode config without servers
			}
			top = lsp
		}
		files = append(files, file)
		for i := 0; i+1 < len(top.Content); i += 2 {
			k, v := top.Content[i], top.Content[i+1]
			if keep[k.Value] {
				continue
			}
			e := entry{file: file, name: k.Value, line: k.Line, claude: claude}
			s, builtin, perr := e.decode(v)
			problems = append(problems, perr...)
			switch {
			case builtin != "":
				configureBuiltin(c, keep, e, builtin, v)
			case s.Name == "":
				// disabled there, or refused (a problem says why)
			default:
				c.LSP.Servers[s.Name] = s
				keep[s.Name] = true
				servers = append(servers, imported{name: s.Name, file: file, line: k.Line})
				src := fmt.Sprintf("%s:%d", file, k.Line)
				for _, f := range []string{"enabled", "command", "extensions", "language_ids", "env", "initialization_options", "settings", "first_touch_timeout", "watch"} {
					c.Sources["lsp.servers."+s.Name+"."+f] = src
				}
			}
		}
	}
	return files, servers, problems
}

// entry is one server entry of an import file being decoded.
type entry struct {
	file, name string
	line       int
	claude     bool // .lsp.json; else opencode's lsp section
}

// problem is a Problem about e's key (file:line: name.key: message).
func (e entry) problem(key, format string, args ...any) Problem {
	k := e.name
	if key != "" {
		k += "." + key
	}
	return Problem{File: e.file, Line: e.line, Key: k, Message: fmt.Sprintf(format, args...)}
}

// rawEntry is every key either source format defines for a server.
type rawEntry struct {
	Command        any               `yaml:"command"`
	Args           []string          `yaml:"args"`
	Extensions     []string          `yaml:"extensions"`
	ExtToLang      map[string]string `yaml:"extensionToLanguage"`
	Env            map[string]string `yaml:"env"`
	Initialization any               `yaml:"initialization"`
	InitOptions    any               `yaml:"initializationOptions"`
	Settings       map[string]any    `yaml:"settings"`
	Disabled       bool              `yaml:"disabled"`
	Transport      string            `yaml:"transport"`
	StartupTimeout *int              `yaml:"startupTimeout"`
	// Keys Claude Code defines that lsp-hook does not honour (it has its
	// own roots, shutdown and crash policy): listed by `config check`.
	ShutdownTimeout *int  `yaml:"shutdownTimeout"`
	RestartOnCrash  *bool `yaml:"restartOnCrash"`
	MaxRestarts     *int  `yaml:"maxRestarts"`
	WorkspaceFolder any   `yaml:"workspaceFolder"`
}

// knownKeys are the keys of each format's server entry.
// Built on first use: a hook never reads it (issue 18, init).
var knownKeys = sync.OnceValue(func() map[bool][]string {
	return map[bool][]string{
		false: {"command", "extensions", "env", "initialization", "disabled"},
		true: {"command", "args", "extensionToLanguage", "env", "initializationOptions", "settings", "transport",
			"startupTimeout", "shutdownTimeout", "restartOnCrash", "maxRestarts", "workspaceFolder"},
	}
})

// decode turns the entry's value n into a Server, with its variables
// expanded. It returns the catalogue server's name instead when the entry
// configures an opencode built-in (no command, a built-in name), and the
// zero Server when the entry is disabled or refused; problems list what
// could not be honoured.
func (e entry) decode(n *yaml.Node) (Server, string, []Problem) {
	var problems []Problem
	if n.Kind != yaml.MappingNode {
		return Server{}, "", []Problem{e.problem("", "want an object")}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; !slices.Contains(knownKeys()[e.claude], k) {
			problems = append(problems, e.problem(k, "unknown key; ignored"))
		}
	}
	var raw rawEntry
	if err := n.Decode(&raw); err != nil {
		return Server{}, "", append(problems, e.problem("", "decoding server: %v", err))
	}
	if raw.Command == nil && !e.claude {
		if cat, ok := opencodeBuiltins()[e.name]; ok {
			return Server{}, cat, problems
		}
	}
	if raw.Disabled {
		return Server{}, "", problems
	}
	x := expander{claude: e.claude, dir: filepath.Dir(e.file)}
	s := Server{Name: e.name, Enabled: true, Env: map[string]string{}, Settings: raw.Settings,
		InitializationOptions: raw.InitOptions, LanguageIDs: map[string]string{}}
	if raw.Initialization != nil {
		s.InitializationOptions = raw.Initialization
	}
	switch cmd := raw.Command.(type) {
	case string:
		s.Command = append([]string{cmd}, raw.Args...)
	case []any:
		for _, a := range cmd {
			str, ok := a.(string)
			if !ok {
				return Server{}, "", append(problems, e.problem("command", "want strings, got %v", a))
			}
			s.Command = append(s.Command, str)
		}
		s.Command = append(s.Command, raw.Args...)
	}
	for i, a := range s.Command {
		s.Command[i] = x.expand(a)
	}
	for k, v := range raw.Env {
		s.Env[k] = x.expand(v)
	}
	if x.err != nil {
		return Server{}, "", append(problems, e.problem("", "%v; not imported", x.err))
	}
	for ext, lang := range raw.ExtToLang {
		s.Extensions = append(s.Extensions, ext)
		s.LanguageIDs[ext] = lang
	}
	s.Extensions = append(s.Extensions, raw.Extensions...)
	for _, ext := range s.Extensions {
		if !strings.HasPrefix(ext, ".") {
			return Server{}, "", append(problems, e.problem("", "extension %q: want it with its dot", ext))
		}
		if s.LanguageIDs[ext] == "" {
			s.LanguageIDs[ext] = languageIDOf(ext)
		}
	}
	if len(s.Command) == 0 || len(s.Extensions) == 0 {
		return Server{}, "", append(problems, e.problem("", "a server needs a command and extensions (%s)", filepath.Base(e.file)))
	}
	slices.Sort(s.Extensions)
	s.Extensions = slices.Compact(s.Extensions)
	if raw.Transport != "" && raw.Transport != "stdio" {
		return Server{}, "", append(problems, e.problem("transport", "%q: lsp-hook talks to servers over stdio only; not imported", raw.Transport))
	}
	s.Watch = luauSourcemapWatch(raw.Initialization)
	if raw.StartupTimeout != nil {
		if *raw.StartupTimeout <= 0 {
			problems = append(problems, e.problem("startupTimeout", "%d: want a positive number of milliseconds; ignored", *raw.StartupTimeout))
		} else {
			s.FirstTouchTimeout = time.Duration(*raw.StartupTimeout) * time.Millisecond
		}
	}
	for key, set := range map[string]bool{"shutdownTimeout": raw.ShutdownTimeout != nil, "restartOnCrash": raw.RestartOnCrash != nil,
		"maxRestarts": raw.MaxRestarts != nil, "workspaceFolder": raw.WorkspaceFolder != nil} {
		if set {
			problems = append(problems, e.problem(key, "not honoured: lsp-hook finds each server's root by its markers, stops a server after 3 s, and restarts a crashed one with back-off (docs/processes.md)"))
		}
	}
	slices.SortFunc(problems, func(a, b Problem) int { return strings.Compare(a.Key, b.Key) })
	return s, "", problems
}

// luauSourcemapWatch returns the companion command luau-lsp's own
// settings ask for, from an opencode entry's initialization: when
// {"luau-lsp": {"sourcemap": {"autogenerate": true, …}}} (luau-lsp's
// settings luau-lsp.sourcemap.*: rojoPath, rojoProjectFile,
// sourcemapFile, includeNonScripts, default true), `rojo sourcemap
// PROJECT --watch --output FILE [--include-non-scripts]`, as luau-lsp's
// editor extension runs it; nil otherwise.
func luauSourcemapWatch(init any) []string {
	root, _ := init.(map[string]any)
	luau, _ := root["luau-lsp"].(map[string]any)
	sm, _ := luau["sourcemap"].(map[string]any)
	if on, _ := sm["autogenerate"].(bool); !on {
		return nil
	}
	str := func(key, def string) string {
		if v, ok := sm[key].(string); ok && v != "" {
			return v
		}
		return def
	}
	argv := []string{str("rojoPath", "rojo"), "sourcemap", str("rojoProjectFile", "default.project.json"),
		"--watch", "--output", str("sourcemapFile", "sourcemap.json")}
	if include, ok := sm["includeNonScripts"].(bool); !ok || include {
		argv = append(argv, "--include-non-scripts")
	}
	return argv
}

// expander expands the variables of an import file's strings: ${VAR} and
// ${VAR:-default} in .lsp.json (from the environment), {env:VAR} and
// {file:path} in opencode's config (path relative to the config's
// directory, ~ for the home directory). The first failure is kept in err.
type expander struct {
	claude bool
	dir    string
	err    error
}

var (
	claudeVar   = lazyre.New(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)
	opencodeVar = lazyre.New(`\{(env|file):([^}]+)\}`)
)

// expand returns s with its variables expanded.
func (x *expander) expand(s string) string {
	if x.claude {
		return claudeVar().ReplaceAllStringFunc(s, func(m string) string {
			g := claudeVar().FindStringSubmatch(m)
			name, hasDefault, def := g[1], g[2] != "", g[3]
			if strings.HasPrefix(name, "CLAUDE_PLUGIN_") {
				x.fail(fmt.Errorf("uses ${%s}, which only an installed Claude Code plugin defines", name))
				return m
			}
			if v, ok := os.LookupEnv(name); ok && v != "" {
				return v
			}
			if hasDefault {
				return def
			}
			x.fail(fmt.Errorf("uses ${%s}, which is not set", name))
			return m
		})
	}
	return opencodeVar().ReplaceAllStringFunc(s, func(m string) string {
		g := opencodeVar().FindStringSubmatch(m)
		if g[1] == "env" {
			return os.Getenv(strings.TrimSpace(g[2])) // opencode substitutes "" for an unset variable
		}
		p := strings.TrimSpace(g[2])
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			home, _ := os.UserHomeDir()
			p = filepath.Join(home, rest)
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(x.dir, p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			x.fail(fmt.Errorf("{file:%s}: %w", g[2], err))
			return m
		}
		return strings.TrimSpace(string(b))
	})
}

func (x *expander) fail(err error) {
	if x.err == nil {
		x.err = err
	}
}

// configureBuiltin applies an opencode entry for one of its built-in
// servers (n, with no command) to the catalogue's server cat, unless
// lsp-hook config set cat: disabled turns it off, env and initialization
// are added.
func configureBuiltin(c *Config, keep map[string]bool, e entry, cat string, n *yaml.Node) {
	s, ok := c.LSP.Servers[cat]
	if !ok || keep[cat] {
		return
	}
	var raw rawEntry
	if n.Decode(&raw) != nil {
		return
	}
	src := fmt.Sprintf("%s:%d", e.file, e.line)
	if raw.Disabled {
		disableCatalogue(c, keep, e.file, e.line, cat)
		return
	}
	if len(raw.Env) > 0 {
		s.Env = mergeEnv(s.Env, raw.Env)
		c.Sources["lsp.servers."+cat+".env"] = src
	}
	if raw.Initialization != nil {
		s.InitializationOptions = raw.Initialization
		c.Sources["lsp.servers."+cat+".initialization_options"] = src
	}
	c.LSP.Servers[cat] = s
}

// mergeEnv returns base with add's entries over it, base unchanged.
func mergeEnv(base, add map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(add))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range add {
		out[k] = v
	}
	return out
}

// disableCatalogue turns off the catalogue server only ("" for every one)
// that lsp-hook config did not set (keep), recording file:line as why.
func disableCatalogue(c *Config, keep map[string]bool, file string, line int, only string) {
	for name, s := range c.LSP.Servers {
		if keep[name] || (only != "" && name != only) || !s.Enabled {
			continue
		}
		s.Enabled = false
		c.LSP.Servers[name] = s
		c.Sources["lsp.servers."+name+".enabled"] = fmt.Sprintf("%s:%d", file, line)
	}
}

// replaceCatalogue takes each imported server's extensions away from the
// catalogue servers lsp-hook config did not set (keep), and turns off
// those left with none, so that one language has one server. Run once
// trust has been decided, for the servers still imported.
func replaceCatalogue(c *Config, keep map[string]bool, servers []imported) {
	isImported := make(map[string]bool, len(servers))
	for _, im := range servers {
		isImported[im.name] = true
	}
	for _, im := range servers {
		s, ok := c.LSP.Servers[im.name]
		if !ok || !s.Enabled {
			continue
		}
		src := fmt.Sprintf("%s:%d", im.file, im.line)
		for name, other := range c.LSP.Servers {
			if isImported[name] || keep[name] || !other.Enabled {
				continue
			}
			left := slices.DeleteFunc(slices.Clone(other.Extensions), func(ext string) bool { return s.Serves(ext) })
			if len(left) == len(other.Extensions) {
				continue
			}
			other.Extensions = left
			c.Sources["lsp.servers."+name+".extensions"] = src
			if len(left) == 0 && len(other.FileNames) == 0 {
				other.Enabled = false
				c.Sources["lsp.servers."+name+".enabled"] = src
			}
			c.LSP.Servers[name] = other
		}
	}
}

// specLanguageIDs are LSP 3.17's language identifiers ("Text Document
// Item" table) for extensions no catalogue server names.
// Built on first use: a hook never reads it (issue 18, init).
var specLanguageIDs = sync.OnceValue(func() map[string]string {
	return map[string]string{
		".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
		".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
		".py": "python", ".pyi": "python", ".go": "go", ".rs": "rust", ".c": "c", ".h": "c",
		".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
		".cs": "csharp", ".java": "java", ".rb": "ruby", ".php": "php", ".lua": "lua", ".swift": "swift",
		".kt": "kotlin", ".kts": "kotlin", ".scala": "scala", ".sh": "shellscript", ".bash": "shellscript",
		".zsh": "shellscript", ".ps1": "powershell", ".json": "json", ".jsonc": "jsonc", ".yaml": "yaml",
		".yml": "yaml", ".toml": "toml", ".md": "markdown", ".html": "html", ".htm": "html", ".css": "css",
		".scss": "scss", ".sass": "sass", ".less": "less", ".xml": "xml", ".sql": "sql", ".r": "r",
		".dart": "dart", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell",
		".ml": "ocaml", ".mli": "ocaml", ".fs": "fsharp", ".fsi": "fsharp", ".fsx": "fsharp",
		".clj": "clojure", ".cljs": "clojure", ".cljc": "clojure", ".edn": "clojure", ".m": "objective-c",
		".mm": "objective-cpp", ".pl": "perl", ".pm": "perl", ".tex": "latex", ".bib": "bibtex",
		".vue": "vue", ".svelte": "svelte", ".zig": "zig", ".tf": "terraform", ".jl": "julia",
		".groovy": "groovy", ".coffee": "coffeescript", ".bat": "bat", ".diff": "diff", ".ini": "ini",
		".dockerfile": "dockerfile", ".gleam": "gleam", ".nix": "nix", ".prisma": "prisma", ".astro": "astro",
		".luau": "luau",
	}
})

// languageIDOf is the LSP language identifier of files with extension ext
// (with its dot): the catalogue's, else LSP 3.17's table, else the
// extension without its dot.
func languageIDOf(ext string) string {
	for _, s := range Catalogue() {
		if id := s.LanguageIDs[ext]; id != "" {
			return id
		}
	}
	if id, ok := specLanguageIDs()[strings.ToLower(ext)]; ok {
		return id
	}
	return strings.TrimPrefix(ext, ".")
}

// child returns the value of key in mapping n, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
