/*
 * test_emu_model.c - finding chip models by part name and a model's inputs
 * by key (emu_model.c).
 *
 * What must hold: a model registered with EMU_MODEL_REGISTER() anywhere in
 * the program (here: two in this file) is found by any part name of its id
 * table, with that row handed back; unknown and NULL names find nothing;
 * emu_input_find() finds inputs by exact key only.
 */
#include <errno.h>
#include <string.h>

#include "testutil.h"
#include "emu/emu.h"

static int test_model_create(const struct emu_params *p, struct emu_chip **out, char *err,
			     size_t errlen)
{
	(void)p;
	(void)err;
	(void)errlen;
	*out = NULL;
	return -ENODEV;
}

static const struct iio_device_id test_model_a_ids[] = {
	{ "iiowire-testpart-a1", 11 },
	{ "iiowire-testpart-a2", 12 },
	{ NULL, 0 },
};
static const struct emu_model test_model_a = {
	.name = "testpart-a", .id_table = test_model_a_ids, .create = test_model_create,
};
EMU_MODEL_REGISTER(test_model_a);

static const struct iio_device_id test_model_b_ids[] = {
	{ "iiowire-testpart-b", 21 },
	{ NULL, 0 },
};
static const struct emu_model test_model_b = {
	.name = "testpart-b", .id_table = test_model_b_ids, .create = test_model_create,
};
EMU_MODEL_REGISTER(test_model_b);

static void test_model_find(void)
{
	static const struct {
		const char *name;
		const char *part;
		const struct emu_model *model;
		unsigned long driver_data;
	} rows[] = {
		{ "first row of a", "iiowire-testpart-a1", &test_model_a, 11 },
		{ "second row of a", "iiowire-testpart-a2", &test_model_a, 12 },
		{ "only row of b", "iiowire-testpart-b", &test_model_b, 21 },
		{ "model name is not a part", "testpart-a", NULL, 0 },
		{ "prefix of a part", "iiowire-testpart-a", NULL, 0 },
		{ "unknown", "no-such-part", NULL, 0 },
		{ "NULL", NULL, NULL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct iio_device_id *id = NULL;
		const struct emu_model *m = emu_model_find(rows[i].part, &id);

		TEST_ROW_ASSERT(m == rows[i].model, rows[i].name);
		if (rows[i].model)
			TEST_ROW_ASSERT(id && id->driver_data == rows[i].driver_data &&
					strcmp(id->name, rows[i].part) == 0, rows[i].name);
		else
			TEST_ROW_ASSERT(id == NULL, rows[i].name);
	}
	/* the id out-parameter is optional */
	CU_ASSERT(emu_model_find("iiowire-testpart-b", NULL) == &test_model_b);
}
TEST_CASE(test_model_find, "models by part name");

static void test_input_find(void)
{
	static const struct emu_input inputs[] = {
		{ "AIN0", { .kind = EMU_SIGNAL_CONST, .value = 1 } },
		{ "AIN1", { .kind = EMU_SIGNAL_CONST, .value = 2 } },
		{ "in_temp", { .kind = EMU_SIGNAL_CONST, .value = 3 } },
	};
	static const struct emu_params p = { .name = "x", .inputs = inputs, .ninputs = 3 };
	static const struct emu_params none = { .name = "x" };
	static const struct {
		const char *name;
		const struct emu_params *p;
		const char *key;
		double expect;		/* the input's value, 0: not found */
	} rows[] = {
		{ "first", &p, "AIN0", 1 },
		{ "middle", &p, "AIN1", 2 },
		{ "last", &p, "in_temp", 3 },
		{ "case matters", &p, "ain0", 0 },
		{ "prefix is not a key", &p, "AIN", 0 },
		{ "no inputs at all", &none, "AIN0", 0 },
		{ "NULL key", &p, NULL, 0 },
		{ "NULL params", NULL, "AIN0", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct emu_input *in = emu_input_find(rows[i].p, rows[i].key);

		if (rows[i].expect)
			TEST_ROW_ASSERT(in && in->sig.value == rows[i].expect, rows[i].name);
		else
			TEST_ROW_ASSERT(in == NULL, rows[i].name);
	}
}
TEST_CASE(test_input_find, "inputs by key");

TEST_MAIN("emu_model", NULL, NULL)
