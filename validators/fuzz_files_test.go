package validators

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fuzzNames are the file names FuzzValidate checks an input as, by its
// second argument: each kind KindOf tells apart by name.
var fuzzNames = []string{"/w/a.json", "/w/tsconfig.base.json", "/w/a.jsonc", "/w/.vscode/settings.json", "/w/n.ipynb",
	"/w/a.yaml", "/w/b.YML", "/w/c.toml", "/w/README.md"}

// FuzzValidate runs Validate, as the engine does, on inputs seeded with
// every JSON, JSONC, YAML and TOML file of the repository's testdata, under
// every name kind: a validator applies exactly when KindOf says so; every
// diagnostic lies inside the file (checkInvariants), names the file and
// its validator; a second run gives the same result.
func FuzzValidate(f *testing.F) {
	seeded := 0
	for _, dir := range []string{"../testdata", "../parsers/testdata"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && d.Name() == "fuzz" {
				return filepath.SkipDir
			}
			if d.IsDir() {
				return nil
			}
			k, ok := KindOf(p)
			if !ok {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 64<<10 {
				return nil
			}
			for i, n := range fuzzNames {
				if nk, _ := KindOf(n); nk == k {
					f.Add(b, uint8(i))
					seeded++
					break
				}
			}
			return nil
		})
	}
	if seeded == 0 {
		f.Fatal("no testdata file to seed from")
	}
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		name := fuzzNames[int(which)%len(fuzzNames)]
		kind, want := KindOf(name)
		ds, ok := Validate(name, src)
		if ok != want || !ok && ds != nil {
			t.Fatalf("Validate(%s) ok = %v with %d diagnostics; KindOf says %v", name, ok, len(ds), want)
		}
		checkInvariants(t, src, ds, kind != KindYAML)
		for _, d := range ds {
			if d.Path != name || d.Source != string(kind) {
				t.Fatalf("diagnostic of %s (%s) names path %q, source %q", name, kind, d.Path, d.Source)
			}
		}
		if again, _ := Validate(name, src); !reflect.DeepEqual(ds, again) {
			t.Fatalf("validating twice differs:\n%s\n%s", dump(ds), dump(again))
		}
	})
}
