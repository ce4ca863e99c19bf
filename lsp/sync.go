package lsp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// Freshness says how much of a server's answer describes the changed text
// (DESIGN.md "Result"): every changed file got a fresh publication (Fresh),
// some did (Partial), none did before the deadline (Timeout), or the server
// had nothing to answer with (None: not running, broken, or not applicable).
type Freshness string

// Freshness values, as carried on the wire.
const (
	Fresh   Freshness = "fresh"
	Partial Freshness = "partial"
	Timeout Freshness = "timeout"
	None    Freshness = "none"
)

// DefaultSettle is how long to keep collecting after every changed file has
// a fresh answer, for a write, from a server whose signals of a complete
// answer the catalogue does not know (config.Server.SignalsDone): such a
// server may publish in waves (the changed package first, then its
// dependents), and each arrival restarts the window. A server that says
// when its answer is complete gets its own window instead
// (config.Server.SettleFor), none for every server of the catalogue.
const DefaultSettle = 150 * time.Millisecond

// EditSettle is the settle window for an edit (not a write, with errors
// as the threshold: only the changed files' errors matter), from a server
// without a DoneSignal in use. It is no part of what makes an answer fresh: the
// wait before it already lasts until every changed file has a fresh
// answer and the work the change set off that the server reports has
// ended (waitFresh). 15 ms still catches a second publication sent right
// behind the first.
const EditSettle = 15 * time.Millisecond

// Doc is a document to bring up to date: Path is absolute; Text is its
// content, or nil to read it from disk.
type Doc struct {
	Path string
	Text []byte
	// Recheck sends the document even when its text is what the server
	// has, and takes only the answer to this version (sentVersion.forced):
	// something else changed that its diagnostics depend on (a file it
	// used was deleted).
	Recheck bool
	// Before, when not nil, reads the document's text before the change
	// (the engine gives its git HEAD version), false when unknown or the
	// same as its text. It is asked at most twice, and only by a check
	// whose server has not answered yet: showBefore shows the server that
	// text first, so that what it then says of the other files is the
	// baseline of what the change introduced there (before.go), and a
	// check that cannot tell what was wrong before it asks whether it
	// changes a text at all (changesText). Reading it costs a git
	// process, which a warm check never pays.
	Before func() ([]byte, bool)
	// Prior, when not nil, reads the document's text before the change as
	// Before does (the event's, else git HEAD's; false when unknown or the
	// same), whatever the lint block lists. It is asked only when the
	// change's text declares TypeScript globals and the server holds no
	// older text of the document: the files using a global the text
	// before declared are dependents (dependents_globals.go).
	Prior func() ([]byte, bool)
	// WarmUp marks a check whose answer reaches no agent (a prewarm's:
	// Manager.warmUp): its versions stay undelivered, so a later check's
	// baseline reaches back to before them (baseMark), as for a
	// watcher's re-sync. Else a prewarm that read a file the agent had
	// just changed would make what the change broke look old.
	WarmUp bool
	// FromDisk says Text was read from the file at Path (as a nil Text is,
	// by sync), not carried by the agent's event or a caller checking text
	// it has not written. A check whose file holds other content before
	// its text goes out, or when it ends, was overtaken by a newer write
	// (or read a write half done) and is superseded (freshness.go): its
	// text is never sent over the newer one.
	FromDisk bool
	// Mirror marks a changed file of another root sent to this server
	// (crossroot.go): its text is the agent's, so that the server checks
	// Importers, files of its root that import it, against it; its own
	// diagnostics are its own server's to report, and are left out of
	// this server's Outcome.
	Mirror bool
	// Importers are the files (absolute paths) of this server's root that
	// import a Mirror document: re-checked as dependents (importers.go).
	Importers []string
	// AllImporters has a check re-check the importers of this changed
	// document however far (importLevels), at most MaxDependents, where a
	// hook's re-checks the nearest (recheckLevels, maxRecheckDependents)
	// and names the rest: the Stop gate's check, once a turn, whose
	// answer must not be partial for want of looking.
	AllImporters bool
	// Revisited says the change's agent session changed this file before
	// (its hooks touched it): a text equal to git HEAD's, which Before
	// gives no text before for, may still be a change (a revert of the
	// session's own edit), and counts as one where a check cannot tell
	// what was wrong before it (changesText). The engine sets it.
	Revisited bool
	// ifNotSent makes sync send nothing (errAlreadySent) when the
	// document is open with this text: sendPending's look at what the
	// server has and its send are one step under syncMu, so checks
	// sending the same pending file at once send it once.
	ifNotSent bool
}

// errAlreadySent is sync's answer to a Doc.ifNotSent whose text the
// server already has.
var errAlreadySent = errors.New("the server has this text")

// Outcome is what one server said about one change. Files holds, for each
// changed document that got a fresh publication, its diagnostics (possibly
// none: clean). Others holds the files the server re-published after the
// change, other than the changed ones (a file whose pull is still running
// is left out: its answer may be about to be replaced). Nothing published
// before the change is ever in an Outcome.
//
// ServerMS is the server's own time, in milliseconds: from just before the
// change was sent to the moment the answer was complete — every changed
// document fresh and, where Update waits for other files' pulls, those
// answered — not counting the settle window after it; when the other
// files' pulls did not finish in time, up to every changed document being
// fresh. It is 0 unless Freshness is Fresh. What a check takes beyond it
// is lsp-hook's own overhead.
type Outcome struct {
	Server    string
	Root      string
	Freshness Freshness
	Files     map[string][]diag.Diagnostic
	Others    map[string][]diag.Diagnostic
	// OthersBefore holds, for each file of Others, what the server had
	// said of it before the change (before the watcher passed the change
	// on, when it did): the baseline that tells which of its diagnostics
	// the change introduced (output.other_files: introduced). A file the
	// server had said nothing of is absent (nothing was wrong); one whose
	// state before is unknown, or that another check changed meanwhile,
	// has its current diagnostics (nothing introduced). See Client.before.
	OthersBefore map[string][]diag.Diagnostic
	// OthersBeforeKnown holds the files of OthersBefore whose entry is
	// what the server said before the change (or that it said nothing),
	// not a stand-in for a state unknown.
	OthersBeforeKnown map[string]bool
	ServerMS          int64
	Err               error
	// Pending names work the server began after the change and had not
	// ended by the deadline (a cargo check): the answer is Partial, and
	// more diagnostics may follow.
	Pending []string
	// Unchecked maps each changed file the server said it could not check
	// (config.Server.UncheckedMessages) to what it said, the file's path
	// in it made relative to the root; that diagnostic is not in Files.
	Unchecked map[string]string
	// staleIgnored names the files of Unchecked the server left out of its
	// build from what it loaded before their text lost its build
	// constraint (config.Server.StaleIgnoredMessages): the Manager
	// restarts it and checks again.
	staleIgnored []string
	// ImportersLeft, when not nil, names the importers of the changed
	// files past the re-check cap that the server said nothing of during
	// the check (ErrImportersCap): what the change did to them is unknown.
	// The Manager makes an edit's fresh answer Partial with it
	// (importersPartial); a batch (CheckWithin) checks the files it is
	// given, and `diagnose --changed` adds their importers itself
	// (Importers), so it does not.
	ImportersLeft error
}

// Update sends docs to the server (didOpen the first time, then didChange
// with the full text at version+1, then didSave), pulls their diagnostics
// when the server supports pull (pull.go) or passes tsserver requests
// through (tsserver.go), and waits until every doc has a fresh answer for
// its text (freshness.go: an answer for an earlier version with the same
// text counts, and a doc another text overtook is superseded) and settle
// has passed without another arrival, or until ctx ends. It also waits,
// within ctx, for the pulls of the other files a change can break
// (Outcome.Others): tsserver's, and a pull server's with inter-file
// dependencies (pyright). A tsserver pull's answers are complete as they
// come (there are no waves to settle), so settle is not waited for. Before
// that, the changes on disk the Watcher saw are sent (see Watch); without
// a Watcher, or with one that may have missed events, files open earlier
// that changed on disk since are re-synced from an mtime scan instead, and
// open files that are gone are closed. So an out-of-band write (a
// formatter, a sed) reaches the server ahead of the change.
func (c *Client) Update(ctx context.Context, docs []Doc, settle time.Duration) Outcome {
	out := Outcome{Server: c.server.Name, Root: c.root, Freshness: None}
	if err := c.Err(); err != nil {
		out.Err = err
		return out
	}
	defer c.markUpdating(docs, -1)
	c.markUpdating(docs, +1)
	pend := c.notePending(docs)
	defer c.dropPending(pend...)
	settle = c.settleFor(settle)
	// Since when the server has said what was wrong everywhere: since its
	// first whole answer, or, when it has not given one, since it
	// answered the text before the change (showBefore). A change written
	// before the server's first answer may have been read from disk as it
	// loaded, and then nothing it has said knows the text before it: it
	// is shown that text too, and when it could not be, the files the
	// change can reach have no baseline (olderThanServer, blind). A
	// changed document the server takes only as saved (gopls's go.mod)
	// cannot be shown its text before, nor can a Go file whose build
	// constraint the change changed (gopls keeps its package's files as
	// loaded), and a server with no whole answer yet has loaded it,
	// changed, from disk: it is blind too (unshowableChanged).
	touchedAt := c.touchedMark()
	var floor, shown uint64
	var blind []string
	older := c.olderThanServer(docs)
	if touchedAt == 0 || len(older) > 0 {
		// The changed files the server loaded from disk (all of them when
		// it has given no whole answer) that it cannot be shown as they
		// were before.
		unshowable := c.unshowableChanged(docs)
		if touchedAt != 0 {
			unshowable = slices.DeleteFunc(unshowable, func(p string) bool { return !slices.Contains(older, p) })
		}
		var whole bool
		if whole, floor, shown = c.showBefore(ctx, docs); whole && len(unshowable) == 0 {
			touchedAt = shown
		} else {
			// Asked again: a cold server may have given its first answer
			// while showBefore waited, its load having read the change
			// (make test at b4b692b, TestPrewarmRacesFirstEdit/go: the
			// prewarm's answers about the callers stood as their baseline).
			blind = c.olderThanServer(docs)
			for _, p := range unshowable {
				if !slices.Contains(blind, p) {
					blind = append(blind, p)
				}
			}
		}
	}
	if !c.syncWatched(ctx) {
		// No watcher, or one that may have missed events: compare the
		// open documents with the disk instead.
		c.resyncChangedOnDisk(docs)
	}
	if ev := c.pkgDirs.dependencyEvents(c.root, c.server.DependencyDirs); len(ev) > 0 {
		c.log.Debug("packages installed or removed", "events", len(ev))
		c.FilesChanged(ev)
	}
	embedders := c.reloadEmbedded(ctx)
	deps, past := c.dependentsOf(ctx, docs)
	for _, p := range embedders {
		if !slices.ContainsFunc(docs, func(d Doc) bool { return d.Path == p }) && !slices.Contains(deps, p) {
			deps = append(deps, p)
		}
	}
	before, _ := c.store.mark()
	c.sendPending(docs)
	sent := time.Now()
	want := make(map[string]int32, len(docs)) // uri → version sent
	var movedOn []string                      // changed documents whose file moved on before their text went out
	for i, d := range docs {
		if c.server.IgnoresUnchangedText && !d.Recheck {
			d = c.awaitRevisit(ctx, d)
		}
		uri, v, err := c.sync(d)
		c.dropPending(pend[i])
		if errors.Is(err, errMovedOn) {
			movedOn = append(movedOn, uri)
			continue
		}
		if err != nil {
			out.Err = fmt.Errorf("syncing %s: %w", d.Path, err)
			return out
		}
		want[uri] = v
	}
	if len(want) == 0 && len(movedOn) > 0 {
		out.Freshness = Partial
		out.Err = fmt.Errorf("%w: %s", ErrSuperseded, c.relPaths(movedOn))
		return out
	}
	c.forceOutdatedRuns(docs, want)
	rechecked := c.recheckDependents(deps, want)
	// Answers count from when each document's run of equal texts began
	// (freshness.go): earlier than now when the watcher sent this text
	// before the hook came.
	since, mark := c.runsBegan(want, sent)
	c.pullAfterChange(want)
	others := c.tsPullAfterChange(ctx, want, true)
	if others == nil {
		others = c.afterInOrder(ctx)
	}
	// Every change wants the other files it can break (a write lists them,
	// an edit the errors it introduced in them): the pulls of the other
	// open documents that pullAfterChange started for an inter-file source
	// (pyright) are waited for, within ctx, as tsPullAfterChange's are; on
	// a loaded machine they can take longer than the settle window.
	waitPulls := !c.ts.inUse()
	sends := c.sendCount()
	w := c.waitFresh(ctx, since, mark, want, settle, others, waitPulls)
	whole := c.sendCount() == sends
	c.recheckUnloaded(ctx, &w, want, settle)
	c.judgeAgain(&w, docs, want)
	w.superseded = append(w.superseded, movedOn...)
	out.Freshness = c.freshness(w, len(want))
	switch {
	case out.Freshness == Partial && len(w.pending) > 0:
		// Every file answered, but work the change set off (a cargo
		// check) had not ended by the deadline: more may come.
		out.Pending = w.pending
	case out.Freshness == Fresh:
		out.ServerMS = w.answered.Sub(sent).Milliseconds()
		if whole {
			m, _ := c.store.mark()
			c.mu.Lock()
			if !c.touched {
				c.touched, c.touchedAt = true, m
			}
			c.mu.Unlock()
		}
	}
	if err := c.Err(); err != nil && out.Freshness != Fresh {
		out.Err = err
	}
	if len(w.superseded) > 0 && out.Err == nil {
		out.Err = fmt.Errorf("%w: %s", ErrSuperseded, c.relPaths(w.superseded))
	}
	le := c.progress.loadError(c.server.LoadErrorProgress)
	if le == "" {
		le = c.loadFailure()
	}
	if le != "" && out.Err == nil {
		// The server cannot load the workspace: what it published leaves
		// out every file it could not load, so even a fresh answer is not
		// the whole answer.
		out.Err = fmt.Errorf("%w: %s", ErrLoad, le)
		if out.Freshness == Fresh {
			out.Freshness, out.ServerMS = Partial, 0
		}
	}
	out.ImportersLeft = c.importersLeft(past, before)
	base := c.baseMark(want, mark)
	if !slices.ContainsFunc(docs, func(d Doc) bool { return d.WarmUp }) {
		c.noteDelivered(w.fresh, want, rechecked)
	}
	out.Files, out.Others = c.collect(base, w.fresh, want)
	c.dropForeign(&out)
	out.Unchecked, out.staleIgnored = c.unchecked(out.Files)
	for uri := range rechecked { // an importer re-checked is another file, not a changed one
		if p, err := uriToPath(uri); err == nil {
			if ds, ok := out.Files[p]; ok {
				out.Others[p] = ds
				delete(out.Files, p)
			}
		}
	}
	if len(w.superseded) > 0 {
		// What the server said of the other files may be about the
		// overtaken text or the newer one: the newer check reports them.
		clear(out.Others)
	} else if len(blind) > 0 && !c.server.OpenDependents {
		c.addBlindOthers(&out, blind)
	}
	out.OthersBefore, out.OthersBeforeKnown = c.before(baseline{
		mark:      max(base, shown),
		floor:     floor,
		ceiling:   c.changeSentAfter(docs, floor),
		touchedAt: touchedAt,
		importers: rechecked,
		changed:   sync.OnceValue(func() []string { return changedTexts(docs) }),
		blind:     blind,
	}, out.Others)
	return out
}

// judgeAgain judges each answered document of a check (w.fresh) once
// more as its wait ends, and moves to w.superseded those overtaken since:
// a newer text was sent (judge), or, for a text read from the file
// (Doc.FromDisk), the file now holds other content or is gone (onDisk) — a newer write whose hook has not come yet, or a
// read that caught a write half done. want maps each URI to the version
// the check sent.
func (c *Client) judgeAgain(w *waited, docs []Doc, want map[string]int32) {
	for _, d := range docs {
		uri := pathToURI(d.Path)
		if _, ok := w.fresh[uri]; !ok {
			continue
		}
		over := c.judgeDoc(uri, want[uri]).state == docSuperseded || d.FromDisk && !onDisk(d)
		if over {
			c.log.Debug("check overtaken as it ended", "uri", uri, "version", want[uri])
			delete(w.fresh, uri)
			w.superseded = append(w.superseded, uri)
		}
	}
}

// errMovedOn is sync's refusal to send a text read from the file
// (Doc.FromDisk) that the file no longer holds.
var errMovedOn = errors.New("the file on disk holds a newer text")

// onDisk reports whether the file at d.Path holds d.Text now (false when
// it cannot be read).
func onDisk(d Doc) bool {
	disk, err := readBounded(d.Path, maxConvertRead) // never a FIFO's open
	return err == nil && bytes.Equal(disk, d.Text)
}

// newDirLocked reports whether path's directory is new to the server: no
// document was opened in it before, and it changed after the client was
// made (so the server may not have loaded what is in it): dir is the
// directory's stat, taken before c.mu (nil when it failed). It records the
// directory as seen. c.mu must be held.
func (c *Client) newDirLocked(path string, dir os.FileInfo) bool {
	if c.dirs[filepath.Dir(path)] {
		return false
	}
	c.dirs[filepath.Dir(path)] = true
	return dir != nil && dir.ModTime().After(c.began)
}

// constraintChanged reports whether a Go file's build constraint in text
// differs from the one in old (nil: the document was not open), when the
// server's catalogue entry asks for its answers to such texts to be
// re-checked (config.Server.RecheckUnloaded): the file has moved out of
// the packages the server loaded, or into others.
func (c *Client) constraintChanged(path string, old, text []byte) bool {
	return c.server.RecheckUnloaded && isGoFile(path) && GoBuildConstraint(old) != GoBuildConstraint(text)
}

// recheckUnloaded sends again, as a new version with the same text, each
// changed document whose answer came before the server may have loaded
// its package (document.unloaded: a directory new to the server, a build
// constraint new to it), when the server's catalogue entry asks for it
// (config.Server.RecheckUnloaded), waits for the answers to those
// versions, and puts them in w in place of the first ones.
func (c *Client) recheckUnloaded(ctx context.Context, w *waited, want map[string]int32, settle time.Duration) {
	if !c.server.RecheckUnloaded {
		return
	}
	again := make(map[string]int32)
	for uri := range w.fresh {
		c.mu.Lock()
		d, ok := c.docs[uri]
		var text []byte
		var path string
		recheck := ok && d.unloaded
		if recheck {
			d.unloaded = false
			text, path = d.text, d.path
		}
		c.mu.Unlock()
		if !recheck {
			continue
		}
		if _, v, err := c.sync(Doc{Path: path, Text: text, Recheck: true}); err == nil {
			again[uri] = v
			want[uri] = v
		}
	}
	if len(again) == 0 {
		return
	}
	w2 := c.waitSent(ctx, again, settle)
	c.log.Debug("re-checked files whose package may not have been loaded", "files", len(again), "fresh", len(w2.fresh))
	for uri := range again {
		delete(w.fresh, uri)
		if vd, ok := w2.fresh[uri]; ok {
			w.fresh[uri] = vd
		}
	}
	w.superseded = append(w.superseded, w2.superseded...)
	w.answered, w.pending = w2.answered, w2.pending
}

// sendCount returns how many texts have been sent to the server so far.
// A server may cut a diagnostic pass short when a newer text arrives
// (gopls cancels the pass of an older snapshot, having published only
// part of it: internal/server/diagnostics.go, diagnoseSnapshot), so a
// fresh answer given while other texts were sent says what was wrong in
// the changed files, but not that every other file has been diagnosed.
func (c *Client) sendCount() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sends
}

// settleFor is the settle window of a check of this client that asked
// for asked: the server's own (config.Server.SettleFor) while the signal
// its DoneSignal names is in use here, else asked, as for a server without
// a signal.
func (c *Client) settleFor(asked time.Duration) time.Duration {
	return c.server.SettleFor(asked, c.signalling())
}

// signalling reports whether the signal the server's DoneSignal names is
// in use by this client. Its pushes are all there is when it is not: a
// pyright that declares no pull, the tsserver pass-through turned off
// after it failed (tsTurnOff) or never offered, a gopls that has reported
// no work-done progress since it started. Then its first publication of a
// change may be one of several (tsserver's syntactic diagnostics before
// its semantic ones), and only a window catches the rest.
func (c *Client) signalling() bool {
	switch c.server.DoneSignal {
	case config.SignalPull:
		return len(c.regs.pulls()) > 0
	case config.SignalTsserver:
		return c.ts.inUse()
	case config.SignalProgress:
		return c.progress.reported()
	case config.SignalInOrder:
		return c.server.InOrderArg != "" && slices.Contains(c.server.Command, c.server.InOrderArg)
	}
	return false
}

// waitSent starts the pulls of the documents just sent (want: URI →
// version) and waits, within ctx, for the answers to them (waitFresh, with
// settle), not for other documents': a preliminary round of a check (the
// text before a change, a re-check of files in new directories).
func (c *Client) waitSent(ctx context.Context, want map[string]int32, settle time.Duration) waited {
	settle = c.settleFor(settle)
	since, mark := c.runsBegan(want, time.Now())
	c.pullAfterChange(want)
	c.tsPullAfterChange(ctx, want, false)
	return c.waitFresh(ctx, since, mark, want, settle, c.afterInOrder(ctx), false)
}

// ErrSuperseded says that a changed file's check was overtaken: another
// text of the file was sent (a second hook, the watcher passing on a newer
// write) or its document closed before the server answered the check's
// text, so the check has no answer of its own for it. The newer check
// reports the file.
var ErrSuperseded = errors.New("changed again during the check")

// freshness is the Outcome's freshness for a wait over n documents.
func (c *Client) freshness(w waited, n int) Freshness {
	switch {
	case len(w.fresh) == 0 && c.Err() != nil:
		return None // the server died: it gave no answer at all
	case len(w.fresh) == n && len(w.pending) > 0:
		return Partial
	case len(w.fresh) == n:
		return Fresh
	case len(w.fresh) > 0 || len(w.superseded) > 0:
		return Partial
	}
	return Timeout
}

// relPaths is uris as paths relative to the workspace (Client.workspace,
// as the lint block names files; the server's root for a client no
// Manager made), comma-separated and sorted: a file of another root
// (Doc.Mirror) is named as the agent knows it, not by an absolute path.
func (c *Client) relPaths(uris []string) string {
	var out []string
	for _, uri := range uris {
		p, err := uriToPath(uri)
		if err != nil {
			continue
		}
		if rel, ok := ws.Rel(cmp.Or(c.workspace, c.root), p); ok && rel != "." {
			p = rel
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// runsBegan returns when the earliest run of equal texts among the changed
// documents (want: URI → version sent) began, and the store's arrival
// number then (freshness.go); sent and the current arrival number when no
// run is known.
func (c *Client) runsBegan(want map[string]int32, sent time.Time) (time.Time, uint64) {
	since := sent
	mark, _ := c.store.mark()
	c.mu.Lock()
	defer c.mu.Unlock()
	for uri, v := range want {
		d, ok := c.docs[uri]
		if !ok {
			continue
		}
		if r, ok := findRun(d.sent, v); ok {
			if r.mark < mark {
				mark = r.mark
			}
			if r.at.Before(since) {
				since = r.at
			}
		}
	}
	return since, mark
}

// judgeDoc applies judge to the document uri at version v as things stand.
func (c *Client) judgeDoc(uri string, v int32) verdict {
	c.mu.Lock()
	var sent []sentVersion
	if d, ok := c.docs[uri]; ok {
		sent = slices.Clone(d.sent)
	}
	c.mu.Unlock()
	pushes, pulls, pulling, versioned := c.store.answers(uri)
	return judge(sent, v, pushes, pulls, pulling, versioned)
}

// waited is what waitFresh ends with: the verdict of every changed URI
// that got its answer (fresh), the URIs whose check was superseded, when
// the answer was last complete (see Outcome.ServerMS; zero when not every
// URI was fresh), and the work still running at the deadline (pending).
type waited struct {
	fresh      map[string]verdict
	superseded []string
	answered   time.Time
	pending    []string
}

// waitFresh waits for a fresh answer for every URI in want (see judge),
// for others to be closed (nil: nothing more to wait for) and, with
// waitPulls, for the pulls in flight for other documents to end; then for
// settle without new arrivals. A URI whose check is superseded is not
// waited for. Work the server began since since (progress) must end too.
func (c *Client) waitFresh(ctx context.Context, since time.Time, mark uint64, want map[string]int32, settle time.Duration, others <-chan struct{}, waitPulls bool) waited {
	var (
		settleTimer         <-chan time.Time
		allFresh, completed time.Time
	)
	// Work the change set off must end before the answer is complete: a
	// cargo check after didSave (rust-analyzer), a diagnostic pass (gopls,
	// whose first versioned push for a changed file can be an empty one
	// sent before the pass for that version ran). Until the server has
	// given one fresh answer, so must work already running (loading,
	// indexing): a server answers emptily while it loads (rust-analyzer's
	// pulls do), and that is not "clean".
	if !c.Touched() {
		since = time.Time{}
	}
	answered := func() time.Time {
		if !completed.IsZero() {
			return completed
		}
		return allFresh
	}
	reread := false // once the budget has ended, the state was read again
	for {
		_, arrived := c.store.mark()
		pending, progressed := c.progress.pendingSince(since, c.server.LoadErrorProgress)
		if c.betweenReads != nil {
			c.betweenReads()
		}
		w := waited{fresh: make(map[string]verdict)}
		for uri, v := range want {
			switch vd := c.judgeDoc(uri, v); vd.state {
			case docFresh:
				w.fresh[uri] = vd
			case docSuperseded:
				w.superseded = append(w.superseded, uri)
			}
		}
		// Other documents' pulls are part of a write's answer; a file
		// clangd still works on may be published again (filestatus.go).
		othersPulling := waitPulls && c.store.pullingOther(want) || c.busy(want)
		switch waitPhase(len(want), len(w.fresh), len(w.superseded), len(pending) > 0, othersPulling, others != nil) {
		case phaseUnanswered:
			settleTimer, allFresh, completed = nil, time.Time{}, time.Time{}
		case phaseWorking:
			settleTimer, completed = nil, time.Time{}
			if allFresh.IsZero() {
				allFresh = time.Now()
			}
		case phaseSettling:
			if allFresh.IsZero() {
				allFresh = time.Now()
			}
			if settleTimer == nil {
				completed = time.Now()
				settleTimer = time.After(settle)
			}
		}
		select {
		case <-arrived:
			if settleTimer != nil {
				settleTimer = time.After(settle) // a wave is still arriving
			}
		case <-progressed:
			if settleTimer != nil {
				settleTimer = time.After(settle)
			}
		case <-others:
			others = nil
		case <-settleTimer:
			if changedSince(arrived, progressed) {
				// The state above was read in two steps (the server's work,
				// then its answers), and a report between them can leave it
				// inconsistent: gopls's pass begun after pending was read
				// and its empty first publication in before the documents
				// were judged. select picks among ready cases at random, so
				// the timer can win over the arrival that shows it: read
				// again (TestSettleAfterLateReports).
				settleTimer = time.After(settle)
				continue
			}
			w.answered = answered()
			return w
		case <-ctx.Done():
			if !reread && changedSince(arrived, progressed) {
				reread = true // as at the settle timer: the answer is the state read once more
				continue
			}
			w.answered, w.pending = answered(), pending
			return w
		case <-c.exited:
			w.answered, w.pending = answered(), pending
			return w
		}
	}
}

// changedSince reports whether a publication, pull report or progress
// report came since the channels were taken (store.mark,
// progress.pendingSince): each is closed at the next one.
func changedSince(arrived, progressed <-chan struct{}) bool {
	select {
	case <-arrived:
		return true
	case <-progressed:
		return true
	default:
		return false
	}
}

// phase is where a check's wait stands (waitPhase).
type phase int

const (
	// phaseUnanswered: a changed document has no fresh answer yet, or
	// lost it (a refresh made a pull server start over). Wait, within
	// the check's budget.
	phaseUnanswered phase = iota
	// phaseWorking: every changed document is answered (or its check
	// overtaken), but work the change set off goes on: the other open
	// documents' pulls (part of a write's answer, Outcome.Others), clangd
	// still building a file (filestatus.go), progress begun since the
	// change (rust-analyzer's cargo check after didSave), other files'
	// answers asked of tsserver.
	phaseWorking
	// phaseSettling: all is in; the answer is complete once the settle
	// window passes with nothing new arriving (a wave of publications
	// restarts it).
	phaseSettling
)

// waitPhase decides where a wait over n changed documents stands, of
// which fresh are answered (judge) and superseded overtaken by a newer
// check; pending says work the server began since the change is still
// running, othersPulling that other documents' pulls (or clangd's builds)
// are, othersOpen that answers about other files are still to come. It is
// pure: waitFresh wakes on every arrival, progress report and timer, and
// asks it.
func waitPhase(n, fresh, superseded int, pending, othersPulling, othersOpen bool) phase {
	switch {
	case fresh+superseded < n:
		return phaseUnanswered
	case pending, othersPulling, othersOpen:
		return phaseWorking
	}
	return phaseSettling
}

// sync sends one document's current text and returns its URI and the
// version sent.
// d.Recheck marks the version as one sent to force a fresh pass over the
// same text (sentVersion.forced).
func (c *Client) sync(d Doc) (string, int32, error) {
	forced := d.Recheck
	text := d.Text
	var fi, dirFI os.FileInfo // stat outside c.mu: a slow disk never holds up the client
	if st, err := os.Stat(d.Path); err == nil {
		fi = st
	}
	if st, err := os.Stat(filepath.Dir(d.Path)); err == nil {
		dirFI = st
	}
	if text == nil {
		b, err := readBounded(d.Path, maxConvertRead) // never a FIFO, whose open would block for good
		if err != nil {
			return "", 0, err
		}
		text = b
	}
	uri := pathToURI(d.Path)
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	if d.FromDisk && !onDisk(d) {
		// A newer write (or the rest of a write this text's read caught
		// half done) is on disk: sending this text would roll the server
		// back. Looked at under syncMu, so that a newer write's check,
		// which reads the disk after the write, sends after this one.
		return uri, 0, errMovedOn
	}
	c.mu.Lock()
	doc, open := c.docs[uri]
	if d.ifNotSent && open && bytes.Equal(doc.text, text) {
		c.mu.Unlock()
		return uri, doc.version, errAlreadySent
	}
	// A server that answers no unchanged text is made to answer a forced
	// version by closing and opening the document again (see
	// config.Server.IgnoresUnchangedText), its version going on from the
	// closed one's, so that a late answer about the closed document is
	// never taken for the new one's.
	reopen := open && forced && c.server.IgnoresUnchangedText && bytes.Equal(doc.text, text)
	if open && !forced && c.server.IgnoresUnchangedText && c.revisitLocked(uri, doc, text) {
		// A text sent before comes back (A, B, A) while B is unanswered:
		// clangd compares a change with the last one it processed, not
		// the last one sent, so if it dropped B for A it finds A
		// unchanged and answers nothing (TestClangdHeaderRace). Update
		// waited for B's answer (awaitRevisit); it did not come, so A
		// goes out as a forced version.
		forced, reopen = true, true
	}
	if reopen && bytes.Equal(doc.text, text) && doc.lastSent().forced && c.changed <= doc.lastSent().seq {
		// A forced re-check of this text went out and nothing the server
		// sees changed since (no new text, close or watched-file event):
		// its answer is this one's. Closing and opening the document
		// again while clangd still builds it (two hooks re-checking one
		// header's importers) left clangd 14 answering none of the
		// re-opened documents again: every later check timed out
		// (TestClangdSameHeaderTwice).
		v := doc.version
		c.mu.Unlock()
		return uri, v, nil
	}
	switch {
	case reopen:
		// The versions sent before carry on: a check waiting for one of
		// them takes this version's answer when its text is the same
		// (findRun), instead of counting its document closed.
		doc = &document{path: d.Path, langID: doc.langID, version: doc.version + 1, unloaded: doc.unloaded || c.constraintChanged(d.Path, doc.text, text), delivered: doc.delivered, sent: doc.sent}
		c.docs[uri] = doc
	case !open:
		doc = &document{path: d.Path, langID: c.server.LanguageIDFor(d.Path), version: 1,
			unloaded: c.newDirLocked(d.Path, dirFI) || c.constraintChanged(d.Path, nil, text)}
		c.docs[uri] = doc
		c.store.reopen(uri) // versions start again at 1
	default:
		doc.version++
		doc.unloaded = doc.unloaded || c.constraintChanged(d.Path, doc.text, text)
	}
	doc.text = text
	if fi != nil {
		doc.modTime, doc.size = fi.ModTime(), fi.Size()
	}
	version := doc.version
	c.sends++
	if c.server.MtimeSeconds {
		c.noteSentSecondLocked(time.Now())
	}
	seq, hash := c.sends, textHash(text)
	changes := len(doc.sent) == 0 && !(d.Recheck && (d.Text == nil || d.FromDisk)) || len(doc.sent) > 0 && doc.lastSent().hash != hash
	if changes {
		c.changed = seq
	}
	mark, _ := c.store.mark()
	if len(doc.sent) >= sentHistory {
		doc.sent = slices.Delete(doc.sent, 0, len(doc.sent)-sentHistory+1)
	}
	doc.sent = append(doc.sent, sentVersion{version: version, hash: hash, mark: mark, at: time.Now(), forced: forced, seq: seq, changes: changes, warmUp: d.WarmUp})
	c.mu.Unlock()

	var err error
	if reopen {
		err = c.notify("textDocument/didClose", didCloseParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	}
	if !open || reopen {
		if err != nil {
			return uri, version, err
		}
		err = c.notify("textDocument/didOpen", didOpenParams{TextDocument: TextDocumentItem{
			URI: uri, LanguageID: doc.langID, Version: version, Text: string(text),
		}})
	} else {
		err = c.notify("textDocument/didChange", didChangeParams{
			TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: version},
			ContentChanges: []fullChange{{Text: string(text)}},
		})
	}
	if err == nil && c.save {
		p := didSaveParams{TextDocument: TextDocumentIdentifier{URI: uri}}
		if c.saveTx {
			s := string(text)
			p.Text = &s
		}
		err = c.notify("textDocument/didSave", p)
	}
	return uri, version, err
}

// revisitLocked reports whether text, other than the document's last
// text sent, is one sent before (A, B, A) while that last version is still
// unanswered. c.mu is held (store.mu is taken inside it, as the lock order
// allows).
func (c *Client) revisitLocked(uri string, doc *document, text []byte) bool {
	h := textHash(text)
	last := doc.lastSent()
	if len(doc.sent) == 0 || last.hash == h || !slices.ContainsFunc(doc.sent, func(s sentVersion) bool { return s.hash == h }) {
		return false
	}
	pushes, pulls, pulling, versioned := c.store.answers(uri)
	return judge(doc.sent, last.version, pushes, pulls, pulling, versioned).state != docFresh
}

// revisitWait bounds how long a check waits for the answer to a
// document's last version before sending a text that comes back.
const revisitWait = 2 * time.Second

// awaitRevisit waits, for at most revisitWait within ctx, while d's text
// is one sent before whose later version is still unanswered (A, B, A;
// revisitLocked): once clangd has processed B, A is a change to it, sent
// as one, and no document is closed and opened again while clangd builds
// it (doing so has left clangd 14 hung: TestClangdHeaderRace under make
// test). It returns d with the text it read from disk, so that sync
// reads it once.
func (c *Client) awaitRevisit(ctx context.Context, d Doc) Doc {
	if d.Text == nil {
		b, err := readBounded(d.Path, maxConvertRead)
		if err != nil {
			return d // sync reads it again and reports the error
		}
		d.Text = b
	}
	text := d.Text
	uri := pathToURI(d.Path)
	ctx, cancel := context.WithTimeout(ctx, revisitWait)
	defer cancel()
	for {
		_, arrived := c.store.mark()
		c.mu.Lock()
		doc, open := c.docs[uri]
		waiting := open && c.revisitLocked(uri, doc, text)
		c.mu.Unlock()
		if !waiting {
			return d
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return d
		case <-c.exited:
			return d
		}
	}
}

// lastSent returns the newest version sent of d; the zero value when none.
func (d *document) lastSent() sentVersion {
	if len(d.sent) == 0 {
		return sentVersion{}
	}
	return d.sent[len(d.sent)-1]
}

// sentVersion returns the record of version v of d, and whether d still
// keeps it (sentHistory).
func (d *document) sentVersion(v int32) (sentVersion, bool) {
	for _, s := range d.sent {
		if s.version == v {
			return s, true
		}
	}
	return sentVersion{}, false
}

// resyncChangedOnDisk sends didChange for open documents, other than those
// about to be synced, whose file changed on disk since we last sent it, and
// closes those whose file is gone (forgetGone).
func (c *Client) resyncChangedOnDisk(except []Doc) {
	skip := make(map[string]bool, len(except))
	for _, d := range except {
		skip[d.Path] = true
	}
	type known struct {
		path    string
		modTime time.Time
		size    int64
	}
	var open []known
	c.mu.Lock()
	for _, doc := range c.docs {
		if !skip[doc.path] {
			open = append(open, known{doc.path, doc.modTime, doc.size})
		}
	}
	c.mu.Unlock()
	var stale, gone []string
	for _, k := range open { // stat outside c.mu
		fi, err := os.Stat(k.path)
		if errors.Is(err, os.ErrNotExist) {
			gone = append(gone, k.path)
			continue
		}
		if err != nil || (fi.ModTime().Equal(k.modTime) && fi.Size() == k.size) {
			continue
		}
		stale = append(stale, k.path)
	}
	_ = c.forgetGone(gone, false)
	for _, p := range stale {
		if _, _, err := c.sync(Doc{Path: p}); err != nil {
			c.log.Warn("re-syncing file changed on disk", "path", p, "err", err)
		}
	}
}

// markUpdating counts docs as about to be synced by an Update (delta +1)
// or done (-1), and records when each document's checks whose answer
// reaches an agent were in flight (noteCheckingLocked; a warm-up's reaches
// none, so what it leaves unsaid is no other check's to leave out).
func (c *Client) markUpdating(docs []Doc, delta int) {
	mark, _ := c.store.mark()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range docs {
		c.updating[d.Path] += delta
		if c.updating[d.Path] <= 0 {
			delete(c.updating, d.Path)
		}
		if !d.WarmUp {
			c.noteCheckingLocked(d.Path, delta, mark)
		}
	}
}

// pendingSend is a text an Update has yet to send (nil: the file's text
// on disk, read when it goes out).
type pendingSend struct {
	path string
	text []byte
}

// notePending records docs' texts as about to be sent by an Update, until
// dropPending; the records are returned in docs' order.
func (c *Client) notePending(docs []Doc) []*pendingSend {
	out := make([]*pendingSend, len(docs))
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, d := range docs {
		out[i] = &pendingSend{path: d.Path, text: d.Text}
		c.pending[d.Path] = append(c.pending[d.Path], out[i])
	}
	return out
}

// dropPending forgets records of notePending: their texts went out (or
// never will). Dropping one twice is harmless.
func (c *Client) dropPending(ps ...*pendingSend) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range ps {
		rest := slices.DeleteFunc(c.pending[p.path], func(q *pendingSend) bool { return q == p })
		if len(rest) == 0 {
			delete(c.pending, p.path)
		} else {
			c.pending[p.path] = rest
		}
	}
}

// sendPending sends, before an Update's own documents (docs), the files
// other Updates are about to send whose text on disk is what they will
// send and not what the server has — in the order the two checks' own
// steps would not promise. Two files written at once, a callee and its
// caller, each with its hook: the watcher leaves a file another check is
// about to sync alone (updating), so without this the caller's check could
// send the caller and take gopls's answer against the old callee, still
// unsent (TestConcurrentCallerAndCallee, the caller's own answer). The
// other check then sends the same text again, and its answer counts from
// this version on (findRun: a run of equal texts); a caller whose text had
// gone out before is sent again as a forced version by forceOutdatedRuns,
// since another document changed after it. A text the other check carries
// that is not the disk's (the Stop gate's text before the session, an
// edit not written) is left for it to send: only what it would send is
// ever sent for it, never a text over the one it sent.
func (c *Client) sendPending(docs []Doc) {
	c.mu.Lock()
	var paths []string
	texts := make(map[string][][]byte)
	for path, ps := range c.pending {
		if slices.ContainsFunc(docs, func(d Doc) bool { return d.Path == path }) {
			continue
		}
		paths = append(paths, path)
		for _, p := range ps {
			texts[path] = append(texts[path], p.text)
		}
	}
	c.mu.Unlock()
	slices.Sort(paths)
	for _, path := range paths {
		disk, err := readBounded(path, maxConvertRead)
		if err != nil || slices.ContainsFunc(texts[path], func(t []byte) bool { return t != nil && !bytes.Equal(t, disk) }) {
			continue
		}
		c.mu.Lock()
		doc, open := c.docs[pathToURI(path)]
		same := open && bytes.Equal(doc.text, disk)
		c.mu.Unlock()
		if same {
			continue
		}
		// Checks of one file at once each find it pending here, and
		// unsent: whether the server has the text is asked again under
		// syncMu (ifNotSent), so it goes out once, not once per check
		// (twenty sends of one text pushed the check's own version out
		// of the history, superseded: TestLoadConcurrentHooks).
		switch _, v, err := c.sync(Doc{Path: path, Text: disk, FromDisk: true, ifNotSent: true}); {
		case err == nil:
			c.log.Debug("sent a file another check is about to send", "path", path, "version", v)
		case !errors.Is(err, errMovedOn) && !errors.Is(err, errAlreadySent):
			c.log.Warn("sending a file another check is about to send", "path", path, "err", err)
		}
	}
}

// resyncIfChanged re-syncs the open document at path when the file on disk
// no longer holds the text last sent (someone else wrote it). Files that
// are not open, about to be synced by an Update, unreadable, or over
// maxConvertRead are left alone.
func (c *Client) resyncIfChanged(path string) {
	uri := pathToURI(path)
	c.mu.Lock()
	doc, open := c.docs[uri]
	var sent []byte
	if open {
		sent = doc.text
	}
	busy := c.updating[path] > 0
	c.mu.Unlock()
	if !open || busy {
		return
	}
	disk, err := readBounded(path, maxConvertRead)
	if err != nil || bytes.Equal(disk, sent) {
		return
	}
	if _, v, err := c.sync(Doc{Path: path, Text: disk}); err != nil {
		c.log.Warn("re-syncing open document changed on disk", "path", path, "err", err)
	} else {
		c.log.Info("re-synced open document changed on disk", "path", path, "version", v)
	}
}

// collect converts into diag form the answers for the changed URIs
// (fresh: the verdict of each changed URI that got one; want: URI →
// version sent), and every answer that arrived after mark for other URIs
// that have no pull in flight and whose file still exists (a deleted file
// is never listed). A changed URI that is not fresh is left out; for one
// that is, only its verdict's push and pull reports count. Push and pull
// items of one file are merged with diag.SortDedupe.
func (c *Client) collect(mark uint64, fresh map[string]verdict, want map[string]int32) (files, others map[string][]diag.Diagnostic) {
	files = make(map[string][]diag.Diagnostic)
	others = make(map[string][]diag.Diagnostic)
	for uri, vd := range fresh {
		path, err := uriToPath(uri)
		if err != nil {
			c.log.Warn("dropping diagnostics for a URI we cannot map", "err", err)
			continue
		}
		var lists [][]Diagnostic
		if vd.push != nil {
			lists = append(lists, vd.push.diagnostics)
		}
		for _, r := range vd.pulls {
			lists = append(lists, r.items)
		}
		files[path] = c.merge(path, uri, lists)
	}
	for uri, snap := range c.store.since(mark) {
		if _, changed := want[uri]; changed || c.store.pulling(uri) {
			continue
		}
		path, err := uriToPath(uri)
		if err != nil {
			c.log.Warn("dropping diagnostics for a URI we cannot map", "err", err)
			continue
		}
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			continue // deleted: its document is closed as the watcher reports it
		}
		others[path] = c.merge(path, uri, snap.lists())
	}
	return files, others
}

// lists returns the push diagnostics and every pull report's items.
func (s snapshot) lists() [][]Diagnostic {
	var out [][]Diagnostic
	if s.push != nil {
		out = append(out, s.push.diagnostics)
	}
	for _, r := range s.pulls {
		out = append(out, r.items)
	}
	return out
}

// merge converts several lists of wire diagnostics for one file and
// removes duplicates (the same problem pushed and pulled, or pulled under
// two identifiers).
func (c *Client) merge(path, uri string, lists [][]Diagnostic) []diag.Diagnostic {
	if len(lists) == 1 {
		return c.convert(path, uri, lists[0])
	}
	var all []Diagnostic
	for _, l := range lists {
		all = append(all, l...)
	}
	return diag.SortDedupe(c.convert(path, uri, all))
}

// Current returns every existing file's latest diagnostics, pushed and
// pulled, by path; a file that no longer exists is left out.
func (c *Client) Current() map[string][]diag.Diagnostic {
	out := make(map[string][]diag.Diagnostic)
	for uri, snap := range c.store.all() {
		path, err := uriToPath(uri)
		if err != nil {
			continue
		}
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			continue
		}
		out[path] = c.merge(path, uri, snap.lists())
	}
	return out
}
