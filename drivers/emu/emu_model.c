/*
 * emu_model.c - finding chip models by part name, and a model's inputs.
 *
 * Models register themselves with EMU_MODEL_REGISTER(), which drops a
 * pointer into the link-time section "iiowire_emu_models"; this file walks
 * that section the way iio_device.c walks the driver section, so it never
 * names a model and a new chip family is one new file. Place in the flow:
 * board loader -> *model lookup* -> chip model -> emulated bus. Nothing here
 * creates a chip or touches a bus.
 */
#include <string.h>

#include "emu/emu.h"

/* Weak: a program linked without any model still links, with an empty table. */
extern const struct emu_model *const __start_iiowire_emu_models[] __attribute__((weak));
extern const struct emu_model *const __stop_iiowire_emu_models[] __attribute__((weak));

/* O(models x id rows); both are a few dozen at most. */
const struct emu_model *emu_model_find(const char *name, const struct iio_device_id **id)
{
	const struct emu_model *const *m;
	const struct iio_device_id *row;

	if (!name || !__start_iiowire_emu_models)
		return NULL;
	for (m = __start_iiowire_emu_models; m < __stop_iiowire_emu_models; m++) {
		for (row = (*m)->id_table; row && row->name; row++) {
			if (strcmp(row->name, name) == 0) {
				if (id)
					*id = row;
				return *m;
			}
		}
	}
	return NULL;
}

const struct emu_input *emu_input_find(const struct emu_params *p, const char *key)
{
	int i;

	if (!p || !key)
		return NULL;
	for (i = 0; i < p->ninputs; i++)
		if (p->inputs[i].key && strcmp(p->inputs[i].key, key) == 0)
			return &p->inputs[i];
	return NULL;
}
