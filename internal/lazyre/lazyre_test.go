package lazyre

import "testing"

func TestNew(t *testing.T) {
	tests := []struct {
		expr, in string
		match    bool
	}{
		{`^SC\d{4}$`, "SC2086", true},
		{`^SC\d{4}$`, "SC20", false},
		{`(?i)\berror\b`, "an ERROR here", true},
	}
	for _, tt := range tests {
		re := New(tt.expr)
		if got := re().MatchString(tt.in); got != tt.match {
			t.Errorf("New(%q)().MatchString(%q) = %v, want %v", tt.expr, tt.in, got, tt.match)
		}
		if re() != re() {
			t.Errorf("New(%q) compiled twice: two calls gave two *Regexp", tt.expr)
		}
	}
}

func TestNewPanicsOnFirstUse(t *testing.T) {
	re := New(`(unclosed`) // no panic yet: nothing is compiled at New
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic on its first use")
		}
	}()
	re()
}
