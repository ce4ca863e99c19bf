package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/sourcegraph/jsonrpc2"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file handles dynamic registration (LSP 3.17 "Register Capability",
// "Unregister Capability"). Two registrations change what the client does:
//
//   - "workspace/didChangeWatchedFiles" (LSP 3.17 "DidChangeWatchedFiles
//     Notification"): the server's FileSystemWatchers say which changes on
//     disk it wants to hear about; watch.go delivers them.
//   - "textDocument/diagnostic" (LSP 3.17 "Pull Diagnostics"): the server
//     wants the client to pull diagnostics, per identifier; pull.go does.
//
// Any other method is recorded by id (so it can be unregistered) and
// otherwise ignored: the client declares dynamicRegistration for nothing
// else, so a server that registers it anyway gets no behaviour from it.

// Watch kinds, the bits of FileSystemWatcher.kind (LSP 3.17 "WatchKind").
// A watcher without kind wants all three.
const (
	WatchCreate = 1
	WatchChange = 2
	WatchDelete = 4
	watchAll    = WatchCreate | WatchChange | WatchDelete
)

// fileWatcher is one decoded FileSystemWatcher. A GlobPattern is a Pattern
// (a string glob) or a RelativePattern {baseUri, pattern} whose baseUri is a
// URI or a WorkspaceFolder. base is the RelativePattern's base directory,
// absolute and cleaned, or "" for a plain Pattern; pattern is the glob with
// "/" separators; kind is the WatchKind bitmask.
type fileWatcher struct {
	base    string
	pattern string
	kind    int
}

// matches reports whether the change of type typ at path (absolute) is one
// the watcher asked for. A RelativePattern is matched against the path
// relative to its base (and never matches outside it). A plain Pattern that
// is absolute is matched against the absolute path; a relative one (the
// common "**/*.go") against the path relative to the server's root, or,
// outside the root, against the absolute path without its leading "/".
// Globs follow LSP 3.17 "Pattern": *, ?, **, {a,b}, [a-z], [!a-z]; doublestar
// implements exactly that syntax.
func (w fileWatcher) matches(path string, typ FileChangeType, root string) bool {
	if w.kind&typ.watchKind() == 0 {
		return false
	}
	var name string
	switch {
	case w.base != "":
		rel, ok := ws.Rel(w.base, path)
		if !ok || rel == "." {
			return false
		}
		name = rel
	case strings.HasPrefix(w.pattern, "/"):
		name = filepath.ToSlash(path)
	default:
		if rel, ok := ws.Rel(root, path); ok && rel != "." {
			name = rel
		} else {
			name = strings.TrimPrefix(filepath.ToSlash(path), "/")
		}
	}
	return doublestar.MatchUnvalidated(w.pattern, name)
}

// pullRegistration is a source of pull diagnostics: the static
// diagnosticProvider of the initialize result, or one dynamic
// "textDocument/diagnostic" registration. identifier is sent with every
// pull ("" when the server gave none); selector limits the documents it
// applies to (nil: all of this server's documents); interFile says results
// of other documents can change when one changes (interFileDependencies).
type pullRegistration struct {
	identifier string
	selector   []documentFilter
	interFile  bool
}

// applies reports whether the registration covers the document at path
// with language langID.
func (p pullRegistration) applies(path, langID, root string) bool {
	if p.selector == nil {
		return true
	}
	for _, f := range p.selector {
		if f.matches(path, langID, root) {
			return true
		}
	}
	return false
}

// documentFilter is a TextDocumentFilter (LSP 3.17 "DocumentFilter"): every
// field given must match. pattern is a glob matched as a plain watcher
// pattern is. A NotebookCellTextDocumentFilter decodes with notebook set
// and matches nothing: lsp-hook opens no notebooks.
type documentFilter struct {
	Language string `json:"language"`
	Scheme   string `json:"scheme"`
	Pattern  string `json:"pattern"`
	Notebook json.RawMessage
}

func (f documentFilter) matches(path, langID, root string) bool {
	if f.Notebook != nil {
		return false
	}
	if f.Language != "" && f.Language != langID {
		return false
	}
	if f.Scheme != "" && f.Scheme != "file" {
		return false
	}
	if f.Pattern != "" {
		return fileWatcher{pattern: f.Pattern, kind: watchAll}.matches(path, FileChanged, root)
	}
	return true
}

// registration is one stored dynamic registration.
type registration struct {
	id       string
	method   string
	watchers []fileWatcher     // for workspace/didChangeWatchedFiles
	pull     *pullRegistration // for textDocument/diagnostic
}

// registrations holds a client's dynamic registrations by id, and its
// static pull provider.
type registrations struct {
	mu         sync.Mutex // guards byID and staticPull
	byID       map[string]registration
	staticPull *pullRegistration
}

// watchers returns every registered FileSystemWatcher.
func (r *registrations) watchers() []fileWatcher {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []fileWatcher
	for _, id := range r.sortedIDsLocked() {
		out = append(out, r.byID[id].watchers...)
	}
	return out
}

// pulls returns every pull source: the static one first, then dynamic ones
// in id order.
func (r *registrations) pulls() []pullRegistration {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []pullRegistration
	if r.staticPull != nil {
		out = append(out, *r.staticPull)
	}
	for _, id := range r.sortedIDsLocked() {
		if p := r.byID[id].pull; p != nil {
			out = append(out, *p)
		}
	}
	return out
}

func (r *registrations) sortedIDsLocked() []string {
	ids := make([]string, 0, len(r.byID))
	for id := range r.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// setStatic records the static pull source of the initialize result.
func (r *registrations) setStatic(p *pullRegistration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.staticPull = p
}

// add stores regs, replacing any earlier registration with the same id.
func (r *registrations) add(regs []registration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID = make(map[string]registration)
	}
	for _, reg := range regs {
		r.byID[reg.id] = reg
	}
}

// remove deletes the registrations with the given ids and returns those
// that were not registered.
func (r *registrations) remove(ids []string) (unknown []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range ids {
		if _, ok := r.byID[id]; !ok {
			unknown = append(unknown, id)
			continue
		}
		delete(r.byID, id)
	}
	return unknown
}

// register answers client/registerCapability: it decodes every
// registration, stores them all, and replies null. A malformed one fails
// the whole request with InvalidParams and stores nothing, so the server
// learns at once that its registration did not take.
func (c *Client) register(params json.RawMessage) (any, error) {
	regs, err := decodeRegistrations(params)
	if err != nil {
		c.log.Warn("refusing capability registration", "err", err)
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
	}
	c.regs.add(regs)
	newPull := false
	for _, reg := range regs {
		if c.log.Enabled(context.Background(), slog.LevelDebug) {
			globs := make([]string, len(reg.watchers))
			for i, w := range reg.watchers {
				globs[i] = w.base + " " + w.pattern
			}
			c.log.Debug("server registered capability", "id", reg.id, "method", reg.method,
				"watchers", globs, "pull", reg.pull != nil)
		}
		newPull = newPull || reg.pull != nil
	}
	if newPull {
		// Documents opened before the registration arrived have not been
		// pulled under it yet; a pull-only server would otherwise stay silent.
		go c.repullOpen(false)
	}
	return nil, nil
}

// unregister answers client/unregisterCapability: it removes the
// registrations by id and replies null. An id never registered is logged,
// not an error (the specification leaves it open, and the goal is reached).
func (c *Client) unregister(params json.RawMessage) (any, error) {
	ids, err := decodeUnregistrations(params)
	if err != nil {
		c.log.Warn("refusing capability unregistration", "err", err)
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
	}
	if unknown := c.regs.remove(ids); len(unknown) > 0 {
		c.log.Debug("server unregistered unknown ids", "ids", unknown)
	}
	return nil, nil
}

// decodeRegistrations decodes RegistrationParams {registrations:
// [{id, method, registerOptions?}]}.
func decodeRegistrations(params json.RawMessage) ([]registration, error) {
	var p struct {
		Registrations *[]struct {
			ID              *string         `json:"id"`
			Method          *string         `json:"method"`
			RegisterOptions json.RawMessage `json:"registerOptions"`
		} `json:"registrations"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("decoding registration params: %w", err)
	}
	if p.Registrations == nil {
		return nil, fmt.Errorf("decoding registration params: no registrations array")
	}
	out := make([]registration, 0, len(*p.Registrations))
	for i, r := range *p.Registrations {
		if r.ID == nil || r.Method == nil || *r.ID == "" || *r.Method == "" {
			return nil, fmt.Errorf("decoding registration %d: id and method are required", i)
		}
		reg := registration{id: *r.ID, method: *r.Method}
		var err error
		switch reg.method {
		case "workspace/didChangeWatchedFiles":
			reg.watchers, err = decodeWatchers(r.RegisterOptions)
		case "textDocument/diagnostic":
			reg.pull, err = decodeDiagnosticOptions(r.RegisterOptions)
		}
		if err != nil {
			return nil, fmt.Errorf("decoding registration %q (%s): %w", reg.id, reg.method, err)
		}
		out = append(out, reg)
	}
	return out, nil
}

// decodeUnregistrations decodes UnregistrationParams. The specification
// spells the field "unregisterations" (a typo kept for compatibility);
// "unregistrations" is accepted too.
func decodeUnregistrations(params json.RawMessage) ([]string, error) {
	var p struct {
		Typo  *[]unregistration `json:"unregisterations"`
		Plain *[]unregistration `json:"unregistrations"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("decoding unregistration params: %w", err)
	}
	list := p.Typo
	if list == nil {
		list = p.Plain
	}
	if list == nil {
		return nil, fmt.Errorf("decoding unregistration params: no unregisterations array")
	}
	ids := make([]string, 0, len(*list))
	for i, u := range *list {
		if u.ID == "" {
			return nil, fmt.Errorf("decoding unregistration %d: id is required", i)
		}
		ids = append(ids, u.ID)
	}
	return ids, nil
}

type unregistration struct {
	ID     string `json:"id"`
	Method string `json:"method"`
}

// decodeWatchers decodes DidChangeWatchedFilesRegistrationOptions
// {watchers: FileSystemWatcher[]}, FileSystemWatcher being {globPattern,
// kind?}.
func decodeWatchers(raw json.RawMessage) ([]fileWatcher, error) {
	var o struct {
		Watchers *[]struct {
			GlobPattern json.RawMessage `json:"globPattern"`
			Kind        *int            `json:"kind"`
		} `json:"watchers"`
	}
	if err := json.Unmarshal(raw, &o); err != nil || o.Watchers == nil {
		return nil, fmt.Errorf("registerOptions %.120s: want {watchers: FileSystemWatcher[]}", raw)
	}
	out := make([]fileWatcher, 0, len(*o.Watchers))
	for i, w := range *o.Watchers {
		fw, err := decodeGlobPattern(w.GlobPattern)
		if err != nil {
			return nil, fmt.Errorf("watcher %d: %w", i, err)
		}
		fw.kind = watchAll
		if w.Kind != nil {
			if *w.Kind < 1 || *w.Kind > watchAll {
				return nil, fmt.Errorf("watcher %d: kind %d is not a WatchKind bitmask (1..7)", i, *w.Kind)
			}
			fw.kind = *w.Kind
		}
		out = append(out, fw)
	}
	return out, nil
}

// decodeGlobPattern decodes GlobPattern = Pattern | RelativePattern, where
// RelativePattern.baseUri is a URI string or a WorkspaceFolder {uri, name}.
// The glob must be valid doublestar syntax.
func decodeGlobPattern(raw json.RawMessage) (fileWatcher, error) {
	var fw fileWatcher
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		fw.pattern = s
	} else {
		var rp struct {
			BaseURI json.RawMessage `json:"baseUri"`
			Pattern *string         `json:"pattern"`
		}
		if err := json.Unmarshal(raw, &rp); err != nil || rp.Pattern == nil || len(rp.BaseURI) == 0 {
			return fw, fmt.Errorf("globPattern %.120s: want a string or {baseUri, pattern}", raw)
		}
		base, err := decodeBaseURI(rp.BaseURI)
		if err != nil {
			return fw, err
		}
		fw.base, fw.pattern = base, *rp.Pattern
	}
	if fw.pattern == "" || !doublestar.ValidatePattern(fw.pattern) {
		return fw, fmt.Errorf("globPattern %q is not a valid glob", fw.pattern)
	}
	return fw, nil
}

// decodeBaseURI decodes RelativePattern.baseUri: a file URI, or a
// WorkspaceFolder whose uri is one.
func decodeBaseURI(raw json.RawMessage) (string, error) {
	var uri string
	if err := json.Unmarshal(raw, &uri); err != nil {
		var wf WorkspaceFolder
		if err := json.Unmarshal(raw, &wf); err != nil || wf.URI == "" {
			return "", fmt.Errorf("baseUri %.120s: want a URI or a WorkspaceFolder", raw)
		}
		uri = wf.URI
	}
	path, err := uriToPath(uri)
	if err != nil {
		return "", fmt.Errorf("baseUri: %w", err)
	}
	return path, nil
}

// decodeDiagnosticOptions decodes DiagnosticOptions or
// DiagnosticRegistrationOptions {identifier?, interFileDependencies,
// workspaceDiagnostics, documentSelector?: DocumentSelector | null}, as
// found in a registration and in the initialize result's
// diagnosticProvider.
func decodeDiagnosticOptions(raw json.RawMessage) (*pullRegistration, error) {
	var o struct {
		Identifier       string          `json:"identifier"`
		InterFile        bool            `json:"interFileDependencies"`
		DocumentSelector json.RawMessage `json:"documentSelector"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &o) != nil {
		return nil, fmt.Errorf("diagnostic options %.120s: want an object", raw)
	}
	p := &pullRegistration{identifier: o.Identifier, interFile: o.InterFile}
	if len(o.DocumentSelector) == 0 || string(o.DocumentSelector) == "null" {
		return p, nil
	}
	var filters []map[string]json.RawMessage
	if err := json.Unmarshal(o.DocumentSelector, &filters); err != nil {
		return nil, fmt.Errorf("documentSelector %.120s: want an array of DocumentFilter", o.DocumentSelector)
	}
	p.selector = make([]documentFilter, 0, len(filters))
	for i, m := range filters {
		var f documentFilter
		if nb, ok := m["notebook"]; ok {
			f.Notebook = nb
			p.selector = append(p.selector, f)
			continue
		}
		for k, v := range m {
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return nil, fmt.Errorf("documentSelector[%d].%s %.80s: want a string", i, k, v)
			}
			switch k {
			case "language":
				f.Language = s
			case "scheme":
				f.Scheme = s
			case "pattern":
				f.Pattern = s
			default:
				return nil, fmt.Errorf("documentSelector[%d]: unknown field %q", i, k)
			}
		}
		if f.Pattern != "" && !doublestar.ValidatePattern(f.Pattern) {
			return nil, fmt.Errorf("documentSelector[%d]: pattern %q is not a valid glob", i, f.Pattern)
		}
		p.selector = append(p.selector, f)
	}
	return p, nil
}
