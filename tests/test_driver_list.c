/*
 * test_driver_list.c - the chip list, the driver kit and the core's bus check.
 *
 * iio_driver_list_print() must name every id-table row of every built-in
 * driver once, sorted, with its driver and bus; maps/README.md's chip table
 * (between the chips:begin and chips:end markers, a row per driver and bus)
 * must say the same, so the documentation cannot drift from the drivers.
 * iio_driver_suggest() offers near names for an unknown one and none for a far one (max9999, which
 * tests/test_board.c pins without suggestions). The kit's macros and probe
 * messages are checked against hand-computed values, and iio_driver_probe()
 * must refuse a device without the bus its driver declares before probing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "iio_kit.h"
#include "bus/bus.h"

#define TDL_LINE_MAX	2048
#define TDL_TEXT_MAX	(64 * 1024)

/* The list as iio_driver_list_print() writes it. Return: malloc'd text, count in *n. */
static char *tdl_list(int *n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	*n = iio_driver_list_print(f);
	fclose(f);
	return text;
}

static void test_list_covers_every_id(void)
{
	const struct iio_device_id *row;
	const struct iio_driver *drv;
	char name[64], dname[64], bus[16], prev[64] = "";
	char *text, *line, *save = NULL;
	int n, rows = 0, lines = 0;
	size_t i;

	for (i = 0; (drv = iio_driver_at(i)); i++)
		for (row = drv->id_table; row && row->name; row++)
			rows++;
	text = tdl_list(&n);
	CU_ASSERT_EQUAL(n, rows);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		CU_ASSERT_EQUAL_FATAL(sscanf(line, "%63s %63s %15s", name, dname, bus), 3);
		TEST_ROW_ASSERT(strcmp(prev, name) < 0, line);
		drv = iio_driver_find(name, NULL);
		TEST_ROW_ASSERT(drv && strcmp(drv->name, dname) == 0, line);
		TEST_ROW_ASSERT(drv && strcmp(iio_driver_bus_name(drv->bus), bus) == 0, line);
		snprintf(prev, sizeof(prev), "%s", name);
		lines++;
	}
	CU_ASSERT_EQUAL(lines, rows);
	free(text);
}
TEST_CASE(test_list_covers_every_id, "the list names every id once, sorted, with driver and bus");

/* Rows sort by driver, then bus. */
static int tdl_row_cmp(const char *d1, const char *b1, const char *d2, const char *b2)
{
	int c = strcmp(d1, d2);

	return c ? c : strcmp(b1, b2);
}

/* The README's rows as the list says they must be: one per driver and bus, sorted. */
static void tdl_expected_rows(char *out, size_t len)
{
	char name[64], dname[64], bus[16], drivers[32][64], buses[32][16];
	char names[32][TDL_LINE_MAX];
	char *text, *line, *save = NULL;
	int n, nd = 0, d, j;
	size_t used = 0;

	text = tdl_list(&n);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %63s %15s", name, dname, bus) != 3)
			continue;
		/* a driver on two buses (ad5446: SPI and I2C, as the kernel's) is two rows */
		for (d = 0; d < nd && (strcmp(drivers[d], dname) != 0 || strcmp(buses[d], bus) != 0);
		     d++)
			;
		if (d == nd && nd < 32) {
			snprintf(drivers[nd], sizeof(drivers[nd]), "%s", dname);
			snprintf(buses[nd], sizeof(buses[nd]), "%s", bus);
			names[nd++][0] = '\0';
		}
		j = (int)strlen(names[d]);
		snprintf(names[d] + j, sizeof(names[d]) - (size_t)j, "%s`%s`", j ? ", " : "", name);
	}
	free(text);
	/* drivers sorted by name, as the table lists them */
	for (d = 0; d < nd; d++) {
		int best = -1;

		for (j = 0; j < nd; j++)
			if (drivers[j][0] && (best < 0 || tdl_row_cmp(drivers[j], buses[j],
								     drivers[best],
								     buses[best]) < 0))
				best = j;
		used += (size_t)snprintf(out + used, len - used, "| `%s` | %s | %s |\n",
					 drivers[best], buses[best], names[best]);
		drivers[best][0] = '\0';
	}
}

static void test_readme_table(void)
{
	static char want[TDL_TEXT_MAX], got[TDL_TEXT_MAX];
	char line[TDL_LINE_MAX];
	size_t used = 0;
	bool inside = false;
	FILE *f = fopen(test_path("maps/README.md"), "r");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "<!-- chips:begin", 16) == 0) {
			inside = true;
			continue;
		}
		if (strncmp(line, "<!-- chips:end", 14) == 0)
			break;
		/* the header and its rule are not rows */
		if (!inside || strncmp(line, "| `", 3) != 0)
			continue;
		used += (size_t)snprintf(got + used, sizeof(got) - used, "%s", line);
	}
	fclose(f);
	tdl_expected_rows(want, sizeof(want));
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\nmaps/README.md chip table:\n%s\nexpected:\n%s", got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
}
TEST_CASE(test_readme_table, "maps/README.md's chip table is the list");

static void test_suggest(void)
{
	static const struct {
		const char *typed;
		int count;
		const char *want;	/* exact */
	} rows[] = {
		{ "max9999", 0, "" },
		{ "foo", 0, "" },
		{ "iio_dumy", 1, "iio_dummy" },
		{ "max1364x", 4, "max1364, max11644, max11645, max11646" },
		{ "tsl256", 4, "tsl2560, tsl2561, tsl2562, tsl2563" },
		{ "0123456789012345678901234567890123456789", 0, "" },
	};
	char buf[256];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		TEST_ROW_ASSERT(iio_driver_suggest(rows[i].typed, buf, sizeof(buf)) ==
				rows[i].count, rows[i].typed);
		TEST_ROW_ASSERT(strcmp(buf, rows[i].want) == 0, rows[i].typed);
	}
}
TEST_CASE(test_suggest, "near names for an unknown driver");

static void test_kit_macros(void)
{
	static const int four[4];

	CU_ASSERT_EQUAL(ARRAY_SIZE(four), 4);
	CU_ASSERT_EQUAL(GENMASK(7, 4), 0xf0UL);
	CU_ASSERT_EQUAL(GENMASK(0, 0), 1UL);
	CU_ASSERT_EQUAL(GENMASK_ULL(63, 62), 0xc000000000000000ULL);
	CU_ASSERT_EQUAL(FIELD_PREP(GENMASK(6, 4), 5), 0x50ULL);
	CU_ASSERT_EQUAL(FIELD_PREP(GENMASK(6, 4), 9), 0x10ULL);	/* cut to the field */
	CU_ASSERT_EQUAL(FIELD_GET(GENMASK(6, 4), 0xd7), 5UL);
	CU_ASSERT_EQUAL(sign_extend32(0x800, 11), -2048);
	CU_ASSERT_EQUAL(sign_extend32(0x7ff, 11), 2047);
	CU_ASSERT_EQUAL(sign_extend32(0xffff, 15), -1);
	CU_ASSERT_EQUAL(sign_extend32(0x0001ffff, 15), -1);
}
TEST_CASE(test_kit_macros, "ARRAY_SIZE, GENMASK, FIELD_PREP/GET, sign_extend32");

struct tdl_outer {
	int a;
	double inner;
};

static void test_container_of(void)
{
	struct tdl_outer o;

	CU_ASSERT_PTR_EQUAL(container_of(&o.inner, struct tdl_outer, inner), &o);
}
TEST_CASE(test_container_of, "container_of");

static void test_probe_messages(void)
{
	static const struct iio_device_id id = { "ad7998", 0 };
	struct bus_i2c_client *i2c;
	struct bus *bus;
	struct iio_probe p = { .id = &id, .name = "ad7998" };
	char err[128];

	CU_ASSERT_EQUAL(iio_probe_err(&p, err, sizeof(err), -EINVAL, "bad %d", 3), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "ad7998: bad 3 (EINVAL)");
	CU_ASSERT_EQUAL(iio_probe_err(&p, err, sizeof(err), 0, "fine"), 0);
	CU_ASSERT_STRING_EQUAL(err, "ad7998: fine");
	CU_ASSERT_EQUAL(iio_probe_err(&p, NULL, 0, -EIO, "nowhere"), -EIO);
	CU_ASSERT_EQUAL_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 2, NULL, &bus), 0);
	CU_ASSERT_EQUAL_FATAL(bus_i2c_client_create(bus, 0x21, &i2c), 0);
	p.i2c = i2c;
	iio_probe_err(&p, err, sizeof(err), -ENXIO, "no answer");
	CU_ASSERT_STRING_EQUAL(err, "ad7998 at 2-0021: no answer (ENXIO)");
	iio_probe_err_bus(&p, err, sizeof(err), -ENXIO, "no answer");
	CU_ASSERT_STRING_EQUAL(err, "ad7998 at i2c-2 0x21: no answer (ENXIO)");
	CU_ASSERT_EQUAL(iio_probe_hwid(&p, err, sizeof(err)), 6);
	CU_ASSERT_STRING_EQUAL(err, "2-0021");
	bus_i2c_client_destroy(i2c);
	bus_put(bus);
}
TEST_CASE(test_probe_messages, "probe messages name device, place and errno");

/* A driver that declares I2C is refused without a client, before its probe runs. */
static void test_core_checks_bus(void)
{
	const struct iio_device_id *id = NULL;
	const struct iio_driver *i2c_drv = iio_driver_find("max1363", &id);
	const struct iio_driver *spi_drv;
	struct iio_probe p = { .id = id, .name = "max1363" };
	struct iio_dev *dev = NULL;
	char err[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(i2c_drv);
	CU_ASSERT_EQUAL(i2c_drv->bus, IIO_DRIVER_BUS_I2C);
	CU_ASSERT_EQUAL(iio_driver_probe(i2c_drv, &p, &dev, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "max1363: needs an I2C bus and address (EINVAL)");
	CU_ASSERT_PTR_NULL(dev);
	spi_drv = iio_driver_find("adis16400", &id);
	CU_ASSERT_PTR_NOT_NULL_FATAL(spi_drv);
	p = (struct iio_probe){ .id = id, .name = "adis16400" };
	CU_ASSERT_EQUAL(iio_driver_probe(spi_drv, &p, &dev, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "adis16400: needs an SPI bus and chip select (EINVAL)");
	CU_ASSERT_STRING_EQUAL(iio_driver_bus_name(IIO_DRIVER_BUS_NONE), "none");
}
TEST_CASE(test_core_checks_bus, "the core checks the declared bus before probe");

TEST_MAIN("driver_list", NULL, NULL)
