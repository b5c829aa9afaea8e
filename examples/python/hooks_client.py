"""A client for `hooks serve --stdio`, the agent-hooks JSON-lines protocol (standard library only).

Start the server as a child process, send requests with ids, and get answers back in any
order; notifications (messages without an id) go to a callback.

With a callback (`on_notification`), a reader thread reads the server's output as it comes,
so notifications arrive while the client is idle. Without one, the thread waiting for an
answer reads the output itself (no hand-over between threads: about 0.1 ms less per request
from CPython), and the notifications read meanwhile are kept in `notifications`.

    with HooksClient(["hooks", "serve", "--stdio", "--root", "."]) as client:
        client.call("set_posture", {"window": 1, "posture": "auto_approves"})
        client.call("exchange_appended", {})
        report = client.fire({"event": "pre_tool_use", "cwd": ".", "tool": {...}})
        print(report["verdict"]["decision"])

The protocol is specified in `specs/serve-protocol.md`.
"""

import itertools
import json
import os
import select
import subprocess
import sys
import threading
import time

PROTOCOL_VERSION = 1


class HooksError(Exception):
    """An error response: `code` is the machine-readable class, `message` says what is wrong."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class _Pending:
    def __init__(self):
        self.event = threading.Event()
        self.message = None


class HooksClient:
    """One server child process; thread-safe, requests may be issued from many threads."""

    def __init__(self, command, on_notification=None, env=None, timeout=30.0):
        self.timeout = timeout
        self.on_notification = on_notification
        self.notifications = []
        self._ids = itertools.count(1)
        self._pending = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._hello = threading.Event()
        self._closed = threading.Event()
        self.hello = None
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._reader = None
        # Without a reader thread: the output read so far that is not yet a whole line, and
        # the lock a thread holds while it reads (the others wait for it or for their answer).
        self._buf = bytearray()
        self._read_lock = threading.Lock()
        if on_notification is not None:
            self._reader = threading.Thread(target=self._read_loop, daemon=True)
            self._reader.start()
            if not self._hello.wait(timeout):
                self.close()
                raise RuntimeError("the server sent no hello")
        else:
            try:
                self._read_until(self._hello, timeout)
            except TimeoutError:
                self.close()
                raise RuntimeError("the server sent no hello") from None
        if self.hello is None:
            self.close()
            raise RuntimeError("the server exited before its hello")
        version = self.hello.get("protocol_version")
        if version != PROTOCOL_VERSION:
            self.close()
            raise RuntimeError(f"the server speaks protocol {version}, not {PROTOCOL_VERSION}")

    def _read_loop(self):
        for raw in self.proc.stdout:
            self._dispatch(raw)
        self._ended()

    def _dispatch(self, raw):
        """Hands one line of the server's output to whoever it is for."""
        try:
            message = json.loads(raw)
        except ValueError:
            # Anything before the hello (a wrapper's banner) is not protocol; after it,
            # stdout carries protocol messages only.
            if self.hello is not None:
                print(f"hooks_client: ignoring a non-JSON line: {raw!r}", file=sys.stderr)
            return
        if not isinstance(message, dict):
            return
        if "id" not in message:
            if message.get("method") == "hello" and self.hello is None:
                self.hello = message.get("params", {})
                self._hello.set()
                return
            self.notifications.append(message)
            if self.on_notification is not None:
                self.on_notification(message)
            return
        with self._lock:
            pending = self._pending.pop(json.dumps(message["id"]), None)
        if pending is not None:
            pending.message = message
            pending.event.set()
        else:
            print(f"hooks_client: unmatched message: {message}", file=sys.stderr)

    def _ended(self):
        """The server's output ended: every request still waiting gets no answer."""
        self._closed.set()
        self._hello.set()
        with self._lock:
            waiting = list(self._pending.values())
            self._pending.clear()
        for pending in waiting:
            pending.event.set()

    def _read_until(self, done, timeout):
        """Without a reader thread: reads and dispatches the server's output on this thread
        until the event `done` is set or the output ends; raises `TimeoutError` after
        `timeout` seconds (`None`: no limit)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while not done.is_set() and not self._closed.is_set():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("no answer from the server")
            if not self._read_lock.acquire(timeout=-1 if left is None else left):
                continue
            try:
                # Another thread may have read this answer while this one waited for the lock.
                if done.is_set() or self._closed.is_set():
                    break
                end = self._buf.find(b"\n")
                if end < 0:
                    left = None if deadline is None else max(0.0, deadline - time.monotonic())
                    ready, _, _ = select.select([fd], [], [], left)
                    if not ready:
                        continue
                    data = os.read(fd, 1 << 16)
                    if not data:
                        if self._buf:
                            self._dispatch(bytes(self._buf))
                            self._buf.clear()
                        self._ended()
                        break
                    self._buf += data
                    continue
                line = bytes(self._buf[: end + 1])
                del self._buf[: end + 1]
                self._dispatch(line)
            finally:
                self._read_lock.release()

    def send(self, method, params=None, request_id=None):
        """Sends a request and returns an object to wait on with `wait`."""
        if request_id is None:
            request_id = next(self._ids)
        pending = _Pending()
        with self._lock:
            self._pending[json.dumps(request_id)] = pending
        line = json.dumps({"id": request_id, "method": method, "params": params or {}})
        with self._write_lock:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        return pending

    def wait(self, pending, timeout=None):
        """The result of a sent request; raises `HooksError` for an error response."""
        timeout = self.timeout if timeout is None else timeout
        if self._reader is None:
            self._read_until(pending.event, timeout)
        elif not pending.event.wait(timeout):
            raise TimeoutError("no answer from the server")
        message = pending.message
        if message is None:
            raise RuntimeError("the server exited before answering")
        if "error" in message:
            raise HooksError(message["error"]["code"], message["error"]["message"])
        return message["result"]

    def call(self, method, params=None, timeout=None):
        """Sends a request and waits for its result."""
        return self.wait(self.send(method, params), timeout)

    def fire(self, envelope, host_decision=None):
        """Fires an event; the report holds the verdict and every hook's outcome."""
        params = {"envelope": envelope}
        if host_decision is not None:
            params["host_decision"] = host_decision
        return self.call("fire", params)

    def shutdown(self, grace_ms=5000):
        """Drains async hooks within `grace_ms`, then the server exits."""
        result = self.call("shutdown", {"grace_ms": grace_ms}, timeout=grace_ms / 1000 + self.timeout)
        self.close()
        return result

    def close(self):
        """Closes stdin (the server drains and exits) and waits for the process."""
        try:
            if self.proc.stdin and not self.proc.stdin.closed:
                self.proc.stdin.close()
        except BrokenPipeError:
            pass
        if self._reader is None:
            # What the server still writes before it exits (notifications) is read here.
            try:
                self._read_until(self._closed, self.timeout)
            except TimeoutError:
                pass
        try:
            self.proc.wait(self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self._reader is not None:
            self._reader.join(self.timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
