#!/usr/bin/python3
"""test_web_browser.py - iiowired's built-in page in a real browser
(Debian's chromium, headless, driven by chromium-driver through
python3-selenium), on the demo board: every device is listed with its name,
label and hardware id; a channel's value is the daemon's READ; a plot has
points after a few seconds, from WATCH and from a STREAM on hrt0 at a rate
the page sets; an allowed write changes the value and a refused one shows
the daemon's error; an output channel's code set from its row reads back
natively, on the demo's dummy and maps/dac.json's MCP4726 (out of range and a
_powerdown outside --allow-write show the daemon's error); the ad7998's threshold armed from the page shows armed
and its alert shows in the card (SUBSCRIBE); a device removed by a reload goes
away; a daemon restart is noticed and the page reconnects; with a token,
nothing loads before it is given. Saves a screenshot to
BUILD_DIR/web-page.png (README links the committed copy, docs/web-page.png).
Usage: test_web_browser.py BUILD_DIR SOURCE_DIR. Last line: "N passed, M failed"."""
import json
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webtest import Daemon, check, end  # noqa: E402

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:
    print("SKIPPED: python3-selenium is not installed (tests/deps.sh installs it)")
    sys.exit(0)
if not os.path.exists("/usr/bin/chromium") or not os.path.exists("/usr/bin/chromedriver"):
    print("SKIPPED: chromium or chromium-driver is not installed (tests/deps.sh installs them)")
    sys.exit(0)

build, src = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="iiowire-web-")
board = os.path.join(tmp, "board.json")
shutil.copy(os.path.join(src, "maps", "demo.json"), board)


def browser():
    o = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1400,1100", "--user-data-dir=" + os.path.join(tmp, "chrome")):
        o.add_argument(a)
    o.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def wait_for(what, fn, timeout=10):
    """Poll @fn until it is true; Return: its last value."""
    deadline = time.time() + timeout
    while True:
        try:
            v = fn()
        except Exception:  # noqa: BLE001 - the page is still being built
            v = None
        if v or time.time() > deadline:
            if not v:
                print("timed out waiting for", what, flush=True)
            return v
        time.sleep(0.1)


def cards(drv):
    return drv.find_elements(By.CSS_SELECTOR, ".card")


# maps/demo.json's cards: 10 devices (iio_evgen, then the closed loop's loop-dac and
# loop-adc), then iio_sysfs_trigger, trigger0 (hrt0) and trigger1 (adis16400-dev6)
DEMO_CARDS = 13


def card(drv, dev):
    return drv.find_element(By.CSS_SELECTOR, '.card[data-device="%s"]' % dev)


def test_devices(drv, d):
    devs = d.tcp({"op": "devices"})["devices"]
    wait_for("the device cards", lambda: len(cards(drv)) == len(devs))
    check(len(cards(drv)) == len(devs) == DEMO_CARDS, "%d cards for %d devices" %
          (len(cards(drv)), len(devs)))
    for dev in devs:
        try:
            c = card(drv, dev["id"])
        except Exception:  # noqa: BLE001
            check(False, "no card for " + dev["id"])
            continue
        text = c.find_element(By.TAG_NAME, "h3").text + " " + c.find_element(
            By.CSS_SELECTOR, ".ids").text
        want = [dev["name"], dev.get("label", ""), dev.get("hwid", ""), dev["id"]]
        check(all(w in text for w in want), "card of %s says %r" % (dev["id"], text))


def test_values(drv, d):
    row = card(drv, "iio:device0").find_element(By.CSS_SELECTOR, 'tr[data-chan="in_voltage0"]')
    raw = d.tcp({"op": "read", "device": "dummy0", "attr": "in_voltage0_raw"})["value"]
    scale = float(d.tcp({"op": "read", "device": "dummy0", "attr": "in_voltage0_scale"})["value"])
    offset = float(d.tcp({"op": "read", "device": "dummy0", "attr": "in_voltage0_offset"})["value"])
    wait_for("a value", lambda: row.find_element(By.CSS_SELECTOR, ".raw").text == raw)
    shown_raw = row.find_element(By.CSS_SELECTOR, ".raw").text
    shown = float(row.find_element(By.CSS_SELECTOR, ".value").text)
    want = (float(raw) + offset) * scale
    check(shown_raw == raw, "raw %r in the page, READ %r" % (shown_raw, raw))
    check(abs(shown - want) <= abs(want) * 1e-5, "processed %r in the page, (%s + %g) * %g = %g" %
          (shown, raw, offset, scale, want))
    row = card(drv, "iio:device0").find_element(By.CSS_SELECTOR, 'tr[data-chan="in_steps"]')
    steps = d.tcp({"op": "read", "device": "dummy0", "attr": "in_steps_input"})["value"]
    check(wait_for("steps", lambda: row.find_element(By.CSS_SELECTOR, ".value").text == steps),
          "_input value in the page is READ's %r" % steps)


def test_plot(drv):
    row = card(drv, "iio:device0").find_element(By.CSS_SELECTOR, 'tr[data-chan="in_voltage0"]')
    row.find_element(By.CSS_SELECTOR, "input[type=checkbox]").click()
    plot = wait_for("a plot", lambda: drv.find_element(By.CSS_SELECTOR, ".plot"))
    # a second one of an emulated input that moves, for the screenshot
    card(drv, "iio:device2").find_element(By.CSS_SELECTOR, 'tr[data-chan="in_voltage0"] '
                                          'input[type=checkbox]').click()
    n = wait_for("points", lambda: int(plot.get_attribute("data-points")) >= 4, timeout=8)
    check(n, "the plot has %s points after a few seconds" % plot.get_attribute("data-points"))
    check(len(plot.find_elements(By.TAG_NAME, "canvas")) > 0, "dygraphs drew a canvas")


def answer(drv, row, ctl):
    """Click @ctl (a write of @row) and wait for the daemon's answer; Return: its message."""
    msg = row.find_element(By.CSS_SELECTOR, ".attr-msg")
    drv.execute_script("arguments[0].textContent = ''", msg)
    # a device with many attributes (the dummy's events/ files) makes a long card
    drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", ctl)
    ctl.click()
    wait_for("the write's answer", lambda: msg.text not in ("", "…"))
    return msg


def write_from_page(drv, dev, attr, value):
    c = card(drv, dev)
    det = c.find_element(By.CSS_SELECTOR, "details.attrs")
    if not det.get_attribute("open"):
        det.find_element(By.TAG_NAME, "summary").click()
    row = det.find_element(By.CSS_SELECTOR, 'tr[data-attr="%s"]' % attr)
    inp = row.find_element(By.CSS_SELECTOR, "input")
    inp.clear()
    inp.send_keys(value)
    return answer(drv, row, row.find_element(By.CSS_SELECTOR, "button.write"))


def test_writes(drv, d):
    msg = write_from_page(drv, "iio:device0", "out_voltage0_raw", "777")
    got = d.tcp({"op": "read", "device": "dummy0", "attr": "out_voltage0_raw"})["value"]
    check(msg.text == "written" and got == "777", "allowed write: %r, READ %r" % (msg.text, got))
    msg = write_from_page(drv, "iio:device0", "in_voltage0_scale", "2")
    check("EACCES" in msg.text and "error" in msg.get_attribute("class"),
          "refused write shows the daemon's error: %r" % msg.text)
    got = d.tcp({"op": "read", "device": "dummy0", "attr": "in_voltage0_scale"})["value"]
    check(got != "2", "the refused write changed nothing: %r" % got)


def set_output(drv, dev, chan, value=None, powerdown=False):
    """Use an output channel's controls under its row; Return: their message."""
    row = card(drv, dev).find_element(By.CSS_SELECTOR, 'tr[data-set="%s"]' % chan)
    if powerdown:
        return answer(drv, row, row.find_element(By.CSS_SELECTOR, "input.set-powerdown"))
    inp = row.find_element(By.CSS_SELECTOR, "input.set-raw")
    inp.clear()
    inp.send_keys(value)
    return answer(drv, row, row.find_element(By.CSS_SELECTOR, "button.set"))


def test_set_output(drv, d):
    """The dummy's out_voltage0 set from its row, read back natively (TCP)."""
    msg = set_output(drv, "iio:device0", "out_voltage0", "4321")
    got = d.tcp({"op": "read", "device": "dummy0", "attr": "out_voltage0_raw"})["value"]
    check(msg.text == "written" and got == "4321", "output set from its row: %r, READ %r" %
          (msg.text, got))
    row = card(drv, "iio:device0").find_element(By.CSS_SELECTOR, 'tr[data-chan="out_voltage0"]')
    check(wait_for("the new raw", lambda: row.find_element(By.CSS_SELECTOR, ".raw").text ==
                   "4321"), "the row shows the code set")


def test_dac_page():
    """maps/dac.json: the MCP4726's code set from the page reads back over TCP;
    a code past 12 bits and the _powerdown outside --allow-write show the
    daemon's error, and change nothing."""
    dac = os.path.join(tmp, "dac.json")
    shutil.copy(os.path.join(src, "maps", "dac.json"), dac)
    d = Daemon(build, dac, "--allow-write", "mcp4726:out_voltage0_raw")
    drv = browser()
    try:
        drv.get(d.url("/"))
        dev = d.tcp({"op": "devices"})["devices"][0]
        check(dev["name"] == "mcp4726", "the DAC board's first device: %r" % dev)
        wait_for("the DAC's card", lambda: card(drv, dev["id"]).find_element(
            By.CSS_SELECTOR, 'tr[data-set="out_voltage0"] input.set-powerdown'))
        rd = lambda a: d.tcp({"op": "read", "device": "mcp4726", "attr": a})["value"]  # noqa: E731
        msg = set_output(drv, dev["id"], "out_voltage0", "4095")
        check(msg.text == "written" and rd("out_voltage0_raw") == "4095",
              "MCP4726 set to 4095 from the page: %r, READ %r" % (msg.text, rd("out_voltage0_raw")))
        msg = set_output(drv, dev["id"], "out_voltage0", "4096")
        check("EINVAL" in msg.text and "error" in msg.get_attribute("class") and
              rd("out_voltage0_raw") == "4095", "4096 (13 bits) refused: %r" % msg.text)
        msg = set_output(drv, dev["id"], "out_voltage0", powerdown=True)
        check("EACCES" in msg.text and rd("out_voltage0_powerdown") == "0",
              "_powerdown outside --allow-write shows the daemon's error: %r" % msg.text)
    finally:
        drv.quit()
        check(d.stop() == 0, "the DAC board's daemon stops cleanly")


def test_events(drv, d):
    """Arm the ad7998's rising threshold from the page: the alert shows in its card."""
    c = card(drv, "iio:device4")
    rows = c.find_elements(By.CSS_SELECTOR, ".events tr[data-event]")
    check(len(rows) >= 8, "the ad7998 card lists %d event specs" % len(rows))
    for attr, value in (("events/in_voltage0_thresh_rising_value", "1"),
                        ("events/in_voltage0_thresh_rising_en", "1"),
                        ("events/sampling_frequency", "244")):
        msg = write_from_page(drv, "iio:device4", attr, value)
        check(msg.text == "written", "%s %s from the page: %r" % (attr, value, msg.text))
    ev = wait_for("an event in the card", lambda: c.find_element(
        By.CSS_SELECTOR, '.fired li[data-chan="voltage0"][data-dir="rising"]'), timeout=10)
    check(bool(ev), "the alert shows in the page: %r" % (ev.text if ev else None))
    row = c.find_element(By.CSS_SELECTOR, '.events tr[data-event="in_voltage0_thresh_rising"]')
    check(wait_for("armed", lambda: "armed" in row.get_attribute("class")) and
          row.find_elements(By.TAG_NAME, "td")[1].text == "1",
          "the threshold shows armed at 1: %r" % row.text)
    write_from_page(drv, "iio:device4", "events/in_voltage0_thresh_rising_en", "0")
    check(wait_for("disarmed", lambda: "armed" not in row.get_attribute("class")),
          "and off once disabled: %r" % row.text)


def test_stream_plot(drv, d):
    """The plots from a STREAM on hrt0 at 50 Hz: json blocks give the plot its points."""
    Select(drv.find_element(By.ID, "rate")).select_by_value("50")
    Select(drv.find_element(By.ID, "source")).select_by_value("hrt0")
    plot = drv.find_element(By.CSS_SELECTOR, ".plot")
    n = wait_for("stream points", lambda: int(plot.get_attribute("data-points")) >= 50,
                 timeout=10)
    check(n, "a plot from a stream has %s points" % plot.get_attribute("data-points"))
    streams = drv.execute_script("return window.iiowire.streams.size")
    check(streams == 2, "two plots, two streams: %r" % streams)
    rate = d.tcp({"op": "read", "device": "hrt0", "attr": "sampling_frequency"})
    check(float(rate.get("value", 0)) == 50, "the page set hrt0 to 50 Hz: %r" % rate)
    Select(drv.find_element(By.ID, "source")).select_by_value("watch")
    check(wait_for("back to WATCH", lambda: drv.execute_script(
        "return window.iiowire.streams.size") == 0), "the streams end with WATCH chosen")


def test_reload(drv, d):
    b = json.load(open(board))
    b["devices"] = [x for x in b["devices"] if x.get("label") != "imu"]
    b["maps"] = [m for m in b["maps"] if m.get("adc_dev_name") != "imu"]
    json.dump(b, open(board, "w"))
    # every card count the list passes through, as the page's own DOM reports it
    drv.execute_script("""
        window.cardCounts = [];
        new MutationObserver(() => window.cardCounts.push(
            document.querySelectorAll('.card').length)).observe(
            document.getElementById('devices'), { childList: true });""")
    d.proc.send_signal(signal.SIGHUP)
    gone = wait_for("the imu card to go", lambda: not drv.find_elements(
        By.CSS_SELECTOR, '.card[data-name="adis16400"]'))
    # the imu goes, and its data-ready trigger with it; the devices after it are
    # renumbered, and the page swaps the new list in at once, never half-built
    seen = drv.execute_script("return window.cardCounts")
    check(gone and len(cards(drv)) == DEMO_CARDS - 2 and set(seen) == {DEMO_CARDS - 2},
          "a device removed on reload: %d cards, the list passed through %r" %
          (len(cards(drv)), seen))


def test_restart(drv, d):
    check(d.stop() == 0, "the daemon stops")
    st = drv.find_element(By.ID, "status")
    check(wait_for("lost", lambda: st.get_attribute("data-state") == "lost"),
          "the page says the connection is lost: %r" % st.text)
    d.start()
    ok = wait_for("reconnect", lambda: st.get_attribute("data-state") == "open", timeout=15)
    note = drv.find_element(By.ID, "notice").text
    check(ok and "reconnected" in note, "reconnected after a restart: %r" % note)
    check(wait_for("cards after restart", lambda: len(cards(drv)) == DEMO_CARDS - 2),
          "cards after restart")


def test_token():
    tok = os.path.join(tmp, "token")
    with open(tok, "w") as f:
        f.write("browser-test-token-0123\n")
    os.chmod(tok, 0o600)
    d = Daemon(build, os.path.join(src, "maps", "demo.json"), "--auth-token-file", tok)
    drv = browser()
    try:
        drv.get(d.url("/"))
        form = drv.find_element(By.ID, "auth")
        check(wait_for("the token prompt", form.is_displayed), "token prompt shown")
        time.sleep(1)
        check(len(cards(drv)) == 0, "nothing loads before the token: %d cards" % len(cards(drv)))
        drv.find_element(By.ID, "token").send_keys("wrong-token-0123456789")
        drv.find_element(By.ID, "token-send").click()
        err = drv.find_element(By.ID, "auth-error")
        check(wait_for("refusal", lambda: "EACCES" in err.text), "wrong token: %r" % err.text)
        check(len(cards(drv)) == 0, "still nothing after a wrong token")
        drv.find_element(By.ID, "token").clear()
        drv.find_element(By.ID, "token").send_keys("browser-test-token-0123")
        drv.find_element(By.ID, "token-send").click()
        check(wait_for("cards after AUTH", lambda: len(cards(drv)) == DEMO_CARDS, timeout=10),
              "devices load once the token is given")
    finally:
        drv.quit()
        check(d.stop() == 0, "the token daemon stops cleanly")


def main():
    d = Daemon(build, board, "--allow-write", "dummy0:out_voltage*_raw", "--allow-write",
               "ad7998:events/*", "--allow-write", "*:trigger/current_trigger",
               "--allow-write", "hrt0:sampling_frequency", "--allow-write", "*:buffer/enable")
    drv = browser()
    try:
        drv.get(d.url("/"))
        test_devices(drv, d)
        test_values(drv, d)
        test_plot(drv)
        test_writes(drv, d)
        test_set_output(drv, d)
        test_events(drv, d)
        test_stream_plot(drv, d)
        time.sleep(3)   # a few more points in the plot for the picture
        drv.execute_script("window.scrollTo(0, 0)")
        shot = os.path.join(build, "web-page.png")
        check(drv.save_screenshot(shot), "screenshot saved")
        print("web: screenshot in", shot, flush=True)
        test_reload(drv, d)
        test_restart(drv, d)
    finally:
        drv.quit()
        d.stop()
    test_token()
    test_dac_page()
    shutil.rmtree(tmp, ignore_errors=True)
    end()


main()
