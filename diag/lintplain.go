package diag

import (
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
