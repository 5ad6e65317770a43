/*
 * test_server_play_iiod.c - buffered output through the iiod 0.24 listener
 * (server/play.c, stream_iiod.c): OPEN of an output device, WRITEBUF's two
 * answers around the samples, CLOSE; a second writer EBUSY, WRITEBUF
 * without OPEN EBADF, byte counts at a block (N) and past it (N + 1
 * sample); and Debian's iio_writedev (libiio-utils 0.24) unchanged: a file
 * played one sample per trigger_now in order, and a cyclic buffer repeated.
 * Values are read back over SPI from the emulated ad5766.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iiodtest.h"
#include "testutil.h"

#define PI_BOARD								\
	"{\"board\": \"playiiod\", \"buses\": {"				\
	"  \"spi0\": {\"type\": \"spi\", \"backend\": \"emulated\"}},"		\
	" \"triggers\": [{\"type\": \"sysfs\", \"number\": 0}],"		\
	" \"devices\": [{\"driver\": \"ad5766\", \"bus\": \"spi0\", \"cs\": 0,"	\
	"   \"output-range-microvolts\": \"-20000000 0\"}]}"

static struct iiodt d;

static int suite_init(void)
{
	if (!iiodt_start(&d, PI_BOARD, NULL))
		return 0;
	srvtest_fini(&d.t, true);
	return -1;
}

static int suite_fini(void)
{
	return srvtest_down(&d.t) == 0 ? 0 : -1;
}

/* One iiod request and its answer line. */
static const char *req(struct srvc *c, const char *line)
{
	static char got[256];

	if (srvc_sends(c, line) || srvc_sends(c, "\r\n"))
		return "<no send>";
	return srvc_got(srvc_line(c, got, sizeof(got)), got, sizeof(got)) < 0 ? "<no reply>" :
	       got;
}

static const char *line_of(struct srvc *c)
{
	static char got[256];

	return srvc_got(srvc_line(c, got, sizeof(got)), got, sizeof(got)) < 0 ? "<no reply>" :
	       got;
}

/* A native READ/WRITE on the daemon's native port. */
static long native_raw(struct srvc *n, int ch)
{
	char line[96];

	snprintf(line, sizeof(line), "READ ad5766 out_voltage%d_raw", ch);
	if (srvc_req(n, line, line, sizeof(line)) < 0 || strncmp(line, "OK ", 3))
		return -1;
	return atol(line + 3);
}

static void native_fire(struct srvc *n)
{
	char line[64];

	CU_ASSERT(srvc_req(n, "WRITE sysfstrig0 trigger_now 1", line, sizeof(line)) > 0);
	CU_ASSERT_STRING_EQUAL(line, "OK");
}

/* A refused WRITEBUF closes its connection (samples may follow it blind). */
static void refused(const char *open, const char *writebuf, const char *code)
{
	struct srvc *c = NULL;
	const char *r = "";
	int i;

	/* the last writer's close may still be on its way */
	for (i = 0; i < 50; i++) {
		c = srvc_open(d.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		r = open ? req(c, open) : "0";
		if (strcmp(r, "-16"))
			break;
		srvc_close(c);
		srvtest_sleep_ms(20);
	}
	CU_ASSERT_STRING_EQUAL(r, "0");
	CU_ASSERT_STRING_EQUAL(req(c, writebuf), code);
	CU_ASSERT(srvc_closed(c, 2000));
	srvc_close(c);
}

static void test_writebuf_codes(void)
{
	struct srvc *a = srvc_open(d.port), *b = srvc_open(d.port), *n = srvc_open(d.t.port);
	const uint16_t scans[4][2] = { { 10, 20 }, { 30, 40 }, { 50, 60 }, { 70, 80 } };
	char line[64];

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	refused(NULL, "WRITEBUF iio:device0 16", "-9");	/* no OPEN */
	CU_ASSERT_STRING_EQUAL(req(a, "SETTRIG iio:device0 sysfstrig0"), "0");
	/* channels 0 and 3: bits 0 and 3 of the 16-channel mask */
	CU_ASSERT_STRING_EQUAL(req(a, "OPEN iio:device0 4 00000009"), "0");
	CU_ASSERT_STRING_EQUAL(req(b, "OPEN iio:device0 4 00000001"), "-16");
	CU_ASSERT_STRING_EQUAL(req(a, "WRITEBUF iio:device0 16"), "0");	/* N */
	CU_ASSERT_EQUAL(srvc_send(a, scans, sizeof(scans)), 0);
	CU_ASSERT_STRING_EQUAL(line_of(a), "16");
	CU_ASSERT(srvc_req(n, "READ ad5766 buffer/data_available", line, sizeof(line)) > 0);
	CU_ASSERT_STRING_EQUAL(line, "OK 4");
	native_fire(n);
	native_fire(n);
	CU_ASSERT_EQUAL(native_raw(n, 0), 30);
	CU_ASSERT_EQUAL(native_raw(n, 3), 40);
	CU_ASSERT_STRING_EQUAL(req(a, "CLOSE iio:device0"), "0");
	native_fire(n);	/* closed: nothing plays, the outputs hold */
	CU_ASSERT_EQUAL(native_raw(n, 0), 30);
	CU_ASSERT_STRING_EQUAL(req(b, "OPEN iio:device0 4 00000001 CYCLIC"), "0");
	CU_ASSERT_STRING_EQUAL(req(b, "CLOSE iio:device0"), "0");
	CU_ASSERT_STRING_EQUAL(req(b, "CLOSE iio:device0"), "-6");
	refused("OPEN iio:device0 4 00000009", "WRITEBUF iio:device0 18", "-22");	/* 4.5 */
	refused("OPEN iio:device0 4 00000009", "WRITEBUF iio:device0 20", "-22");	/* N + 1 */
	srvc_close(a);
	srvc_close(b);
	srvc_close(n);
}
TEST_CASE(test_writebuf_codes, "OPEN/WRITEBUF/CLOSE of an output device: codes, N and N+1, EBUSY");

static bool have_writedev(void)
{
	return system("command -v iio_writedev >/dev/null 2>&1") == 0;
}

/* Start @cmd in the background; Return: its pid, or -1. */
static pid_t spawn(const char *cmd)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int write_samples(const char *path, int n, int base)
{
	FILE *f = fopen(path, "wb");
	uint16_t s[2];
	int i;

	if (!f)
		return -1;
	for (i = 0; i < n; i++) {
		s[0] = (uint16_t)(base + i);
		s[1] = (uint16_t)(60000 - i);
		fwrite(s, sizeof(s), 1, f);
	}
	return fclose(f);
}

/* Until @ch reads @want (the player has started), or 5 s. */
static bool wait_raw(struct srvc *n, int ch, long want)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (native_raw(n, ch) == want)
			return true;
		native_fire(n);
		srvtest_sleep_ms(50);
	}
	return false;
}

static void test_iio_writedev(void)
{
	char path[64], cmd[256];
	struct srvc *n;
	int i, status = -1;
	pid_t pid;

	if (!have_writedev()) {
		fprintf(stderr, "iio_writedev not installed (Debian: libiio-utils): skipped\n");
		return;
	}
	n = srvc_open(d.t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	snprintf(path, sizeof(path), "/tmp/iiowire-writedev-%d.bin", (int)getpid());
	CU_ASSERT_EQUAL_FATAL(write_samples(path, 12, 1000), 0);
	/* three buffers of 4: two queue, the third waits for the trigger */
	snprintf(cmd, sizeof(cmd), "timeout 20 iio_writedev -u ip:127.0.0.1:%d -t sysfstrig0 "
		 "-b 4 -s 12 ad5766 voltage0 voltage3 < %s 2>/dev/null", d.port, path);
	pid = spawn(cmd);
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT(wait_raw(n, 0, 1000));	/* the first sample is played */
	for (i = 1; i < 4; i++) {
		native_fire(n);
		TEST_ROW_ASSERT(native_raw(n, 0) == 1000 + i && native_raw(n, 3) == 60000 - i,
				"samples in order");
	}
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* cyclic: one buffer of three, repeated until iio_writedev is stopped */
	CU_ASSERT_EQUAL_FATAL(write_samples(path, 3, 2000), 0);
	snprintf(cmd, sizeof(cmd), "timeout 3 iio_writedev -u ip:127.0.0.1:%d -t sysfstrig0 -c "
		 "-b 3 -s 3 ad5766 voltage0 voltage3 < %s 2>/dev/null", d.port, path);
	pid = spawn(cmd);
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT(wait_raw(n, 0, 2002));
	for (i = 0; i < 7; i++) {
		native_fire(n);
		TEST_ROW_ASSERT(native_raw(n, 0) == 2000 + i % 3, "cyclic");
	}
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);	/* timeout ends it: 124 */
	unlink(path);
	srvc_close(n);
}
TEST_CASE(test_iio_writedev, "Debian's iio_writedev plays a file and a cyclic buffer unchanged");

TEST_MAIN("server_play_iiod", suite_init, suite_fini)
