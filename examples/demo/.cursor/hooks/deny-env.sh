#!/bin/sh
# Cursor beforeReadFile hook: secrets in .env files stay out of the agent's context.
input=$(cat)
case "$input" in
  *'.env"'*)
    printf '%s\n' '{"permission":"deny","user_message":"reading .env files is not allowed"}'
    ;;
  *)
    printf '%s\n' '{"permission":"allow"}'
    ;;
esac
