/*
 * board_emu.c - a board device's "emulate" and "fault" objects: the chip
 * model behind a device on an emulated bus.
 *
 * Each emulate key is one input of the chip model (a constant, a sine, a
 * ramp, noise, a CSV trace, or the pin of a DAC placed earlier on the
 * board: a closed loop, emu_signal.c); which keys a model takes is
 * the model's business, checked when it is created. A fault object arms the
 * emulated bus to NACK, fail or hang a transfer, either from the probe on
 * or once loading is done. Place in the flow: board.c calls in before it
 * probes the device; the chip model then answers the driver through the
 * bus. Nothing here talks to a real bus.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_priv.h"
#include "bus/bus.h"
#include "emu/emu.h"

_Static_assert(BOARD_BUSES_MAX <= 64, "board_ctx.wired holds a bus set in 64 bits");

/* ---- emulated inputs ---- */

static int board_signal_csv(struct board_ctx *ctx, const cJSON *spec, const char *path,
			    struct emu_signal *sig)
{
	static const char *const known[] = { "file", NULL };
	char full[PATH_MAX], p[BOARD_PATH_MAX], cerr[BOARD_ERR_MAX];
	const char *file;
	int ret;

	ret = board_check_keys(ctx, spec, path, known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, spec, path, "file", true, 0, &file);
	if (ret)
		return ret;
	board_path_key(p, sizeof(p), path, "file");
	/* relative to the board file, so a board and its traces move together */
	if (file[0] == '/')
		ret = snprintf(full, sizeof(full), "%s", file);
	else
		ret = snprintf(full, sizeof(full), "%s/%s", ctx->basedir, file);
	if (ret >= (int)sizeof(full))
		return board_err(ctx, p, "path too long");
	cerr[0] = '\0';
	ret = emu_signal_load_csv(sig, full, cerr, sizeof(cerr));
	if (ret)
		return board_err(ctx, p, "%s", cerr[0] ? cerr : strerror(-ret));
	return 0;
}

/* The device placed before this one whose label (or else name) is @name, or NULL. */
static const struct board_dev *board_dev_named(const struct board_ctx *ctx, const char *name,
					       size_t len)
{
	const struct board_dev *bd;
	int i;

	for (i = 0; i < ctx->bp->ndevs; i++) {
		bd = &ctx->bp->devs[i];
		if (bd->label && strlen(bd->label) == len && strncmp(bd->label, name, len) == 0)
			return bd;
	}
	for (i = 0; i < ctx->bp->ndevs; i++) {
		bd = &ctx->bp->devs[i];
		if (strlen(bd->dev->name) == len && strncmp(bd->dev->name, name, len) == 0)
			return bd;
	}
	return NULL;
}

/* "voltageN" as N, or -1. */
static int board_voltage_index(const char *chan)
{
	char *end;
	long n;

	if (strncmp(chan, "voltage", 7) != 0 || chan[7] < '0' || chan[7] > '9')
		return -1;
	n = strtol(chan + 7, &end, 10);
	return *end || n > INT_MAX ? -1 : (int)n;
}

/*
 * @dev's voltage channel @n: 0 when it is an output, else -EINVAL with the
 * message naming what it is and the outputs @dev has.
 */
static int board_dac_channel(struct board_ctx *ctx, const char *path, const struct iio_dev *dev,
			     const char *chan, int n)
{
	char outs[160] = "";
	bool input = false;
	size_t used = 0;
	int i;

	for (i = 0; i < dev->num_channels; i++) {
		const struct iio_chan_spec *c = &dev->channels[i];

		if (c->type != IIO_VOLTAGE || c->channel2)
			continue;
		if (c->channel == n && c->output)
			return 0;
		input |= c->channel == n;
		if (c->output && used < sizeof(outs))
			used += (size_t)snprintf(outs + used, sizeof(outs) - used, "%svoltage%d",
						 used ? ", " : "", c->channel);
	}
	if (input)
		return board_err(ctx, path, "%s's %s is an input, not an output (outputs: %s)",
				 dev->name, chan, used ? outs : "none");
	return board_err(ctx, path, "%s has no channel %s (outputs: %s)", dev->name, chan,
			 used ? outs : "none");
}

/* Bus @from reads, directly or through other wires, a DAC on bus @to. */
static bool board_wired(const struct board_ctx *ctx, int from, int to)
{
	uint64_t reach = 1ull << from, prev = 0;
	int k;

	while (reach != prev) {
		prev = reach;
		for (k = 0; k < BOARD_BUSES_MAX; k++)
			if (prev & (1ull << k))
				reach |= ctx->wired[k];
	}
	return reach & (1ull << to);
}

/*
 * {"dac": "DEVICE:voltageN"}: the input is output N of a DAC placed earlier
 * on an emulated bus. A model reads it holding its own bus, then takes the
 * DAC's bus: buses wired both ways could deadlock (and would hold each
 * other open), so a wire that closes a cycle of buses is refused.
 */
static int board_signal_dac(struct board_ctx *ctx, const cJSON *spec, const char *path,
			    struct bus *reader, struct emu_signal *sig)
{
	const struct board *b = &ctx->bp->b;
	const struct board_dev *bd;
	const char *colon;
	int n, me, ret;

	if (!cJSON_IsString(spec) || !(colon = strrchr(spec->valuestring, ':')))
		return board_err(ctx, path, "expected \"DEVICE:voltageN\", a DAC's output");
	bd = board_dev_named(ctx, spec->valuestring, (size_t)(colon - spec->valuestring));
	if (!bd)
		return board_err(ctx, path, "no device %.*s before this one (a DAC is named by its "
				 "label or name, and placed earlier in devices)",
				 (int)(colon - spec->valuestring), spec->valuestring);
	n = board_voltage_index(colon + 1);
	ret = board_dac_channel(ctx, path, bd->dev, colon + 1, n);
	if (ret)
		return ret;
	for (me = 0; me < b->nbuses && b->buses[me] != reader; me++)
		;
	if (bd->bus < 0 || me == b->nbuses ||
	    emu_signal_dac(sig, b->buses[bd->bus], (uint16_t)bd->addr, n, reader))
		return board_err(ctx, path, "%s is no DAC model on an emulated bus", bd->dev->name);
	if (bd->bus != me && board_wired(ctx, bd->bus, me))
		return board_err(ctx, path, "%s closes a cycle: bus %s already reads a DAC on %s",
				 spec->valuestring, b->bus_names[bd->bus], b->bus_names[me]);
	ctx->wired[me] |= 1ull << bd->bus;
	return 0;
}

/* {"noise": {"mean": M, "stddev": S, "seed": N}} at @p */
static int board_signal_noise(struct board_ctx *ctx, const cJSON *spec, const char *p,
			      struct emu_signal *sig)
{
	static const char *const noise_keys[] = { "mean", "stddev", "seed", NULL };
	char kp[BOARD_PATH_MAX];
	long seed = 0;
	int ret;

	sig->kind = EMU_SIGNAL_NOISE;
	ret = board_check_keys(ctx, spec, p, noise_keys, NULL);
	if (!ret)
		ret = board_get_double(ctx, spec, p, "mean", false, 0, &sig->offset);
	if (!ret)
		ret = board_get_double(ctx, spec, p, "stddev", true, 0, &sig->amplitude);
	if (!ret && sig->amplitude < 0) {
		board_path_key(kp, sizeof(kp), p, "stddev");
		ret = board_err(ctx, kp, "must not be negative");
	}
	if (!ret) {
		ret = board_get_int(ctx, spec, p, "seed", false, 0, LONG_MAX, &seed);
		ret = ret == -ENOENT ? 0 : ret;
		sig->seed = (uint64_t)seed;
	}
	return ret;
}

/*
 * One emulate value: a number (constant), {"sine"|"ramp"|"noise"|"csv": {...}}
 * or {"dac": "DEVICE:voltageN"} (@reader: the bus of the model reading it).
 */
static int board_parse_signal(struct board_ctx *ctx, const cJSON *val, const char *path,
			      struct bus *reader, struct emu_signal *sig)
{
	static const char *const sine_keys[] = { "offset", "amplitude", "period_s", "phase", NULL };
	static const char *const ramp_keys[] = { "from", "to", "period_s", NULL };
	const cJSON *spec;
	char p[BOARD_PATH_MAX], kp[BOARD_PATH_MAX];
	double from, to;
	int ret;

	memset(sig, 0, sizeof(*sig));
	if (cJSON_IsNumber(val)) {
		if (!isfinite(val->valuedouble))
			return board_err(ctx, path, "not a finite number");
		sig->kind = EMU_SIGNAL_CONST;
		sig->value = val->valuedouble;
		return 0;
	}
	if (cJSON_IsObject(val) && cJSON_GetArraySize(val) == 1 &&
	    strcmp(val->child->string, "dac") == 0) {
		board_path_key(p, sizeof(p), path, "dac");
		return board_signal_dac(ctx, val->child, p, reader, sig);
	}
	if (!cJSON_IsObject(val) || cJSON_GetArraySize(val) != 1 || !cJSON_IsObject(val->child))
		return board_err(ctx, path, "expected a number or one of {\"sine\": {...}}, "
				 "{\"ramp\": {...}}, {\"noise\": {...}}, {\"csv\": {...}}, "
				 "{\"dac\": \"DEVICE:voltageN\"}");
	spec = val->child;
	board_path_key(p, sizeof(p), path, spec->string);
	if (strcmp(spec->string, "sine") == 0) {
		sig->kind = EMU_SIGNAL_SINE;
		ret = board_check_keys(ctx, spec, p, sine_keys, NULL);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "offset", false, 0, &sig->offset);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "amplitude", true, 0, &sig->amplitude);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "period_s", true, 0, &sig->period_s);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "phase", false, 0, &sig->phase);
	} else if (strcmp(spec->string, "ramp") == 0) {
		sig->kind = EMU_SIGNAL_RAMP;
		ret = board_check_keys(ctx, spec, p, ramp_keys, NULL);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "from", true, 0, &from);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "to", true, 0, &to);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "period_s", true, 0, &sig->period_s);
		if (!ret) {
			sig->offset = from;
			sig->amplitude = to - from;
		}
	} else if (strcmp(spec->string, "noise") == 0) {
		return board_signal_noise(ctx, spec, p, sig);
	} else if (strcmp(spec->string, "csv") == 0) {
		return board_signal_csv(ctx, spec, p, sig);
	} else {
		return board_err(ctx, p, "unknown signal (sine, ramp, noise, csv, dac)");
	}
	if (!ret && !(sig->period_s > 0)) {
		board_path_key(kp, sizeof(kp), p, "period_s");
		ret = board_err(ctx, kp, "must be greater than 0");
	}
	return ret;
}

static void board_free_inputs(struct emu_input *in, int n)
{
	int i;

	for (i = 0; i < n; i++)
		emu_signal_fini(&in[i].sig);
	free(in);
}

/* Create the chip model for device @d (JSON @obj) and place it on its emulated bus. */
int board_emulate(struct board_ctx *ctx, const cJSON *obj, const char *path,
		  const char *driver, struct bus *bus, int addr, int vref_mv)
{
	const struct iio_device_id *id = NULL;
	const struct emu_model *model;
	struct emu_input *inputs = NULL;
	struct emu_params params;
	struct emu_chip *chip = NULL;
	const cJSON *emulate, *it;
	char p[BOARD_PATH_MAX], cerr[BOARD_ERR_MAX];
	int n = 0, ret;

	board_path_key(p, sizeof(p), path, "driver");
	model = emu_model_find(driver, &id);
	if (!model)
		return board_err(ctx, p, "no chip model of %s to emulate", driver);
	ret = board_get_object(ctx, obj, path, "emulate", &emulate);
	if (ret == -EINVAL)
		return ret;
	if (emulate) {
		board_path_key(p, sizeof(p), path, "emulate");
		/* input keys are the model's business; only duplicates are ours */
		ret = board_check_keys(ctx, emulate, p, NULL, NULL);
		if (ret)
			return ret;
		if (cJSON_GetArraySize(emulate) > BOARD_EMULATE_INPUTS_MAX)
			return board_err(ctx, p, "more than %d inputs", BOARD_EMULATE_INPUTS_MAX);
		inputs = calloc((size_t)cJSON_GetArraySize(emulate) + 1, sizeof(*inputs));
		if (!inputs)
			return board_err(ctx, p, "%s", strerror(ENOMEM));
		cJSON_ArrayForEach(it, emulate) {
			char ip[BOARD_PATH_MAX];

			if (strcmp(it->string, "comment") == 0)
				continue;
			board_path_key(ip, sizeof(ip), p, it->string);
			inputs[n].key = it->string;
			ret = board_parse_signal(ctx, it, ip, bus, &inputs[n].sig);
			n++;
			if (ret)
				goto err_free_inputs;
		}
	}
	params = (struct emu_params){ .name = driver, .id = id, .inputs = inputs,
				      .ninputs = n, .vref_mv = vref_mv };
	cerr[0] = '\0';
	ret = model->create(&params, &chip, cerr, sizeof(cerr));
	if (ret) {
		board_path_key(p, sizeof(p), path, emulate ? "emulate" : "driver");
		ret = board_err(ctx, p, "%s", cerr[0] ? cerr : strerror(-ret));
		goto err_free_inputs;
	}
	/* the bus owns the chip from here on, even when attaching fails */
	ret = emu_bus_attach(bus, (uint16_t)addr, chip);
	if (ret) {
		board_path_key(p, sizeof(p), path, bus->type == BUS_SPI ? "cs" : "address");
		ret = board_err(ctx, p, "cannot place the chip model: %s", strerror(-ret));
		goto err_free_inputs;
	}
	board_free_inputs(inputs, n);
	return 0;

err_free_inputs:
	board_free_inputs(inputs, n);
	return -EINVAL;
}

/* Parse "fault": {"mode", "after", "count", "hang_ms", "from"}; @from_probe says when to arm. */
int board_parse_fault(struct board_ctx *ctx, const cJSON *fobj, const char *path,
		      struct emu_fault *fault, bool *from_probe)
{
	static const char *const known[] = { "mode", "after", "count", "hang_ms", "from", NULL };
	static const char *const modes[] = {
		[EMU_FAULT_NACK] = "nack", [EMU_FAULT_EIO] = "eio", [EMU_FAULT_HANG] = "hang",
	};
	const char *mode, *from = NULL;
	char p[BOARD_PATH_MAX];
	long v;
	int ret, m;

	memset(fault, 0, sizeof(*fault));
	ret = board_check_keys(ctx, fobj, path, known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, fobj, path, "mode", true, 0, &mode);
	if (ret)
		return ret;
	for (m = EMU_FAULT_NACK; m <= EMU_FAULT_HANG; m++)
		if (strcmp(mode, modes[m]) == 0)
			break;
	board_path_key(p, sizeof(p), path, "mode");
	if (m > EMU_FAULT_HANG)
		return board_err(ctx, p, "unknown mode %s (nack, eio, hang)", mode);
	fault->mode = (enum emu_fault_mode)m;
	ret = board_get_int(ctx, fobj, path, "after", false, 0, UINT_MAX, &v);
	if (ret == -EINVAL)
		return ret;
	fault->after = ret ? 0 : (unsigned int)v;
	ret = board_get_int(ctx, fobj, path, "count", false, 0, UINT_MAX, &v);
	if (ret == -EINVAL)
		return ret;
	fault->count = ret ? 0 : (unsigned int)v;
	ret = board_get_int(ctx, fobj, path, "hang_ms", false, 1, INT_MAX, &v);
	if (ret == -EINVAL)
		return ret;
	fault->hang_ms = ret ? 0 : (unsigned int)v;
	ret = board_get_string(ctx, fobj, path, "from", false, 0, &from);
	if (ret == -EINVAL)
		return ret;
	board_path_key(p, sizeof(p), path, "from");
	if (from && strcmp(from, "probe") != 0 && strcmp(from, "load") != 0)
		return board_err(ctx, p, "expected \"probe\" or \"load\"");
	*from_probe = from && strcmp(from, "probe") == 0;
	return 0;
}
