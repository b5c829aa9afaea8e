#!/bin/sh
# Cursor beforeShellExecution hook: refuse recursive forced deletes.
input=$(cat)
case "$input" in
  *'rm -rf'*|*'rm -fr'*)
    printf '%s\n' '{"permission":"deny","user_message":"rm -rf is blocked in this repository","agent_message":"rm -rf is blocked by the project policy; delete the specific files instead"}'
    ;;
  *)
    printf '%s\n' '{"permission":"allow"}'
    ;;
esac
