package proc

import "testing"

// TestParseStat: the parent pid and RSS come from the fields after the
// last ')', whatever the command name holds.
func TestParseStat(t *testing.T) {
	rest := " S 41 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 1000 12345678 250 18446744073709551615"
	for _, tc := range []struct {
		name, stat string
		want       procMem
		wantErr    bool
	}{
		{"plain", "42 (gopls)" + rest, procMem{ppid: 41, rss: 250 * 4096}, false},
		{"spaces and parens in the name", "42 (a) (b c)" + rest, procMem{ppid: 41, rss: 250 * 4096}, false},
		{"no name", "42 gopls S 41", procMem{}, true},
		{"cut short", "42 (gopls) S 41 42", procMem{}, true},
		{"bad rss", "42 (gopls) S 41 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 1000 12345678 x", procMem{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStat([]byte(tc.stat), 4096)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("parseStat(%q) = %+v, %v; want %+v, error %v", tc.stat, got, err, tc.want, tc.wantErr)
			}
		})
	}
}
