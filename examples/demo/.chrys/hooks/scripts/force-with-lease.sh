#!/bin/sh
# Chrys before_tool_call hook: the payload arrives in $CHRYS_HOOK_PAYLOAD_FILE, the decision
# goes to $CHRYS_HOOK_RESULT. Rewrites --force into --force-with-lease.
cmd=$(sed -n 's/.*"command": *"\([^"]*\)".*/\1/p' "$CHRYS_HOOK_PAYLOAD_FILE" | head -n 1)
new=$(printf '%s' "$cmd" | sed 's/--force\( \|$\)/--force-with-lease\1/')
printf '{"action": "modify", "reason": "use --force-with-lease", "args_override": {"command": "%s"}}\n' "$new" > "$CHRYS_HOOK_RESULT"
