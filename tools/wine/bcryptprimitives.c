/*
 * Test tooling only, never shipped with the engine: a stand-in for Windows'
 * bcryptprimitives.dll, which Wine 8 (Debian 12) lacks. Rust's standard library (1.78 and later)
 * imports ProcessPrng from it on Windows, so without this DLL the engine cannot start under
 * Wine. Real Windows 10/11 has the DLL. tools/windows-test.sh builds this file with MinGW and
 * installs it into the test's own Wine prefix (system32), not next to the engine.
 *
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c \
 *       bcryptprimitives.def -ladvapi32
 */
#include <windows.h>
#include <ntsecapi.h> /* RtlGenRandom (advapi32's SystemFunction036) */

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, n))
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst;
    (void)reason;
    (void)reserved;
    return TRUE;
}
