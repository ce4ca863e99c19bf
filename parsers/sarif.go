package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/fileuri"
)

// formatSarif is the sarif format (formats, parser.go).
var formatSarif = Format{
	Name:     "sarif",
	Doc:      "SARIF 2.1.0 logs (golangci-lint --output.sarif.path, eslint -f @microsoft/eslint-formatter-sarif, CodeQL, lsp-hook --format sarif)",
	Unit:     diag.UnitUTF16,
	Parser:   SARIFParser{},
	Detect:   detectSARIF,
	Priority: 60,
}

// SARIFParser reads a SARIF 2.1.0 log (OASIS SARIF 2.1.0 errata 01): every
// result of every run becomes a diagnostic, in order.
//
//   - Path is the first location's physicalLocation.artifactLocation.uri
//     (or, without a uri, that of run.artifacts[index]), resolved against
//     its uriBaseId through run.originalUriBaseIds (§3.14.14), then taken
//     apart with net/url: a file:// URI gives its absolute path, a relative
//     reference its relative path (percent-decoded). A base the log does not
//     define leaves the path relative, for Normalize to join to the
//     directory the tool ran in. Another scheme is an error. A result
//     without a location has an empty Path and line 0.
//   - Line, Column, EndLine and EndColumn are region.startLine,
//     startColumn, endLine and endColumn (§3.30; the end exclusive); an
//     absent endLine with an endColumn means startLine.
//   - Severity is result.level, else "none" when result.kind is set and is
//     not "fail", else the rule's defaultConfiguration.level, else
//     "warning" (§3.27.10): error → error, warning → warning, note → info,
//     none → hint. Results of kind "pass" or "notApplicable" are not
//     problems and are skipped.
//   - Message is message.text, else message.markdown, else the rule's
//     messageStrings[message.id] with message.arguments put in its {0},
//     {1}… placeholders (§3.11).
//   - Code is ruleId (or rule.id, or the id of the rule ruleIndex points
//     at); Source is the result's properties["lspHook/source"]
//     (diag.SARIFSourceProperty, written by lsp-hook) or else
//     tool.driver.name. A ruleId equal to that source is no code: lsp-hook
//     writes the source as ruleId when a diagnostic has no code.
//
// Columns count what run.columnKind says (§3.14.27): UTF-16 code units
// ("utf16CodeUnits") or characters ("unicodeCodePoints"). The standard
// requires the property whenever there are results and gives no default;
// without it, UTF-16 code units are assumed, as JavaScript-based producers
// (ESLint's SARIF formatter, the usual ones to leave it out) count, except
// for producers known to write byte columns (golangci-lint). The format's
// Unit is UTF-16; ParseUnits reports each diagnostic's own unit, for callers
// that convert per diagnostic. UTF-16 and code points differ only after
// characters outside the Basic Multilingual Plane (emoji) on the line.
//
// Text after the log that is not another JSON document, such as the issue
// counts golangci-lint v2 prints after its SARIF on the same stream, is
// ignored.
type SARIFParser struct{}

var _ Parser = SARIFParser{}

// Parse implements Parser; see SARIFParser.
func (p SARIFParser) Parse(r io.Reader) ([]diag.Diagnostic, error) {
	ds, _, err := p.ParseUnits(r)
	return ds, err
}

// ParseUnits is Parse that also returns, for each diagnostic, the unit its
// columns count (UnitUTF16 or UnitCodePoints, from its run's columnKind).
func (SARIFParser) ParseUnits(r io.Reader) ([]diag.Diagnostic, []diag.ColumnUnit, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("reading SARIF: %w", err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil, nil
	}
	var log sarifInLog
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&log); err != nil {
		return nil, nil, fmt.Errorf("parsing SARIF: %w", err)
	}
	if rest := bytes.TrimSpace(b[dec.InputOffset():]); len(rest) > 0 && (rest[0] == '{' || rest[0] == '[') {
		return nil, nil, fmt.Errorf("parsing SARIF: a second JSON document at byte %d (one log expected)", dec.InputOffset())
	}
	if log.Version != "2.1.0" {
		return nil, nil, fmt.Errorf("parsing SARIF: version %q, want 2.1.0", log.Version)
	}
	var ds []diag.Diagnostic
	var units []diag.ColumnUnit
	for i := range log.Runs {
		run := &log.Runs[i]
		unit, err := run.unit()
		if err != nil {
			return nil, nil, fmt.Errorf("parsing SARIF run %d: %w", i, err)
		}
		for j := range run.Results {
			d, ok, err := run.diagnostic(&run.Results[j])
			if err != nil {
				return nil, nil, fmt.Errorf("parsing SARIF run %d result %d: %w", i, j, err)
			}
			if ok {
				ds = append(ds, d)
				units = append(units, unit)
			}
		}
	}
	return ds, units, nil
}

// SARIF 2.1.0 input types: what the parser reads of a log. Unknown
// properties are ignored; a known one of the wrong JSON type is an error.
type (
	sarifInLog struct {
		Version string       `json:"version"`
		Runs    []sarifInRun `json:"runs"`
	}
	sarifInRun struct {
		Tool struct {
			Driver     sarifInComponent   `json:"driver"`
			Extensions []sarifInComponent `json:"extensions"`
		} `json:"tool"`
		Results            []sarifInResult                    `json:"results"`
		OriginalURIBaseIDs map[string]sarifInArtifactLocation `json:"originalUriBaseIds"`
		Artifacts          []struct {
			Location *sarifInArtifactLocation `json:"location"`
		} `json:"artifacts"`
		ColumnKind string `json:"columnKind"`
	}
	sarifInComponent struct {
		Name  string        `json:"name"`
		Rules []sarifInRule `json:"rules"`
	}
	sarifInRule struct {
		ID                   string `json:"id"`
		DefaultConfiguration *struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
		MessageStrings map[string]struct {
			Text string `json:"text"`
		} `json:"messageStrings"`
	}
	sarifInResult struct {
		RuleID    string `json:"ruleId"`
		RuleIndex *int   `json:"ruleIndex"`
		Rule      *struct {
			ID            string `json:"id"`
			Index         *int   `json:"index"`
			ToolComponent *struct {
				Index *int `json:"index"`
			} `json:"toolComponent"`
		} `json:"rule"`
		Kind    string `json:"kind"`
		Level   string `json:"level"`
		Message struct {
			Text      *string  `json:"text"`
			Markdown  *string  `json:"markdown"`
			ID        string   `json:"id"`
			Arguments []string `json:"arguments"`
		} `json:"message"`
		Locations []struct {
			PhysicalLocation *struct {
				ArtifactLocation *sarifInArtifactLocation `json:"artifactLocation"`
				Region           *struct {
					StartLine   int `json:"startLine"`
					StartColumn int `json:"startColumn"`
					EndLine     int `json:"endLine"`
					EndColumn   int `json:"endColumn"`
				} `json:"region"`
			} `json:"physicalLocation"`
		} `json:"locations"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	sarifInArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
		Index     *int   `json:"index"`
	}
)

// sarifByteColumnTools are SARIF producers seen to write UTF-8 byte
// columns without a columnKind, by tool.driver.name: golangci-lint (v2.15
// `run --output.sarif.path`, go/token columns).
var sarifByteColumnTools = map[string]bool{"golangci-lint": true}

// unit returns the unit the run's columns count, from run.columnKind.
func (run *sarifInRun) unit() (diag.ColumnUnit, error) {
	switch run.ColumnKind {
	case "":
		if sarifByteColumnTools[run.Tool.Driver.Name] {
			return diag.UnitBytes, nil
		}
		return diag.UnitUTF16, nil
	case "utf16CodeUnits":
		return diag.UnitUTF16, nil
	case "unicodeCodePoints":
		return diag.UnitCodePoints, nil
	}
	return 0, fmt.Errorf("unknown columnKind %q (want utf16CodeUnits or unicodeCodePoints)", run.ColumnKind)
}

// diagnostic converts one result of run; ok is false for a result that is
// not a problem (kind pass or notApplicable).
func (run *sarifInRun) diagnostic(res *sarifInResult) (d diag.Diagnostic, ok bool, err error) {
	if res.Kind == "pass" || res.Kind == "notApplicable" {
		return d, false, nil
	}
	rule := run.rule(res)
	if d.Severity, err = sarifSeverity(res, rule); err != nil {
		return d, false, err
	}
	if d.Message, err = sarifMessageText(res, rule); err != nil {
		return d, false, err
	}
	d.Code = res.RuleID
	if d.Code == "" && res.Rule != nil {
		d.Code = res.Rule.ID
	}
	if d.Code == "" && rule != nil {
		d.Code = rule.ID
	}
	d.Source = run.Tool.Driver.Name
	if raw, found := res.Properties[diag.SARIFSourceProperty]; found {
		if err := json.Unmarshal(raw, &d.Source); err != nil {
			return d, false, fmt.Errorf("properties[%q] is not a string: %s", diag.SARIFSourceProperty, raw)
		}
	}
	if d.Code == d.Source {
		d.Code = ""
	}
	if err := run.locate(res, &d); err != nil {
		return d, false, err
	}
	return d, true, nil
}

// rule returns the reportingDescriptor res refers to, or nil: by index
// (result.ruleIndex or result.rule.index) into the rules of the driver or
// of the extension result.rule.toolComponent names, else by id.
func (run *sarifInRun) rule(res *sarifInResult) *sarifInRule {
	comp := &run.Tool.Driver
	index, id := res.RuleIndex, res.RuleID
	if res.Rule != nil {
		if res.Rule.Index != nil {
			index = res.Rule.Index
		}
		if id == "" {
			id = res.Rule.ID
		}
		if tc := res.Rule.ToolComponent; tc != nil && tc.Index != nil {
			if *tc.Index < 0 || *tc.Index >= len(run.Tool.Extensions) {
				return nil
			}
			comp = &run.Tool.Extensions[*tc.Index]
		}
	}
	if index != nil && *index >= 0 && *index < len(comp.Rules) {
		return &comp.Rules[*index]
	}
	for i := range comp.Rules {
		if id != "" && comp.Rules[i].ID == id {
			return &comp.Rules[i]
		}
	}
	return nil
}

// sarifSeverity applies §3.27.10's defaults and maps the level.
func sarifSeverity(res *sarifInResult, rule *sarifInRule) (diag.Severity, error) {
	level := res.Level
	switch {
	case level != "":
	case res.Kind != "" && res.Kind != "fail":
		level = "none"
	case rule != nil && rule.DefaultConfiguration != nil && rule.DefaultConfiguration.Level != "":
		level = rule.DefaultConfiguration.Level
	default:
		level = "warning"
	}
	switch level {
	case "error":
		return diag.SeverityError, nil
	case "warning":
		return diag.SeverityWarning, nil
	case "note":
		return diag.SeverityInfo, nil
	case "none":
		return diag.SeverityHint, nil
	}
	return 0, fmt.Errorf("unknown level %q (want error, warning, note or none)", level)
}

// sarifMessageText returns the result's message: text, markdown, or the
// rule's message string with its arguments.
func sarifMessageText(res *sarifInResult, rule *sarifInRule) (string, error) {
	m := res.Message
	switch {
	case m.Text != nil:
		return *m.Text, nil
	case m.Markdown != nil:
		return *m.Markdown, nil
	case m.ID != "" && rule != nil:
		if s, ok := rule.MessageStrings[m.ID]; ok {
			return sarifFormat(s.Text, m.Arguments), nil
		}
		return "", fmt.Errorf("message id %q is not in rule %q's messageStrings", m.ID, rule.ID)
	}
	return "", fmt.Errorf("message has no text, markdown or known id")
}

// sarifFormat fills a message string's placeholders (§3.11.5): {N} is
// argument N, "{{" and "}}" are literal braces; a placeholder without an
// argument stays as written.
func sarifFormat(s string, args []string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c == '{' || c == '}') && i+1 < len(s) && s[i+1] == c {
			b.WriteByte(c)
			i++
			continue
		}
		if c == '{' {
			if j := strings.IndexByte(s[i:], '}'); j > 1 {
				if n, err := strconv.Atoi(s[i+1 : i+j]); err == nil && n >= 0 && n < len(args) {
					b.WriteString(args[n])
					i += j
					continue
				}
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// locate fills d's path and region from res's first location.
func (run *sarifInRun) locate(res *sarifInResult, d *diag.Diagnostic) error {
	if len(res.Locations) == 0 || res.Locations[0].PhysicalLocation == nil {
		return nil
	}
	pl := res.Locations[0].PhysicalLocation
	if al := pl.ArtifactLocation; al != nil {
		if al.URI == "" && al.Index != nil && *al.Index >= 0 && *al.Index < len(run.Artifacts) && run.Artifacts[*al.Index].Location != nil {
			al = run.Artifacts[*al.Index].Location
		}
		path, err := run.path(al)
		if err != nil {
			return err
		}
		d.Path = path
	}
	if rg := pl.Region; rg != nil {
		if rg.StartLine < 0 || rg.StartColumn < 0 || rg.EndLine < 0 || rg.EndColumn < 0 {
			return fmt.Errorf("region %+v has a negative position", *rg)
		}
		d.Line, d.Column, d.EndLine, d.EndColumn = rg.StartLine, rg.StartColumn, rg.EndLine, rg.EndColumn
		if d.EndLine == 0 && d.EndColumn > 0 {
			d.EndLine = d.Line
		}
	}
	return nil
}

// maxSARIFBaseDepth bounds the chain of uriBaseIds one base may go through.
const maxSARIFBaseDepth = 8

// path resolves an artifact location to a file path (see SARIFParser).
func (run *sarifInRun) path(al *sarifInArtifactLocation) (string, error) {
	u, err := run.uri(al, 0)
	if err != nil {
		return "", err
	}
	switch u.Scheme {
	case "":
		return filepath.FromSlash(u.Path), nil
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return "", fmt.Errorf("uri %q names host %q: only local files are supported", u, u.Host)
		}
		return fileuri.ToPath(u.String()) // a Windows drive in any spelling
	}
	return "", fmt.Errorf("uri %q: scheme %q is not file", u, u.Scheme)
}

// uri parses al.uri and resolves it against its base, if the run defines
// that base; depth counts the bases already followed.
func (run *sarifInRun) uri(al *sarifInArtifactLocation, depth int) (*url.URL, error) {
	u, err := url.Parse(al.URI)
	if err != nil {
		return nil, fmt.Errorf("parsing uri %q: %w", al.URI, err)
	}
	if u.IsAbs() || al.URIBaseID == "" {
		return u, nil
	}
	base, ok := run.OriginalURIBaseIDs[al.URIBaseID]
	if !ok || base.URI == "" {
		return u, nil // an unknown base: the path stays relative
	}
	if depth == maxSARIFBaseDepth {
		return nil, fmt.Errorf("uriBaseId %q: more than %d bases deep (a cycle?)", al.URIBaseID, maxSARIFBaseDepth)
	}
	b := base
	if !strings.HasSuffix(b.URI, "/") {
		b.URI += "/" // §3.14.14 requires the slash; be lenient
	}
	bu, err := run.uri(&b, depth+1)
	if err != nil {
		return nil, fmt.Errorf("resolving uriBaseId %q: %w", al.URIBaseID, err)
	}
	return bu.ResolveReference(u), nil
}

// detectSARIF accepts a JSON object whose top-level keys include "runs" and
// "version" or "$schema".
func detectSARIF(sample []byte) bool {
	open, keys := interchangeKeys(sample)
	return open == '{' && keys["runs"] && (keys["version"] || keys["$schema"])
}
