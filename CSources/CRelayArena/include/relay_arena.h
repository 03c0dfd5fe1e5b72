// Public C interface of the RelayArena core (placeholder while the core is written).
#ifndef RELAY_ARENA_H
#define RELAY_ARENA_H
int ra_version(void);
#endif
