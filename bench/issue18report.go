package main

import (
	"fmt"
	"io"
	"strings"
)

// writeIssue18Sections prints sections 9 to 13, those that ran.
func (r *report) writeIssue18Sections(w io.Writer) {
	writePeer(w, r.peer)
	writeWrite(w, r.writeEdit)
	if r.cfile != nil {
		fmt.Fprintln(w, "\n11. Warm C edit on a real file, Go's regexp/testdata/testregex.c (2,286 lines, -std=c99), vs clang -fsyntax-only")
		fmt.Fprintln(w, "   As part 3, on that file: the hook right after the write, the compiler on the same content once idle.")
		writeLang(w, "11a", *r.cfile)
	}
	writeGoplsMem(w, r.goplsMem)
	writeWorktrees(w, r.trees)
}

// writePeer prints section 9.
func writePeer(w io.Writer, res *peerResult) {
	if res == nil {
		return
	}
	fmt.Fprintf(w, "\n9. lsp-hook beside %s (the peer) on the same edits, each on its own copy of testdata/langs with its\n", peerName)
	fmt.Fprintln(w, "   own daemon; the peer runs the servers on PATH (the same programs as lsp-hook). Each hook is called")
	fmt.Fprintln(w, "   right after the write, the two sides alternating, each once its tree is idle; \"first\": the cold first")
	fmt.Fprintln(w, "   edit (no daemon running). Watcher first: lsp-hook's hook called after its file watcher passed the")
	fmt.Fprintln(w, "   text on (the server's check started before the hook): faster, and not how agents call a hook.")
	fmt.Fprintf(w, "   At once: %d rounds of one type-error edit, then %d hooks started at once on the file.\n", peerBurstRounds, peerBurst)
	if res.missing != "" {
		fmt.Fprintf(w, "   not measured: %s\n", res.missing)
		return
	}
	fmt.Fprintf(w, "   peer: %s\n", res.version)
	for i, l := range res.langs {
		n := fmt.Sprintf("9%c", 'a'+i)
		if l.skipped != "" {
			fmt.Fprintf(w, "\n%s. %s: skipped: %s\n", n, l.spec.name, l.skipped)
			continue
		}
		fmt.Fprintf(w, "\n%s. %s\n", n, l.spec.name)
		writeTable(w, percentileCols, l.us, l.them, l.usWatcher)
		fmt.Fprintf(w, "   → %-*s %4s %10s %10s %10s\n", labelWidth-2, "peer ÷ lsp-hook", "",
			fmtRatio(l.ratio()), fmtRatio(pRatio(l.them.s.p95(), l.us.s.p95())), fmtRatio(pRatio(l.them.first, l.us.first)))
		fmt.Fprintf(w, "   → %-*s %4s %10s   (watcher first ÷ right after the write, p50)\n", labelWidth-2, "watcher first flatters lsp-hook by", "",
			fmtRatio(ratio(l.usWatcher.s, l.us.s)))
		fmt.Fprintf(w, "   at once, %d hooks × %d: lsp-hook p50 %s, max %s, wrong %d · %s p50 %s, max %s, wrong %d\n",
			peerBurst, peerBurstRounds, fmtDur(l.usBurst.median()), fmtDur(l.usBurst.maximum()), l.usBurstBad,
			peerName, fmtDur(l.themBurst.median()), fmtDur(l.themBurst.maximum()), l.themBad)
		if l.burstNote != "" {
			fmt.Fprintf(w, "   ! at once, first wrong answer: %s\n", cut(l.burstNote, 300))
		}
	}
}

// writeWrite prints section 10.
func writeWrite(w io.Writer, res *writeResult) {
	if res == nil || res.ws == nil {
		return
	}
	fmt.Fprintf(w, "\n10. A Write event vs an Edit event for the same Go type error, %s: each timed call goes from a clean\n", res.ws.name)
	fmt.Fprintln(w, "   file to the error (the fix in between is hooked with the same event, untimed); the kinds alternate.")
	writeTable(w, percentileCols, res.edit, res.write)
	fmt.Fprintf(w, "   → %-*s %4s %10s   goal ≤ %g×: %s\n", labelWidth-2, "Write ÷ Edit", "", fmtRatio(res.ratio()), goalWriteRatio,
		verdict(res.ratio() <= goalWriteRatio))
}

// writeGoplsMem prints section 12.
func writeGoplsMem(w io.Writer, res *goplsMemResult) {
	if res == nil {
		return
	}
	fmt.Fprintf(w, "\n12. gopls's VmRSS (VmHWM peak) on copies of %s after one type-error edit, answered, tree idle;\n", res.workspace)
	fmt.Fprintf(w, "    the median of %d rounds, interleaved, each on fresh copies (every round's VmRSS after it)\n", goplsMemRounds)
	for _, s := range []struct {
		label string
		m     procMem
		all   []procMem
	}{{"lsp-hook's gopls", res.us, res.usAll}, {"plain gopls, a minimal client", res.plain, res.plainAll}, {peerName + "'s gopls", res.peer, res.peerAll}} {
		v := "not measured"
		if s.m.pid != 0 {
			var rounds []string
			for _, m := range s.all {
				rounds = append(rounds, fmtMiB(m.rss))
			}
			v = fmtMem(s.m) + "   (" + strings.Join(rounds, ", ") + ")"
		}
		fmt.Fprintf(w, "   %-32s %s\n", s.label, v)
	}
	if res.us.pid != 0 && res.plain.pid != 0 {
		fmt.Fprintf(w, "   → lsp-hook's ÷ plain: %s   goal ≤ %g×: %s\n", fmtRatio(pRatio(res.us.rss, res.plain.rss)), goal18GoplsRSS,
			verdict(pRatio(res.us.rss, res.plain.rss) <= goal18GoplsRSS))
	}
	for _, n := range res.notes {
		fmt.Fprintln(w, "   !", n)
	}
}

// writeWorktrees prints section 13.
func writeWorktrees(w io.Writer, res *worktreesResult) {
	if res == nil || len(res.rows) == 0 {
		return
	}
	writeMemory(w, fmt.Sprintf("13. %d worktrees of %s, one type-error edit each, every tree idle", len(res.rows), res.module), res.rows)
	fmt.Fprintf(w, "   → total of every daemon tree (daemon, servers, their children): %s, %s per worktree\n",
		fmtMiB(res.total()), fmtMiB(res.total()/int64(len(res.rows))))
	for _, n := range res.wrong {
		fmt.Fprintln(w, "   ! wrong answer:", n)
	}
}
