"""Records what Chrys itself makes of the test fixtures, with the differential oracle.

    CHRYS_ORACLE="<venv>/bin/python -B <shared>/tools/chrys-oracle/oracle.py" \
    CHRYS_WHEEL_DIR=<unpacked icode-tui 0.32.0 wheel> python3 record_oracle.py

writes `load/oracle.json` (one summary per fixture under `load/`, the shape `src/tests.rs`
compares with) and `regex_flags/oracle.json` (Chrys's `matcher.matches` for every case of
`regex_flags/hooks.json`, whose cases `src/pyre/tests.rs` generates). Needs Python 3.12 or
3.13 with the oracle's two packages; the tests themselves need neither.
"""
import json
import math
import os
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORACLE = shlex.split(os.environ.get("CHRYS_ORACLE", "")) or sys.exit("set CHRYS_ORACLE")


def oracle(*args, cwd):
    out = subprocess.run([*ORACLE, *args], cwd=cwd, capture_output=True, text=True)
    if not out.stdout:
        sys.exit(f"oracle failed: {out.stderr}")
    return [json.loads(line) for line in out.stdout.splitlines()]


def fl(x):
    return repr(x) if isinstance(x, float) and not math.isfinite(x) else x


def match_text(m):
    """The matcher text of the Rust adapter: compact JSON of the set clauses, fixed order."""
    out = {}
    if m["profile"] is not None:
        out["profile"] = m["profile"]
    if m["profiles"]:
        out["profiles"] = m["profiles"]
    if m["tool_kind"] is not None:
        out["tool_kind"] = m["tool_kind"]
    if m["tool_name"] is not None:
        out["tool_name"] = m["tool_name"]
    if m["args"]:
        out["args"] = {
            name: {k: ops[k] for k in ("equals", "contains", "regex") if ops.get(k) is not None}
            for name, ops in m["args"].items()
        }
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False) if out else None


def summarize(d, folder):
    if not d["ok"]:
        error = d["error"].replace(str(folder), "<dir>")
        return {"ok": False, "error": error, "warnings": d["warnings"]}
    s = d["settings"]
    hooks = []
    for h in d["hooks"]:
        r, e = h["run"], h["execution"]
        if r["type"] == "script":
            command = ["script", r["path"], *r["args"]]
        elif r["type"] == "command":
            command = ["command", *r["argv"], *r["args"]]
        else:
            command = ["shell", r["shell"]]
        hooks.append({
            "id": h["id"], "event": h["event"], "enabled": h["enabled"],
            "description": h["description"], "match": match_text(h["match"]), "command": command,
            "env": r["env"], "cwd": r["cwd"], "mode": e["mode"], "detach": e["detach"],
            "delivery": e["delivery"], "timeout": fl(e["timeout_seconds"]), "on_error": e["on_error"],
        })
    return {
        "ok": True,
        "settings": [fl(s["shutdown_grace_seconds"]), s["max_parallel_hooks"],
                     fl(s["outbox_retry_age_seconds"]), s["outbox_max_retries"]],
        "settings_overrides": d["settings_overrides"],
        "hooks": hooks,
        "skipped": [[k["id"], k["reason"]] for k in d["skipped_hooks"]],
        "warnings": d["warnings"],
    }


def record_load():
    folder = HERE / "load"
    names = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != "oracle.json")
    lines = [
        json.dumps(d["file"]) + ": " + json.dumps(summarize(d, folder), ensure_ascii=False)
        for d in oracle("--rel", *names, cwd=folder)
    ]
    (folder / "oracle.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")


def record_regex_flags():
    folder = HERE / "regex_flags"
    (loaded,) = oracle("hooks.json", cwd=folder)
    (result,) = oracle("--match", "hooks.json", "payload.json", cwd=folder)
    answers = {r["id"]: r["matches"] for r in result["results"]}
    answers.update({s["id"]: "error: " + s["reason"] for s in loaded["skipped_hooks"]})
    answers = dict(sorted(answers.items()))
    lines = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in answers.items()]
    text = "{\n" + ",\n".join(lines) + "\n}\n"
    (folder / "oracle.json").write_text(text)


record_load()
if (HERE / "regex_flags" / "hooks.json").exists():
    record_regex_flags()
