#!/usr/bin/env python3
"""Scripted tool calls for the real-agent harness's mock models (`cargo xtask agents`).

The harness's mock models (`mock_<agent>.py` in $RA_ORIG_HARNESS) answer the model's tool
turn with one shell call running $TOOL_CMD. The suite's **edit** run needs another tool
instead: the agent's own file tool (Claude `Write`, Codex `apply_patch`, Gemini `write_file`,
Copilot `create`) aimed at a protected hook file. `cargo xtask agents` builds an overlay of
the harness in a temporary folder where each `mock_<agent>.py` is a copy of this file; it
loads the harness's own mock, serves through it, and only when $MOCK_CALLS is set replaces
the tool turn's answer with the calls it lists:

    MOCK_CALLS='[{"name": "Write", "input": {...}}]'             # Claude, Copilot
    MOCK_CALLS='[{"name": "write_file", "args": {...}}]'         # Gemini
    MOCK_CALLS='[{"name": "apply_patch", "custom_input": "..."}]' # Codex (freeform tool)

`{PROJ}` in a call is the run's project folder (the port file's folder + `/proj`, as the
harness lays a run out), `{HOME}` the run's home folder (`/home` beside it). Everything else (side requests, the turn after the tool result) is
the harness mock's own answer.
"""
import json
import os
import runpy
import sys

AGENT = os.path.basename(sys.argv[0])[len("mock_"):-len(".py")]
ORIG = os.environ["RA_ORIG_HARNESS"]
if AGENT == "copilot":
    # The harness's Copilot mock is its Claude mock with Copilot's shell tool names.
    os.environ.setdefault("MOCK_TOOL_NAME", "bash,Bash,shell")
    os.environ.setdefault("MOCK_NAME", "mock_copilot")
    MOCK = runpy.run_path(os.path.join(ORIG, "mock_claude.py"), run_name="mock_orig")
else:
    MOCK = runpy.run_path(os.path.join(ORIG, "mock_%s.py" % AGENT), run_name="mock_orig")


def project():
    args = sys.argv[1:]
    port_file = args[args.index("--port-file") + 1] if "--port-file" in args else ""
    return os.path.join(os.path.dirname(os.path.abspath(port_file)), "proj")


def calls():
    text = os.environ.get("MOCK_CALLS", "")
    if not text:
        return []
    home = os.path.join(os.path.dirname(project()), "home")
    return json.loads(text.replace("{PROJ}", project()).replace("{HOME}", home))


def claude_turn(req, scripted):
    body = req["json"] or {}
    blocks = [{"type": "tool_use", "id": "toolu_scripted_%02d" % i, "name": c["name"],
               "input": c.get("input", {})} for i, c in enumerate(scripted)]
    model = body.get("model", "claude-mock")
    if body.get("stream"):
        return 200, "text/event-stream", MOCK["stream"](model, blocks, "tool_use"), "tool_use/scripted/sse"
    return (200, "application/json", json.dumps(MOCK["message"](model, blocks, "tool_use")).encode(),
            "tool_use/scripted/json")


def gemini_turn(req, scripted):
    body = req["json"] or {}
    path = req["path"]
    model = path.split("/models/")[-1].split(":")[0]
    parts = [{"functionCall": {"name": c["name"], "args": c.get("args", {})}} for c in scripted]
    resp = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 7, "totalTokenCount": 19},
            "modelVersion": model, "responseId": "scripted-%d" % req.get("idx", 0)}
    if ":streamGenerateContent" in path:
        return 200, "text/event-stream", MOCK["sse"]([(None, resp)]), "functionCall/scripted/sse"
    return 200, "application/json", json.dumps(resp).encode(), "functionCall/scripted/json"


def codex_turn(req, scripted):
    body = req["json"] or {}
    items = []
    for i, c in enumerate(scripted):
        if "custom_input" in c:
            items.append({"type": "custom_tool_call", "id": "ctc_scripted_%d" % i, "call_id": "call_scripted_%d" % i,
                          "name": c["name"], "input": c["custom_input"], "status": "completed"})
        else:
            items.append({"type": "function_call", "id": "fc_scripted_%d" % i, "call_id": "call_scripted_%d" % i,
                          "name": c["name"], "arguments": json.dumps(c.get("arguments", {})),
                          "status": "completed"})
    resp = {"id": "resp_scripted", "object": "response", "status": "in_progress",
            "model": body.get("model", "mock"), "output": []}
    ev = [("response.created", {"type": "response.created", "sequence_number": 0, "response": resp})]
    seq = 1
    for i, item in enumerate(items):
        ev.append(("response.output_item.added", {"type": "response.output_item.added", "output_index": i,
                                                  "sequence_number": seq, "item": dict(item, status="in_progress")}))
        ev.append(("response.output_item.done", {"type": "response.output_item.done", "output_index": i,
                                                 "sequence_number": seq + 1, "item": item}))
        seq += 2
    done = dict(resp, status="completed", output=items, usage=MOCK["usage"]())
    ev.append(("response.completed", {"type": "response.completed", "sequence_number": seq, "response": done}))
    return 200, "text/event-stream", MOCK["sse"](ev), "custom_tool_call/scripted"


TURNS = {"claude": claude_turn, "copilot": claude_turn, "gemini": gemini_turn, "codex": codex_turn}


def handler(req):
    answer = MOCK["handler"](req)
    kind = answer[3]
    scripted = calls()
    # The harness mock's tool turn: it would have asked for the shell call.
    if scripted and kind.split("/")[0].split(":")[0] in ("tool_use", "functionCall", "function_call"):
        return TURNS[AGENT](req, scripted)
    return answer


if __name__ == "__main__":
    MOCK["serve"](handler, os.environ.get("MOCK_NAME", "mock_%s" % AGENT))
