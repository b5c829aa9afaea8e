"""A client for `hooks serve --stdio`, the agent-hooks JSON-lines protocol (standard library only).

Start the server as a child process, send requests with ids, and get answers back in any
order; notifications (messages without an id) go to a callback.

    with HooksClient(["hooks", "serve", "--stdio", "--root", "."]) as client:
        client.call("set_posture", {"window": 1, "posture": "auto_approves"})
        client.call("exchange_appended", {})
        report = client.fire({"event": "pre_tool_use", "cwd": ".", "tool": {...}})
        print(report["verdict"]["decision"])

The protocol is specified in `specs/serve-protocol.md`.
"""

import itertools
import json
import subprocess
import sys
import threading

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
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        if not self._hello.wait(timeout):
            self.close()
            raise RuntimeError("the server sent no hello")
        version = self.hello.get("protocol_version")
        if version != PROTOCOL_VERSION:
            self.close()
            raise RuntimeError(f"the server speaks protocol {version}, not {PROTOCOL_VERSION}")

    def _read_loop(self):
        for raw in self.proc.stdout:
            try:
                message = json.loads(raw)
            except ValueError:
                # Anything before the hello (a wrapper's banner) is not protocol; after it,
                # stdout carries protocol messages only.
                if self.hello is not None:
                    print(f"hooks_client: ignoring a non-JSON line: {raw!r}", file=sys.stderr)
                continue
            if not isinstance(message, dict):
                continue
            if "id" not in message:
                if message.get("method") == "hello" and self.hello is None:
                    self.hello = message.get("params", {})
                    self._hello.set()
                    continue
                self.notifications.append(message)
                if self.on_notification is not None:
                    self.on_notification(message)
                continue
            with self._lock:
                pending = self._pending.pop(json.dumps(message["id"]), None)
            if pending is not None:
                pending.message = message
                pending.event.set()
            else:
                print(f"hooks_client: unmatched message: {message}", file=sys.stderr)
        self._closed.set()
        with self._lock:
            waiting = list(self._pending.values())
            self._pending.clear()
        for pending in waiting:
            pending.event.set()

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
        if not pending.event.wait(self.timeout if timeout is None else timeout):
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
        try:
            self.proc.wait(self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(self.timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
