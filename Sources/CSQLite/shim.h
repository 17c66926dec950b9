#include <sqlite3.h>

// SQLITE_TRANSIENT / SQLITE_STATIC are casts that do not import into Swift.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
