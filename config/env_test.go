package config

import (
	"slices"
	"testing"
)

// TestProgramEnv: an untrusted workspace's programs run with
// GOTOOLCHAIN=local and no GOFLAGS whatever the environment or the config
// says; a trusted one keeps the user's settings; a program's own env
// replaces the inherited entry of the same name.
func TestProgramEnv(t *testing.T) {
	base := []string{"HOME=/home/u", "GOTOOLCHAIN=auto", "GOFLAGS=-toolexec=./x", "PATH=/bin", "GOPROXY=https://proxy.golang.org"}
	tests := []struct {
		name    string
		base    []string
		extra   map[string]string
		trusted bool
		want    []string
	}{
		{"untrusted: local toolchain, no GOFLAGS", base, nil, false,
			[]string{"HOME=/home/u", "PATH=/bin", "GOPROXY=https://proxy.golang.org", "GOTOOLCHAIN=local"}},
		{"trusted: the user's environment", base, nil, true, base},
		{"untrusted, GOTOOLCHAIN unset", []string{"HOME=/home/u"}, nil, false,
			[]string{"HOME=/home/u", "GOTOOLCHAIN=local"}},
		{"untrusted, empty GOTOOLCHAIN and GOFLAGS", []string{"GOTOOLCHAIN=", "GOFLAGS="}, nil, false,
			[]string{"GOTOOLCHAIN=local"}},
		{"untrusted, GOTOOLCHAIN=path", []string{"GOTOOLCHAIN=go1.22.0+path"}, nil, false,
			[]string{"GOTOOLCHAIN=local"}},
		{"untrusted: the config's env cannot undo it", base,
			map[string]string{"GOTOOLCHAIN": "auto", "GOFLAGS": "-mod=mod", "GOPLSCACHE": "/c"}, false,
			[]string{"HOME=/home/u", "PATH=/bin", "GOPROXY=https://proxy.golang.org", "GOPLSCACHE=/c", "GOTOOLCHAIN=local"}},
		{"trusted: the config's env replaces the inherited entry, in key order", base,
			map[string]string{"PATH": "/opt/bin", "GOFLAGS": "-tags=x", "A": "1"}, true,
			[]string{"HOME=/home/u", "GOTOOLCHAIN=auto", "GOPROXY=https://proxy.golang.org", "A=1", "GOFLAGS=-tags=x", "PATH=/opt/bin"}},
		{"an entry without = is kept", []string{"ODD", "GOFLAGS=-x"}, nil, false,
			[]string{"ODD", "GOTOOLCHAIN=local"}},
		{"no environment at all, trusted", nil, nil, true, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.base)
			got := ProgramEnv(tt.base, tt.extra, tt.trusted)
			if !slices.Equal(got, tt.want) {
				t.Errorf("ProgramEnv(%q, %v, %v) =\n  %q\nwant\n  %q", tt.base, tt.extra, tt.trusted, got, tt.want)
			}
			if !slices.Equal(tt.base, before) {
				t.Errorf("base modified: %q, was %q", tt.base, before)
			}
		})
	}
}
