package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"go install at a tag", debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"a pseudo-version", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125223108-1f4774b0a1b2"}}, "v0.0.0-20261125223108-1f4774b0a1b2"},
		{"a clean source tree", debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: setting("vcs", "git", "vcs.revision", "1f4774b0a1b2c3d4e5f6", "vcs.modified", "false")}, "devel+1f4774b0a1b2"},
		{"a dirty source tree", debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: setting("vcs.revision", "1f4774b0a1b2c3d4e5f6", "vcs.modified", "true")}, "devel+1f4774b0a1b2-dirty"},
		{"no VCS stamp (-buildvcs=false)", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionOf(&tc.bi); got != tc.want {
				t.Errorf("versionOf = %q, want %q", got, tc.want)
			}
		})
	}
}
