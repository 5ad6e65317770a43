/*
 * emu.h - register-level chip models and the signals that feed them.
 *
 * A chip model answers bus transactions the way the silicon does (command
 * bytes, register pointers, byte order, unused bits) so that the real
 * driver code can be tested without hardware. The emulated bus backend
 * (bus_emu.c) routes transfers here; so does the test shim that stands in
 * for /dev/i2c-N and /dev/spidevB.C. A model's analog inputs are signals
 * (constant, sine, ramp, noise, CSV trace) sampled on the bus's virtual
 * clock. Models never call drivers, the core or the server.
 */
#ifndef IIOWIRE_EMU_H
#define IIOWIRE_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bus/bus.h"
#include "iio.h"

/* ---- signals ---- */

enum emu_signal_kind {
	EMU_SIGNAL_CONST,
	EMU_SIGNAL_SINE,
	EMU_SIGNAL_RAMP,
	EMU_SIGNAL_NOISE,
	EMU_SIGNAL_CSV,
	EMU_SIGNAL_DAC,
};

/**
 * struct emu_signal - a value over time, in the input's unit (mV, m°C,
 * counts...). Fields by kind:
 * CONST: @value. SINE: @offset + @amplitude * sin(2π(t/@period_s) + @phase).
 * RAMP: from @offset to @offset + @amplitude over @period_s, then again.
 * NOISE: @offset + gaussian(@amplitude = std deviation), seeded by @seed so
 * the same t gives the same value. CSV: linear interpolation of the trace's
 * (@csv_t, @csv_v) points, looping over its duration. DAC: the pin
 * voltage (mV) of output @dac_channel of the DAC model at @dac_addr of
 * emulated bus @dac_bus, now (a board's closed loop). The signal holds a
 * reference on @dac_bus unless @dac_same_bus: the reader's own bus, whose
 * lock the reader already holds (models sample under their bus's lock), so
 * the DAC is read without taking it again.
 */
struct emu_signal {
	enum emu_signal_kind kind;
	double value;
	double offset;
	double amplitude;
	double period_s;
	double phase;
	uint64_t seed;
	double *csv_t;		/* owned: emu_signal_fini() */
	double *csv_v;
	int csv_n;
	struct bus *dac_bus;	/* DAC: a reference unless dac_same_bus */
	uint16_t dac_addr;
	int dac_channel;
	bool dac_same_bus;
};

/** emu_signal_sample() - the signal's value at @t_s seconds of virtual time. */
double emu_signal_sample(const struct emu_signal *sig, double t_s);
/**
 * emu_signal_timed() - does the value of @sig depend on the time? Not for a
 * constant: a model may then skip reading the bus clock (a clock_gettime
 * and a lock per transfer).
 */
bool emu_signal_timed(const struct emu_signal *sig);
/**
 * emu_signal_load_csv() - fill a CSV signal from "t,value" lines.
 * Return: 0, -errno; @err says where.
 */
int emu_signal_load_csv(struct emu_signal *sig, const char *path, char *err, size_t errlen);
/**
 * emu_signal_copy() - deep copy of @src into @dst (CSV arrays too), for a
 * model that keeps its inputs. Return: 0 (@dst owns its arrays: emu_signal_fini()), -ENOMEM.
 */
int emu_signal_copy(struct emu_signal *dst, const struct emu_signal *src);
/**
 * emu_signal_dac() - make @sig the output @channel of the DAC model at
 * @addr of @bus, read by a model on @reader_bus.
 * Return: 0, or -ENODEV when @bus has no DAC model with that output there.
 */
int emu_signal_dac(struct emu_signal *sig, struct bus *bus, uint16_t addr, int channel,
		   const struct bus *reader_bus);
/** emu_signal_fini() - free what a CSV or DAC signal holds; NULL-safe. */
void emu_signal_fini(struct emu_signal *sig);

/* One named input of a model: the key is a datasheet name, ABI stem or documented input. */
struct emu_input {
	const char *key;
	struct emu_signal sig;
};

/* ---- chips ---- */

struct emu_chip;

/**
 * struct emu_chip_ops - what a model implements.
 * @i2c_transfer: one combined transaction to this chip (all msgs carry its
 *	address); return the number of msgs or -errno (-ENXIO = NACK).
 * @spi_transfer: transfers under one chip select assertion; 0 or -errno.
 * @i2c_read/@i2c_write: for a model that treats every message alike, what
 *	@i2c_transfer = emu_chip_i2c_rw calls for each read and write message.
 * @destroy: free the model (called once, by the bus); emu_chip_free() for a
 *	model whose only allocations are itself and its @inputs.
 * @irq_level: optional: the chip's alert/interrupt output now (the model
 *	compares its inputs at emu_chip_now()): EMU_IRQ_ASSERTED, EMU_IRQ_LOW,
 *	or EMU_IRQ_DISABLED while its registers keep the output off (the line
 *	is then sampled less often); called under the bus lock, as transfers are.
 * @dac_output: optional: a DAC's output @channel now (struct
 *	emu_dac_state); 0, or -ENODEV for a channel the chip does not have.
 */
/* What a model's interrupt output does (emu_chip_ops.irq_level). */
enum emu_irq_state {
	EMU_IRQ_DISABLED,	/* the chip's registers keep the output off */
	EMU_IRQ_LOW,
	EMU_IRQ_ASSERTED,
};

/**
 * struct emu_dac_state - what a DAC model drives on one output pin: the
 * observable a test (or a board wiring a DAC to an ADC) reads.
 * @code: the DAC register the output follows.
 * @powerdown: 0 while the output is on, else the chip's own power-down
 *	code (its PD bits: which resistor to ground, or three-state).
 * @mv: the pin's voltage: @code * reference / 2^bits, 0 when powered down
 *	(pulled to ground, or left floating by a three-state output).
 */
struct emu_dac_state {
	unsigned int code;
	unsigned int powerdown;
	double mv;
};

struct emu_chip_ops {
	int (*i2c_transfer)(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n);
	int (*spi_transfer)(struct emu_chip *chip, const struct bus_spi_transfer *xfers, int n);
	void (*i2c_read)(struct emu_chip *chip, uint8_t *buf, int len);
	void (*i2c_write)(struct emu_chip *chip, const uint8_t *buf, int len);
	void (*destroy)(struct emu_chip *chip);
	enum emu_irq_state (*irq_level)(struct emu_chip *chip);
	int (*dac_output)(struct emu_chip *chip, int channel, struct emu_dac_state *out);
};

/* Virtual time of the bus a chip sits on (seconds); models read it with emu_chip_now(). */
struct emu_clock {
	double (*now)(const struct emu_clock *clock);
	double offset_s;	/* advanced by bus_msleep() on emulated buses */
	double fixed_s;		/* tests: >= 0 freezes time at this value */
};

/**
 * struct emu_chip - base of every model; embed it first.
 * @clock: borrowed from the bus, set when attached.
 * @inputs/@ninputs: the model's signals, for emu_chip_free(); may be unset.
 */
struct emu_chip {
	const struct emu_chip_ops *ops;
	const struct emu_clock *clock;
	const char *name;
	struct emu_signal *inputs;
	int ninputs;
};

static inline double emu_chip_now(const struct emu_chip *chip)
{
	return chip->clock ? chip->clock->now(chip->clock) : 0.0;
}

/**
 * struct emu_params - what a model is created with.
 * @name: the part ("max1238"); @id: its row in the model's id table.
 * @inputs/@ninputs: borrowed for the call; copy what you keep (signals'
 *	CSV arrays may be shared: copy them too).
 * @vref_mv: the board's vref_mv, 0 if absent.
 */
struct emu_params {
	const char *name;
	const struct iio_device_id *id;
	const struct emu_input *inputs;
	int ninputs;
	int vref_mv;
};

/**
 * struct emu_model - a chip family's model, found by part name.
 * @create: build a chip in its power-on state; an input key it does not
 *	know is -EINVAL with @err naming the key and the valid ones.
 */
struct emu_model {
	const char *name;
	const struct iio_device_id *id_table;
	int (*create)(const struct emu_params *p, struct emu_chip **out, char *err, size_t errlen);
};

#define EMU_MODEL_REGISTER(m)							\
	static const struct emu_model *const emu_model_ptr_##m			\
	__attribute__((used, section("iiowire_emu_models"), aligned(sizeof(void *)))) = &(m)

/** emu_model_find() - the model for part @name; @id gets the row. NULL if none. */
const struct emu_model *emu_model_find(const char *name, const struct iio_device_id **id);

/**
 * emu_input_find() - the input with @key, or NULL; of a key given twice,
 * the last (as a later value overrides an earlier one). Borrowed from @p.
 */
const struct emu_input *emu_input_find(const struct emu_params *p, const char *key);

/**
 * struct emu_input_slot - one input a model takes.
 * @key: the name a board gives it by (datasheet name, ABI stem, documented key).
 * @sig: where its signal goes; several keys may share one (aliases).
 * @given: set to true when the board gave the input; may be NULL.
 */
struct emu_input_slot {
	const char *key;
	struct emu_signal *sig;
	bool *given;
};

/**
 * emu_inputs_take() - how every model reads its inputs: each slot's signal
 * becomes a copy of what emu_input_find() gives for its key (where keys
 * share a signal, the input given last wins); a signal not given is left
 * as the model set it. Every key of @p must name a slot.
 * @bad: on failure, the key that is unknown or could not be copied.
 * Return: 0; -EINVAL for a key no slot names (nothing copied); -ENOMEM
 * (what was copied stays the model's, freed with its signals).
 */
int emu_inputs_take(const struct emu_params *p, const struct emu_input_slot *slots, int n,
		    const char **bad);

/**
 * emu_inputs_take_numbered() - emu_inputs_take() for an ADC's inputs named
 * @prefix0 .. @prefix(n-1) ("AIN0".."AIN11", "voltage0".."voltage7") into
 * @sig[0..n-1], with the message "PART: no input 'KEY' (inputs:
 * AIN0..AIN3)" or "PART: out of memory for input KEY" in @err.
 * Return: as emu_inputs_take().
 */
int emu_inputs_take_numbered(const struct emu_params *p, const char *part, const char *prefix,
			     struct emu_signal *sig, int n, char *err, size_t errlen);

/**
 * emu_inputs_take_one() - emu_inputs_take() for a model with one input, @key
 * into @sig, with the message "PART: no input 'KEY' (input: illuminance, in
 * lux)" (@unit says what the values are) or "PART: out of memory for input
 * KEY" in @err. Return: as emu_inputs_take().
 */
int emu_inputs_take_one(const struct emu_params *p, const char *part, const char *key,
			const char *unit, struct emu_signal *sig, char *err, size_t errlen);

/**
 * emu_params_part() - the row of a model's part table @p's id names.
 * @what: the family for the message, with its article ("an AD799x part").
 * Return: the row, or -EINVAL with "NAME: not WHAT" in @err.
 */
int emu_params_part(const struct emu_params *p, size_t nparts, const char *what, char *err,
		    size_t errlen);

/**
 * emu_dac_fill() - a DAC output as struct emu_dac_state: @code of @bits
 * over @ref_mv, or 0 mV with @powerdown non-zero.
 * Return: 0, for a dac_output op to return.
 */
int emu_dac_fill(struct emu_dac_state *out, unsigned int code, unsigned int powerdown,
		 double ref_mv, int bits);

/** emu_signals_fini() - emu_signal_fini() each of @n signals (a model's destroy). */
void emu_signals_fini(struct emu_signal *sig, int n);

/**
 * emu_chip_i2c_rw() - an i2c_transfer for a model that treats every message
 * alike: its ops' i2c_read fills each read message, i2c_write takes each
 * write message.
 * Return: @n.
 */
int emu_chip_i2c_rw(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n);

/**
 * emu_chip_alloc() - a zeroed model of @size bytes, struct emu_chip first,
 * with its ops and name set (every signal a constant 0 until set).
 * Return: the model, or NULL when out of memory.
 */
void *emu_chip_alloc(size_t size, const struct emu_chip_ops *ops, const char *name);

/**
 * emu_chip_done() - how a model's create ends: with @ret < 0 the chip is
 * destroyed (ops->destroy), otherwise it is handed over in *@out.
 * Return: @ret if negative, else 0.
 */
int emu_chip_done(struct emu_chip *chip, int ret, struct emu_chip **out);

/**
 * emu_chip_free() - a destroy for a model allocated as one block with
 * struct emu_chip first: finalise its @inputs, then free it.
 */
void emu_chip_free(struct emu_chip *chip);

/* ---- the emulated backend's controls (bus_emu.c) ---- */

/**
 * emu_bus_attach() - place @chip at @addr (I2C) or chip select @addr (SPI).
 * The bus owns the chip from then on. Return: 0, -EBUSY if taken.
 * On failure too the chip is the bus's: it is destroyed, never the caller's to free.
 */
int emu_bus_attach(struct bus *bus, uint16_t addr, struct emu_chip *chip);
/**
 * emu_bus_irq_level() - the interrupt output of the chip at @addr, sampled
 * under the bus lock (the emulated line iio_irq.c waits on).
 * Return: an enum emu_irq_state, or -ENODEV without such a chip or output.
 */
int emu_bus_irq_level(struct bus *bus, uint16_t addr);
/**
 * emu_bus_dac_output() - output @channel of the DAC model at @addr, read
 * under the bus lock as emu_bus_irq_level() reads a line.
 * Return: 0 with *@out filled, or -ENODEV (no chip, not a DAC, no such channel).
 */
int emu_bus_dac_output(struct bus *bus, uint16_t addr, int channel, struct emu_dac_state *out);
/**
 * emu_bus_dac_output_locked() - emu_bus_dac_output() for a caller that
 * already holds @bus's transfer lock (a model on the same bus sampling it).
 */
int emu_bus_dac_output_locked(struct bus *bus, uint16_t addr, int channel,
			      struct emu_dac_state *out);
/** emu_bus_chip() - the chip at @addr, or NULL; borrowed. */
struct emu_chip *emu_bus_chip(struct bus *bus, uint16_t addr);

enum emu_fault_mode {
	EMU_FAULT_NONE,
	EMU_FAULT_NACK,		/* -ENXIO, as an absent chip */
	EMU_FAULT_EIO,		/* -EIO, a bus error mid-transfer */
	EMU_FAULT_HANG,		/* the transfer blocks for @hang_ms, then -ETIMEDOUT */
};

/**
 * struct emu_fault - a fault armed on one address.
 * @after: transfers that still succeed before the fault starts.
 * @count: transfers that fail once started; 0 = until cleared.
 * @hang_ms: how long a HANG blocks (default longer than any bus timeout).
 */
struct emu_fault {
	enum emu_fault_mode mode;
	unsigned int after;
	unsigned int count;
	unsigned int hang_ms;
};

/**
 * emu_bus_set_fault() - arm (or with mode NONE clear) a fault; wakes a hung
 * transfer when cleared. Return: 0, -EINVAL.
 */
int emu_bus_set_fault(struct bus *bus, uint16_t addr, const struct emu_fault *fault);
/**
 * emu_bus_set_time() - freeze the bus's virtual clock at @t_s (< 0 lets it run).
 * A frozen clock still moves by bus_msleep(), so a driver's conversion waits
 * elapse while readings stay the same from run to run.
 */
void emu_bus_set_time(struct bus *bus, double t_s);
/**
 * emu_bus_transfers() - transfers seen at @addr since attach (tests: "mode
 * switch only when needed").
 */
unsigned long emu_bus_transfers(struct bus *bus, uint16_t addr);

#endif /* IIOWIRE_EMU_H */
