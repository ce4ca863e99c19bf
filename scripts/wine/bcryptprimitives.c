/*
 * bcryptprimitives.dll with ProcessPrng, for make wine-test.
 *
 * Go 1.24 and later load ProcessPrng from bcryptprimitives.dll in
 * System32 at start-up (runtime.loadOptionalSyscalls) and die with
 * "fatal error: bcryptprimitives.dll not found" without it. Wine added
 * ProcessPrng in 8.13; Debian 12 ships Wine 8.0. This stand-in answers
 * it from RtlGenRandom (advapi32 SystemFunction036), which Wine has. It is
 * copied into the test-only Wine prefix, never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
