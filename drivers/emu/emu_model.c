/*
 * emu_model.c - finding chip models by part name, and a model's inputs.
 *
 * Models register themselves with EMU_MODEL_REGISTER(), which drops a
 * pointer into the link-time section "iiowire_emu_models"; this file walks
 * that section the way iio_driver.c walks the driver section, so it never
 * names a model and a new chip family is one new file. It also holds what
 * every model shares: reading its inputs (emu_inputs_take(), on top of
 * emu_input_find()), freeing them, and the read/write loop of an I2C
 * transfer. Place in the flow: board loader -> *model lookup* -> chip model
 * -> emulated bus. Nothing here creates a chip or touches a bus.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
	for (i = p->ninputs - 1; i >= 0; i--)
		if (p->inputs[i].key && strcmp(p->inputs[i].key, key) == 0)
			return &p->inputs[i];
	return NULL;
}

static bool emu_inputs_known(const struct emu_input_slot *slots, int n, const char *key)
{
	int s;

	for (s = 0; s < n; s++)
		if (strcmp(slots[s].key, key) == 0)
			return true;
	return false;
}

/* Does a later input than @in feed the same signal as slot @s through another key? */
static bool emu_inputs_overridden(const struct emu_params *p, const struct emu_input_slot *slots,
				  int n, int s, const struct emu_input *in)
{
	const struct emu_input *other;
	int t;

	for (t = 0; t < n; t++) {
		if (t == s || slots[t].sig != slots[s].sig)
			continue;
		other = emu_input_find(p, slots[t].key);
		if (other > in)
			return true;
	}
	return false;
}

int emu_inputs_take(const struct emu_params *p, const struct emu_input_slot *slots, int n,
		    const char **bad)
{
	const struct emu_input *in;
	int i, s;

	for (i = 0; i < p->ninputs; i++) {
		if (!p->inputs[i].key || !emu_inputs_known(slots, n, p->inputs[i].key)) {
			*bad = p->inputs[i].key ? p->inputs[i].key : "";
			return -EINVAL;
		}
	}
	for (s = 0; s < n; s++) {
		in = emu_input_find(p, slots[s].key);
		if (!in || emu_inputs_overridden(p, slots, n, s, in))
			continue;
		emu_signal_fini(slots[s].sig);
		if (emu_signal_copy(slots[s].sig, &in->sig) < 0) {
			*bad = in->key;
			return -ENOMEM;
		}
		if (slots[s].given)
			*slots[s].given = true;
	}
	return 0;
}

/* the most inputs a numbered model has (max1363 family: 12) and the longest key */
#define EMU_INPUTS_NUMBERED_MAX	16
#define EMU_INPUTS_KEY_MAX	16

int emu_inputs_take_numbered(const struct emu_params *p, const char *part, const char *prefix,
			     struct emu_signal *sig, int n, char *err, size_t errlen)
{
	char keys[EMU_INPUTS_NUMBERED_MAX][EMU_INPUTS_KEY_MAX];
	struct emu_input_slot slots[EMU_INPUTS_NUMBERED_MAX];
	const char *bad = "";
	int i, ret;

	if (n > EMU_INPUTS_NUMBERED_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		snprintf(keys[i], sizeof(keys[i]), "%s%d", prefix, i);
		slots[i] = (struct emu_input_slot){ .key = keys[i], .sig = &sig[i] };
	}
	ret = emu_inputs_take(p, slots, n, &bad);
	if (ret == -EINVAL && err && errlen)
		snprintf(err, errlen, "%s: no input '%s' (inputs: %s0..%s%d)", part, bad, prefix,
			 prefix, n - 1);
	else if (ret && err && errlen)
		snprintf(err, errlen, "%s: out of memory for input %s", part, bad);
	return ret;
}

int emu_inputs_take_one(const struct emu_params *p, const char *part, const char *key,
			const char *unit, struct emu_signal *sig, char *err, size_t errlen)
{
	const struct emu_input_slot slot = { .key = key, .sig = sig };
	const char *bad = "";
	int ret = emu_inputs_take(p, &slot, 1, &bad);

	if (ret == -EINVAL && err && errlen)
		snprintf(err, errlen, "%s: no input '%s' (input: %s, %s)", part, bad, key, unit);
	else if (ret && err && errlen)
		snprintf(err, errlen, "%s: out of memory for input %s", part, bad);
	return ret;
}

int emu_params_part(const struct emu_params *p, size_t nparts, const char *what, char *err,
		    size_t errlen)
{
	if (p->id && p->id->driver_data < nparts)
		return (int)p->id->driver_data;
	if (err && errlen)
		snprintf(err, errlen, "%s: not %s", p->name ? p->name : "?", what);
	return -EINVAL;
}

int emu_dac_fill(struct emu_dac_state *out, unsigned int code, unsigned int powerdown,
		 double ref_mv, int bits)
{
	out->code = code;
	out->powerdown = powerdown;
	out->mv = powerdown ? 0.0 : (double)code * ref_mv / (double)(1u << bits);
	return 0;
}

void emu_signals_fini(struct emu_signal *sig, int n)
{
	int i;

	for (i = 0; i < n; i++)
		emu_signal_fini(&sig[i]);
}

int emu_chip_i2c_rw(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (msgs[i].flags & BUS_I2C_M_RD)
			chip->ops->i2c_read(chip, msgs[i].buf, msgs[i].len);
		else
			chip->ops->i2c_write(chip, msgs[i].buf, msgs[i].len);
	}
	return n;
}

void *emu_chip_alloc(size_t size, const struct emu_chip_ops *ops, const char *name)
{
	struct emu_chip *chip = calloc(1, size);

	if (!chip)
		return NULL;
	chip->ops = ops;
	chip->name = name;
	return chip;
}

int emu_chip_done(struct emu_chip *chip, int ret, struct emu_chip **out)
{
	if (ret < 0) {
		chip->ops->destroy(chip);
		return ret;
	}
	*out = chip;
	return 0;
}

void emu_chip_free(struct emu_chip *chip)
{
	if (!chip)
		return;
	emu_signals_fini(chip->inputs, chip->ninputs);
	free(chip);
}
