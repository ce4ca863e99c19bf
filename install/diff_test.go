package install

import (
	"strings"
	"testing"
)

// TestInstallUnifiedDiff checks hunks, context, ranges and the missing
// final newline marker against what diff -u prints for the same input.
func TestInstallUnifiedDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16"
	b := "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n13.5\n14\n15\n16\n"
	want := `--- a
+++ b
@@ -1,6 +1,6 @@
 1
 2
-3
+three
 4
 5
 6
@@ -11,6 +11,7 @@
 11
 12
 13
+13.5
 14
 15
-16
\ No newline at end of file
+16
`
	if got := unifiedDiff("a", "b", []byte(a), []byte(b)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff("a", "b", []byte(a), []byte(a)); got != "" {
		t.Errorf("equal inputs: %q", got)
	}
	created := unifiedDiff("/dev/null", "f", nil, []byte("x\ny\n"))
	if !strings.HasSuffix(created, "@@ -0,0 +1,2 @@\n+x\n+y\n") {
		t.Errorf("new file:\n%s", created)
	}
	removed := unifiedDiff("f", "/dev/null", []byte("x\n"), nil)
	if !strings.HasSuffix(removed, "@@ -1 +0,0 @@\n-x\n") {
		t.Errorf("removed file:\n%s", removed)
	}
}
