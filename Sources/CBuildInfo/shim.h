/* The version stamped into a build: `make deb` passes -Xcc -DPROVISION_BUILD_VERSION='"…"' (from git describe,
   scripts/build_version.sh); a plain `swift build` gets the fallback below, which says it was not stamped.
   Nothing to link. A string from -D does not import into Swift as a constant, so a function returns it. */
#ifndef PROVISION_BUILD_VERSION
#define PROVISION_BUILD_VERSION "0.1.0+unstamped"
#endif

static inline const char *cbuildinfo_version(void) { return PROVISION_BUILD_VERSION; }
