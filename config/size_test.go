package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestParseSize: IEC and SI units in any case, fractions, spaces, 0; and
// every bad value is refused with an error that quotes it.
func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    int64
		wantErr string // a part of the error; "" for none
	}{
		{"2GiB", 2 << 30, ""},
		{"596MiB", 596 << 20, ""},
		{"596mib", 596 << 20, ""},
		{"1.5 GB", 1_500_000_000, ""},
		{"2G", 2_000_000_000, ""},
		{"2Gi", 2 << 30, ""},
		{"512kB", 512_000, ""},
		{"512KiB", 512 << 10, ""},
		{"100", 100, ""},
		{"100B", 100, ""},
		{" 3TiB ", 3 << 40, ""},
		{"0", 0, ""},
		{"0GiB", 0, ""},
		{"", 0, `"" is not a size`},
		{"GiB", 0, `"GiB" is not a size`},
		{"-1GiB", 0, `"-1GiB" is not a size`},
		{"2 GiB of RAM", 0, `"2 GiB of RAM" is not a size`},
		{"1,5GB", 0, `"1,5GB" is not a size`},
		{"1e9", 0, `"1e9" is not a size`},
		{"2GB!", 0, `"2GB!" is not a size`},
		{"2 gigs", 0, `"2 gigs" has an unknown unit`},
		{"٣GiB", 0, `is not a size`}, // an Arabic-Indic digit
		{"8EiB", 0, `"8EiB" is too large`},
		{"99999999999999999999999", 0, `is too large`},
		{strings.Repeat("9", 400) + "B", 0, `is too large`},
	} {
		got, err := ParseSize(tc.in)
		switch {
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("ParseSize(%q) = %d, %v; want an error containing %q", tc.in, got, err, tc.wantErr)
		}
	}
}

// FuzzParseSize: ParseSize never panics, never returns a negative size,
// names the value in every error, and reads what FormatSize writes back
// within FormatSize's rounding.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"2GiB", "596MiB", "1.5 GB", "0", "", "-1", "1e9", "٣GiB", "8EiB", "9.9.9k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err != nil {
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", s)) {
				t.Fatalf("ParseSize(%q) error %q does not name the value", s, err)
			}
			return
		}
		if n < 0 {
			t.Fatalf("ParseSize(%q) = %d, want >= 0", s, n)
		}
		back, err := ParseSize(FormatSize(n))
		if err != nil {
			t.Fatalf("ParseSize(FormatSize(%d) = %q): %v", n, FormatSize(n), err)
		}
		if diff := back - n; diff > n/10+1 || -diff > n/10+1 {
			t.Fatalf("ParseSize(FormatSize(%d)) = %d, off by more than FormatSize rounds", n, back)
		}
	})
}

// TestMemoryBudgetKey: the user file sets memory_budget; a workspace file
// may not (the budget is shared by all daemons); a bad size is a problem
// naming it, and the default stays.
func TestMemoryBudgetKey(t *testing.T) {
	for _, tc := range []struct {
		name, user, workspace string
		want                  int64
		problem               string
	}{
		{"default", "", "", MemoryBudgetAuto, ""},
		{"user sets it", "memory_budget: 2GiB\n", "", 2 << 30, ""},
		{"none", "memory_budget: 0\n", "", 0, ""},
		{"bad size", "memory_budget: lots\n", "", MemoryBudgetAuto, `memory_budget: "lots" is not a size`},
		{"not a scalar", "memory_budget: [1]\n", "", MemoryBudgetAuto, "memory_budget: want a size"},
		{"workspace refused", "memory_budget: 2GiB\n", "memory_budget: 1GiB\n", 2 << 30, "memory_budget is shared by all of your daemons"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user := testdir.New(t)
			t.Setenv("XDG_CONFIG_HOME", user)
			t.Setenv("XDG_STATE_HOME", testdir.New(t))
			root := testdir.New(t)
			if tc.user != "" {
				f := filepath.Join(user, "lsp-hook", "config.yaml")
				os.MkdirAll(filepath.Dir(f), 0o755)
				os.WriteFile(f, []byte(tc.user), 0o644)
			}
			if tc.workspace != "" {
				os.WriteFile(filepath.Join(root, FileName), []byte(tc.workspace), 0o644)
			}
			c, problems := Load(root)
			if c.MemoryBudget != tc.want {
				t.Errorf("MemoryBudget = %d, want %d", c.MemoryBudget, tc.want)
			}
			var msgs []string
			for _, p := range problems {
				msgs = append(msgs, p.Error())
			}
			got := strings.Join(msgs, "\n")
			if (tc.problem == "") != (got == "") || !strings.Contains(got, tc.problem) {
				t.Errorf("problems = %q, want one containing %q", got, tc.problem)
			}
		})
	}
}
