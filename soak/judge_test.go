package soak

import (
	"fmt"
	"maps"
	"slices"
)

// class is one way a hook's answer is judged.
type class int

const (
	correct         class = iota // every line shown is the compiler's, every error that matters shown, no note
	timeoutNote                  // a note says a server gave no fresh answer (errors unknown, not absent)
	otherNote                    // another lsp-hook: note (allowed: it is honest)
	stale                        // a line shown for an existing file where the compiler reports no error
	falseClean                   // a changed file's errors, or with nothing shown a broken file's, hidden without a note
	missedLine                   // a changed file shown without some of its error lines, no note owning up to it (an older answer for it)
	missedCross                  // a file the change broke shown without its errors, no note, by a file tool
	missedCrossBash              // the same after a Bash command (counted apart: the files come from the watcher or modification times)
	ghost                        // a file listed that does not exist
	badAnswer                    // the hook exited non-zero, hung, or printed something outside the format
	nClasses
)

var classNames = [nClasses]string{"correct", "timeout note", "other note", "stale", "false clean", "missed line",
	"missed cross-file", "missed cross-file (Bash)", "ghost", "bad answer"}

func (c class) String() string { return classNames[c] }

// verdict is the judgement of one call.
type verdict struct {
	found    map[class][]string // the classes it earned, each with what showed it
	broken   bool               // the compiler reported an error in a changed file or a file the change broke
	clean    bool               // the compiler reported no error anywhere
	unjudged int                // lines shown in files the compiler did not get to check
}

func (v *verdict) add(c class, format string, args ...any) {
	v.found[c] = append(v.found[c], fmt.Sprintf(format, args...))
}

// failed reports whether v holds a class that fails the soak: stale,
// false clean, missed line, missed cross-file (after any tool), ghost,
// bad answer.
func (v verdict) failed() bool {
	for _, c := range []class{stale, falseClean, missedLine, missedCross, missedCrossBash, ghost, badAnswer} {
		if len(v.found[c]) > 0 {
			return true
		}
	}
	return false
}

// judgement is what judge needs to know about a call.
type judgement struct {
	tool    string
	changed []string
	answer  answer
	exists  func(file string) bool // whether file exists when the hook returned
	now     *truth                 // the compiler on the files when the hook returned
	before  *truth                 // the compiler on the files before the move
	older   *truth                 // for the older hook of a race, the compiler on its text; else nil
}

// judge classifies one answer, matching on file and line only (columns
// and wording differ between a compiler and its server). The older hook
// of a race may answer for either text: a line is stale only when neither
// text has an error there, silence is false only when both texts have
// errors in the file, and other files are not judged.
func judge(j judgement) verdict {
	v := verdict{found: make(map[class][]string)}
	shown := j.answer.files()
	for _, f := range slices.Sorted(maps.Keys(shown)) {
		switch {
		case !j.exists(f):
			v.add(ghost, "%s is listed but does not exist", f)
		case j.now.unknown[f]:
			v.unjudged += len(shown[f])
		default:
			for _, n := range slices.Sorted(maps.Keys(shown[f])) {
				switch {
				case j.now.errs[f][n] || (j.older != nil && j.older.errs[f][n]):
				case j.now.partial[f]:
					v.unjudged++
				default:
					v.add(stale, "%s:%d shown; the compiler reports errors on %v", f, n, j.now.lines(f))
				}
			}
		}
	}
	judgeChanged(&v, j, shown)
	judgeOthers(&v, j, shown)
	v.clean = len(j.now.errs) == 0
	if j.answer.timedOut() {
		v.add(timeoutNote, "%s", j.answer.notes[0])
	} else if len(j.answer.notes) > 0 {
		v.add(otherNote, "%s", j.answer.notes[0])
	}
	if len(v.found) == 0 {
		v.add(correct, "")
	}
	return v
}

// judgeChanged judges the files the move changed: each one with errors
// must be shown with every line the compiler reports (an answer for an
// older text shows the lines that text had), or a note must own up to its
// errors missing (excuses). The older hook of a race and a file the
// compiler stopped in (partial) need not show every line.
func judgeChanged(v *verdict, j judgement, shown map[string]map[int]bool) {
	for _, f := range j.changed {
		if !j.exists(f) || j.now.unknown[f] || len(j.now.errs[f]) == 0 {
			continue
		}
		if j.older != nil && len(j.older.errs[f]) == 0 {
			continue // silence is the older (clean) text's answer
		}
		v.broken = true
		if j.answer.excuses(f, true) {
			continue
		}
		if len(shown[f]) == 0 {
			v.add(falseClean, "%s: the compiler reports errors on %v; the answer shows none for it and no note owns up to that%s", f, j.now.lines(f), notesSaid(j.answer))
		} else if missing := j.now.missing(f, shown[f]); j.older == nil && !j.now.partial[f] && len(missing) > 0 {
			v.add(missedLine, "%s: the compiler reports errors on %v; the answer shows %v, none of the error on %v", f, j.now.lines(f),
				slices.Sorted(maps.Keys(shown[f])), missing)
		}
	}
}

// judgeOthers judges the files the move did not change but broke: those
// with an error on a line the compiler did not report before the move.
// Each must be shown with one of its errors, or a note must own up to its
// errors missing (excuses); with nothing shown at all, that is a false
// clean.
func judgeOthers(v *verdict, j judgement, shown map[string]map[int]bool) {
	changed := make(map[string]bool)
	for _, f := range j.changed {
		changed[f] = true
	}
	for _, f := range slices.Sorted(maps.Keys(j.now.errs)) {
		if changed[f] || !j.exists(f) || j.now.unknown[f] || j.before.unknown[f] || j.before.partial[f] || !introduced(j.now.errs[f], j.before.errs[f]) {
			continue
		}
		v.broken = true
		if j.older != nil || j.answer.excuses(f, false) || anyShown(shown[f], j.now.errs[f]) {
			continue
		}
		switch {
		case len(j.answer.lines) == 0:
			v.add(falseClean, "%s: broken by the change (errors on %v), nothing shown and no note owns up to it%s", f, j.now.lines(f), notesSaid(j.answer))
		case j.tool == "Bash":
			v.add(missedCrossBash, "%s: broken by the change (errors on %v), not shown", f, j.now.lines(f))
		default:
			v.add(missedCross, "%s: broken by the change (errors on %v), not shown", f, j.now.lines(f))
		}
	}
}

// notesSaid is what a's notes said, for a verdict's example: "" when it
// had none.
func notesSaid(a answer) string {
	if len(a.notes) == 0 {
		return ""
	}
	return fmt.Sprintf(" (its notes: %q)", a.notes)
}

// introduced reports whether now has a line before does not.
func introduced(now, before map[int]bool) bool {
	for n := range now {
		if !before[n] {
			return true
		}
	}
	return false
}

// anyShown reports whether a line of shown is one of errs.
func anyShown(shown, errs map[int]bool) bool {
	for n := range shown {
		if errs[n] {
			return true
		}
	}
	return false
}
