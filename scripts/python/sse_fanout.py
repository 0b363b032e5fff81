"""SSE fan-out benchmark: N subscribers to the Care page's live updates, one outcome write through the JSON API,
and how long each subscriber waits for the update. Prints the delivery percentiles and the write's own round trip
(the reference measured in the same run).

Usage: sse_fanout.py BASE[,BASE…] COUNT SESSION [TARGET-MS]. With several bases (the same record on several app
servers), subscribers are spread over them in turn and the write goes through the first."""
import asyncio
import json
import secrets
import sys
import time
import urllib.request
import uuid


# The server allows 16 live streams per client address; subscribers come from 127.0.0.2 and up, 16 each.
PER_ADDRESS = 16


async def subscribe(host, port, path, session, ready, received, index):
    source = f"127.0.{(2 + index // PER_ADDRESS) // 256}.{(2 + index // PER_ADDRESS) % 256}"
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    writer.write(f"GET {path}/care/live HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
                 f"Cookie: ock_session={session}\r\n\r\n".encode())
    await writer.drain()
    updates = 0
    buffer = b""
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            break
        buffer += chunk
        while b"\n\n" in buffer:
            message, buffer = buffer.split(b"\n\n", 1)
            if b"event: update" in message:
                updates += 1
                if updates == 1:
                    ready.release()
                elif updates == 2:
                    received[index] = time.perf_counter()
                    writer.close()
                    return


def post_outcome(base, session):
    cookie = {"Cookie": f"ock_session={session}"}
    with urllib.request.urlopen(urllib.request.Request(base + "/api/v1/events?taskID=enoxaparin", headers=cookie)) as response:
        event = json.load(response)[0]
    now = time.time() - 978307200
    outcome = {"id": str(uuid.uuid4()), "uuid": str(uuid.uuid4()), "previousVersionUUIDs": [], "nextVersionUUIDs": [],
               "taskUUID": event["task"]["uuid"], "taskOccurrenceIndex": event["scheduleEvent"]["occurrence"],
               "values": [{"type": "boolean", "createdDate": now, "value": True}],
               "effectiveDate": now, "createdDate": now, "timezone": {"identifier": "UTC"}}
    # As the app's own scripts send a write with a session: the reader's CSRF token in a cookie and in X-CSRF-Token.
    token = secrets.token_hex(32)
    request = urllib.request.Request(base + "/api/v1/outcomes", data=json.dumps(outcome).encode(),
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": token,
                                              "Cookie": f"ock_session={session}; ock_csrf={token}"}, method="POST")
    with urllib.request.urlopen(request) as response:
        assert response.status == 201, response.status


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def address(base):
    origin, _, path = base.removeprefix("http://").partition("/")
    host, port = origin.split(":")
    return host, int(port), "/" + path


async def main(bases, count, session, target=250):
    """`bases` are the record's addresses (http://host:port/records/ID) on one or more servers; `session` a session
    cookie of its patient."""
    ready = asyncio.Semaphore(0)
    received = [None] * count
    servers = [address(base) for base in bases]
    tasks = [asyncio.create_task(subscribe(*servers[index % len(servers)], session, ready, received, index))
             for index in range(count)]
    for _ in range(count):
        await asyncio.wait_for(ready.acquire(), timeout=120)
    start = time.perf_counter()
    await asyncio.to_thread(post_outcome, bases[0], session)
    write_done = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=60)
    delays = [(moment - start) * 1000 for moment in received if moment is not None]
    over = f" over {len(bases)} servers" if len(bases) > 1 else ""
    print(f"SSE fan-out{over:<12} subscribers   delivered   p50 ms   p95 ms   max ms")
    print(f"one outcome write      {count:11d}   {len(delays):9d}   {percentile(delays, 0.5):6.1f}   "
          f"{percentile(delays, 0.95):6.1f}   {max(delays):6.1f}")
    print(f"Reference: the write's own round trip through the JSON API took {(write_done - start) * 1000:.1f} ms")
    p95 = percentile(delays, 0.95)
    print(f"p95 delivery {p95:.1f} ms (target <= {target} ms): {'met' if p95 <= target and len(delays) == count else 'NOT met'}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 250))
