package privdir

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// platformCases adds TestCheck's Windows rows: a directory made by
// os.Mkdir, which inherits its parent's DACL, under a parent whose DACL
// admits Everyone too.
func platformCases(t *testing.T, base string) []checkCase {
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	me, err := userSID()
	if err != nil {
		t.Fatal(err)
	}
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;GA;;;" + me.String() + ")(A;OICI;GR;;;WD)")
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		t.Fatal(err)
	}
	if err := windows.SetNamedSecurityInfo(open, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(open, "inside")
	if err := os.Mkdir(inside, 0o700); err != nil {
		t.Fatal(err)
	}
	return []checkCase{
		{name: "Everyone may read", dir: open, want: "its ACL lets S-1-1-0 in"},
		{name: "inherits Everyone", dir: inside, want: "its ACL lets S-1-1-0 in"},
	}
}
