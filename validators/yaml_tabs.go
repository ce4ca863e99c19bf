package validators

import (
	"bytes"
	"fmt"

	"github.com/lsp-hook/lsp-hook/diag"
)

// tabIndent is a tab in the leading whitespace of a line in block context.
type tabIndent struct {
	off, line int  // byte offset of the first such tab; 1-based line
	sure      bool // certainly an error (see yamlLexer.line); else only a stand-in for yaml.v3's
}

// yamlTabs finds the lines of src whose indentation holds a tab. YAML 1.2
// section 6.1 forbids tabs in indentation; they remain allowed as separation
// inside a line ("key:\tvalue"), on the continuation lines of quoted scalars,
// flow collections and plain scalars (after the indentation), and in block
// scalar content beyond its indentation. A light line lexer tracks those
// contexts: block scalars (a "|" or ">" header, then the blank lines and
// lines indented deeper than the header's line), flow collections ([ and {
// where a node starts, to the matching bracket), quoted scalars spanning
// lines, and plain scalars a next line may continue. It leans to silence: a
// tab it is not sure of (sure false) is only used to place an error yaml.v3
// reports anyway.
func yamlTabs(src []byte) []tabIndent {
	if bytes.IndexByte(src, '\t') < 0 {
		return nil
	}
	var out []tabIndent
	var lx yamlLexer
	for start, line := 0, 1; ; line++ {
		end, next := len(src), -1
		if k := bytes.IndexAny(src[start:], "\r\n"); k >= 0 {
			end, next = start+k, start+k+1
			if src[end] == '\r' && next < len(src) && src[next] == '\n' {
				next++
			}
		}
		if tab, sure := lx.line(src[start:end]); tab >= 0 {
			out = append(out, tabIndent{off: start + tab, line: line, sure: sure})
		}
		if next < 0 {
			return out
		}
		start = next
	}
}

// yamlTabFindings turns tab-indented lines into findings: every sure one,
// and the one that stands for the error yaml.v3 reported on errLine (such as
// a tab before a comment, which libyaml refuses and YAML 1.2 allows). That is
// the first tab on errLine or, when the error is about a tab (tabErr), the
// first on or after it: libyaml names the line where the scalar before the
// tab began. replaced reports that one does, so yaml.v3's vaguer error can
// go. At most maxRepeated lines are reported, plus a summary.
func yamlTabFindings(tabs []tabIndent, errLine int, tabErr bool) (fs []finding, replaced bool) {
	stand := -1
	for k, t := range tabs {
		if errLine > 0 && (t.line == errLine || tabErr && t.line > errLine) {
			stand = k
			break
		}
	}
	n := 0
	for k, t := range tabs {
		if !t.sure && k != stand {
			continue
		}
		if n++; n <= maxRepeated+1 {
			fs = append(fs, finding{off: t.off, end: t.off + 1, ref: -1, severity: diag.SeverityError,
				msg: "tab character used for indentation"})
		}
	}
	if n > maxRepeated {
		fs[maxRepeated].end = -1
		fs[maxRepeated].msg = fmt.Sprintf("%d more line(s) indented with tabs not reported", n-maxRepeated)
	}
	return fs, stand >= 0
}

// yamlLexer is the state carried from one line to the next.
type yamlLexer struct {
	block       bool // inside a block scalar
	blockIndent int  // the header line's indentation: content is indented deeper
	flow        int  // depth of open flow collections
	quote       byte // the quote of an open quoted scalar, or 0
	collection  bool // the document has a block collection (a "- ", "? " or ": " was seen)
	plain       bool // the last line ended inside a plain scalar, which the next may continue
	plainTop    bool // that scalar is the document's top-level node (no indentation to respect)
}

// line lexes one line (without its terminator). tab is the index of the
// first tab in its indentation, or -1 when there is none or tabs are allowed
// there; sure reports that the tab is certainly an error: the line holds
// content, and is not a continuation of a plain scalar whose tab might follow
// enough spaces (YAML 1.2 s-flow-line-prefix: the indentation, then blanks).
func (lx *yamlLexer) line(text []byte) (tab int, sure bool) {
	indent, ws := 0, 0
	for indent < len(text) && text[indent] == ' ' {
		indent++
	}
	for ws < len(text) && (text[ws] == ' ' || text[ws] == '\t') {
		ws++
	}
	blank := ws == len(text)
	if lx.block {
		if blank || indent > lx.blockIndent {
			return -1, false
		}
		lx.block = false
	}
	if indent == 0 && (bytes.HasPrefix(text, []byte("---")) || bytes.HasPrefix(text, []byte("..."))) &&
		(len(text) == 3 || text[3] == ' ' || text[3] == '\t') {
		*lx = yamlLexer{} // a document marker ends every open context
		lx.scan(text, 3, -1, false)
		return -1, false
	}
	if lx.quote != 0 || lx.flow > 0 {
		lx.scan(text, ws, indent, false) // flow line prefixes may hold tabs
		return -1, false
	}
	tab = bytes.IndexByte(text[:ws], '\t')
	if blank {
		return tab, false
	}
	cont, contTop := lx.plain, lx.plainTop
	lx.scan(text, ws, indent, cont && contTop)
	return tab, text[ws] != '#' && !(cont && (tab > 0 || contTop))
}

// scan lexes text from i, where a node may start, updating the state. indent
// is the line's indentation, recorded for a block scalar header; continued
// reports that the line continues a top-level plain scalar, so text at i is
// more of it, not a node.
func (lx *yamlLexer) scan(text []byte, i, indent int, continued bool) {
	node := lx.quote == 0 && !continued
	lx.plain = false
	for i < len(text) {
		if lx.quote != 0 {
			i = lx.quoted(text, i)
			continue
		}
		c := text[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t'):
			lx.plain = false // a comment runs to the end of the line and ends a scalar
			return
		case node && (c == '\'' || c == '"'):
			lx.quote = c
			i++
		case node && (c == '[' || c == '{'):
			lx.flow++
			i++
			continue // a node may follow
		case lx.flow > 0 && (c == ']' || c == '}'):
			lx.flow--
			i++
			node, lx.plain = false, false
			continue
		case lx.flow > 0 && c == ',':
			i++
			node, lx.plain = true, false
			continue
		case (c == ':' || node && (c == '-' || c == '?')) && separated(text, i+1, lx.flow > 0):
			i++
			node, lx.plain = true, false
			lx.collection = lx.collection || lx.flow == 0
			continue
		case node && lx.flow == 0 && (c == '|' || c == '>') && blockHeader(text[i+1:]):
			lx.block, lx.blockIndent = true, indent
			return
		case node && (c == '&' || c == '!'): // an anchor or a tag: the node follows
			for i < len(text) && text[i] != ' ' && text[i] != '\t' && (lx.flow == 0 || !isFlowIndicator(text[i])) {
				i++
			}
			continue
		default:
			i++
			lx.plain = lx.flow == 0 // plain text, which a later line may continue
			lx.plainTop = !lx.collection
		}
		node = false
	}
}

// quoted advances through a quoted scalar from i, closing it when its quote
// ends on this line, and returns the index after what it consumed.
func (lx *yamlLexer) quoted(text []byte, i int) int {
	for i < len(text) {
		switch c := text[i]; {
		case lx.quote == '"' && c == '\\':
			i += 2
		case c == lx.quote && lx.quote == '\'' && i+1 < len(text) && text[i+1] == '\'':
			i += 2 // '' is an escaped quote
		case c == lx.quote:
			lx.quote = 0
			return i + 1
		default:
			i++
		}
	}
	return len(text)
}

// separated reports whether text[i] ends an indicator: a blank, the end of
// the line or, in flow context, a flow indicator.
func separated(text []byte, i int, flow bool) bool {
	return i >= len(text) || text[i] == ' ' || text[i] == '\t' || flow && isFlowIndicator(text[i])
}

func isFlowIndicator(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }

// blockHeader reports whether rest, the text after a '|' or '>', completes a
// block scalar header: indentation and chomping indicators, then blanks and
// perhaps a comment.
func blockHeader(rest []byte) bool {
	i := 0
	for i < len(rest) && (rest[i] == '+' || rest[i] == '-' || rest[i] >= '1' && rest[i] <= '9') {
		i++
	}
	return i == len(rest) || rest[i] == ' ' || rest[i] == '\t'
}
