// Umbrella for the system xxHash header (Debian: libxxhash-dev): XXH3, the snapshots' checksum.
#include <xxhash.h>
