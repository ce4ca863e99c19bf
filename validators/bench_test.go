package validators

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// sample builds a valid file of about size bytes in the given format, from
// repeated records with ASCII and CJK text, nesting and every scalar type.
func sample(k Kind, size int) []byte {
	var b strings.Builder
	switch k {
	case KindJSON, KindJSONC:
		b.WriteString("[\n")
		for i := 0; b.Len() < size; i++ {
			if i > 0 {
				b.WriteString(",\n")
			}
			if k == KindJSONC {
				fmt.Fprintf(&b, "  // record %d\n", i)
			}
			fmt.Fprintf(&b, `  {"id": %d, "name": "item-%d 日本語", "price": %d.25e-1, "tags": ["a", "b\n"], "nested": {"ok": true, "none": null, "list": [1, 2, 3]}}`, i, i, i)
		}
		if k == KindJSONC {
			b.WriteString(", /* trailing */")
		}
		b.WriteString("\n]\n")
	case KindYAML:
		b.WriteString("items:\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "  - id: %d # record\n    name: \"item-%d 日本語\"\n    price: %d.25\n    tags: [a, b]\n    nested:\n      ok: true\n      none: null\n      text: |\n        line one\n        line two\n", i, i, i)
		}
	case KindTOML:
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "[[items]] # record\nid = %d\nname = \"item-%d 日本語\"\nprice = %d.25\ntags = [\"a\", \"b\"]\nwhen = 1979-05-27T07:32:00Z\nnested = {ok = true, list = [1, 2, 3]}\n\n", i, i, i)
		}
	}
	return []byte(b.String())
}

func benchmarkValidator(b *testing.B, k Kind) {
	src := sample(k, 1<<20)
	v := For(k)
	if ds := v.Validate("/w/f", src); len(ds) != 0 {
		b.Fatalf("sample is not clean:\n%s", dump(ds))
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		v.Validate("/w/f", src)
	}
}

func BenchmarkJSON(b *testing.B)  { benchmarkValidator(b, KindJSON) }
func BenchmarkJSONC(b *testing.B) { benchmarkValidator(b, KindJSONC) }
func BenchmarkYAML(b *testing.B)  { benchmarkValidator(b, KindYAML) }
func BenchmarkTOML(b *testing.B)  { benchmarkValidator(b, KindTOML) }

// BenchmarkJSONStdlibValid is the baseline for BenchmarkJSON: encoding/json's
// Valid on the same file, which checks syntax only (no positions, no keys).
func BenchmarkJSONStdlibValid(b *testing.B) {
	src := sample(KindJSON, 1<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if !json.Valid(src) {
			b.Fatal("sample is not valid")
		}
	}
}
