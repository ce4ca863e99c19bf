package testdir

import "testing"

func TestDirName(t *testing.T) {
	for in, want := range map[string]string{
		`TestImport/opencode:_"lsp":_false`: `TestImport_opencode___lsp___false`,
		`TestA/b\c|d?e*f<g>h`:               `TestA_b_c_d_e_f_g_h`,
		"TestPlain":                         "TestPlain",
	} {
		if got := dirName(in); got != want {
			t.Errorf("dirName(%q) = %q, want %q", in, got, want)
		}
	}
}
