package lsp

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file finds the users of what a TypeScript file declares in the
// global scope, which import statements do not link (TypeScript handbook,
// "Modules" — a file with no top-level import or export is a script, "and
// its contents are available in the global scope"; declaration files,
// "Global augmentation": `declare global { … }`; "Module augmentation":
// `declare module "m" { … }`). A changed global.d.ts that renames a
// global, or an env.d.ts that changes NodeJS.ProcessEnv, breaks files
// that never import it; measured with typescript-language-server 5.3.0
// and TypeScript 5.9.3 before this file (testdata-like project: src/
// globals.d.ts `declare const APP_VERSION: string` turned number, used in
// src/banner.ts): the hook answered clean, the Stop gate allowed and
// `diagnose --changed` counted 0 errors where tsc reports banner.ts's.
//
// The names are read from the text without a parser, over-approximating as
// the import rules do (dependents.go): in a script, the names its
// top-level declarations bind (var, let, const, function, class,
// interface, type, enum, namespace, module); in a script or module, those
// bound inside a `declare global` or `declare module "m"` block, and in
// the namespaces below them; and the members of every interface or type
// literal among those (`interface Window { appName: string }` is used as
// `window.appName`, `interface ProcessEnv { API_URL: string }` as
// `process.env.API_URL`). A file that mentions one of those names, or one
// the text before declared (a global renamed or removed breaks its users),
// as a whole identifier, anywhere, is a user. Not followed: `/// <reference
// lib>` libraries, globals declared by assignment (`globalThis.x = …`),
// and files outside the root's listing.

// tsGlobalExts are the extensions of the files that can declare globals
// for TypeScript: JavaScript files are checked only with checkJs, and a
// .mts or .cts file is always a module, though it may augment.
var tsGlobalExts = []string{".ts", ".tsx", ".mts", ".cts"}

// maxGlobalUsers bounds the users of a change's globals one call finds,
// nearest first: past it the rest are not read (capped).
const maxGlobalUsers = MaxDependents

// declaresGlobals reports whether a file of this name can declare globals
// (tsGlobalExts, .d.ts included).
func declaresGlobals(rel string) bool {
	return slices.Contains(tsGlobalExts, path.Ext(rel))
}

// tsToken is one token of tsTokens: an identifier, a string literal (its
// text is the quote alone), or one punctuation byte.
type tsToken struct {
	text  []byte
	ident bool
}

// tsTokens splits TypeScript text into identifiers, string literals and
// punctuation, skipping spaces, comments and the insides of strings and
// template literals (a template's substitutions included). Regular
// expression literals are not told from division: a quote inside one may
// end the scan of a line early, which only loses names.
func tsTokens(text []byte) []tsToken {
	var out []tsToken
	for i := 0; i < len(text); {
		b := text[i]
		switch {
		case b == ' ' || b == '\t' || b == '\r' || b == '\n':
			i++
		case b == '/' && i+1 < len(text) && text[i+1] == '/':
			if j := bytes.IndexByte(text[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(text)
			}
		case b == '/' && i+1 < len(text) && text[i+1] == '*':
			if j := bytes.Index(text[i+2:], []byte("*/")); j >= 0 {
				i += j + 4
			} else {
				i = len(text)
			}
		case b == '"' || b == '\'' || b == '`':
			j := i + 1
			for j < len(text) && text[j] != b && (b == '`' || text[j] != '\n') {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, tsToken{text: text[i : i+1]})
			i = j + 1
		case jsIdentByte(b):
			j := i
			for j < len(text) && (jsIdentByte(text[j]) || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			if b >= '0' && b <= '9' {
				i = j // a number
				continue
			}
			out = append(out, tsToken{text: text[i:j], ident: true})
			i = j
		default:
			out = append(out, tsToken{text: text[i : i+1]})
			i++
		}
	}
	return out
}

// jsIdentByte reports whether b can start an identifier (digits continue
// one but start a number, which tsTokens passes over).
func jsIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= 0x80 || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// tsBinders are the keywords whose next identifier is the name declared.
var tsBinders = []string{"var", "let", "const", "function", "class", "interface", "type", "enum", "namespace", "module"}

// tsBlock is a kind of brace block, as tsGlobals tells them apart.
type tsBlock int

const (
	blockCode      tsBlock = iota // a function or class body, an object literal, a statement block
	blockScope                    // a namespace or module block: its declarations are global when it is
	blockAugment                  // a declare global or declare module "m" block: its declarations are global
	blockInterface                // an interface body or a type literal: its members are named
)

// tsGlobals returns the names a TypeScript text declares in the global
// scope, as the file comment says, each once, in the order found.
func tsGlobals(text []byte) []string {
	if !bytes.Contains(text, []byte("declare")) && importsOrExports(text) {
		return nil // a module, augmenting nothing: most files, read without tokens
	}
	toks := tsTokens(text)
	var names []string
	// stack holds, for each open brace, whether declarations in it are
	// global and its kind; the file's top level is global in a script.
	type frame struct {
		kind   tsBlock
		global bool
	}
	stack := []frame{{blockScope, !tsModule(toks)}}
	parens := 0 // ( and [ open in the innermost block: parameters, index signatures
	stmt := 0   // index of the first token of the statement the scan is in
	for i, t := range toks {
		top := stack[len(stack)-1]
		if !t.ident {
			switch t.text[0] {
			case '(', '[':
				parens++
			case ')', ']':
				parens = max(parens-1, 0)
			case '{':
				kind := tsBlockKind(toks[stmt:i])
				global := kind == blockAugment || top.global && kind != blockCode
				stack = append(stack, frame{kind, global})
				parens, stmt = 0, i+1
			case '}':
				if len(stack) > 1 {
					stack = stack[:len(stack)-1]
				}
				parens, stmt = 0, i+1
			case ';':
				stmt = i + 1
			}
			continue
		}
		if !top.global || parens > 0 || slices.Contains(tsBinders, string(t.text)) {
			continue
		}
		var named bool
		switch top.kind {
		case blockScope, blockAugment:
			named = i > 0 && toks[i-1].ident && slices.Contains(tsBinders, string(toks[i-1].text))
		case blockInterface:
			named = i+1 < len(toks) && !toks[i+1].ident && bytes.IndexByte([]byte(":?(<"), toks[i+1].text[0]) >= 0
		}
		if s := string(t.text); named && !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	return names
}

// tsBlockKind tells what kind of block a '{' opens from the tokens of its
// statement before it (head): `declare global` and `declare module "m"`
// augment the global scope; `namespace N`, `module N` (N dotted or not)
// open a scope; an interface's body and a type literal (after ':', '=',
// '|', '&', '<', ',' or '?', but not '=>') name members; anything else
// (a function, class, enum or statement, an object literal after `return`)
// is code.
func tsBlockKind(head []tsToken) tsBlock {
	is := func(k int, word string) bool {
		return k >= 0 && k < len(head) && head[k].ident && string(head[k].text) == word
	}
	for k := range head {
		switch {
		case is(k, "function"), is(k, "class"), is(k, "enum"):
			return blockCode
		case is(k, "interface"):
			return blockInterface
		case is(k, "global") && is(k-1, "declare") && k == len(head)-1:
			return blockAugment
		case is(k, "module") && is(k-1, "declare") && k+2 == len(head) && !head[k+1].ident && strings.ContainsRune(`"'`, rune(head[k+1].text[0])):
			return blockAugment
		case (is(k, "namespace") || is(k, "module")) && k+1 < len(head) && head[k+1].ident && !slices.ContainsFunc(head[k+1:], func(t tsToken) bool { return !t.ident && t.text[0] != '.' }):
			return blockScope
		}
	}
	if len(head) == 0 {
		return blockCode
	}
	last := head[len(head)-1]
	arrow := len(head) >= 2 && string(head[len(head)-2].text) == "=" && last.text[0] == '>'
	if !last.ident && !arrow && bytes.IndexByte([]byte(":=|&<,?"), last.text[0]) >= 0 {
		return blockInterface
	}
	return blockCode
}

// tsModule reports whether tokens are a module's: an import or export at
// the top level (not in braces or parentheses, and not `import(` or
// `import.meta`).
func tsModule(toks []tsToken) bool {
	depth := 0
	for i, t := range toks {
		if !t.ident {
			switch t.text[0] {
			case '{', '(', '[':
				depth++
			case '}', ')', ']':
				depth = max(depth-1, 0)
			}
			continue
		}
		if depth > 0 || (string(t.text) != "import" && string(t.text) != "export") {
			continue
		}
		if i > 0 && !toks[i-1].ident && toks[i-1].text[0] == '.' {
			continue // x.import, x.export
		}
		if i+1 < len(toks) && !toks[i+1].ident && (toks[i+1].text[0] == '(' || toks[i+1].text[0] == '.') {
			continue
		}
		return true
	}
	return false
}

// importsOrExports reports whether a line of text starts (after spaces)
// with an import or export statement: `import` or `export` as a word, not
// followed by '(' or '.' (a dynamic import, import.meta). It is tsModule
// read from lines, which a statement split over lines or one inside a
// comment can fool; tsGlobals asks it only to skip its tokens when the
// text has no "declare" either.
func importsOrExports(text []byte) bool {
	for line := range bytes.Lines(text) {
		line = bytes.TrimLeft(line, " \t")
		for _, kw := range [][]byte{[]byte("import"), []byte("export")} {
			rest, ok := bytes.CutPrefix(line, kw)
			if !ok || len(rest) > 0 && jsIdentByte(rest[0]) {
				continue // another word: importer, exports
			}
			if rest = bytes.TrimLeft(rest, " \t\r\n"); len(rest) == 0 || rest[0] != '(' && rest[0] != '.' {
				return true
			}
		}
	}
	return false
}

// mentionsAny reports whether text holds one of names as a whole
// identifier, anywhere (comments and strings included).
func mentionsAny(text []byte, names map[string]bool) bool {
	for i := 0; i < len(text); {
		if !jsIdentByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && jsIdentByte(text[j]) {
			j++
		}
		if names[string(text[i:j])] {
			return true
		}
		i = j
	}
	return false
}

// globalUsersLocked adds to found (root-relative dependent → distance to
// the nearest changed file it depends on) the candidate files keep keeps
// that mention
// a name one of targets declares in the global scope: its text on disk now
// (a deleted file's, none) and the names of before (root-relative target →
// the names of its text before the change). Candidates are read nearest
// first, and at most maxGlobalUsers users are added; capped reports that
// there may be more. ix.mu must be held.
func (ix *ImportIndex) globalUsersLocked(targets []string, before map[string][]string, keep func(rel string) bool, found map[string]int) (capped bool) {
	for _, target := range targets {
		if !declaresGlobals(target) {
			continue
		}
		names := make(map[string]bool)
		if text, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(target))); err == nil && len(text) <= maxDependentFileSize {
			for _, n := range tsGlobals(text) {
				names[n] = true
			}
		}
		for _, n := range before[target] {
			names[n] = true
		}
		if len(names) == 0 {
			continue
		}
		var cands []string
		for _, rel := range ix.files {
			if _, ok := ix.parsed[rel]; ok && rel != target && !slices.Contains(targets, rel) && rulesFor(path.Ext(rel)) == (jsRules{}) {
				cands = append(cands, rel)
			}
		}
		slices.SortStableFunc(cands, func(a, b string) int { return dirDistance(a, target) - dirDistance(b, target) })
		users := 0
		for _, rel := range cands {
			text, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(rel)))
			if err != nil || !mentionsAny(text, names) || !keep(rel) {
				continue
			}
			if users == maxGlobalUsers {
				capped = true
				break
			}
			users++
			if d, seen := found[rel]; !seen || dirDistance(rel, target) < d {
				found[rel] = dirDistance(rel, target)
			}
		}
	}
	return capped
}

// globalsBefore returns, for the changed documents of docs that can
// declare globals (absolute path → names), the names their texts before
// the change declared: from the text the server has open, when it is not
// the change's; else, for a deleted file, from its git HEAD version;
// else, when the change's text declares globals itself, from Doc.Prior.
// The last two may cost a git process. A document whose text before is
// unknown has none.
func (c *Client) globalsBefore(ctx context.Context, docs []Doc) map[string][]string {
	out := make(map[string][]string)
	for _, d := range docs {
		if d.Mirror || !declaresGlobals(d.Path) {
			continue
		}
		text, err := d.Text, error(nil)
		if text == nil {
			text, err = os.ReadFile(d.Path)
		}
		if old := c.docText(pathToURI(d.Path)); old != nil && !bytes.Equal(old, text) {
			out[d.Path] = tsGlobals(old)
			continue
		}
		var old []byte
		var ok bool
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if rel, inside := ws.Rel(c.root, d.Path); inside {
				old, ok = ws.BaseText(ctx, c.root, "", rel)
			}
		case d.Prior != nil && len(tsGlobals(text)) > 0:
			old, ok = d.Prior()
		}
		if ok {
			out[d.Path] = tsGlobals(old)
		}
	}
	return out
}
