"""A connection storm against `rebel-zero serve` (issue 50): 4,091 idle connections, half of them with
half a request head, then one real request; the server's resident memory and open descriptors
before, during and after. Usage: python3 scripts/connection_storm.py [BINARY] (default
target/release/rebel-zero), from the repository root."""
import socket, subprocess, sys, time, re, resource, json, urllib.request
BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/rebel-zero"
resource.setrlimit(resource.RLIMIT_NOFILE, (8192, 8192))
p = subprocess.Popen([BINARY,"serve","--port","0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=".", preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE,(8192,8192)))
line = p.stdout.readline().decode()
addr = re.search(r"http://([^/]+)/", line).group(1)
host, port = addr.split(":")
def rss(): return int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{p.pid}/status").read()).group(1))
urllib.request.urlopen(f"http://{addr}/api/rulesets").read()
before = rss()
socks = []
for i in range(4091):
    s = socket.socket(); s.connect((host, int(port)))
    if i % 2 == 0: s.send(b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\n")
    socks.append(s)
time.sleep(2); during = rss(); fds = len(__import__("os").listdir(f"/proc/{p.pid}/fd"))
t = time.time(); urllib.request.urlopen(f"http://{addr}/api/rulesets", timeout=120).read(); answered = time.time() - t
time.sleep(45); fds_later = len(__import__("os").listdir(f"/proc/{p.pid}/fd"))
closed = 0
for s in socks:
    s.settimeout(0.01)
    try:
        if s.recv(1) == b"": closed += 1
    except ConnectionResetError: closed += 1
    except Exception: pass
after_wait = rss()
for s in socks: s.close()
time.sleep(3); after = rss()
print(json.dumps(dict(server_fds_during=fds, before_kb=before, during_kb=during, real_request_s=round(answered,2), closed_by_server_after_45s=closed, of=len(socks), server_fds_after_45s=fds_later, rss_before_close_kb=after_wait, after_kb=after)))
p.kill()
