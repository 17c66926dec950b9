/* The PKCS #11 v2.40 header from p11-kit (libp11-kit-dev, pkg-config p11-kit-1), kept in its own module: its
   compatibility mode #defines plain words (value, count, flags) to the spec's field names. No library is linked:
   a PKCS #11 module is loaded at run time with dlopen and C_GetFunctionList (docs/reference/pkcs11.md §2). */
#include <dlfcn.h>
#include <p11-kit/pkcs11.h>
