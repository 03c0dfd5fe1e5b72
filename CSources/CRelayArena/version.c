#include "relay_arena.h"
int ra_version(void) { return 1; }
