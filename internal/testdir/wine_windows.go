package testdir

import "golang.org/x/sys/windows"

// onWine reports whether this process runs under Wine: its ntdll.dll
// exports wine_get_version, which Windows' does not.
func onWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
