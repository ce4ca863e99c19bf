package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// section is one part of the report that -only can select.
type section string

// The sections, in the order they run.
const (
	secJSON   section = "json"   // 1. hook round trip on a JSON file vs `lsp-hook version`
	secGo     section = "go"     // 2. warm Go edits on the demo and the large module
	secLangs  section = "langs"  // 3. warm edits per live language on testdata/langs
	secMemory section = "memory" // 4. daemon and server RSS of the workspaces measured
)

// secDiagnose is 5: lsp-hook diagnose over a real Go and TypeScript
// project vs go vet and tsc (diagnose.go).
const secDiagnose section = "diagnose"

// allSections are the sections in the order they run and print.
var allSections = []section{secJSON, secGo, secLangs, secMemory, secDiagnose, secMCP, secLoad, secPrewarm,
	secPeer, secWrite, secCFile, secGoplsMem, secWorktrees}

// setFlag is a comma-separated subset of a fixed list of names, for -only
// and -langs (flag.Value). Empty means all.
type setFlag struct {
	all []string
	on  []string // in the order of all; nil: all
}

var _ flag.Value = (*setFlag)(nil)

// String is the selection as given, or "all".
func (s *setFlag) String() string {
	if s == nil || s.on == nil {
		return "all"
	}
	return strings.Join(s.on, ",")
}

// Set parses a comma-separated list; an unknown name is an error naming
// the known ones.
func (s *setFlag) Set(v string) error {
	picked := make(map[string]bool)
	for name := range strings.SplitSeq(v, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(s.all, name) {
			return fmt.Errorf("unknown name %q (known: %s)", name, strings.Join(s.all, ","))
		}
		picked[name] = true
	}
	if len(picked) == 0 {
		return fmt.Errorf("empty selection (known: %s)", strings.Join(s.all, ","))
	}
	s.on = []string{}
	for _, name := range s.all {
		if picked[name] {
			s.on = append(s.on, name)
		}
	}
	return nil
}

// has reports whether name is selected.
func (s *setFlag) has(name string) bool {
	return s.on == nil || slices.Contains(s.on, name)
}

// newSectionFlag is -only, every section selected.
func newSectionFlag() *setFlag {
	names := make([]string, len(allSections))
	for i, s := range allSections {
		names[i] = string(s)
	}
	return &setFlag{all: names}
}

// newLangFlag is -langs, every live language selected.
func newLangFlag() *setFlag {
	names := make([]string, len(langSpecs))
	for i, l := range langSpecs {
		names[i] = l.key
	}
	return &setFlag{all: names}
}
