// winscard.h includes <pcsclite.h> and <wintypes.h> with angle brackets, so
// -I/usr/include/PCSC (from pkg-config libpcsclite) must be on the include path.
#include <winscard.h>
#include <reader.h>

// Address-of and function-like macros do not import into Swift.
static inline const SCARD_IO_REQUEST *cpcsc_pci_t1(void) { return SCARD_PCI_T1; }
static inline const SCARD_IO_REQUEST *cpcsc_pci_t0(void) { return SCARD_PCI_T0; }
static inline DWORD cpcsc_ctl_code(DWORD code) { return SCARD_CTL_CODE(code); }
