package privdir

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// mkdir creates dir owned by our user with a protected DACL admitting
// only that user, inherited by files and directories made inside
// (CreateDirectoryW with SECURITY_ATTRIBUTES from the SDDL
// "O:<SID>D:P(A;OICI;GA;;;<SID>)": owner, protected DACL, one
// access-allowed ACE, object- and container-inherit, GENERIC_ALL).
func mkdir(dir string) error {
	sid, err := userSID()
	if err != nil {
		return err
	}
	sd, err := windows.SecurityDescriptorFromString(fmt.Sprintf("O:%sD:P(A;OICI;GA;;;%s)", sid, sid))
	if err != nil {
		return fmt.Errorf("building the security descriptor: %w", err)
	}
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return err
	}
	sa := &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}
	if err := windows.CreateDirectory(p, sa); err != nil {
		if err == windows.ERROR_ALREADY_EXISTS {
			return os.ErrExist
		}
		return &os.PathError{Op: "CreateDirectory", Path: dir, Err: err}
	}
	return nil
}

// check refuses a directory whose owner is not our user's SID, with no
// DACL (which admits everyone), or whose DACL has an access-allowed entry
// for any SID but ours, LocalSystem's (S-1-5-18) and the Administrators
// group's (S-1-5-32-544) (GetNamedSecurityInfoW, GetAce). The two are let
// in as OpenSSH for Windows lets them into a private key's ACL: they can
// take any file anyway, and Windows (and Wine) add them to ACLs. Deny
// entries narrow access and are let be.
func check(dir string, _ os.FileInfo) (string, error) {
	me, err := userSID()
	if err != nil {
		return "", err
	}
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return "", fmt.Errorf("reading the security descriptor: %w", err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return "", fmt.Errorf("reading the owner: %w", err)
	}
	if !owner.Equals(me) {
		return fmt.Sprintf("owned by %s, not %s", owner, me), nil
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		return "its DACL is missing, which lets everyone in (want only " + me.String() + ")", nil
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return "", fmt.Errorf("reading ACE %d: %w", i, err)
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE {
			continue
		}
		if other := (*windows.SID)(unsafe.Pointer(&ace.SidStart)); !other.Equals(me) && !trusted(other) {
			return fmt.Sprintf("its ACL lets %s in (want only %s)", other, me), nil
		}
	}
	return "", nil
}

// trusted reports whether sid is LocalSystem or the Administrators group.
func trusted(sid *windows.SID) bool {
	return sid.IsWellKnown(windows.WinLocalSystemSid) || sid.IsWellKnown(windows.WinBuiltinAdministratorsSid)
}

// userSID is the SID of the user this process runs as (its token's
// TokenUser).
func userSID() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("reading this process's user: %w", err)
	}
	return u.User.Sid, nil
}
