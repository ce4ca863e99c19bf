package diag

import (
	"strconv"
	"unicode/utf16"
)

// Line hashes as github/codeql-action computes primaryLocationLineHash
// (src/fingerprints.ts, function hash): a rolling hash, base 37 modulo
// 2^64, over the first 100 UTF-16 code units of the text from the start of
// each line on, skipping spaces and tabs, with CR and CRLF read as LF and a
// 65535 marker then NULs past the end of the file. The value is the hash in
// lower-case hex, a colon, and how many lines of the file so far had the
// same hash ("5f3a…:1"), so identical lines stay distinct.
const (
	hashBlock = 100
	hashMod   = 37
	hashEOF   = 65535
)

// lineHashes returns the primaryLocationLineHash of every line of text, by
// 1-based line number (lines as codeql-action counts them: a lone CR also
// ends a line).
func lineHashes(text string) map[int]string {
	h := lineHasher{out: map[int]string{}, counts: map[uint64]int{}, lineStart: true, firstMod: 1}
	for range hashBlock {
		h.firstMod *= hashMod
	}
	for i := range h.lineNumbers {
		h.lineNumbers[i] = -1
	}
	var buf [2]uint16
	for _, r := range text {
		for _, u := range utf16.AppendRune(buf[:0], r) {
			h.process(uint64(u))
		}
	}
	h.process(hashEOF)
	for range hashBlock {
		if h.lineNumbers[h.index] != -1 {
			h.output()
		}
		h.update(0)
	}
	return h.out
}

// lineHasher is the state of codeql-action's hash function, field for
// variable.
type lineHasher struct {
	window      [hashBlock]uint64
	lineNumbers [hashBlock]int // line starting at each window slot, or -1
	hash        uint64
	firstMod    uint64 // hashMod^hashBlock
	index       int
	lineNumber  int
	lineStart   bool
	prevCR      bool
	counts      map[uint64]int
	out         map[int]string
}

func (h *lineHasher) output() {
	h.counts[h.hash]++
	h.out[h.lineNumbers[h.index]] = strconv.FormatUint(h.hash, 16) + ":" + strconv.Itoa(h.counts[h.hash])
	h.lineNumbers[h.index] = -1
}

func (h *lineHasher) update(c uint64) {
	begin := h.window[h.index]
	h.window[h.index] = c
	h.hash = hashMod*h.hash + c - h.firstMod*begin
	h.index = (h.index + 1) % hashBlock
}

func (h *lineHasher) process(c uint64) {
	if c == ' ' || c == '\t' || (h.prevCR && c == '\n') {
		h.prevCR = false
		return
	}
	if c == '\r' {
		c = '\n'
		h.prevCR = true
	} else {
		h.prevCR = false
	}
	if h.lineNumbers[h.index] != -1 {
		h.output()
	}
	if h.lineStart {
		h.lineStart = false
		h.lineNumber++
		h.lineNumbers[h.index] = h.lineNumber
	}
	if c == '\n' {
		h.lineStart = true
	}
	h.update(c)
}
