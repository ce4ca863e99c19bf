package diag

import (
	"fmt"
	"strconv"
	"strings"
)

// PlainLintBlock rewrites a lint block (LintBlock's text, notes included)
// for an agent that HTML-escapes the hook text its model reads, so that
// the model reads no entities and still one section per file. Gemini CLI
// replaces every "<" with "&lt;" and ">" with "&gt;" in a hook's
// additionalContext (packages/core/src/hooks/types.ts,
// getAdditionalContext; "&" is left alone) before wrapping it in
// <hook_context> tags (coreToolHookTriggers.ts), so the result holds no
// "<" or ">" at all:
//
//	LSP errors detected in this file, please fix:
//	diagnostics for src/utils.ts:
//	ERROR [42:5] Type 'Array＜string＞' is not assignable to type 'number'. (ts2322)
//
// Each <diagnostics file="P"> line becomes "diagnostics for P:" and each
// </diagnostics> line goes (the next header or the block's end closes a
// section); in every other line the entities LintBlock wrote (&lt; &gt;
// &amp;) and any literal < or > become the characters they stand for, with
// < and > as FULLWIDTH LESS-THAN SIGN and FULLWIDTH GREATER-THAN SIGN
// (U+FF1C, U+FF1E: their NFKC forms are < and >), so a Go "<-chan int" or
// a TypeScript "Promise<T>" reads as "＜-chan int" and "Promise＜T＞".
// Lines are otherwise unchanged; the block is at most as long as the input
// unless a note holds literal < or > (two bytes more each).
func PlainLintBlock(block string) string {
	if block == "" {
		return ""
	}
	lines := strings.Split(block, "\n")
	out := lines[:0]
	for _, l := range lines {
		switch {
		case l == "</diagnostics>":
			continue
		case strings.HasPrefix(l, "<diagnostics file=") && strings.HasSuffix(l, ">"):
			p := strings.TrimSuffix(strings.TrimPrefix(l, "<diagnostics file="), ">")
			if u, err := strconv.Unquote(p); err == nil {
				p = u
			}
			l = "diagnostics for " + plainText(p) + ":"
		default:
			l = plainText(l)
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// plainUnescaper turns LintBlock's entities and literal angle brackets
// into text Gemini CLI's escaping leaves alone.
var plainUnescaper = strings.NewReplacer(
	"&lt;", "\uFF1C", "&gt;", "\uFF1E", "&amp;", "&",
	"<", "\uFF1C", ">", "\uFF1E",
)

func plainText(s string) string { return plainUnescaper.Replace(s) }

// WithoutFiles returns a lint block (LintBlock's text, notes included)
// without the sections of the files whose display paths (a
// FileDiagnostics' Rel, else its Path) are in drop: for an agent whose tool
// output already holds those files' diagnostics, so the model reads one
// section per file. A header left with no section, and no "... and N more
// files" line, goes; "these files" left with one section reads "this
// file". A "... output truncated" line inside a dropped section is kept,
// so the model still learns the block was cut. The rest is unchanged.
func WithoutFiles(block string, drop []string) string {
	if block == "" || len(drop) == 0 {
		return block
	}
	gone := make(map[string]bool, len(drop))
	for _, p := range drop {
		gone[fmt.Sprintf("<diagnostics file=%q>", escape(p))] = true
	}
	var kept []string
	skipping := false
	for _, l := range strings.Split(block, "\n") {
		switch {
		case skipping && l == "</diagnostics>":
			skipping = false
		case skipping && l == truncatedLine:
			kept = append(kept, l)
		case skipping:
		case gone[l]:
			skipping = true
		default:
			kept = append(kept, l)
		}
	}
	var out []string
	for i, l := range kept {
		if l != headerThisFile && l != headerTheseFiles && l != headerOther {
			out = append(out, l)
			continue
		}
		sections, more := 0, false
		for _, n := range kept[i+1:] {
			if n == headerThisFile || n == headerTheseFiles || n == headerOther {
				break
			}
			sections += b2i(strings.HasPrefix(n, "<diagnostics file="))
			more = more || strings.HasPrefix(n, "... and ") && strings.HasSuffix(n, " more files with errors")
		}
		switch {
		case sections == 0 && !more:
			continue
		case l == headerTheseFiles && sections == 1:
			l = headerThisFile
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
