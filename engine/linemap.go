package engine

import (
	"bytes"
	"hash/maphash"
)

// lineSeed makes line hashes comparable within this process (they are
// never stored elsewhere).
var lineSeed = maphash.MakeSeed()

// lineHashes returns one hash per line of text ("\n"-separated; a final
// line without "\n" counts), so a text's lines can be remembered in 8 bytes
// each and compared with a later version.
func lineHashes(text []byte) []uint64 {
	n := bytes.Count(text, []byte("\n")) + 1
	out := make([]uint64, 0, n)
	for {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			return append(out, maphash.Bytes(lineSeed, text))
		}
		out = append(out, maphash.Bytes(lineSeed, text[:i]))
		text = text[i+1:]
	}
}

// maxLCSCells bounds the line-diff table (old × new changed lines); past
// it the changed middle of a text is left unmapped.
const maxLCSCells = 4_000_000

// lineMap maps 1-based line numbers of an old text to the same lines in a
// new one, computed from their lines' hashes: lines of the common prefix
// and suffix map to themselves (shifted by the change in length for the
// suffix), and lines of the changed middle map through a longest common
// subsequence of its lines when that is small enough to compute. A line
// that was deleted or rewritten maps to nothing. The zero lineMap (no old
// text known) maps nothing.
type lineMap struct {
	known bool
	to    []int // old line - 1 → new line, 0 when unmapped
}

func newLineMap(old, cur []uint64) lineMap {
	m := lineMap{known: true, to: make([]int, len(old))}
	p := 0
	for p < len(old) && p < len(cur) && old[p] == cur[p] {
		m.to[p] = p + 1
		p++
	}
	s := 0
	for s < len(old)-p && s < len(cur)-p && old[len(old)-1-s] == cur[len(cur)-1-s] {
		m.to[len(old)-1-s] = len(cur) - s
		s++
	}
	a, b := old[p:len(old)-s], cur[p:len(cur)-s]
	if len(a) == 0 || len(b) == 0 || len(a)*len(b) > maxLCSCells {
		return m
	}
	// lcs[i][j]: length of the LCS of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			m.to[p+i] = p + j + 1
			i++
			j++
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return m
}

// line returns the new line number of old line l, and whether it has one.
func (m lineMap) line(l int) (int, bool) {
	if !m.known || l < 1 || l > len(m.to) || m.to[l-1] == 0 {
		return l, false
	}
	return m.to[l-1], true
}
