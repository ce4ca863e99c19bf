package engine

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/validators"
	"github.com/lsp-hook/lsp-hook/wire"
)

// maxNoCheckerNoted bounds the (session, language) pairs an engine
// remembers having noted (noCheckerNotes); past it, it forgets them all
// and notes each once more.
const maxNoCheckerNoted = 4096

// Covered reports whether anything cfg configures checks the file at path:
// a built-in validator that is enabled, a language server
// (config.Config.ServersForPath, installed or not: one that is not says so
// itself), or an enabled linter serving its extension.
func Covered(cfg *config.Config, path string) bool {
	return len(cfg.ServersForPath(path)) > 0 || coveredBesidesServers(cfg, path)
}

// coveredBesidesServers reports whether a built-in validator or a linter
// of cfg checks the file at path (Covered, without language servers).
func coveredBesidesServers(cfg *config.Config, path string) bool {
	if _, ok := validated(cfg, path); ok {
		return true
	}
	ext := filepath.Ext(path)
	for _, l := range cfg.Linters {
		if l.Enabled && l.Serves(ext) {
			return true
		}
	}
	return false
}

// noCheckerNotes returns a note for each programming language
// (config.SourceLanguage) among targets whose files nothing checked:
// silence would say they are clean. Either nothing the config has covers
// the language, or its files' only checkers are language servers that
// are not installed (servers: how each server of the check fared; a server
// absent from it was not asked and is taken as checking). A linter covers
// a file only when it ran for it in this check (linted, from lint): one
// that runs only in `diagnose` (go-vet), whose program is not installed,
// or whose config file the project lacks checked nothing — counting it
// made a Go edit with no gopls answer in silence.
//
// Each language is noted once per check, naming its first such file. The
// first note of a language in an agent session says why in full, with how
// to install what is missing (lsp.InstallHint); later ones in the session
// are one short line (session "", a check no session asked for: each in
// full). paths lists every such file (wire.Result.Unchecked), noted or not.
func (e *Engine) noCheckerNotes(session string, targets []target, servers []wire.ServerResult, linted map[string]bool) (notes, paths []string) {
	unavailable := make(map[string]bool)
	for _, s := range servers {
		if s.Kind == wire.KindServer && s.State == lsp.StateUnavailable {
			unavailable[s.Name] = true
		}
	}
	seen := make(map[string]bool)
	for _, t := range targets {
		lang, ok := config.SourceLanguage(t.path)
		if !ok || linted[t.path] {
			continue
		}
		// A built-in validator checks a data format, never a language's
		// code: a source file it validates (a notebook, JSON holding
		// code cells) has only its container checked.
		container := ""
		if kind, ok := validated(e.Config, t.path); ok {
			container = strings.ToUpper(string(kind))
		}
		var missing, names []string
		checked := false
		for _, s := range e.Config.ServersForPath(t.path) {
			if !unavailable[s.Name] {
				checked = true
				break
			}
			missing = append(missing, fmt.Sprintf("%s (%s)", s.Name, lsp.InstallHint(s)))
			names = append(names, s.Name)
		}
		if checked {
			continue
		}
		paths = append(paths, t.path)
		if seen[lang] {
			continue
		}
		seen[lang] = true
		ext := strings.ToLower(filepath.Ext(t.path))
		if session != "" && !e.firstNoCheckerNote(session, lang) {
			// Said in full before in this session; silence would now
			// say the file is clean (DESIGN.md "Silence means clean").
			what := "nothing here checks " + lang + " files (" + ext + ")"
			if len(names) > 0 {
				what = strings.Join(names, ", ") + " not installed"
			}
			if container != "" && len(names) == 0 {
				notes = append(notes, fmt.Sprintf("%s: its %s code not checked, as noted earlier in this session", t.rel, lang))
				continue
			}
			notes = append(notes, fmt.Sprintf("%s not checked: %s, as noted earlier in this session", t.rel, what))
			continue
		}
		if len(missing) == 0 && container != "" {
			notes = append(notes, fmt.Sprintf("%s: only its %s was checked; nothing here checks the %s code in it", t.rel, container, lang))
			continue
		}
		if len(missing) == 0 {
			notes = append(notes, fmt.Sprintf("%s not checked: no language server, validator or linter here checks %s files (%s); `lsp-hook servers` lists the servers lsp-hook knows",
				t.rel, lang, ext))
			continue
		}
		notes = append(notes, fmt.Sprintf("%s not checked: the language server for %s files (%s) is not installed: %s",
			t.rel, lang, ext, strings.Join(missing, ", ")))
	}
	return notes, paths
}

// firstNoCheckerNote reports whether the session has not had the
// language's note yet, and records that it has.
func (e *Engine) firstNoCheckerNote(session, lang string) bool {
	key := session + "\x00" + lang
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, done := e.noCheckerNoted[key]; done {
		return false
	}
	if e.noCheckerNoted == nil || len(e.noCheckerNoted) >= maxNoCheckerNoted {
		e.noCheckerNoted = make(map[string]struct{})
	}
	e.noCheckerNoted[key] = struct{}{}
	return true
}

// validated returns the kind of the built-in validator of cfg that checks
// the file at path (validators.KindOf), and whether one does (the kind
// known and enabled).
func validated(cfg *config.Config, path string) (validators.Kind, bool) {
	kind, ok := validators.KindOf(path)
	return kind, ok && cfg.ValidatorEnabled(string(kind))
}
