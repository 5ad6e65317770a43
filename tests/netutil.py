"""netutil.py - what the Python tests and benchmarks share about the machine:
a free loopback port, a process's resident memory."""
import socket


def free_port():
    """A TCP port on 127.0.0.1 nobody listens on (free when it was asked)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def rss_kib(pid):
    """@pid's resident memory (VmRSS) in KiB, or -1."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1
