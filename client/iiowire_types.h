/*
 * iiowire_types.h - the channel type names libiiowire knows, by enum value.
 *
 * The table itself is generated at build time by gen_types.c from the IIO
 * core's table, so the client and the daemon spell every type identically
 * without a hand-written copy. Private to the library (see types.c).
 */
#ifndef IIOWIRE_TYPES_H
#define IIOWIRE_TYPES_H

/* Slots in the table: the core's IIOWIRE_IIO_CHAN_TYPE_COUNT, checked by types.c. */
#define IIOWIRE_TYPES_COUNT	42

/* NULL for a value without a name. */
extern const char *const iiowire_types_names[IIOWIRE_TYPES_COUNT];

#endif /* IIOWIRE_TYPES_H */
