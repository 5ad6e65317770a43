/*
 * mqtt.c - `iiowire-mqtt`, the bridge from one iiowired to an MQTT broker,
 * with Home Assistant discovery.
 *
 * Place in the flow: iiowired -> wire -> libiiowire (consumer API, WATCH)
 * -> fleet.c -> *iiowire-mqtt* -> libmosquitto -> broker. Each consumer
 * channel is a topic PREFIX/BOARD/CONSUMER/CHANNEL holding the processed
 * value in the channel's unit (V, °C, A, lx, ...), published (QoS 1,
 * retained) when WATCH shows its provider attribute changed and every
 * --interval; a channel whose read fails is marked unavailable on its own
 * availability topic instead of keeping a stale value. Chosen attributes
 * (--attr) are published as text; --command ones also take writes on a
 * .../set topic, checked here and by the daemon's own --allow-write, with
 * the answer on .../result. Broker and daemon are reconnected independently
 * with backoff; the broker's last will marks the board offline. One thread:
 * libmosquitto runs on our poll loop (mosquitto_loop_read/write/misc).
 * It never writes an attribute it was not told to, never passes on a payload
 * it has not checked, and never speaks the wire protocol itself.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <mosquitto.h>

#include "fleet.h"
#include "iiowire.h"
#include "iiowire_tool.h"

#define MQ_EXIT_OK		0
#define MQ_EXIT_ERROR		1
#define MQ_EXIT_USAGE		2

#define MQ_DEFAULT_PREFIX		"iiowire"
#define MQ_DEFAULT_DISCOVERY_PREFIX	"homeassistant"
#define MQ_DEFAULT_PORT			1883
#define MQ_DEFAULT_TLS_PORT		8883
/* Every value is published at least this often (ms), changed or not. */
#define MQ_DEFAULT_INTERVAL_MS		10000
/* How often the daemon reads each provider attribute for changes (WATCH). */
#define MQ_DEFAULT_WATCH_MS		100
#define MQ_DEFAULT_KEEPALIVE_S		30
/* Reconnect waits, broker and daemon each: doubling from min to max. */
#define MQ_RETRY_MIN_MS			250
#define MQ_RETRY_MAX_MS			10000
/* Longest --prefix / --discovery-prefix. */
#define MQ_PREFIX_MAX_BYTES		128
/* Longest topic built (prefix, board, two names, a suffix). */
#define MQ_TOPIC_MAX_BYTES		512
/* Longest command payload taken; longer ones are refused. */
#define MQ_COMMAND_MAX_BYTES		64
/* Most --attr and --command attributes. */
#define MQ_ATTRS_MAX			32
/* Longest attribute text published (a sysfs page). */
#define MQ_ATTR_VALUE_MAX_BYTES		4097
/* Most loop_write rounds to flush the last messages at exit. */
#define MQ_FLUSH_ROUNDS			50
/*
 * Home Assistant births (DISCOVERY/status "online") answered at most once per
 * this many ms: the first at once, the rest of a burst by one republish when
 * the interval ends (2,000 births once cost 18,008 config publishes).
 */
#define MQ_BIRTH_DEBOUNCE_MS		1000
#define MQ_QOS				1

static const char mq_online[] = "online";
static const char mq_offline[] = "offline";

/* A consumer channel's topics and what was last published on them. */
struct mq_chan {
	struct fleet_chan *fc;		/* borrowed from mq.set */
	char uid[MQ_TOPIC_MAX_BYTES];	/* Home Assistant unique_id */
	char state[MQ_TOPIC_MAX_BYTES];
	char avail[MQ_TOPIC_MAX_BYTES];
	char config[MQ_TOPIC_MAX_BYTES];
	char last_raw[FLEET_VALUE_MAX_BYTES];
	bool have_raw;			/* last_raw holds the watched attribute's text */
	bool available;			/* "online" was published on avail */
	bool down_reported;		/* the current outage was logged and published */
	bool watched;
};

/* An --attr or --command attribute. */
struct mq_attr {
	char device[FLEET_NAME_MAX_BYTES];
	char attr[FLEET_ATTR_MAX_BYTES];
	bool command;			/* --command: takes writes */
	bool have_last;
	char last[FLEET_VALUE_MAX_BYTES * 4];	/* the text published last */
	bool writable;			/* the daemon lists it writable (checked at probe) */
	char uid[MQ_TOPIC_MAX_BYTES];
	char state[MQ_TOPIC_MAX_BYTES];
	char set[MQ_TOPIC_MAX_BYTES];
	char result[MQ_TOPIC_MAX_BYTES];
	char config[MQ_TOPIC_MAX_BYTES];
	bool retained_logged;		/* a retained command was ignored and said so */
};

struct mq {
	/* options */
	const char *address;
	const char *token_file;
	int timeout_ms;
	const char *broker;
	char host[256];
	int port;
	bool tls;
	const char *username, *password, *cafile, *capath, *cert, *key, *tls_version;
	bool insecure;
	const char *client_id;
	char prefix[MQ_PREFIX_MAX_BYTES + 1];
	char disc_prefix[MQ_PREFIX_MAX_BYTES + 1];
	bool discovery;
	char board[FLEET_NAME_MAX_BYTES];
	const char *consumers[FLEET_CONSUMERS_MAX];
	int nconsumers;
	bool all_channels;		/* --all-channels: every device channel, not the maps' */
	struct mq_attr attrs[MQ_ATTRS_MAX];
	int nattrs;
	int interval_ms;
	int watch_ms;
	int keepalive_s;

	/* broker */
	struct mosquitto *mosq;		/* owned */
	bool broker_up;
	bool broker_started;		/* connect_async was called: reconnect from now on */
	bool broker_connecting;
	bool broker_warned;
	int64_t broker_retry_at;
	int64_t broker_deadline;	/* a connect not answered by then is given up */
	struct tool_backoff broker_backoff;
	char status[MQ_TOPIC_MAX_BYTES];
	int64_t birth_at;		/* the last birth answered (mq_birth_due()) */
	bool birth_pending;		/* a birth came since; answered at birth_at + debounce */

	/* daemon */
	struct iiowire *w;		/* owned */
	bool daemon_warned;
	int64_t daemon_retry_at;
	struct tool_backoff daemon_backoff;
	unsigned int gen;		/* iiowire_reconnect_count() at probe */
	long long reloads;		/* STATS reloads at probe */
	struct fleet_set set;		/* owned */
	struct mq_chan *chans;		/* owned, nold of them; fc set while connected */
	int nold;
	char server_version[64];
	int64_t next_tick;
};

/* Everything goes to stderr (the journal under systemd), named. */
#define mq_log(...)	tool_log("iiowire-mqtt", __VA_ARGS__)

/* ---- broker side -------------------------------------------------------- */

/* Publish @text (QoS 1); a broker away drops it (everything is sent again on connect). */
static void mq_pub(struct mq *m, const char *topic, const char *text, bool retain)
{
	if (!m->broker_up)
		return;
	mosquitto_publish(m->mosq, NULL, topic, (int)strlen(text), text, MQ_QOS, retain);
}

/* The board's availability: online while both the broker and the daemon are reached. */
static void mq_pub_status(struct mq *m)
{
	mq_pub(m, m->status, m->w && m->chans ? mq_online : mq_offline, true);
}

/* A JSON object as text into a topic. */
static void mq_pub_json(struct mq *m, const char *topic, cJSON *obj)
{
	char *text = cJSON_PrintUnformatted(obj);

	if (text)
		mq_pub(m, topic, text, true);
	free(text);
}

/* The discovery "device" object of the board and the availability list. */
static void mq_disc_common(const struct mq *m, cJSON *o, const char *avail)
{
	cJSON *dev = cJSON_AddObjectToObject(o, "device");
	cJSON *ids = cJSON_AddArrayToObject(dev, "identifiers");
	cJSON *av = cJSON_AddArrayToObject(o, "availability"), *a;
	char id[MQ_TOPIC_MAX_BYTES];

	snprintf(id, sizeof(id), "iiowire_%s", m->board);
	cJSON_AddItemToArray(ids, cJSON_CreateString(id));
	cJSON_AddStringToObject(dev, "name", m->board);
	cJSON_AddStringToObject(dev, "manufacturer", "iiowire");
	cJSON_AddStringToObject(dev, "model", "iiowired");
	if (m->server_version[0])
		cJSON_AddStringToObject(dev, "sw_version", m->server_version);
	a = cJSON_CreateObject();
	cJSON_AddStringToObject(a, "topic", m->status);
	cJSON_AddItemToArray(av, a);
	if (avail) {
		a = cJSON_CreateObject();
		cJSON_AddStringToObject(a, "topic", avail);
		cJSON_AddItemToArray(av, a);
		cJSON_AddStringToObject(o, "availability_mode", "all");
	}
}

/* Retained discovery config of one channel (homeassistant/sensor/.../config). */
static void mq_disc_chan(struct mq *m, const struct mq_chan *c)
{
	cJSON *o = cJSON_CreateObject();
	char name[2 * FLEET_NAME_MAX_BYTES + 2];

	snprintf(name, sizeof(name), "%s %s", c->fc->consumer, c->fc->channel);
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "unique_id", c->uid);
	cJSON_AddStringToObject(o, "object_id", c->uid);
	cJSON_AddStringToObject(o, "state_topic", c->state);
	if (c->fc->unit->ha_class)
		cJSON_AddStringToObject(o, "device_class", c->fc->unit->ha_class);
	if (c->fc->unit->ha_unit)
		cJSON_AddStringToObject(o, "unit_of_measurement", c->fc->unit->ha_unit);
	cJSON_AddStringToObject(o, "state_class", "measurement");
	mq_disc_common(m, o, c->avail);
	mq_pub_json(m, c->config, o);
	cJSON_Delete(o);
}

/* Discovery config of an --attr (a sensor) or a writable --command (a text entity). */
static void mq_disc_attr(struct mq *m, const struct mq_attr *a)
{
	cJSON *o = cJSON_CreateObject();
	char name[FLEET_NAME_MAX_BYTES + FLEET_ATTR_MAX_BYTES + 2];

	snprintf(name, sizeof(name), "%s %s", a->device, a->attr);
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "unique_id", a->uid);
	cJSON_AddStringToObject(o, "object_id", a->uid);
	cJSON_AddStringToObject(o, "state_topic", a->state);
	if (a->command && a->writable)
		cJSON_AddStringToObject(o, "command_topic", a->set);
	mq_disc_common(m, o, NULL);
	mq_pub_json(m, a->config, o);
	cJSON_Delete(o);
}

/*
 * Everything a (re)connected broker needs: status, discovery and, with
 * @subscribe, the subscriptions (not again on Home Assistant's birth
 * message: a retained one would come back on each subscribe).
 */
static void mq_broker_announce(struct mq *m, bool subscribe)
{
	char topic[MQ_TOPIC_MAX_BYTES];
	int i;

	mq_pub_status(m);
	for (i = 0; m->w && m->chans && i < m->set.n; i++) {
		if (m->discovery)
			mq_disc_chan(m, &m->chans[i]);
		/* the next read publishes the availability again (a new broker has none) */
		if (subscribe)
			m->chans[i].available = m->chans[i].down_reported = false;
	}
	for (i = 0; m->discovery && i < m->nattrs; i++)
		mq_disc_attr(m, &m->attrs[i]);
	for (i = 0; subscribe && i < m->nattrs; i++)
		if (m->attrs[i].command)
			mosquitto_subscribe(m->mosq, NULL, m->attrs[i].set, MQ_QOS);
	if (subscribe && m->discovery) {
		/* Home Assistant's birth message: it restarted and wants the configs again */
		snprintf(topic, sizeof(topic), "%s/status", m->disc_prefix);
		mosquitto_subscribe(m->mosq, NULL, topic, MQ_QOS);
	}
}

static void mq_broker_lost(struct mq *m, const char *why)
{
	int wait;

	m->broker_up = false;
	m->broker_connecting = false;
	wait = tool_backoff_next(&m->broker_backoff);
	m->broker_retry_at = tool_now_ms() + wait;
	if (!m->broker_warned)
		mq_log("broker %s:%d: %s; retrying (backoff up to %d ms)", m->host, m->port, why,
		       MQ_RETRY_MAX_MS);
	m->broker_warned = true;
}

static void mq_on_connect(struct mosquitto *mosq, void *data, int rc)
{
	struct mq *m = data;

	(void)mosq;
	if (rc != 0) {
		/* refused (credentials, protocol): a clear word, then the backoff */
		m->broker_warned = false;
		mq_broker_lost(m, mosquitto_connack_string(rc));
		mosquitto_disconnect(m->mosq);
		return;
	}
	m->broker_up = true;
	m->broker_connecting = false;
	if (m->broker_warned)
		mq_log("broker %s:%d: connected", m->host, m->port);
	m->broker_warned = false;
	tool_backoff_reset(&m->broker_backoff);
	mq_broker_announce(m, true);
	/* values go out again: a restarted broker without persistence has none */
	m->next_tick = 0;
}

static void mq_on_disconnect(struct mosquitto *mosq, void *data, int rc)
{
	struct mq *m = data;

	(void)mosq;
	if (m->broker_up || m->broker_connecting)
		mq_broker_lost(m, rc ? mosquitto_strerror(rc) : "disconnected");
}

/* Start (or restart) the broker connection; the answer comes to mq_on_connect(). */
static void mq_broker_connect(struct mq *m)
{
	int rc;

	m->broker_connecting = true;
	m->broker_deadline = tool_now_ms() + m->timeout_ms;
	if (!m->broker_started)
		rc = mosquitto_connect_async(m->mosq, m->host, m->port, m->keepalive_s);
	else
		rc = mosquitto_reconnect_async(m->mosq);
	m->broker_started = true;
	if (rc != MOSQ_ERR_SUCCESS)
		mq_broker_lost(m, rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
}

/* ---- topics ------------------------------------------------------------- */

/*
 * mq_fmt() for topics and ids: the inputs' limits (prefix 128 bytes,
 * names 63 and 95) keep every topic under MQ_TOPIC_MAX_BYTES, which a
 * va_list hides from the compiler's truncation guesses; a cut would still
 * end in a NUL.
 */
static void mq_fmt(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void mq_fmt(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, len, fmt, ap);
	va_end(ap);
}

/* One topic level from a daemon's name: '/', '+', '#' and controls become '_'. */
static void mq_level(char *out, size_t len, const char *in)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++)
		out[i] = (in[i] == '/' || in[i] == '+' || in[i] == '#' ||
			  iscntrl((unsigned char)in[i])) ? '_' : in[i];
	if (len)
		out[i] = '\0';
}

/* @out = PREFIX/BOARD/@a/@b, the two names made topic levels. */
static void mq_topic(const struct mq *m, char *out, size_t len, const char *a, const char *b)
{
	char la[FLEET_NAME_MAX_BYTES], lb[FLEET_ATTR_MAX_BYTES];

	mq_level(la, sizeof(la), a);
	mq_level(lb, sizeof(lb), b);
	mq_fmt(out, len, "%s/%s/%s/%s", m->prefix, m->board, la, lb);
}

/* unique_id and discovery topic: DISC/@component/iiowire_BOARD/ID/config. */
static void mq_disc_names(const struct mq *m, char *uid, char *config, const char *component,
			  const char *a, const char *b)
{
	char raw[MQ_TOPIC_MAX_BYTES], node[FLEET_NAME_MAX_BYTES + 16];

	mq_fmt(raw, sizeof(raw), "iiowire_%s_%s_%s", m->board, a, b);
	fleet_ident(uid, MQ_TOPIC_MAX_BYTES, raw);
	mq_fmt(raw, sizeof(raw), "iiowire_%s", m->board);
	fleet_ident(node, sizeof(node), raw);
	mq_fmt(config, MQ_TOPIC_MAX_BYTES, "%s/%s/%s/%s/config", m->disc_prefix, component,
		 node, uid);
}

static void mq_chan_topics(const struct mq *m, struct mq_chan *c)
{
	mq_topic(m, c->state, sizeof(c->state), c->fc->consumer, c->fc->channel);
	mq_fmt(c->avail, sizeof(c->avail), "%.*s/availability", MQ_TOPIC_MAX_BYTES - 14,
		 c->state);
	mq_disc_names(m, c->uid, c->config, "sensor", c->fc->consumer, c->fc->channel);
}

static void mq_attr_topics(const struct mq *m, struct mq_attr *a)
{
	mq_topic(m, a->state, sizeof(a->state), a->device, a->attr);
	mq_fmt(a->set, sizeof(a->set), "%.*s/set", MQ_TOPIC_MAX_BYTES - 5, a->state);
	mq_fmt(a->result, sizeof(a->result), "%.*s/result", MQ_TOPIC_MAX_BYTES - 8, a->state);
	mq_disc_names(m, a->uid, a->config, a->command ? "text" : "sensor", a->device, a->attr);
}

/* ---- daemon side -------------------------------------------------------- */

/* Mark @c unavailable (its read failed with @err), saying so once per outage. */
static void mq_chan_unavailable(struct mq *m, struct mq_chan *c, int err, const char *msg)
{
	c->have_raw = false;
	if (!c->available && c->down_reported)
		return;
	mq_log("%s %s: %s: %s; published as unavailable", c->fc->consumer, c->fc->channel,
	       tool_errname(err), msg);
	mq_pub(m, c->avail, mq_offline, true);
	c->available = false;
	c->down_reported = true;
}

/* Read @c's value and publish it. Return: 0, or a link error (-errno). */
static int mq_chan_publish(struct mq *m, struct mq_chan *c)
{
	char text[FLEET_VALUE_MAX_BYTES];
	int64_t milli;
	int ret = fleet_read(c->fc, &milli);

	if (ret < 0 && fleet_is_link_err(ret))
		return ret;
	if (ret == 0)
		ret = fleet_format(text, sizeof(text), milli, c->fc->unit->ha_div);
	if (ret < 0) {
		mq_chan_unavailable(m, c, ret, iiowire_errmsg(m->w));
		return 0;
	}
	if (!c->available) {
		if (c->down_reported)
			mq_log("%s %s: readable again", c->fc->consumer, c->fc->channel);
		mq_pub(m, c->avail, mq_online, true);
		c->available = true;
		c->down_reported = false;
	}
	mq_pub(m, c->state, text, true);
	return 0;
}

/* Publish an --attr's text if it is not what was published last (@force: anyway). */
static void mq_attr_send(struct mq *m, struct mq_attr *a, const char *text, bool force)
{
	size_t n;

	if (!force && a->have_last && strcmp(a->last, text) == 0)
		return;
	n = strlen(text);
	/* a longer text than last[] holds is never taken for unchanged */
	a->have_last = n < sizeof(a->last);
	if (a->have_last)
		memcpy(a->last, text, n + 1);
	mq_pub(m, a->state, text, true);
}

/* A WATCH event of an --attr: published when it changed. */
static void mq_attr_changed(struct mq *m, struct mq_attr *a, const char *text)
{
	mq_attr_send(m, a, text, false);
}

/* Read an --attr and publish its text. Return: 0, or a link error. */
static int mq_attr_publish(struct mq *m, struct mq_attr *a)
{
	char text[MQ_ATTR_VALUE_MAX_BYTES];
	int ret = iiowire_attr_read(m->w, a->device, a->attr, text, sizeof(text));

	if (ret < 0 && fleet_is_link_err(ret))
		return ret;
	if (ret >= 0)
		mq_attr_send(m, a, text, true);
	return 0;
}

/*
 * The daemon's count of board reloads (STATS reloads) into *@out (-1 if absent).
 * Return: 0, or -errno.
 */
static int mq_reloads(struct mq *m, long long *out)
{
	struct iiowire_stat *st = NULL;
	int n = iiowire_stats(m->w, &st), i;

	*out = -1;
	for (i = 0; i < n; i++)
		if (strcmp(st[i].name, "reloads") == 0)
			*out = st[i].value;
	iiowire_free(st);
	return n < 0 ? n : 0;
}

/*
 * Withdraw the discovery configs (and retained values) of channels @old has
 * that @m->chans no longer has: an empty retained payload deletes them.
 * old[i].fc is stale by now: only the topic strings are used.
 */
static void mq_withdraw(struct mq *m, const struct mq_chan *old, int nold)
{
	int i, j;

	for (i = 0; i < nold; i++) {
		for (j = 0; j < m->set.n; j++)
			if (strcmp(old[i].uid, m->chans[j].uid) == 0)
				break;
		if (j < m->set.n)
			continue;
		mq_log("%s: gone from the daemon; discovery config removed", old[i].uid);
		mq_pub(m, old[i].config, "", true);
		mq_pub(m, old[i].state, "", true);
		mq_pub(m, old[i].avail, "", true);
	}
}

/* Watch @c's provider attribute; without one (or over the daemon's limit) only --interval. */
static void mq_chan_watch(struct mq *m, struct mq_chan *c)
{
	int ret;

	if (!c->fc->watch_attr[0])
		return;
	ret = iiowire_watch_start(m->w, c->fc->device_id, c->fc->watch_attr, m->watch_ms);
	c->watched = ret == 0;
	if (ret < 0)
		mq_log("%s %s: WATCH %s %s: %s: %s; published every --interval only",
		       c->fc->consumer, c->fc->channel, c->fc->device_id, c->fc->watch_attr,
		       tool_errname(ret), iiowire_errmsg(m->w));
}

/* Check each --attr against the daemon's attribute list (a --command must be writable). */
static void mq_attrs_check(struct mq *m)
{
	struct iiowire_attr *list = NULL;
	struct mq_attr *a;
	int i, j, n;

	for (i = 0; i < m->nattrs; i++) {
		a = &m->attrs[i];
		a->writable = false;
		n = iiowire_attr_list(m->w, a->device, &list);
		for (j = 0; j < n; j++)
			if (strcmp(list[j].name, a->attr) == 0)
				a->writable = list[j].access & IIOWIRE_ATTR_WRITE;
		iiowire_free(list);
		list = NULL;
		if (a->command && !a->writable)
			mq_log("--command %s:%s: not a writable attribute of the daemon: no "
			       "command topic", a->device, a->attr);
		if (iiowire_watch_start(m->w, a->device, a->attr, m->watch_ms) < 0)
			mq_log("--attr %s:%s: %s", a->device, a->attr, iiowire_errmsg(m->w));
	}
}

/*
 * (Re)learn the daemon's channels: probe, topics, watches, attributes; then
 * withdraw what a reload removed and announce the rest. Return: 0, or -errno
 * (@msg filled).
 */
static int mq_probe(struct mq *m, char *msg, size_t len)
{
	struct mq_chan *old = m->chans;
	int nold = m->nold, i, ret;
	struct iiowire_version v;

	m->chans = NULL;
	fleet_release(&m->set);
	/* a reload may have taken channels away: watch only what is there now */
	iiowire_watch_stop(m->w, NULL, NULL);
	m->gen = iiowire_reconnect_count(m->w);
	ret = mq_reloads(m, &m->reloads);
	if (ret < 0) {
		snprintf(msg, len, "stats: %s", iiowire_errmsg(m->w));
		m->chans = old;
		return ret;
	}
	msg[0] = '\0';
	ret = fleet_probe(m->w, m->consumers, m->nconsumers, m->all_channels, &m->set, msg, len);
	if (ret >= 0 && msg[0])
		mq_log("%s: left out", msg);
	if (ret >= 0 && !(m->chans = calloc((size_t)m->set.n + 1, sizeof(*m->chans))))
		ret = -ENOMEM;
	if (ret < 0) {
		/* keep the old topics for the next try's withdrawal */
		fleet_release(&m->set);
		m->chans = old;
		return ret;
	}
	if (iiowire_server_version(m->w, &v) == 0)
		snprintf(m->server_version, sizeof(m->server_version), "%s", v.server);
	for (i = 0; i < m->set.n; i++) {
		m->chans[i].fc = &m->set.chans[i];
		mq_chan_topics(m, &m->chans[i]);
		mq_chan_watch(m, &m->chans[i]);
	}
	mq_attrs_check(m);
	m->nold = m->set.n;
	mq_withdraw(m, old, nold);
	free(old);
	mq_broker_announce(m, false);
	return 0;
}

/* The daemon is away (@err): board offline, retry later with backoff. */
static void mq_daemon_down(struct mq *m, int err, const char *msg)
{
	int wait = tool_backoff_next(&m->daemon_backoff), i;

	if (!m->daemon_warned)
		mq_log("daemon %s: %s: %s; board published offline, retrying (backoff up to %d ms)",
		       m->address ? m->address : IIOWIRE_DEFAULT_ADDRESS, tool_errname(err), msg,
		       MQ_RETRY_MAX_MS);
	m->daemon_warned = true;
	iiowire_close(m->w);
	m->w = NULL;
	/* the topics stay known, so the next probe can withdraw what is gone */
	for (i = 0; m->chans && i < m->set.n; i++)
		m->chans[i].fc = NULL;
	fleet_release(&m->set);
	mq_pub_status(m);
	m->daemon_retry_at = tool_now_ms() + wait;
}

/* Connect to the daemon and probe. Return: 0, or -errno (reported, retry scheduled). */
static int mq_daemon_up(struct mq *m)
{
	char msg[TOOL_MSG_MAX_BYTES];
	int ret;

	m->w = tool_connect(m->address, m->timeout_ms, m->token_file, msg, sizeof(msg));
	if (!m->w) {
		ret = -errno;
		mq_daemon_down(m, ret, msg);
		return ret;
	}
	ret = mq_probe(m, msg, sizeof(msg));
	if (ret < 0) {
		mq_daemon_down(m, ret, msg);
		return ret;
	}
	/* the ready line, as mosquitto's: what goes where (again after an outage) */
	mq_log("daemon %s: connected; publishing %d channels to %s:%d under %s/%s/",
	       iiowire_address(m->w), m->set.n, m->host, m->port, m->prefix, m->board);
	m->daemon_warned = false;
	tool_backoff_reset(&m->daemon_backoff);
	mq_pub_status(m);
	m->next_tick = 0;
	return 0;
}

/* A WATCH event: publish the channel (or attribute) it belongs to if it changed. */
static int mq_event(struct mq *m, const struct iiowire_event *ev)
{
	struct mq_chan *c;
	int i, ret = 0;

	for (i = 0; i < m->set.n && ret == 0; i++) {
		c = &m->chans[i];
		if (!c->watched || strcmp(c->fc->device_id, ev->device) != 0 ||
		    strcmp(c->fc->watch_attr, ev->attr) != 0)
			continue;
		if (ev->error) {
			mq_chan_unavailable(m, c, ev->error, iiowire_strerror(ev->error));
			continue;
		}
		if (c->have_raw && strcmp(c->last_raw, ev->value) == 0)
			continue;
		snprintf(c->last_raw, sizeof(c->last_raw), "%s", ev->value);
		c->have_raw = true;
		ret = mq_chan_publish(m, c);
	}
	for (i = 0; i < m->nattrs; i++)
		if (!ev->error && strcmp(m->attrs[i].device, ev->device) == 0 &&
		    strcmp(m->attrs[i].attr, ev->attr) == 0)
			mq_attr_changed(m, &m->attrs[i], ev->value);
	return ret;
}

/* Take every event queued. Return: 0, or a link error. */
static int mq_events(struct mq *m)
{
	struct iiowire_event ev;
	int ret;

	while ((ret = iiowire_event_next(m->w, &ev, 0)) == 1) {
		ret = mq_event(m, &ev);
		if (ret < 0)
			return ret;
	}
	return ret;
}

/* Every --interval: publish every value, and re-probe after a restart or a reload. */
static int mq_tick(struct mq *m)
{
	char msg[TOOL_MSG_MAX_BYTES];
	long long reloads;
	int i, ret;

	ret = mq_reloads(m, &reloads);
	if (ret < 0 && fleet_is_link_err(ret))
		return ret;
	if (iiowire_reconnect_count(m->w) != m->gen || reloads != m->reloads) {
		mq_log("daemon %s: %s; channels looked up again", iiowire_address(m->w),
		       reloads != m->reloads ? "board reloaded" : "reconnected");
		ret = mq_probe(m, msg, sizeof(msg));
		if (ret < 0) {
			mq_daemon_down(m, ret, msg);
			return 0;
		}
	}
	for (i = 0; i < m->set.n; i++) {
		ret = mq_chan_publish(m, &m->chans[i]);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < m->nattrs; i++) {
		ret = mq_attr_publish(m, &m->attrs[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- commands ----------------------------------------------------------- */

/*
 * Whether a command payload may be written: 1..MQ_COMMAND_MAX_BYTES bytes of
 * [A-Za-z0-9._+-], what a number or a sysfs enum value is made of. Anything
 * else (blanks, newlines, quotes, NULs, UTF-8) is refused before the daemon
 * sees it. Return: NULL if fine, else why not (static).
 */
static const char *mq_payload_refusal(const char *p, int len)
{
	int i;

	if (len <= 0)
		return "empty";
	if (len > MQ_COMMAND_MAX_BYTES)
		return "longer than 64 bytes";
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)p[i]) && !strchr("._+-", p[i]))
			return "a byte outside [A-Za-z0-9._+-]";
	return NULL;
}

/* A message on @a's set topic: check, write, answer on the result topic, publish the value. */
static void mq_command(struct mq *m, struct mq_attr *a, const char *payload, int len)
{
	char value[MQ_COMMAND_MAX_BYTES + 1], answer[MQ_TOPIC_MAX_BYTES];
	const char *why = mq_payload_refusal(payload, len);
	int ret;

	if (why) {
		mq_log("%s: payload refused (%s), nothing written", a->set, why);
		snprintf(answer, sizeof(answer), "EINVAL payload refused: %s", why);
		mq_pub(m, a->result, answer, false);
		return;
	}
	memcpy(value, payload, (size_t)len);
	value[len] = '\0';
	if (!m->w || !a->writable) {
		snprintf(answer, sizeof(answer), "%s", !m->w ? "ENOTCONN daemon not reached" :
			 "EACCES not a writable attribute");
		mq_pub(m, a->result, answer, false);
		return;
	}
	ret = iiowire_attr_write(m->w, a->device, a->attr, value);
	if (ret < 0) {
		mq_log("%s %s <- %s: %s: %s", a->device, a->attr, value, tool_errname(ret),
		       iiowire_errmsg(m->w));
		snprintf(answer, sizeof(answer), "%s %s", tool_errname(ret), iiowire_errmsg(m->w));
	} else {
		snprintf(answer, sizeof(answer), "OK");
	}
	mq_pub(m, a->result, answer, false);
	mq_attr_publish(m, a);
}

/*
 * A retained message on a set topic is an old command the broker replays on
 * every subscribe (each start, each reconnect): writing it would undo the
 * writes made since. Only commands sent while we listen are taken, as Home
 * Assistant's own command topics expect; the first such replay is logged.
 */
static void mq_command_retained(struct mq_attr *a)
{
	if (a->retained_logged)
		return;
	a->retained_logged = true;
	mq_log("%s: a retained message ignored, nothing written (commands are taken only as "
	       "they are sent; clear it with an empty retained publish)", a->set);
}

/* Answer a birth if the debounce interval has passed since the last one answered. */
static void mq_birth_due(struct mq *m, int64_t now)
{
	if (!m->birth_pending || now - m->birth_at < MQ_BIRTH_DEBOUNCE_MS)
		return;
	m->birth_pending = false;
	m->birth_at = now;
	mq_broker_announce(m, false);
}

static void mq_on_message(struct mosquitto *mosq, void *data, const struct mosquitto_message *msg)
{
	struct mq *m = data;
	char birth[MQ_TOPIC_MAX_BYTES];
	int i;

	(void)mosq;
	for (i = 0; i < m->nattrs; i++)
		if (m->attrs[i].command && strcmp(msg->topic, m->attrs[i].set) == 0) {
			if (msg->retain)
				mq_command_retained(&m->attrs[i]);
			else
				mq_command(m, &m->attrs[i], msg->payload, msg->payloadlen);
			return;
		}
	snprintf(birth, sizeof(birth), "%s/status", m->disc_prefix);
	if (strcmp(msg->topic, birth) == 0 && msg->payloadlen == (int)strlen(mq_online) &&
	    memcmp(msg->payload, mq_online, strlen(mq_online)) == 0) {
		m->birth_pending = true;
		mq_birth_due(m, tool_now_ms());
	}
}

/* ---- the loop ----------------------------------------------------------- */

/* Until the next thing due: the tick, a reconnect, or libmosquitto's keepalive (1 s). */
static int mq_poll_timeout(const struct mq *m, int64_t now)
{
	int64_t due = now + 1000;

	if (m->w && m->next_tick < due)
		due = m->next_tick;
	if (!m->w && m->daemon_retry_at < due)
		due = m->daemon_retry_at;
	if (!m->broker_up && !m->broker_connecting && m->broker_retry_at < due)
		due = m->broker_retry_at;
	if (m->broker_connecting && m->broker_deadline < due)
		due = m->broker_deadline;
	if (m->birth_pending && m->birth_at + MQ_BIRTH_DEBOUNCE_MS < due)
		due = m->birth_at + MQ_BIRTH_DEBOUNCE_MS;
	return due <= now ? 0 : (int)(due - now);
}

/* Run libmosquitto's side of one wakeup on the broker socket. */
static void mq_broker_io(struct mq *m, short revents)
{
	int rc = MOSQ_ERR_SUCCESS;

	if (revents & (POLLIN | POLLHUP | POLLERR))
		rc = mosquitto_loop_read(m->mosq, 1);
	if (rc == MOSQ_ERR_SUCCESS && (revents & POLLOUT))
		rc = mosquitto_loop_write(m->mosq, 1);
	if (rc == MOSQ_ERR_SUCCESS)
		rc = mosquitto_loop_misc(m->mosq);
	if (rc != MOSQ_ERR_SUCCESS && (m->broker_up || m->broker_connecting))
		mq_broker_lost(m, rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
}

/* The daemon's side: what is due now. */
static void mq_daemon_work(struct mq *m, int64_t now)
{
	int ret = 0;

	if (!m->w && now >= m->daemon_retry_at && mq_daemon_up(m) < 0)
		return;
	if (m->w && now >= m->next_tick) {
		m->next_tick = now + m->interval_ms;
		ret = mq_tick(m);
	}
	/* replies to our reads may have queued events: the fd will not say so */
	if (m->w && ret == 0)
		ret = mq_events(m);
	if (ret < 0 && m->w)
		mq_daemon_down(m, ret, iiowire_errmsg(m->w));
}

/* Clean exit: the board goes offline (a clean disconnect sends no will), flushed. */
static void mq_shutdown(struct mq *m)
{
	struct pollfd pfd = { .events = POLLOUT };
	int i;

	if (!m->broker_up)
		return;
	/* our own disconnect: mq_on_disconnect() must not take it for a lost broker */
	m->broker_up = false;
	mosquitto_publish(m->mosq, NULL, m->status, (int)strlen(mq_offline), mq_offline, MQ_QOS,
			  true);
	mosquitto_disconnect(m->mosq);
	for (i = 0; i < MQ_FLUSH_ROUNDS && mosquitto_want_write(m->mosq); i++) {
		pfd.fd = mosquitto_socket(m->mosq);
		if (pfd.fd < 0 || poll(&pfd, 1, 100) < 0 ||
		    mosquitto_loop_write(m->mosq, 1) != MOSQ_ERR_SUCCESS)
			break;
	}
}

/* Serve until SIGINT/SIGTERM. Return: the exit status. */
static int mq_run(struct mq *m)
{
	struct pollfd pfd[3];
	sigset_t old;
	int64_t now;
	int sfd = tool_signalfd_open(&old);

	if (sfd < 0) {
		mq_log("signalfd: %s", strerror(-sfd));
		return MQ_EXIT_ERROR;
	}
	for (;;) {
		now = tool_now_ms();
		if (!m->broker_up && !m->broker_connecting && now >= m->broker_retry_at)
			mq_broker_connect(m);
		if (m->broker_connecting && now >= m->broker_deadline) {
			mosquitto_disconnect(m->mosq);
			mq_broker_lost(m, "no answer in time (--timeout)");
		}
		mq_daemon_work(m, now);
		mq_birth_due(m, now);
		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = mosquitto_socket(m->mosq), .events = POLLIN };
		if (mosquitto_want_write(m->mosq))
			pfd[1].events |= POLLOUT;
		pfd[2] = (struct pollfd){ .fd = m->w ? iiowire_fd(m->w) : -1, .events = POLLIN };
		if (poll(pfd, 3, mq_poll_timeout(m, tool_now_ms())) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents)
			break;
		if (pfd[1].fd >= 0)
			mq_broker_io(m, pfd[1].revents);
	}
	mq_shutdown(m);
	tool_signalfd_close(sfd, &old);
	return MQ_EXIT_OK;
}

/* ---- options ------------------------------------------------------------ */

enum {
	MQ_OPT_DISC_PREFIX = 256,
	MQ_OPT_NO_DISC,
	MQ_OPT_ATTR,
	MQ_OPT_COMMAND,
	MQ_OPT_CAFILE,
	MQ_OPT_CAPATH,
	MQ_OPT_CERT,
	MQ_OPT_KEY,
	MQ_OPT_INSECURE,
	MQ_OPT_TLS_VERSION,
	MQ_OPT_ID,
	MQ_OPT_KEEPALIVE,
	MQ_OPT_CONFIG,
	MQ_OPT_ALL_CHANNELS,
};

static const struct option mq_opts[] = {
	IIOWIRE_TOOL_COMMON_OPTIONS,
	{ "broker", required_argument, NULL, 'b' },
	{ "consumer", required_argument, NULL, 'c' },
	{ "board", required_argument, NULL, 'n' },
	{ "prefix", required_argument, NULL, 'p' },
	{ "interval", required_argument, NULL, 'i' },
	{ "watch-interval", required_argument, NULL, 'w' },
	{ "username", required_argument, NULL, 'u' },
	{ "pw", required_argument, NULL, 'P' },
	{ "version", no_argument, NULL, 'V' },
	{ "discovery-prefix", required_argument, NULL, MQ_OPT_DISC_PREFIX },
	{ "no-discovery", no_argument, NULL, MQ_OPT_NO_DISC },
	{ "attr", required_argument, NULL, MQ_OPT_ATTR },
	{ "command", required_argument, NULL, MQ_OPT_COMMAND },
	{ "cafile", required_argument, NULL, MQ_OPT_CAFILE },
	{ "capath", required_argument, NULL, MQ_OPT_CAPATH },
	{ "cert", required_argument, NULL, MQ_OPT_CERT },
	{ "key", required_argument, NULL, MQ_OPT_KEY },
	{ "insecure", no_argument, NULL, MQ_OPT_INSECURE },
	{ "tls-version", required_argument, NULL, MQ_OPT_TLS_VERSION },
	{ "id", required_argument, NULL, MQ_OPT_ID },
	{ "keepalive", required_argument, NULL, MQ_OPT_KEEPALIVE },
	{ "config", required_argument, NULL, MQ_OPT_CONFIG },
	{ "all-channels", no_argument, NULL, MQ_OPT_ALL_CHANNELS },
	{ NULL, 0, NULL, 0 },
};

static void mq_usage(FILE *out)
{
	fprintf(out,
		"usage: iiowire-mqtt [-a DAEMON] --broker mqtt://HOST[:PORT] [--consumer NAME]...\n"
		"                    [--all-channels]\n"
		"                    [--board NAME] [--prefix PREFIX] [--interval MS]\n"
		"                    [--watch-interval MS] [--attr DEVICE:ATTR]...\n"
		"                    [--command DEVICE:ATTR]... [--discovery-prefix PREFIX]\n"
		"                    [--no-discovery] [-u USER] [-P PASSWORD] [--cafile FILE]\n"
		"                    [--capath DIR] [--cert FILE --key FILE] [--insecure]\n"
		"                    [--tls-version VERSION] [--id CLIENT_ID] [--keepalive S]\n"
		"                    [--timeout MS] [--token-file FILE] [--config FILE]\n"
		"\n"
		"Publish the consumer channels of one iiowired to an MQTT broker: topic\n"
		"PREFIX/BOARD/CONSUMER/CHANNEL holds the processed value in the channel's unit\n"
		"(V, degC, A, W, %%, lx, kPa, ...), QoS 1, retained, on change (WATCH) and every\n"
		"--interval; PREFIX/BOARD/status is online/offline (the last will);\n"
		"PREFIX/BOARD/CONSUMER/CHANNEL/availability goes offline while a read fails.\n"
		"Home Assistant discovery configs go to DISCOVERY_PREFIX/sensor/.../config.\n"
		"\n"
		"  -a, --address DAEMON     iiowired's address (default $%s, else %s)\n"
		"  -b, --broker URL         mqtt://HOST[:PORT] (port %d) or mqtts://HOST[:PORT]\n"
		"                           (TLS, port %d), required\n"
		"  -c, --consumer NAME      a consumer to publish (repeatable, up to %d;\n"
		"                           default: every consumer the maps name; with no\n"
		"                           maps, every device channel: CONSUMER is the\n"
		"                           device's label or name, CHANNEL sysfs's voltage0)\n"
		"      --all-channels       every device channel, as with no maps\n"
		"  -n, --board NAME         the board's topic level and device (default: host name)\n"
		"  -p, --prefix PREFIX      topic prefix (default %s; no '+', '#', no empty level,\n"
		"                           at most %d bytes)\n"
		"  -i, --interval MS        publish every value at least this often (default %d)\n"
		"  -w, --watch-interval MS  how often the daemon checks for a change (default %d;\n"
		"                           the daemon allows 10 to 3600000)\n"
		"      --attr DEVICE:ATTR   also publish a device attribute's text (up to %d)\n"
		"      --command DEVICE:ATTR  publish it and write what comes on .../set to it\n"
		"                           (payload: 1 to %d bytes of [A-Za-z0-9._+-]); the\n"
		"                           daemon's answer goes to .../result; a retained\n"
		"                           message there is ignored (an old command)\n"
		"      --discovery-prefix P Home Assistant's discovery prefix (default %s)\n"
		"      --no-discovery       no discovery configs\n"
		"                           (sent again on Home Assistant's birth message, at\n"
		"                           most once per %d ms)\n"
		"  -u, --username USER      broker user name\n"
		"  -P, --pw PASSWORD        broker password (a --config file keeps it off ps)\n"
		"      --cafile FILE, --capath DIR   CA certificates (mqtts://; default: the\n"
		"                           system's)\n"
		"      --cert FILE, --key FILE       client certificate and key\n"
		"      --insecure           do not check the server certificate's host name\n"
		"      --tls-version V      tlsv1.3, tlsv1.2 or tlsv1.1\n"
		"      --id CLIENT_ID       MQTT client id (default iiowire-mqtt-BOARD)\n"
		"      --keepalive S        MQTT keepalive (default %d)\n"
		"  -t, --timeout MS         per-request and broker connect timeout (default %d)\n"
		"  -k, --token-file FILE    token for AUTH (default $%s)\n"
		"      --config FILE        options from FILE, one per line: NAME VALUE (long\n"
		"                           names without --, '#' comments); the command line\n"
		"                           comes after\n"
		"  -h, --help               this text\n"
		"  -V, --version            the version\n"
		"\n"
		"Broker and daemon are reconnected independently, waiting %d ms doubling up to\n"
		"%d ms. Exit status: 0 after SIGINT/SIGTERM, 2 on a usage error.\n",
		IIOWIRE_ADDRESS_ENV, IIOWIRE_DEFAULT_ADDRESS, MQ_DEFAULT_PORT, MQ_DEFAULT_TLS_PORT,
		FLEET_CONSUMERS_MAX, MQ_DEFAULT_PREFIX, MQ_PREFIX_MAX_BYTES, MQ_DEFAULT_INTERVAL_MS,
		MQ_DEFAULT_WATCH_MS, MQ_ATTRS_MAX, MQ_COMMAND_MAX_BYTES, MQ_DEFAULT_DISCOVERY_PREFIX,
		MQ_BIRTH_DEBOUNCE_MS, MQ_DEFAULT_KEEPALIVE_S, IIOWIRE_DEFAULT_TIMEOUT_MS, IIOWIRE_TOKEN_FILE_ENV,
		MQ_RETRY_MIN_MS, MQ_RETRY_MAX_MS);
}

#define mq_usage_error(...)	tool_usage_error("iiowire-mqtt", __VA_ARGS__)

/*
 * A topic prefix: levels split by '/', none empty, no wildcard ('+', '#'),
 * no '$' first ($SYS is the broker's), no control character.
 * Return: NULL if fine, else why not.
 */
static const char *mq_prefix_refusal(const char *p)
{
	size_t i, n = strlen(p);

	if (n == 0 || n > MQ_PREFIX_MAX_BYTES)
		return "empty or longer than 128 bytes";
	if (strpbrk(p, "+#"))
		return "MQTT wildcards ('+', '#') are not allowed in a topic";
	if (p[0] == '$')
		return "a topic starting with '$' is the broker's";
	if (p[0] == '/' || p[n - 1] == '/' || strstr(p, "//"))
		return "empty topic level";
	for (i = 0; i < n; i++)
		if (iscntrl((unsigned char)p[i]))
			return "control character";
	return NULL;
}

/* mqtt://HOST[:PORT], mqtts://..., HOST may be [V6]. Return: 0, or -EINVAL. */
static int mq_parse_broker(struct mq *m, const char *url)
{
	const char *hp, *end, *colon;
	char *tail;
	long port;

	if (strncmp(url, "mqtt://", 7) == 0) {
		hp = url + 7;
		m->tls = false;
	} else if (strncmp(url, "mqtts://", 8) == 0) {
		hp = url + 8;
		m->tls = true;
	} else {
		return -EINVAL;
	}
	m->port = m->tls ? MQ_DEFAULT_TLS_PORT : MQ_DEFAULT_PORT;
	end = hp[0] == '[' ? strchr(hp, ']') : hp + strcspn(hp, ":/");
	if (!end || end == hp || (size_t)(end - hp) >= sizeof(m->host))
		return -EINVAL;
	if (hp[0] == '[')
		snprintf(m->host, sizeof(m->host), "%.*s", (int)(end - hp - 1), hp + 1);
	else
		snprintf(m->host, sizeof(m->host), "%.*s", (int)(end - hp), hp);
	colon = hp[0] == '[' ? end + 1 : end;
	if (*colon == ':') {
		errno = 0;
		port = strtol(colon + 1, &tail, 10);
		if (tail == colon + 1 || errno || port < 1 || port > 65535)
			return -EINVAL;
		m->port = (int)port;
		colon = tail;
	}
	if (*colon && strcmp(colon, "/") != 0)
		return -EINVAL;
	return m->host[0] ? 0 : -EINVAL;
}

/* --attr / --command DEVICE:ATTR (split at the last ':': "iio:device0:name"). */
static int mq_add_attr(struct mq *m, const char *spec, bool command)
{
	const char *colon = strrchr(spec, ':');
	struct mq_attr *a;

	if (m->nattrs == MQ_ATTRS_MAX)
		return mq_usage_error("more than %d --attr/--command", MQ_ATTRS_MAX);
	if (!colon || colon == spec || !colon[1] ||
	    (size_t)(colon - spec) >= sizeof(a->device) || strlen(colon + 1) >= sizeof(a->attr))
		return mq_usage_error("'%s' is not DEVICE:ATTR", spec);
	a = &m->attrs[m->nattrs++];
	snprintf(a->device, sizeof(a->device), "%.*s", (int)(colon - spec), spec);
	snprintf(a->attr, sizeof(a->attr), "%s", colon + 1);
	a->command = command;
	return 0;
}

/* A board name: one topic level of printable bytes. Return: 0, or the usage status. */
static int mq_set_board(struct mq *m, const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n >= sizeof(m->board))
		return mq_usage_error("--board: 1 to %zu bytes", sizeof(m->board) - 1);
	for (i = 0; i < n; i++)
		if (!isgraph((unsigned char)name[i]) || strchr("/+#", name[i]))
			return mq_usage_error("--board '%s': no blank, '/', '+' or '#' (it is one "
					      "topic level)", name);
	snprintf(m->board, sizeof(m->board), "%s", name);
	return 0;
}

/* A prefix option into @out. Return: 0, or the usage status. */
static int mq_set_prefix(char *out, size_t len, const char *opt, const char *p)
{
	const char *why = mq_prefix_refusal(p);

	if (why)
		return mq_usage_error("%s '%s': %s", opt, p, why);
	snprintf(out, len, "%s", p);
	return 0;
}

/* The options with a value to check. Return: 0, or the usage status. */
static int mq_opt_value(struct mq *m, int opt, const char *arg)
{
	switch (opt) {
	case 't':
		return tool_parse_ms(arg, &m->timeout_ms) < 0 ?
			mq_usage_error("--timeout needs a positive number of ms") : 0;
	case 'i':
		return tool_parse_ms(arg, &m->interval_ms) < 0 ?
			mq_usage_error("--interval needs a positive number of ms") : 0;
	case 'w':
		return tool_parse_ms(arg, &m->watch_ms) < 0 ?
			mq_usage_error("--watch-interval needs a positive number of ms") : 0;
	case MQ_OPT_KEEPALIVE:
		return tool_parse_ms(arg, &m->keepalive_s) < 0 || m->keepalive_s < 5 ?
			mq_usage_error("--keepalive needs 5 seconds or more") : 0;
	case 'b':
		m->broker = arg;
		return mq_parse_broker(m, arg) < 0 ?
			mq_usage_error("--broker '%s': not mqtt://HOST[:PORT] or "
				       "mqtts://HOST[:PORT]", arg) : 0;
	case 'c':
		if (m->nconsumers == FLEET_CONSUMERS_MAX)
			return mq_usage_error("more than %d --consumer", FLEET_CONSUMERS_MAX);
		m->consumers[m->nconsumers++] = arg;
		return 0;
	case 'n':
		return mq_set_board(m, arg);
	case 'p':
		return mq_set_prefix(m->prefix, sizeof(m->prefix), "--prefix", arg);
	case MQ_OPT_DISC_PREFIX:
		return mq_set_prefix(m->disc_prefix, sizeof(m->disc_prefix), "--discovery-prefix",
				     arg);
	case MQ_OPT_ATTR:
	case MQ_OPT_COMMAND:
		return mq_add_attr(m, arg, opt == MQ_OPT_COMMAND);
	}
	return -1;
}

/* The options that only store a string. Return: 0, or -1 if @opt is not one. */
static int mq_opt_string(struct mq *m, int opt, const char *arg)
{
	const char **slot = NULL;

	switch (opt) {
	case 'a':
		slot = &m->address;
		break;
	case 'k':
		slot = &m->token_file;
		break;
	case 'u':
		slot = &m->username;
		break;
	case 'P':
		slot = &m->password;
		break;
	case MQ_OPT_CAFILE:
		slot = &m->cafile;
		break;
	case MQ_OPT_CAPATH:
		slot = &m->capath;
		break;
	case MQ_OPT_CERT:
		slot = &m->cert;
		break;
	case MQ_OPT_KEY:
		slot = &m->key;
		break;
	case MQ_OPT_TLS_VERSION:
		slot = &m->tls_version;
		break;
	case MQ_OPT_ID:
		slot = &m->client_id;
		break;
	case MQ_OPT_CONFIG:
		/* read before (mq_config()) */
		return 0;
	}
	if (!slot)
		return -1;
	*slot = arg;
	return 0;
}

/* Parsing went through: run. Any other parse result is the exit status. */
#define MQ_PARSED	(-1)

/* One argument vector (the command line, or an option file's words) into @m. */
static int mq_parse_args(struct mq *m, int argc, char **argv)
{
	int opt, ret;

	optind = 0;	/* GNU getopt: start over, the option file came first */
	while ((opt = getopt_long(argc, argv, "a:t:k:hb:c:n:p:i:w:u:P:V", mq_opts, NULL)) != -1) {
		if (opt == 'h') {
			mq_usage(stdout);
			return MQ_EXIT_OK;
		}
		if (opt == 'V') {
			printf("iiowire-mqtt %s (libmosquitto %d.%d.%d)\n", iiowire_lib_version(),
			       LIBMOSQUITTO_MAJOR, LIBMOSQUITTO_MINOR, LIBMOSQUITTO_REVISION);
			return MQ_EXIT_OK;
		}
		if (opt == MQ_OPT_NO_DISC) {
			m->discovery = false;
			continue;
		}
		if (opt == MQ_OPT_INSECURE) {
			m->insecure = true;
			continue;
		}
		if (opt == MQ_OPT_ALL_CHANNELS) {
			m->all_channels = true;
			continue;
		}
		if (opt == '?' || opt == ':')
			return mq_usage_error("bad option");
		ret = mq_opt_string(m, opt, optarg);
		if (ret < 0)
			ret = mq_opt_value(m, opt, optarg);
		if (ret != 0)
			return ret;
	}
	if (optind < argc)
		return mq_usage_error("unexpected argument '%s'", argv[optind]);
	return MQ_PARSED;
}

/*
 * --config FILE, wherever it is on the command line: its words are parsed
 * first, so the command line overrides and adds. @words: set to the file's
 * words (owned; they back the option strings until exit).
 * Return: MQ_PARSED, or the exit status.
 */
static int mq_config(struct mq *m, int argc, char **argv, char ***words)
{
	char msg[TOOL_MSG_MAX_BYTES];
	const char *path = NULL;
	int i, n, ret;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
			path = argv[++i];
		else if (strncmp(argv[i], "--config=", 9) == 0)
			path = argv[i] + 9;
	}
	if (!path)
		return MQ_PARSED;
	*words = tool_optfile_read(path, argv[0], &n, msg, sizeof(msg));
	if (!*words)
		return mq_usage_error("--config %s", msg);
	for (i = 1; i < n; i++)
		if (strcmp((*words)[i], "--config") == 0)
			return mq_usage_error("--config %s: no config inside a config", path);
	ret = mq_parse_args(m, n, *words);
	return ret;
}

/* The libmosquitto client: callbacks, will, credentials, TLS. Return: 0, or the exit status. */
static int mq_mosq_setup(struct mq *m)
{
	char id[FLEET_NAME_MAX_BYTES + 16];
	int rc;

	snprintf(id, sizeof(id), "iiowire-mqtt-%s", m->board);
	m->mosq = mosquitto_new(m->client_id ? m->client_id : id, true, m);
	if (!m->mosq) {
		mq_log("mosquitto_new: %s", strerror(errno));
		return MQ_EXIT_ERROR;
	}
	mosquitto_connect_callback_set(m->mosq, mq_on_connect);
	mosquitto_disconnect_callback_set(m->mosq, mq_on_disconnect);
	mosquitto_message_callback_set(m->mosq, mq_on_message);
	rc = mosquitto_will_set(m->mosq, m->status, (int)strlen(mq_offline), mq_offline, MQ_QOS,
				true);
	if (rc == MOSQ_ERR_SUCCESS && (m->username || m->password))
		rc = mosquitto_username_pw_set(m->mosq, m->username, m->password);
	if (rc == MOSQ_ERR_SUCCESS && m->tls && !m->cafile && !m->capath)
		rc = mosquitto_int_option(m->mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1);
	if (rc == MOSQ_ERR_SUCCESS && m->tls && (m->cafile || m->capath))
		rc = mosquitto_tls_set(m->mosq, m->cafile, m->capath, m->cert, m->key, NULL);
	if (rc == MOSQ_ERR_SUCCESS && m->tls && m->tls_version)
		rc = mosquitto_tls_opts_set(m->mosq, 1, m->tls_version, NULL);
	if (rc == MOSQ_ERR_SUCCESS && m->tls && m->insecure)
		rc = mosquitto_tls_insecure_set(m->mosq, true);
	if (rc != MOSQ_ERR_SUCCESS) {
		mq_log("broker options: %s", rc == MOSQ_ERR_ERRNO ? strerror(errno) :
		       mosquitto_strerror(rc));
		return MQ_EXIT_USAGE;
	}
	return 0;
}

/* What the options leave to check together. Return: MQ_PARSED, or the usage status. */
static int mq_check(struct mq *m)
{
	char host[FLEET_NAME_MAX_BYTES];
	int i;

	if (!m->broker)
		return mq_usage_error("--broker is required");
	if (!m->tls && (m->cafile || m->capath || m->cert || m->tls_version || m->insecure))
		return mq_usage_error("TLS options need an mqtts:// broker");
	if (!!m->cert != !!m->key)
		return mq_usage_error("--cert and --key go together");
	if (!m->board[0]) {
		if (gethostname(host, sizeof(host)) < 0)
			snprintf(host, sizeof(host), "localhost");
		host[sizeof(host) - 1] = '\0';
		if (mq_set_board(m, host) != 0)
			return mq_usage_error("the host name is no board name: give --board");
	}
	snprintf(m->status, sizeof(m->status), "%s/%s/status", m->prefix, m->board);
	for (i = 0; i < m->nattrs; i++)
		mq_attr_topics(m, &m->attrs[i]);
	return MQ_PARSED;
}

int main(int argc, char **argv)
{
	struct mq m = {
		.timeout_ms = IIOWIRE_DEFAULT_TIMEOUT_MS,
		.prefix = MQ_DEFAULT_PREFIX,
		.disc_prefix = MQ_DEFAULT_DISCOVERY_PREFIX,
		.discovery = true,
		.interval_ms = MQ_DEFAULT_INTERVAL_MS,
		.watch_ms = MQ_DEFAULT_WATCH_MS,
		.keepalive_s = MQ_DEFAULT_KEEPALIVE_S,
		.broker_backoff = { MQ_RETRY_MIN_MS, MQ_RETRY_MAX_MS, MQ_RETRY_MIN_MS },
		.daemon_backoff = { MQ_RETRY_MIN_MS, MQ_RETRY_MAX_MS, MQ_RETRY_MIN_MS },
	};
	char **words = NULL;
	int i, ret;

	ret = mq_config(&m, argc, argv, &words);
	if (ret == MQ_PARSED)
		ret = mq_parse_args(&m, argc, argv);
	if (ret == MQ_PARSED)
		ret = mq_check(&m);
	if (ret != MQ_PARSED) {
		tool_optfile_free(words);
		return ret;
	}
	mosquitto_lib_init();
	ret = mq_mosq_setup(&m);
	if (ret == 0)
		ret = mq_run(&m);
	for (i = 0; m.chans && i < m.set.n; i++)
		m.chans[i].fc = NULL;
	free(m.chans);
	fleet_release(&m.set);
	iiowire_close(m.w);
	mosquitto_destroy(m.mosq);
	mosquitto_lib_cleanup();
	tool_optfile_free(words);
	return ret;
}
