/* Linux system calls Swift cannot call directly: prctl is variadic, and explicit_bzero is a glibc extension
   (string.h declares it in the default GNU mode). Part of the C library itself: nothing to link.
   Used by Support/ProcessHardening.swift and Support/SecretBytes.swift (docs/keys.md, "Hardening"). */
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>

/* prctl(PR_SET_DUMPABLE, 0): no core file, and /proc/PID files owned by root, so same-user processes cannot read
   or ptrace this process's memory. 0 on success, -1 with errno on failure. */
static inline int csystem_set_not_dumpable(void) { return prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L); }

/* prctl(PR_GET_DUMPABLE): 0 when this process is not dumpable, 1 or 2 when it is, -1 on failure. */
static inline int csystem_get_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L); }

/* Zeroes count bytes at bytes with a store the compiler may not remove as dead (explicit_bzero). */
static inline void csystem_wipe(void *bytes, size_t count) {
    if (bytes != NULL && count > 0) explicit_bzero(bytes, count);
}
