"""Fires a pre-tool event for a shell command through `hooks serve --stdio` and prints the verdict.

    python3 example.py --root PROJECT --command "git push --force" -- hooks serve --stdio

Everything after `--` is the command that starts the server. The project's hooks become
active because the window auto-approves and the run is pinned by the first exchange.
The last line printed is the verdict as JSON. With `--no-reader-thread` the client reads the
server's output on the calling thread and keeps notifications in `client.notifications`
instead of handing them to a callback from a reader thread.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hooks_client import HooksClient  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="the project root")
    parser.add_argument("--command", required=True, help="the shell command the agent wants to run")
    parser.add_argument(
        "--no-reader-thread",
        action="store_true",
        help="read on the calling thread; notifications are kept in client.notifications",
    )
    parser.add_argument("server", nargs=argparse.REMAINDER, help="-- then the server command")
    args = parser.parse_args()
    server = args.server[1:] if args.server[:1] == ["--"] else args.server
    if not server:
        parser.error("give the server command after --")
    root = os.path.realpath(args.root)

    changes = []
    callback = None if args.no_reader_thread else changes.append
    with HooksClient(server, on_notification=callback) as client:
        if args.no_reader_thread:
            changes = client.notifications
        print(f"server: {client.hello['server']} {client.hello['server_version']}", file=sys.stderr)
        client.call("set_posture", {"window": 1, "posture": "auto_approves"})
        added = client.call("add_root", {"root": root})
        print(f"root: {added}", file=sys.stderr)
        pinned = client.call("exchange_appended", {"envelope": {"event": "session_start", "cwd": root}})
        print(f"pinned: {pinned['pin']}", file=sys.stderr)
        inventory = client.call("snapshot")
        for source in inventory["sources"]:
            trust = source["trust"]
            print(f"source {source['kind']} {source['path']}: {trust['decision']} ({trust['reason']})", file=sys.stderr)
        report = client.fire(
            {
                "event": "pre_tool_use",
                "session_id": "example",
                "cwd": root,
                "tool": {"name": "Bash", "kind": "shell", "args": {"command": args.command}},
            }
        )
        for run in report["runs"]:
            print(f"hook {run['hook']['hook_id']}: {run['status']}", file=sys.stderr)
        done = client.shutdown(grace_ms=2000)
        print(f"shutdown: {done['aborted_requests']} aborted, {len(changes)} snapshot change(s) seen", file=sys.stderr)
    print(json.dumps(report["verdict"]))


if __name__ == "__main__":
    main()
