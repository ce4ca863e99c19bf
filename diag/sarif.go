package diag

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lsp-hook/lsp-hook/internal/fileuri"
)

// SARIF constants shared by the renderer here and the SARIF parser.
const (
	// SARIFSchema is the $schema WriteSARIF writes: the OASIS SARIF 2.1.0
	// schema (errata 01), the "id" of diag/testdata/sarif-schema-2.1.0.json.
	SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// SARIFSourceProperty is the key, in a result's property bag (SARIF
	// 2.1.0 §3.8), under which WriteSARIF records the diagnostic's Source
	// ("gopls"); SARIF has no field for the checker behind one result of a
	// run.
	SARIFSourceProperty = "lspHook/source"
	// SARIFSrcRoot is the uriBaseId of paths inside the workspace root.
	SARIFSrcRoot = "%SRCROOT%"
)

// SARIF 2.1.0 wire types: only the objects and properties WriteSARIF fills.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                        `json:"tool"`
		Invocations        []sarifInvocation                `json:"invocations,omitempty"`
		OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult                    `json:"results"`
		ColumnKind         string                           `json:"columnKind"`
		AutomationDetails  *sarifAutomationDetails          `json:"automationDetails,omitempty"`
	}
	sarifAutomationDetails struct {
		ID string `json:"id"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string             `json:"id"`
		ShortDescription     sarifMessage       `json:"shortDescription"`
		FullDescription      sarifMessage       `json:"fullDescription"`
		Help                 sarifMessage       `json:"help"`
		HelpURI              string             `json:"helpUri,omitempty"`
		DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
		Properties           *sarifTags         `json:"properties,omitempty"`
	}
	sarifConfiguration struct {
		Level string `json:"level"`
	}
	sarifTags struct {
		Tags []string `json:"tags"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
		Properties          map[string]string `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           *sarifRegion          `json:"region,omitempty"`
	}
	sarifArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int           `json:"startLine,omitempty"`
		StartColumn int           `json:"startColumn,omitempty"`
		EndLine     int           `json:"endLine,omitempty"`
		EndColumn   int           `json:"endColumn,omitempty"`
		Snippet     *sarifMessage `json:"snippet,omitempty"`
	}
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
)

// WriteSARIF renders r as one SARIF 2.1.0 log (OASIS SARIF 2.1.0 errata
// 01), indented, in the subset GitHub code scanning reads ("SARIF support
// for code scanning"):
//
//   - one run; tool.driver is r.Tool (name defaults to "lsp-hook"), its
//     version as sarifVersion writes it;
//     run.columnKind is "unicodeCodePoints" (§3.14.27), as our columns are;
//   - driver.rules holds one reportingDescriptor per distinct ruleId,
//     sorted, with a shortDescription, a fullDescription and help (an
//     example message and who reports it, as GitHub's rules want them:
//     sarif-multitool's GH2012), a helpUri where the tool has a page for
//     the rule (ruleHelpURI), defaultConfiguration.level the most severe
//     level its results have, and its sources as properties.tags;
//   - run.automationDetails.id is r.AutomationID when set ("diagnose/1of4/":
//     GitHub keeps the alerts of each id apart, so shards upload side by
//     side);
//   - each diagnostic is a result: ruleId is the diagnostic's Code, or its
//     Source when it has no code (the driver's name when it has neither:
//     GitHub needs a ruleId to group alerts), with ruleIndex into
//     driver.rules; level is error, warning or note (info and hints: SARIF
//     has no fourth level); message.text the message; the Source, when set,
//     under properties[SARIFSourceProperty] (the parser reads a ruleId
//     equal to the source as "no code");
//   - its one location is artifactLocation.uri relative to the workspace
//     root with uriBaseId "%SRCROOT%" (run.originalUriBaseIds maps it to
//     r.Root as a file:// URI ending in "/"), or an absolute file:// URI for
//     a file outside the root; region has startLine, startColumn, endLine
//     and endColumn (1-based, exclusive end, §3.30), each left out when
//     unknown, and, when r.Text has the file, snippet.text: the region's
//     text (§3.30.13; to the end of the start line when the end is
//     unknown); a diagnostic about no file has no location;
//   - partialFingerprints.primaryLocationLineHash is computed, when r.Text
//     has the file, exactly as github/codeql-action's upload-sarif does
//     (src/fingerprints.ts), so an upload through the REST API dedupes
//     alerts as one through the action would; without the text it is left
//     out and upload-sarif computes it from the checkout;
//   - r.Notes become invocations[0].toolExecutionNotifications (level
//     warning).
//
// The output validates against the official schema
// (diag/testdata/sarif-schema-2.1.0.json; see TestSARIFSchema).
func WriteSARIF(w io.Writer, r Report) error {
	files := r.files()
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: r.toolName(), Version: sarifVersion(r.Tool.Version), InformationURI: r.Tool.InformationURI,
		}},
		Results:    []sarifResult{},
		ColumnKind: "unicodeCodePoints",
	}
	if r.AutomationID != "" {
		run.AutomationDetails = &sarifAutomationDetails{ID: r.AutomationID}
	}
	if r.Root != "" && filepath.IsAbs(r.Root) {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{SARIFSrcRoot: {URI: fileURI(r.Root, true)}}
	}
	run.Tool.Driver.Rules = sarifRules(files, run.Tool.Driver.Name)
	index := map[string]int{}
	for i, rule := range run.Tool.Driver.Rules {
		index[rule.ID] = i
	}
	for _, f := range files {
		var hashes map[int]string
		text, haveText := r.text(f.path)
		if haveText {
			hashes = lineHashes(text)
		}
		for _, d := range f.diags {
			res := sarifResultOf(f, d, run.Tool.Driver.Name)
			res.RuleIndex = index[res.RuleID]
			if h, ok := hashes[d.Line]; ok && d.Line > 0 {
				res.PartialFingerprints = map[string]string{"primaryLocationLineHash": h}
			}
			if haveText && len(res.Locations) == 1 && res.Locations[0].PhysicalLocation.Region != nil {
				if snip, ok := regionText(text, d); ok {
					res.Locations[0].PhysicalLocation.Region.Snippet = &sarifMessage{Text: snip}
				}
			}
			run.Results = append(run.Results, res)
		}
	}
	if len(r.Notes) > 0 {
		inv := sarifInvocation{ExecutionSuccessful: true}
		for _, n := range r.Notes {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
				sarifNotification{Level: "warning", Message: sarifMessage{Text: n}})
		}
		run.Invocations = []sarifInvocation{inv}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return wrapWrite(FormatSARIF, enc.Encode(sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}}))
}

// sarifVersion is a tool version as SARIF wants it in tool.driver.version
// (sarif-multitool's SARIF2005: a version starting with a number, as
// semantic versions are): a Go module version without its "v"
// ("v1.2.3" → "1.2.3"), and a version that is no number at all, like a
// source build's "devel+1f4774b0a1b2-dirty", as the pre-release of 0.0.0
// ("0.0.0-devel+1f4774b0a1b2-dirty"). "" stays "".
func sarifVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] >= '0' && v[0] <= '9' {
		return v
	}
	return "0.0.0-" + v
}

// sarifRuleID is the ruleId of d: its code, else its source, else tool
// (the driver's name).
func sarifRuleID(d Diagnostic, tool string) string {
	switch {
	case d.Code != "":
		return d.Code
	case d.Source != "":
		return d.Source
	}
	return tool
}

// sarifLevel maps a severity to a SARIF result level (§3.27.10).
func sarifLevel(s Severity) string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return "note"
}

// sarifRules returns one rule per distinct ruleId in files, sorted by id.
func sarifRules(files []reportFile, tool string) []sarifRule {
	type info struct {
		sev     Severity
		sources []string
		example string
	}
	seen := map[string]*info{}
	for _, f := range files {
		for _, d := range f.diags {
			id := sarifRuleID(d, tool)
			in := seen[id]
			if in == nil {
				in = &info{sev: d.Severity, example: d.Message}
				seen[id] = in
			}
			in.sev = min(in.sev, d.Severity)
			if d.Source != "" && !slices.Contains(in.sources, d.Source) {
				in.sources = append(in.sources, d.Source)
			}
		}
	}
	rules := make([]sarifRule, 0, len(seen))
	for id, in := range seen {
		slices.Sort(in.sources)
		desc := id
		if len(in.sources) > 0 && !(len(in.sources) == 1 && in.sources[0] == id) {
			desc = id + " (" + strings.Join(in.sources, ", ") + ")"
		}
		var uri string
		for _, src := range in.sources {
			if uri = ruleHelpURI(src, id); uri != "" {
				break
			}
		}
		full, help := ruleTexts(id, in.sources, in.example, uri)
		rule := sarifRule{ID: id, ShortDescription: sarifMessage{Text: desc},
			FullDescription: sarifMessage{Text: full}, Help: sarifMessage{Text: help}, HelpURI: uri,
			DefaultConfiguration: sarifConfiguration{Level: sarifLevel(in.sev)}}
		if len(in.sources) > 0 {
			rule.Properties = &sarifTags{Tags: in.sources}
		}
		rules = append(rules, rule)
	}
	slices.SortFunc(rules, func(a, b sarifRule) int { return strings.Compare(a.ID, b.ID) })
	return rules
}

// sarifResultOf converts d, a diagnostic of f, leaving RuleIndex and
// PartialFingerprints to the caller; tool is the driver's name.
func sarifResultOf(f reportFile, d Diagnostic, tool string) sarifResult {
	res := sarifResult{
		RuleID:    sarifRuleID(d, tool),
		Level:     sarifLevel(d.Severity),
		Message:   sarifMessage{Text: d.Message},
		Locations: []sarifLocation{},
	}
	if d.Source != "" {
		res.Properties = map[string]string{SARIFSourceProperty: d.Source}
	}
	if f.path == "" && f.rel == "" {
		return res
	}
	loc := sarifPhysicalLocation{}
	switch {
	case f.inside:
		loc.ArtifactLocation = sarifArtifactLocation{URI: relURI(f.rel), URIBaseID: SARIFSrcRoot}
	case filepath.IsAbs(f.path):
		loc.ArtifactLocation = sarifArtifactLocation{URI: fileURI(f.path, false)}
	default:
		loc.ArtifactLocation = sarifArtifactLocation{URI: relURI(f.rel)}
	}
	if d.Line > 0 {
		rg := &sarifRegion{StartLine: d.Line, StartColumn: max(d.Column, 0)}
		if d.EndLine > 0 {
			rg.EndLine = d.EndLine
			rg.EndColumn = max(d.EndColumn, 0)
		}
		loc.Region = rg
	}
	res.Locations = []sarifLocation{{PhysicalLocation: loc}}
	return res
}

// fileURI returns the file:// URI of the absolute path p, percent-encoded
// by net/url (internal/fileuri: a Windows drive as "file:///c%3A/…"); dir
// adds the trailing "/" SARIF requires of a base URI (§3.14.14).
func fileURI(p string, dir bool) string {
	s := fileuri.FromPath(p)
	if dir && !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

// relURI returns the relative URI reference of the slash-separated relative
// path rel, percent-encoded by net/url ("a b/c.go" → "a%20b/c.go"; a first
// segment with a colon gets a "./" prefix so it is not read as a scheme).
func relURI(rel string) string { return (&url.URL{Path: rel}).String() }
