package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// actionlint lints workflows only: given action.yml it reports a workflow
// with no "on" and no "jobs", and through a workflow's `uses: ./` it reads
// the action's inputs but nothing else of its metadata. So action.yml is
// checked here in two ways: strictly decoded into the metadata syntax
// GitHub documents for a composite action ("Metadata syntax for GitHub
// Actions", docs.github.com), with its cross references resolved; and its
// steps, moved into a workflow_dispatch job whose inputs are the action's,
// linted by the real actionlint (expressions, the inputs of setup-go and
// upload-sarif, and every run script through shellcheck).

// actionMeta is action.yml as the metadata syntax allows it for a composite
// action; decoding with KnownFields refuses any other key.
type actionMeta struct {
	Name        string                  `yaml:"name"`
	Author      string                  `yaml:"author"`
	Description string                  `yaml:"description"`
	Inputs      map[string]actionInput  `yaml:"inputs"`
	Outputs     map[string]actionOutput `yaml:"outputs"`
	Runs        struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
	Branding struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
}

// actionInput is one of inputs.<input_id>.
type actionInput struct {
	Description        string  `yaml:"description"`
	Required           bool    `yaml:"required"`
	Default            *string `yaml:"default"`
	DeprecationMessage string  `yaml:"deprecationMessage"`
}

// actionOutput is one of outputs.<output_id> of a composite action, which
// must say where its value comes from.
type actionOutput struct {
	Description string `yaml:"description"`
	Value       string `yaml:"value"`
}

// actionStep is one of runs.steps of a composite action: a run step (with
// its shell) or a uses step.
type actionStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Run              string            `yaml:"run"`
	Shell            string            `yaml:"shell"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	ContinueOnError  string            `yaml:"continue-on-error"`
}

var (
	// actionIDRE is what an input, output or step id may be.
	actionIDRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
	// inputRefRE and stepRefRE find inputs.<id> and steps.<id> in expressions.
	inputRefRE = regexp.MustCompile(`\binputs\.([A-Za-z0-9_-]+)`)
	stepRefRE  = regexp.MustCompile(`\bsteps\.([A-Za-z0-9_-]+)\.`)
	// brandingColors are the colors the metadata syntax lists.
	brandingColors = []string{"white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"}
)

// TestActionMetadata checks action.yml against the metadata syntax of a
// composite action and resolves every inputs.X and steps.X.outputs it uses.
func TestActionMetadata(t *testing.T) {
	a := readAction(t)
	if a.Name == "" || a.Description == "" {
		t.Error("name and description are required")
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Errorf("runs: using %q with %d steps; want a composite action with steps", a.Runs.Using, len(a.Runs.Steps))
	}
	if a.Branding.Color != "" && !slices.Contains(brandingColors, a.Branding.Color) {
		t.Errorf("branding.color %q is not one of %v", a.Branding.Color, brandingColors)
	}
	for id, in := range a.Inputs {
		if !actionIDRE.MatchString(id) || in.Description == "" {
			t.Errorf("input %q: an id of letters, digits, - and _ and a description are required", id)
		}
	}
	for id, out := range a.Outputs {
		if !actionIDRE.MatchString(id) || out.Description == "" || out.Value == "" {
			t.Errorf("output %q: a composite action's output needs an id, a description and a value", id)
		}
	}
	var ids []string // step ids seen so far
	for i, s := range a.Runs.Steps {
		where := fmt.Sprintf("step %d (%s)", i+1, s.Name)
		switch {
		case (s.Run == "") == (s.Uses == ""):
			t.Errorf("%s: needs exactly one of run and uses", where)
		case s.Run != "" && s.Shell == "":
			t.Errorf("%s: a run step of a composite action needs shell", where)
		case s.Uses != "" && (s.Shell != "" || s.WorkingDirectory != ""):
			t.Errorf("%s: shell and working-directory belong to run steps", where)
		}
		if s.ID != "" {
			if !actionIDRE.MatchString(s.ID) || slices.Contains(ids, s.ID) {
				t.Errorf("%s: id %q is malformed or taken", where, s.ID)
			}
			ids = append(ids, s.ID)
		}
		text := s.If + s.Run + s.WorkingDirectory
		for _, m := range [](map[string]string){s.With, s.Env} {
			for _, v := range m {
				text += "\n" + v
			}
		}
		checkActionRefs(t, where, text, a.Inputs, ids)
	}
	for id, out := range a.Outputs {
		checkActionRefs(t, "output "+id, out.Value, a.Inputs, ids)
	}
}

// checkActionRefs reports every inputs.X in text that is not an input and
// every steps.X that is not a step seen before.
func checkActionRefs(t *testing.T, where, text string, inputs map[string]actionInput, steps []string) {
	t.Helper()
	for _, m := range inputRefRE.FindAllStringSubmatch(text, -1) {
		if _, ok := inputs[m[1]]; !ok {
			t.Errorf("%s: inputs.%s is not an input", where, m[1])
		}
	}
	for _, m := range stepRefRE.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(steps, m[1]) {
			t.Errorf("%s: steps.%s names no earlier step", where, m[1])
		}
	}
}

// readAction decodes action.yml strictly.
func readAction(t *testing.T) actionMeta {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var a actionMeta
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// TestActionlint runs the real actionlint (`make tools`) over action.yml's
// steps as the job of a workflow_dispatch workflow with the action's
// inputs, and over docs/examples/lsp-hook.yml with the action as a local
// `uses: ./`, so the example's inputs are checked against action.yml's.
func TestActionlint(t *testing.T) {
	requireExe(t, "actionlint")
	a := readAction(t)
	var raw struct {
		Runs struct {
			Steps []yaml.Node `yaml:"steps"`
		} `yaml:"runs"`
	}
	data, err := os.ReadFile(filepath.Join(moduleRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]any{}
	for id, in := range a.Inputs {
		inputs[id] = map[string]any{"description": in.Description, "type": "string", "required": in.Required, "default": in.Default}
	}
	workflow := map[string]any{
		"name": "action.yml's steps",
		"on":   map[string]any{"workflow_dispatch": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": raw.Runs.Steps}},
	}
	steps, err := yaml.Marshal(workflow)
	if err != nil {
		t.Fatal(err)
	}
	example := strings.ReplaceAll(mustRead(t, filepath.Join(moduleRoot, "docs", "examples", "lsp-hook.yml")), "uses: lsp-hook/lsp-hook@v1", "uses: ./")
	if !strings.Contains(example, "uses: ./") {
		t.Fatal("docs/examples/lsp-hook.yml no longer uses lsp-hook/lsp-hook@v1")
	}
	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		filepath.Join(dir, "action.yml"):   data,
		filepath.Join(wf, "steps.yml"):     steps,
		filepath.Join(wf, "example.yml"):   []byte(example),
		filepath.Join(dir, ".git", "HEAD"): []byte("ref: refs/heads/main\n"),
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	requireExe(t, "shellcheck") // actionlint skips run scripts without it
	cmd := exec.Command("actionlint", "-shellcheck", "shellcheck")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint: %v\n%s\nthe workflow of action.yml's steps:\n%s", err, out, steps)
	}
}

// TestActionExampleInReadme keeps README's example workflow the linted
// file, docs/examples/lsp-hook.yml, word for word.
func TestActionExampleInReadme(t *testing.T) {
	example := mustRead(t, filepath.Join(moduleRoot, "docs", "examples", "lsp-hook.yml"))
	if !strings.Contains(mustRead(t, filepath.Join(moduleRoot, "README.md")), "```yaml\n"+example+"```\n") {
		t.Error("README.md does not show docs/examples/lsp-hook.yml as it is; paste it into the section on the GitHub Action")
	}
}
