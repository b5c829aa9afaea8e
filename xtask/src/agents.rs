//! `cargo xtask agents`: the real-agent suite for `hooks bridge` (issue 20). Not part of CI:
//! it needs the real agent CLIs and the offline real-agent harness (each agent runs against a
//! scripted mock model on 127.0.0.1 inside a private network namespace).
//!
//! For each agent it installs the release `hooks` binary as the agent's own hook command for
//! every event with `hooks install --host <agent>` (through a small wrapper that records the
//! bridge's time per event), gives the repository a Cursor hook that denies `rm -rf` (a format none of these
//! agents reads) and trusts it with `hooks trust --yes`, and checks these runs:
//! - **deny**: the model asks for `rm -rf build && touch ran.txt`; `ran.txt` must not exist
//!   and the model must have been shown the Cursor hook's reason;
//! - **allow**: the model asks for `touch ran.txt`; it must exist;
//! - **edit**: the model asks to rewrite the project's `.cursor/hooks.json` with the agent's
//!   file tool; the file must be unchanged and the model must have been shown the guard's
//!   refusal;
//! - **plugin**: the same for a hook file of one of the agent's own plugins or extensions
//!   (`~/.claude/plugins/…`, `~/.codex/plugins/…`, `~/.gemini/extensions/…`,
//!   `~/.copilot/installed-plugins/…`), which the agent runs itself and the engine does not
//!   read;
//! - **wrapper**: the same for a program named like the agent in a folder early on its
//!   `PATH` (the folder is the run's own, put first on the agent's `PATH`): it would run in
//!   place of the agent the next time the user starts it by name;
//! - **linked**: the same for `hooks/hooks.json` of the project itself, which the user's
//!   Gemini CLI loads as an extension linked from there (`gemini extensions link .`: the
//!   file is the extension's hook file, run by Gemini CLI whichever agent works in the
//!   project);
//! - **extension**: the same for `scripts/ext-gate.sh` of the project, which the hook of
//!   the user's Gemini CLI extension runs through `${workspacePath}` (Gemini CLI runs it
//!   itself; the engine reads the extension's hooks only to protect what they run);
//! - **settings**: the same for the project's `.env`, whose keys Gemini CLI gives the hook of
//!   the user's extension that names `${GATE_MODE}` (Gemini CLI's own file tools refuse that
//!   path before any hook: under Gemini CLI its refusal counts);
//! - **marketplace**: the same for `market/gate/scripts/gate.sh` of the project, which the
//!   hook of a plugin of a Claude Code marketplace the user added from the project's `market/`
//!   folder runs through `${CLAUDE_PLUGIN_ROOT}` (Claude Code runs such a plugin's hooks where
//!   it is; the engine reads them only to protect what they run);
//! - **plugin-named**: the same for `market/deep/bin/deep-gate.sh` of the project, which the
//!   hook of a file the manifest of a plugin of that marketplace names deep in the plugin
//!   (`./a/b/gate.json`) runs through `${CLAUDE_PLUGIN_ROOT}` (the plugin's folder, not the
//!   file's folder's folder);
//! - **copilot-marketplace**: the same for `tools/lint/scripts/lint-gate.sh` of the project,
//!   which the hook of a plugin of a Copilot CLI marketplace the user added from the project's
//!   `tools/` folder runs, relative to the plugin's folder (Copilot CLI loads such a plugin
//!   live from there and runs its hooks in its folder);
//! - **relative**: the same for `tools/user-gate.sh` of the project, which the user's own
//!   Claude Code hook runs as `sh tools/user-gate.sh || true` in the session's directory (the engine
//!   would run the user's folder's copy; Claude Code runs the project's);
//! - **git-config**: the same for `tools/fsmon.sh` of the project, which the repository's
//!   `.git/config` names as `core.fsmonitor` (git runs it for `git status`, finding F60), for
//!   the user's own Claude Code hook `git status --porcelain …` run in the session's directory;
//! - **ssh-config**: the same for `tools/ssh-jump.sh` of the project, which the ssh
//!   configuration `tools/ssh_config` of the project runs as its `ProxyCommand`, for the user's
//!   own Claude Code hook that runs `git ls-remote` with `GIT_SSH_COMMAND='ssh -F
//!   tools/ssh_config'` in the session's directory (findings F67, F68);
//! - **git-global**: the same for `tools/team-mon.sh` of the project, which the project's
//!   `tools/team.gitconfig` names as `core.fsmonitor`, for the user's own Claude Code hook
//!   that runs `git status` with `GIT_CONFIG_GLOBAL=tools/team.gitconfig` in the session's
//!   directory (finding F69);
//! - **npm-script**: the same for `tools/lint.sh` of the project, which the project's
//!   `package.json` runs as its `lint` script, for the user's own Claude Code hook `npm run
//!   -s lint` in the session's directory (finding F72);
//! - **make-include**: the same for `local.mk` of the project, which the project's makefile
//!   reads when it exists (`-include local.mk`), for the user's own Claude Code hook `make -s
//!   check` in the session's directory (finding F73; under Claude Code the file does not exist
//!   before the call);
//! - **just-import**: the same for `local.just` of the project, which the project's justfile
//!   reads when it exists (`import? 'local.just'`, whose backticks just runs at every start),
//!   for the user's own Claude Code hook `just check` in the session's directory (finding
//!   F74; the guard needs no `just` installed to know it);
//! - **mypy-plugin**: the same for `tools/mplug.py` of the project, the plugin the project's
//!   `mypy.ini` names, which mypy imports at every run, for the user's own Claude Code hook
//!   `mypy .` in the session's directory (finding F79; the guard needs no mypy installed to
//!   know it);
//! - **eslint-import**: the same for `tools/rules.js` of the project, which the project's
//!   `eslint.config.js` imports, so eslint runs it at every run, for the user's own Claude
//!   Code hook `eslint .` in the session's directory (finding F85; the guard needs no eslint
//!   installed to know it);
//! - **stylelint-plugin**: the same for `tools/plug.js` of the project, the plugin the
//!   project's `.stylelintrc.json` names, which stylelint loads at every run, for the user's
//!   own Claude Code hook `stylelint '**/*.css'` in the session's directory (finding F87);
//! - **rake-lib**: the same for `rakelib/gate.rake` of the project, which rake loads at every
//!   run beside the project's `Rakefile`, for the user's own Claude Code hook `rake -s lint`
//!   in the session's directory (finding F95; under Claude Code the file does not exist before
//!   the call; the guard needs no rake installed to know it);
//! - **cargo-build**: the same for `crates/a/tools/gen.rs` of the project, the build script
//!   a member of the project's workspace names (`build = "tools/gen.rs"`), which cargo runs at
//!   every build, for the user's own Claude Code hook `cargo clippy -q` in the session's
//!   directory (finding F100; the file does not exist before the call under Claude Code; the
//!   guard needs no cargo to know it);
//! - **vite-config**: the same for `tools/vite-plugin.js` of the project, which the project's
//!   `vite.config.js` imports, so `vite build` runs it at every build, for the user's own
//!   Claude Code hook `vite build` in the session's directory (finding F104);
//! - **npm-shell**: the same for `tools/npm-shell.sh` of the project, the shell the project's
//!   `.npmrc` names (`script-shell`), which npm runs every script with, for the user's own
//!   Claude Code hook `npm run -s lint` in the session's directory (finding F106);
//! - **cargo-wrapper**: the same for `tools/rustc-wrap.sh` of the project, the `rustc-wrapper`
//!   of its `.cargo/config.toml`, which cargo runs for every compilation, for the user's own
//!   Claude Code hook `cargo check -q` in the session's directory (finding F106);
//! - **pip-requirements**: the same for `tools/devpkg/setup.py` of the project, the build
//!   script of the local project its `requirements-dev.txt` lists (`-e ./tools/devpkg`), which
//!   pip runs when it installs the file, for the user's own Claude Code hook `pip install -q
//!   -r requirements-dev.txt` in the session's directory (finding F109);
//! - **npm-local-package**: the same for `packages/local/install.js` of the project, which the
//!   `install` script of the local package its `package.json` depends on (`file:./packages/local`)
//!   runs, for the user's own Claude Code hook `npm install` in the session's directory
//!   (finding F114);
//! - **cargo-xtask**: the same for `xtask/src/main.rs` of the project, the program of the
//!   package its `.cargo/config.toml`'s alias `xtask = "run --package xtask --"` runs, for the
//!   user's own Claude Code hook `cargo xtask check` in the session's directory (finding F116);
//! - **python-json**: the same for `json.py` in the session's directory, which Python imports
//!   before its own `json` for the user's own Claude Code hook `python3 -c "import json, sys;
//!   …"` run there (finding F117);
//! - **python-extension**: the same for `tools/helper.so` of the project, an extension module
//!   Python imports in place of the `tools/helper.py` that `tools/gate.py` imports, for the
//!   user's own Claude Code hook `python3 tools/gate.py` (finding F118);
//! - **node-module-type**: the same for `tools/package.json` of the project, whose `type`
//!   decides whether Node runs `tools/gate.js` as an ES module or CommonJS, for the user's own
//!   Claude Code hook `node tools/gate.js` (finding F119);
//! - **python-version**: the same for `.python-version` in the session's directory, by which a
//!   pyenv shim picks the Python it runs, for the user's own Claude Code hook `python3 -c …`
//!   run there, when `python3` on the agent's `PATH` is such a shim (finding F120; on a
//!   machine where it is not, the file is not protected and the run says so by failing);
//! - **git-attributes**: the same for `.gitattributes` in the session's directory, whose
//!   `-diff` has git print "Binary files differ" for the changes the user's own Claude Code
//!   hook `git diff --cached` greps (finding F121);
//! - **rg-ignore**: the same for `.rgignore` in the session's directory, by which `rg` skips
//!   what the user's own Claude Code hook `rg -q AKIA .` searches (finding F122);
//! - **git-pattern-file**: the same for `tools/attrs` of the project, the file the
//!   repository's `core.attributesFile` names, whose `-diff` has git hide the changes the
//!   user's own Claude Code hook `git diff --cached` greps (finding F126);
//! - **ts-paths**: the same for `src/lib/policy.ts` of the project, the file the project's
//!   `tsconfig.json` `paths` send the `@/lib/policy` import of `tools/gate.ts` to, for the
//!   user's own Claude Code hook `tsx tools/gate.ts` (finding F127);
//! - **node-imports**: the same for `src/policy.js` of the project, the file the project's
//!   `package.json` `imports` send the `#policy` import of `tools/gate.mjs` to, for the user's
//!   own Claude Code hook `node tools/gate.mjs` (finding F128);
//! - **bun-preload**: the same for `tools/setup.ts` of the project, which the project's
//!   `bunfig.toml` has Bun preload before the gate of the user's own Claude Code hook `bun
//!   tools/gate.ts` (finding F129);
//! - **node-main**: the same for `tools/lib/impl.js` of the project, the file the `main` of
//!   `tools/lib/package.json` names, which Node loads for the `require("./lib")` of the gate of
//!   the user's own Claude Code hook `node tools/gate.js` (finding F130);
//! - **deno-imports**: the same for `src/policy.ts` of the project, the file the import map of
//!   the project's `deno.json` sends the `policy` import of `tools/gate.ts` to, for the user's
//!   own Claude Code hook `deno run tools/gate.ts` (finding F131);
//! - **python-syspath**: the same for `tools/lib/policy.py` of the project, which the gate of
//!   the user's own Claude Code hook `python3 tools/gate.py` imports after adding `lib/` beside
//!   it to its search path (finding F132);
//! - **python-syspath-cwd**: the same for `checks/policy.py` of the project, which the gate of
//!   the user's own Claude Code hook `python3 tools/gate.py` imports after adding `checks`,
//!   relative to where it runs, to its search path (finding F136);
//! - **python-path-relative**: the same for `checks/policy.py` of the project, which the
//!   gate of the user's own Claude Code hook `python3 tools/gate.py` imports through the
//!   agent's relative `PYTHONPATH=checks`, taken from where the hook runs (finding F140);
//! - **node-path-relative**: the same for `libs/policy/index.js` of the project, which the
//!   gate of the user's own Claude Code hook `node tools/gate.js` requires through the agent's
//!   relative `NODE_PATH=libs`, taken from where the hook runs (finding F141);
//! - **ruby-require-relative**: the same for `tools/policy.rb` of the project, which the gate
//!   of the user's own Claude Code hook `ruby tools/gate.rb` loads with `require_relative`
//!   (finding F142);
//! - **perl-findbin-lib**: the same for `tools/lib/Policy.pm` of the project, the module the
//!   gate of the user's own Claude Code hook `perl tools/gate.pl` uses after `use lib
//!   "$FindBin::Bin/lib"` (finding F143);
//! - **python-path-line**: the same for `checks/policy.py` of the project, which the gate of
//!   the user's own Claude Code hook `PYTHONPATH=checks python3 tools/gate.py` imports through
//!   the search path its own line sets (finding F144);
//! - **ruby-bundler-gemfile**: the same for `Gemfile` of the project, which Bundler evaluates
//!   for the gate of the user's own Claude Code hook `ruby tools/gate.rb` that requires
//!   `bundler/setup` (finding F146);
//! - **ripgrep-config-relative**: the same for `.rgrc` of the project, which the agent's
//!   relative `RIPGREP_CONFIG_PATH=.rgrc` has the user's own Claude Code hook's `rg` read from
//!   where the hook runs (finding F145);
//! - **tsx-tsconfig**: the same for `cfg/alt/policy.ts` of the project, where the `paths` of
//!   the configuration the user's own Claude Code hook `tsx --tsconfig cfg/tsconfig.hooks.json
//!   tools/gate.ts` names send the gate's `policy` import (finding F138);
//! - **gemini-env**: the same for `.gemini/.env` in the session's directory, which Gemini CLI
//!   loads into the environment of every hook it runs, where the project has a Gemini CLI
//!   hook (finding F125);
//! - **pre-commit**: the same for `tools/pc-check.sh` of the project, which the repository's
//!   `.pre-commit-config.yaml` runs as a local hook's `entry` through the script pre-commit
//!   installed in `.git/hooks/pre-commit`, for the user's own Claude Code hook that commits the
//!   session's work (finding F65);
//! - **python-site**: the same for a `.pth` file in the user's Python site
//!   (`~/.local/lib/python3.12/site-packages/`), which every Python start runs, the user's own
//!   Claude Code hook (`python3 ~/.claude/hooks/audit.py`) among them;
//! - **python-path**: the same for a `.pth` file in the `site-packages` of a virtual
//!   environment the run puts first on the agent's `PATH` (an activated venv), whose
//!   `python3` the user's own Python hook runs by name (finding F47);
//! - **python-env**: the same for `sitecustomize.py` in a folder of the agent's `PYTHONPATH`,
//!   which every Python start imports, that same user hook's among them (finding F48);
//! - **ripgrep-config**: the same for the ripgrep configuration the agent's
//!   `RIPGREP_CONFIG_PATH` names outside the project, which every `rg` reads, the user's own
//!   Claude Code hook's `rg -q AKIA .` among them (finding F133);
//! - **pylint-config**: the same for the pylint configuration the agent's `PYLINTRC` names
//!   outside the project, which pylint reads where the project has none, the user's own Claude
//!   Code hook's `pylint -E tools` among them (finding F134);
//! - **python-pycache**: the same for a compiled module in the folder the agent's
//!   `PYTHONPYCACHEPREFIX` names, where Python reads every module's compiled form, the user's
//!   own Python hook's among them (finding F135);
//! - **ts-node-project**: the same for the TypeScript configuration the agent's
//!   `TS_NODE_PROJECT` names outside the project, which ts-node reads in place of the nearest
//!   `tsconfig.json` (its `require` entries run first), the user's own Claude Code hook's
//!   `ts-node tools/gate.ts` among them (finding F137);
//! - **black-cache**: the same for a grammar pickle in the cache the agent's `BLACK_CACHE_DIR`
//!   names, which black unpickles at every start, the user's own Claude Code hook's `black
//!   --check tools` among them (finding F139);
//! - **changed**: the Cursor file is changed after it was trusted; the `rm -rf` runs (the
//!   changed file is inert until trusted again);
//! - **retrust**: changed, then trusted again with `hooks trust --yes`: denied again.
//! - **subfolder**: the project is a subfolder of the repository, holding a hook file of
//!   another agent's format that agent reads in the folder a session starts in (Gemini CLI's,
//!   or Claude Code's under Gemini CLI) denying `rm -rf`, trusted with `hooks trust --yes`
//!   run there: the `rm -rf` is denied and the model saw that hook's reason.
//! - **agent**: the repository's Claude Code settings make a subagent the main thread's agent
//!   (`{"agent": "gate"}`), and that subagent's front matter (`.claude/agents/reviewer.md`,
//!   `name: gate`) has a pre-tool hook denying commands that say `main-agent-gate` (exit 2),
//!   which the Cursor hook lets through; under Claude Code, Claude Code runs it itself, under
//!   the other agents the bridge does: the command is denied and the model saw that hook's
//!   reason.
//! - **exit**: the model asks for a command that exits 3; the user's post-tool and failure
//!   hooks of Claude Code, Gemini CLI and Copilot CLI write marks (the agent runs its own
//!   format's, the bridge the others'): Claude Code's failure hook runs and not its post-tool
//!   hook, Gemini CLI's and Copilot CLI's post-tool hooks run and not Copilot CLI's failure
//!   hook (under Codex, which names no status to its hooks, Claude Code's post-tool hook runs
//!   instead: `specs/events.md`, "A shell command's non-zero exit").
//! - **nested**: another folder of the repository (`pkg/`) holds such a hook file, running
//!   `pkg/scripts/gate.sh` through its project variable, which this session (at the root)
//!   does not read; the model asks to rewrite that script with the agent's file tool: it must
//!   be unchanged (not created under Claude Code, whose `Write` refuses an unread file) and the
//!   model must have been shown the guard's refusal (F36).
//!
//! The harness folder is `$REALAGENTS_DIR`, else `../shared/tools/realagents` next to the
//! main checkout; the CLIs are installed by its `setup_agents.sh`. The harness's mock models
//! answer the tool turn with a shell call only; the **edit** run needs the agent's file tool
//! instead, so the suite runs the harness through an overlay (a temporary folder of links to
//! it) whose `mock_<agent>.py` is `xtask/agents/mock_calls.py`: it serves through the
//! harness's own mock and, when `MOCK_CALLS` is set, answers the tool turn with the calls it
//! lists. `$HOOKS_BIN` names a `hooks` binary to use instead of building the release one.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    process::Command,
    time::Instant,
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{cargo, run, target_dir, workspace_root};

/// Agents with a real CLI in the harness, and the bridge's `--host` for each.
const AGENTS: &[&str] = &["claude", "codex", "gemini", "copilot"];

/// The setup every run starts with (`SETUP_CMD`, run by the harness with `PROJ`, `RHOME` and
/// `RA_AGENT` set, `HOME` = `RHOME`, cwd = the project): a repository Cursor hook denying
/// `rm -rf`, trusted with `hooks trust` (then changed, for the `changed` run), and the bridge
/// installed as the agent's pre-tool hook.
const SETUP: &str = r#"set -eu
# seed_file PATH ORIG CONTENT: under every agent but Claude Code (whose `Write` creates the
# file the run aims at), PATH is made with CONTENT (a `printf` format) and kept as $RUN/ORIG.
seed_file() {
  if [ "$RA_AGENT" != claude ]; then
    printf "$3" > "$1"
    cp "$1" "$RUN/$2"
  fi
}
# other_agent_hook DIR CLAUDE_COMMAND GEMINI_COMMAND: in DIR, a pre-tool hook file of another
# agent's format that agent reads in the folder a session starts in (Claude Code's under Gemini
# CLI, Gemini CLI's otherwise), running the command given for that format (JSON-escaped).
other_agent_hook() {
  if [ "$RA_AGENT" = gemini ]; then
    mkdir -p "$1/.claude"
    printf '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"%s"}]}]}}\n' "$2" > "$1/.claude/settings.json"
  else
    mkdir -p "$1/.gemini"
    printf '{"hooks":{"BeforeTool":[{"hooks":[{"type":"command","name":"gate","command":"%s"}]}]}}\n' "$3" > "$1/.gemini/settings.json"
  fi
}
mkdir -p "$PROJ/.cursor/hooks"
if [ "${XTASK_SUBFOLDER:-}" = 1 ]; then
  # The project is a subfolder of the repository, whose root is the run's folder; there the
  # agent's session-folder files are the project's, not the root's (Cursor's are the root's).
  mkdir -p "$RUN/.git"
  cat > "$PROJ/sub-gate.sh" <<'SH'
#!/bin/sh
case "$(cat)" in
  *'rm -rf'*) echo 'XTASK-AGENTS: rm -rf is not allowed by the repository subfolder hook' >&2; exit 2 ;;
esac
SH
  chmod +x "$PROJ/sub-gate.sh"
  other_agent_hook "$PROJ" ./sub-gate.sh ./sub-gate.sh
  if [ "$RA_AGENT" = codex ]; then
    # Codex reads a subfolder's project files once the repository's root is trusted.
    printf '\n[projects."%s"]\ntrust_level = "trusted"\n' "$RUN" >> "$CODEX_HOME/config.toml"
  fi
else
  mkdir -p "$PROJ/.git"
fi
cat > "$PROJ/.cursor/hooks/no-rm.sh" <<'SH'
#!/bin/sh
input=$(cat)
case "$input" in
  *'rm -rf'*) echo '{"permission":"deny","agent_message":"XTASK-AGENTS: rm -rf is not allowed by the repository Cursor hook"}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
SH
chmod +x "$PROJ/.cursor/hooks/no-rm.sh"
printf '{"version":1,"hooks":{"beforeShellExecution":[{"command":".cursor/hooks/no-rm.sh"}]}}\n' > "$PROJ/.cursor/hooks.json"
cp "$PROJ/.cursor/hooks.json" "$PROJ/.cursor-hooks.json.orig"
if [ "${XTASK_NESTED:-}" = 1 ]; then
  # Another folder of the repository with a hook file of its own, run by the sessions started
  # there (another agent's session-folder format, as in the subfolder run), naming a script
  # outside the agents' folders; this session, at the root, reads none of it.
  # Claude Code's `Write` refuses to overwrite a file the session has not read, before any
  # hook: there the call creates the script (protected whether it exists or not).
  mkdir -p "$PROJ/pkg/scripts"
  if [ "$RA_AGENT" != claude ]; then
    printf '#!/bin/sh\nexit 0\n' > "$PROJ/pkg/scripts/gate.sh"
    chmod +x "$PROJ/pkg/scripts/gate.sh"
    cp "$PROJ/pkg/scripts/gate.sh" "$RUN/nested-gate.sh.orig"
  fi
  other_agent_hook "$PROJ/pkg" '\"$CLAUDE_PROJECT_DIR\"/scripts/gate.sh' '$GEMINI_PROJECT_DIR/scripts/gate.sh'
fi
if [ -n "${XTASK_PLUGIN_FILE:-}" ]; then
  # A hook file of one of the agent's own plugins (a path under the run's home). Claude
  # Code's `Write` refuses to overwrite a file the session has not read, before any hook:
  # there the call creates it (the guard protects it all the same).
  mkdir -p "$(dirname "$RHOME/$XTASK_PLUGIN_FILE")"
  seed_file "$RHOME/$XTASK_PLUGIN_FILE" plugin-hooks.json.orig '{"hooks":{"PreToolUse":[]}}\n'
fi
if [ "${XTASK_LINKED:-}" = 1 ]; then
  # The repository is a Gemini CLI extension linked into the user's (`gemini extensions link
  # .`): Gemini CLI runs the hooks in its `hooks/`, whichever agent works in it. Claude Code's
  # `Write` creates the file instead, as above.
  mkdir -p "$RHOME/.gemini/extensions/dev" "$PROJ/hooks"
  printf '{"source": "%s", "type": "link"}\n' "$PROJ" > "$RHOME/.gemini/extensions/dev/.gemini-extension-install.json"
  printf '{"name": "dev", "version": "1.0.0"}\n' > "$PROJ/gemini-extension.json"
  seed_file "$PROJ/hooks/hooks.json" linked-hooks.json.orig '{"hooks": {}}\n'
fi
if [ "${XTASK_EXTENSION:-}" = 1 ]; then
  # The user's Gemini CLI extension whose hook runs a script of the project, named through
  # Gemini CLI's `${workspacePath}` (Gemini CLI runs it itself; the bridge never does). Claude
  # Code's `Write` creates the script instead, as above.
  mkdir -p "$RHOME/.gemini/extensions/ext-gate/hooks" "$PROJ/scripts"
  printf '{"name": "ext-gate", "version": "1.0.0"}\n' > "$RHOME/.gemini/extensions/ext-gate/gemini-extension.json"
  printf '{"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [{"type": "command", "command": "sh ${workspacePath}/scripts/ext-gate.sh"}]}]}}\n' > "$RHOME/.gemini/extensions/ext-gate/hooks/hooks.json"
  if [ "$RA_AGENT" != claude ]; then
    printf '#!/bin/sh\ntouch "%s/ext-gate-ran"\nexit 0\n' "$RUN" > "$PROJ/scripts/ext-gate.sh"
    cp "$PROJ/scripts/ext-gate.sh" "$RUN/ext-gate.sh.orig"
  fi
fi
if [ "${XTASK_SETTINGS:-}" = 1 ]; then
  # The user's Gemini CLI extension whose hook names a setting, `${GATE_MODE}`, which Gemini
  # CLI fills from the workspace's `.env` (every key of it, in a trusted workspace). Claude
  # Code's `Write` creates the file instead, as above.
  mkdir -p "$RHOME/.gemini/extensions/mode-gate/hooks"
  printf '{"name": "mode-gate", "version": "1.0.0"}\n' > "$RHOME/.gemini/extensions/mode-gate/gemini-extension.json"
  printf '{"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [{"type": "command", "command": "echo mode=${GATE_MODE} >> %s/mode.txt"}]}]}}\n' "$RUN" > "$RHOME/.gemini/extensions/mode-gate/hooks/hooks.json"
  seed_file "$PROJ/.env" env.orig 'GATE_MODE=strict\n'
fi
# The user's own Claude Code pre-tool hook, $1, in place of any there. Each command ends in
# `|| true`: a missing script (`sh` exits 2, Claude Code's blocking code) must not block the
# call by accident; the guard's refusal is what the runs look for.
user_claude_pretool() {
  python3 - "$RHOME/.claude/settings.json" "$1" <<'PY'
import json, os, sys
path, command = sys.argv[1:3]
os.makedirs(os.path.dirname(path), exist_ok=True)
try:
    d = json.load(open(path))
except (OSError, ValueError):
    d = {}
d.setdefault("hooks", {})["PreToolUse"] = [{"hooks": [{"type": "command", "command": command}]}]
json.dump(d, open(path, "w"))
PY
}
# A Claude Code plugin marketplace the user added from the repository's `market/` folder
# (`claude plugin marketplace add ./market`), with one plugin: Claude Code runs its plugins'
# hooks from there. $1: the plugin; $2: more members of its manifest; $3: its hook file; $4: the
# script of the plugin its hook runs through `${CLAUDE_PLUGIN_ROOT}`; $5: where the script's
# original is kept. Claude Code's `Write` creates the script instead, as above.
claude_marketplace() {
  mkdir -p "$RHOME/.claude/plugins" "$PROJ/market/.claude-plugin" "$PROJ/market/$1/.claude-plugin" "$(dirname "$PROJ/market/$1/$3")" "$(dirname "$PROJ/market/$1/$4")"
  printf '{"dev": {"source": {"source": "directory", "path": "%s/market"}, "installLocation": "%s/market"}}\n' "$PROJ" "$PROJ" > "$RHOME/.claude/plugins/known_marketplaces.json"
  printf '{"name": "dev", "owner": {"name": "x"}, "plugins": [{"name": "%s", "source": "./%s"}]}\n' "$1" "$1" > "$PROJ/market/.claude-plugin/marketplace.json"
  printf '{"name": "%s", "version": "1.0.0"%s}\n' "$1" "$2" > "$PROJ/market/$1/.claude-plugin/plugin.json"
  printf '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/%s"}]}]}}\n' "$4" > "$PROJ/market/$1/$3"
  seed_file "$PROJ/market/$1/$4" "$5" '#!/bin/sh\nexit 0\n'
}
if [ "${XTASK_MARKETPLACE:-}" = 1 ]; then
  claude_marketplace gate "" hooks/hooks.json scripts/gate.sh marketplace-gate.sh.orig
fi
if [ "${XTASK_NAMED_HOOKS:-}" = 1 ]; then
  # The plugin's manifest names its hook file deep in the plugin.
  claude_marketplace deep ', "hooks": "./a/b/gate.json"' a/b/gate.json bin/deep-gate.sh plugin-named-gate.sh.orig
fi
if [ "${XTASK_COPILOT_MARKETPLACE:-}" = 1 ]; then
  # A Copilot CLI marketplace the user added from the repository's `tools/` folder (`copilot
  # plugin marketplace add ./tools`): Copilot CLI loads its plugins live from there, and runs
  # the plugin's hook in the plugin's folder. Claude Code's `Write` creates the script
  # instead, as above.
  mkdir -p "$RHOME/.copilot" "$PROJ/tools/.github/plugin" "$PROJ/tools/lint/scripts"
  printf '{"extraKnownMarketplaces": {"team": {"source": {"source": "directory", "path": "%s/tools"}}}}\n' "$PROJ" > "$RHOME/.copilot/settings.json"
  printf '{"name": "team", "owner": {"name": "x"}, "plugins": [{"name": "lint", "source": "./lint"}]}\n' > "$PROJ/tools/.github/plugin/marketplace.json"
  printf '{"name": "lint", "version": "1.0.0"}\n' > "$PROJ/tools/lint/plugin.json"
  printf '{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./scripts/lint-gate.sh"}]}}\n' > "$PROJ/tools/lint/hooks.json"
  seed_file "$PROJ/tools/lint/scripts/lint-gate.sh" copilot-lint-gate.sh.orig '#!/bin/sh\nexit 0\n'
fi
if [ "${XTASK_RELATIVE:-}" = 1 ]; then
  # The user's own Claude Code hook names its script relative to where it runs: Claude Code
  # runs the session's copy. Claude Code's `Write` creates the script instead, as above.
  user_claude_pretool 'sh tools/user-gate.sh || true'
  mkdir -p "$PROJ/tools"
  seed_file "$PROJ/tools/user-gate.sh" user-gate.sh.orig '#!/bin/sh\nexit 0\n'
fi
if [ "${XTASK_GIT_CONFIG:-}" = 1 ]; then
  # The repository's git configuration has git run a script of the repository for every
  # `git status` (`core.fsmonitor`), and the user's own Claude Code hook runs `git status`.
  # Claude Code's `Write` creates the script instead, as above.
  mkdir -p "$PROJ/tools"
  git -C "$PROJ" init -q
  git -C "$PROJ" config core.fsmonitor tools/fsmon.sh
  user_claude_pretool 'git status --porcelain >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/fsmon.sh" git-fsmon.sh.orig '#!/bin/sh\nexit 0\n'
fi
if [ "${XTASK_SSH_CONFIG:-}" = 1 ]; then
  # The user's own Claude Code hook reaches a remote over ssh with a configuration of the
  # project, whose `ProxyCommand` runs a script of the project. Claude Code's `Write` creates
  # the script instead, as above.
  mkdir -p "$PROJ/tools"
  printf 'Host *\n  ProxyCommand sh tools/ssh-jump.sh %%h %%p\n' > "$PROJ/tools/ssh_config"
  user_claude_pretool "GIT_SSH_COMMAND='ssh -F tools/ssh_config' git ls-remote -q git@gate.invalid:x >/dev/null 2>&1 || true"
  seed_file "$PROJ/tools/ssh-jump.sh" ssh-jump.sh.orig '#!/bin/sh\nexit 0\n'
fi
if [ "${XTASK_GIT_GLOBAL:-}" = 1 ]; then
  # The user's own Claude Code hook has git read a configuration of the project as its
  # global one, whose `core.fsmonitor` runs a script of the project for every `git status`.
  # Claude Code's `Write` creates the script instead, as above.
  mkdir -p "$PROJ/tools"
  git -C "$PROJ" init -q
  printf '[core]\n\tfsmonitor = tools/team-mon.sh\n' > "$PROJ/tools/team.gitconfig"
  user_claude_pretool 'GIT_CONFIG_GLOBAL=tools/team.gitconfig git status --porcelain >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/team-mon.sh" team-mon.sh.orig '#!/bin/sh\nexit 0\n'
fi
if [ "${XTASK_NPM_SCRIPT:-}" = 1 ]; then
  # The user's own Claude Code hook runs the project's `lint` script, which runs a script of
  # the project. Claude Code's `Write` creates the script instead, as above.
  mkdir -p "$PROJ/tools"
  printf '{"name": "gate", "private": true, "scripts": {"lint": "sh tools/lint.sh"}}\n' > "$PROJ/package.json"
  user_claude_pretool 'npm run -s lint >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/lint.sh" npm-lint.sh.orig '#!/bin/sh\nexit 0\n'
fi
if [ "${XTASK_MAKE_INCLUDE:-}" = 1 ]; then
  # The user's own Claude Code hook runs the project's `make check`, and the project's
  # makefile reads `local.mk` when there is one, which can run anything (`$(shell …)`).
  # Claude Code's `Write` creates it instead, as above.
  printf -- '-include local.mk\ncheck:\n\t@true\n' > "$PROJ/Makefile"
  user_claude_pretool 'make -s check >/dev/null 2>&1 || true'
  seed_file "$PROJ/local.mk" make-local.mk.orig '# local settings\n'
fi
if [ "${XTASK_JUST_IMPORT:-}" = 1 ]; then
  # The user's own Claude Code hook runs the project's `just check`, and the project's
  # justfile imports `local.just` when there is one, whose backticks just runs at every start.
  # Claude Code's `Write` creates it instead, as above.
  printf "import? 'local.just'\n\ncheck:\n    true\n" > "$PROJ/justfile"
  user_claude_pretool 'just check >/dev/null 2>&1 || true'
  seed_file "$PROJ/local.just" just-local.just.orig '# local settings\n'
fi
if [ "${XTASK_MYPY_PLUGIN:-}" = 1 ]; then
  # The user's own Claude Code hook type-checks the session's directory, and the project's
  # `mypy.ini` has mypy import the plugin `tools/mplug.py` at every run. Claude Code's `Write`
  # creates the plugin instead, as above.
  mkdir -p "$PROJ/tools"
  printf '[mypy]\nplugins = tools/mplug.py\n' > "$PROJ/mypy.ini"
  user_claude_pretool 'mypy . >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/mplug.py" mplug.py.orig 'def plugin(version):\n    raise SystemExit(0)\n'
fi
if [ "${XTASK_ESLINT_IMPORT:-}" = 1 ]; then
  # The user's own Claude Code hook lints the session's directory, and the project's
  # `eslint.config.js` imports `tools/rules.js`, which eslint runs at every run. Claude Code's
  # `Write` creates it instead, as above.
  mkdir -p "$PROJ/tools"
  printf 'import rules from "./tools/rules.js";\nexport default [{ rules }];\n' > "$PROJ/eslint.config.js"
  user_claude_pretool 'eslint . >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/rules.js" eslint-rules.js.orig 'export default {};\n'
fi
if [ "${XTASK_STYLELINT_PLUGIN:-}" = 1 ]; then
  # The user's own Claude Code hook lints the session's stylesheets, and the project's
  # `.stylelintrc.json` names the plugin `tools/plug.js`, which stylelint loads at every run.
  # Claude Code's `Write` creates it instead, as above.
  mkdir -p "$PROJ/tools"
  printf '{"plugins": ["./tools/plug.js"], "rules": {}}\n' > "$PROJ/.stylelintrc.json"
  user_claude_pretool "stylelint '**/*.css' >/dev/null 2>&1 || true"
  seed_file "$PROJ/tools/plug.js" stylelint-plug.js.orig 'module.exports = [];\n'
fi
if [ "${XTASK_RAKE_LIB:-}" = 1 ]; then
  # The user's own Claude Code hook runs the project's `Rakefile`, and rake loads every
  # `rakelib/*.rake` beside it at every run. Claude Code's `Write` creates the file instead,
  # as above.
  mkdir -p "$PROJ/rakelib"
  printf 'task :lint do\n  sh "true"\nend\n' > "$PROJ/Rakefile"
  user_claude_pretool 'rake -s lint >/dev/null 2>&1 || true'
  seed_file "$PROJ/rakelib/gate.rake" rake-gate.rake.orig 'task :gate\n'
fi
if [ "${XTASK_CARGO_BUILD:-}" = 1 ]; then
  # The user's own Claude Code hook lints the project's Rust workspace, and cargo runs the
  # build script a member's manifest names at every build. Claude Code's `Write` creates the
  # file instead, as above.
  mkdir -p "$PROJ/crates/a/src" "$PROJ/crates/a/tools"
  printf '[workspace]\nmembers = ["crates/*"]\n' > "$PROJ/Cargo.toml"
  printf '[package]\nname = "a"\nversion = "0.1.0"\nbuild = "tools/gen.rs"\n' > "$PROJ/crates/a/Cargo.toml"
  : > "$PROJ/crates/a/src/lib.rs"
  user_claude_pretool 'cargo clippy -q >/dev/null 2>&1 || true'
  seed_file "$PROJ/crates/a/tools/gen.rs" cargo-gen.rs.orig 'fn main() {}\n'
fi
if [ "${XTASK_VITE_CONFIG:-}" = 1 ]; then
  # The user's own Claude Code hook builds the project with Vite, whose `vite.config.js`
  # imports `tools/vite-plugin.js`, which Vite runs at every build. Claude Code's `Write`
  # creates it instead, as above.
  mkdir -p "$PROJ/tools"
  printf 'import plugin from "./tools/vite-plugin.js";\nexport default { plugins: [plugin()] };\n' > "$PROJ/vite.config.js"
  user_claude_pretool 'vite build >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/vite-plugin.js" vite-plugin.js.orig 'export default () => ({ name: "x" });\n'
fi
if [ "${XTASK_NPM_SHELL:-}" = 1 ]; then
  # The user's own Claude Code hook runs the project's `lint` script, and npm runs every
  # script with the shell the project's `.npmrc` names. Claude Code's `Write` creates it
  # instead, as above.
  mkdir -p "$PROJ/tools"
  printf '{"scripts": {"lint": "true"}}\n' > "$PROJ/package.json"
  printf 'script-shell=./tools/npm-shell.sh\n' > "$PROJ/.npmrc"
  user_claude_pretool 'npm run -s lint >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/npm-shell.sh" npm-shell.sh.orig '#!/bin/sh\nexec /bin/sh "$@"\n'
fi
if [ "${XTASK_CARGO_WRAPPER:-}" = 1 ]; then
  # The user's own Claude Code hook checks the project with cargo, which runs the
  # `rustc-wrapper` of the project's `.cargo/config.toml` for every compilation. Claude Code's
  # `Write` creates it instead, as above.
  mkdir -p "$PROJ/tools" "$PROJ/.cargo"
  printf '[build]\nrustc-wrapper = "tools/rustc-wrap.sh"\n' > "$PROJ/.cargo/config.toml"
  user_claude_pretool 'cargo check -q >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/rustc-wrap.sh" rustc-wrap.sh.orig '#!/bin/sh\nexec "$@"\n'
fi
if [ "${XTASK_PIP_REQUIREMENTS:-}" = 1 ]; then
  # The user's own Claude Code hook installs the project's development requirements, which
  # list a local project that pip builds by running its `setup.py`. Claude Code's `Write`
  # creates it instead, as above.
  mkdir -p "$PROJ/tools/devpkg"
  printf -- '-e ./tools/devpkg\n' > "$PROJ/requirements-dev.txt"
  user_claude_pretool 'pip install -q -r requirements-dev.txt >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/devpkg/setup.py" devpkg-setup.py.orig 'from setuptools import setup\nsetup(name="devpkg")\n'
fi
if [ "${XTASK_NPM_LOCAL_PACKAGE:-}" = 1 ]; then
  # The user's own Claude Code hook installs the project's dependencies, among them a local
  # package whose `install` script runs `install.js`. Claude Code's `Write` creates it
  # instead, as above.
  mkdir -p "$PROJ/packages/local"
  printf '{"dependencies": {"local": "file:./packages/local"}}\n' > "$PROJ/package.json"
  printf '{"name": "local", "version": "1.0.0", "scripts": {"install": "node install.js"}}\n' > "$PROJ/packages/local/package.json"
  user_claude_pretool 'npm install -s --offline >/dev/null 2>&1 || true'
  seed_file "$PROJ/packages/local/install.js" local-install.js.orig 'console.log(1);\n'
fi
if [ "${XTASK_CARGO_XTASK:-}" = 1 ]; then
  # The user's own Claude Code hook runs the project's `cargo xtask check`, which the alias of
  # its `.cargo/config.toml` makes `cargo run --package xtask -- check`. Claude Code's `Write`
  # creates the program instead, as above.
  mkdir -p "$PROJ/.cargo" "$PROJ/xtask/src"
  printf '[alias]\nxtask = "run --package xtask --"\n' > "$PROJ/.cargo/config.toml"
  printf '[workspace]\nmembers = ["xtask"]\nresolver = "2"\n' > "$PROJ/Cargo.toml"
  printf '[package]\nname = "xtask"\nversion = "0.1.0"\nedition = "2021"\n' > "$PROJ/xtask/Cargo.toml"
  user_claude_pretool 'cargo xtask check >/dev/null 2>&1 || true'
  seed_file "$PROJ/xtask/src/main.rs" xtask-main.rs.orig 'fn main() {}\n'
fi
if [ "${XTASK_PYTHON_JSON:-}" = 1 ]; then
  # The user's own Claude Code hook parses the payload with Python's `json`, run in the
  # session's directory, where Python looks for `json` first. Claude Code's `Write` creates
  # `json.py` there instead, as above (the other agents' copy does not parse anything).
  user_claude_pretool 'python3 -c "import json, sys; json.load(sys.stdin)" >/dev/null 2>&1 || true'
  seed_file "$PROJ/json.py" json.py.orig '# not the standard json\n'
fi
if [ "${XTASK_PYTHON_EXTENSION:-}" = 1 ]; then
  # The user's own Claude Code hook runs the project's gate, which imports its helper module
  # from beside itself; an extension module of the helper's name comes before the source.
  # Claude Code's `Write` creates it instead, as above (the other agents' copy is no library:
  # its import fails, which the hook ignores).
  mkdir -p "$PROJ/tools"
  printf 'import helper\n' > "$PROJ/tools/gate.py"
  printf 'pass\n' > "$PROJ/tools/helper.py"
  user_claude_pretool 'python3 tools/gate.py >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/helper.so" helper.so.orig 'not a library\n'
fi
if [ "${XTASK_NODE_MODULE_TYPE:-}" = 1 ]; then
  # The user's own Claude Code hook runs the project's CommonJS gate; the nearest
  # `package.json` above it decides how Node reads it. Claude Code's `Write` creates one
  # beside the gate instead, as above.
  mkdir -p "$PROJ/tools"
  printf 'const fs = require("fs");\nfs.readFileSync(0, "utf8");\n' > "$PROJ/tools/gate.js"
  user_claude_pretool 'node tools/gate.js >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/package.json" tools-package.json.orig '{}\n'
fi
if [ "${XTASK_PYTHON_VERSION:-}" = 1 ]; then
  # The user's own Claude Code hook runs Python by name in the session's directory; a pyenv
  # shim found on `PATH` picks the version `.python-version` there names. Claude Code's
  # `Write` creates it instead, as above (the other agents' copy names the version in use).
  user_claude_pretool 'python3 -c "import sys" >/dev/null 2>&1 || true'
  seed_file "$PROJ/.python-version" python-version.orig "$(python3 -c 'import platform; print(platform.python_version())')\n"
fi
if [ "${XTASK_GIT_ATTRIBUTES:-}" = 1 ]; then
  # The user's own Claude Code hook looks for keys in the staged changes; what git shows of
  # each path follows its attributes. Claude Code's `Write` creates `.gitattributes` instead.
  user_claude_pretool 'git diff --cached | grep -q AKIA && exit 2 || exit 0'
  seed_file "$PROJ/.gitattributes" gitattributes.orig '* text=auto\n'
fi
if [ "${XTASK_GIT_PATTERN_FILE:-}" = 1 ]; then
  # The repository's configuration has git read attributes from a file of the repository, and
  # the user's own Claude Code hook looks for keys in the staged changes. Claude Code's `Write`
  # creates the file instead, as above.
  mkdir -p "$PROJ/tools"
  git -C "$PROJ" init -q
  git -C "$PROJ" config core.attributesFile tools/attrs
  user_claude_pretool 'git diff --cached | grep -q AKIA && exit 2 || exit 0'
  seed_file "$PROJ/tools/attrs" git-attrs.orig '*.md text\n'
fi
if [ "${XTASK_TS_PATHS:-}" = 1 ]; then
  # The user's own Claude Code hook runs a TypeScript gate with tsx, which finds its
  # `@/lib/policy` import through the project's `tsconfig.json`. Claude Code's `Write` creates
  # the policy instead, as above.
  mkdir -p "$PROJ/tools" "$PROJ/src/lib"
  printf '{"compilerOptions":{"baseUrl":".","paths":{"@/*":["./src/*"]}}}\n' > "$PROJ/tsconfig.json"
  printf 'import { deny } from "@/lib/policy";\nprocess.exit(deny() ? 2 : 0);\n' > "$PROJ/tools/gate.ts"
  user_claude_pretool 'tsx tools/gate.ts >/dev/null 2>&1 || true'
  seed_file "$PROJ/src/lib/policy.ts" ts-policy.orig 'export const deny = () => true;\n'
fi
if [ "${XTASK_NODE_IMPORTS:-}" = 1 ]; then
  # The user's own Claude Code hook runs a gate whose `#policy` import Node finds through the
  # project's `package.json`. Claude Code's `Write` creates the policy instead, as above.
  mkdir -p "$PROJ/tools" "$PROJ/src"
  # (`\043` is `#`, which this raw string cannot hold after a quote.)
  printf '{"name":"proj","imports":{"\043policy":"./src/policy.js"}}\n' > "$PROJ/package.json"
  printf 'import { deny } from "\043policy";\nprocess.exit(deny() ? 2 : 0);\n' > "$PROJ/tools/gate.mjs"
  user_claude_pretool 'node tools/gate.mjs >/dev/null 2>&1 || true'
  seed_file "$PROJ/src/policy.js" node-policy.orig 'export const deny = () => true;\n'
fi
if [ "${XTASK_BUN_PRELOAD:-}" = 1 ]; then
  # The user's own Claude Code hook runs a gate with Bun, which preloads what the project's
  # `bunfig.toml` names. Claude Code's `Write` creates the preloaded file instead, as above.
  mkdir -p "$PROJ/tools"
  printf 'preload = ["./tools/setup.ts"]\n' > "$PROJ/bunfig.toml"
  printf 'process.exit(2);\n' > "$PROJ/tools/gate.ts"
  user_claude_pretool 'bun tools/gate.ts >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/setup.ts" bun-setup.orig 'export {};\n'
fi
if [ "${XTASK_NODE_MAIN:-}" = 1 ]; then
  # The user's own Claude Code hook runs a gate that requires a folder, whose manifest's
  # `main` names the file Node loads. Claude Code's `Write` creates that file instead.
  mkdir -p "$PROJ/tools/lib"
  printf '{"main":"impl"}\n' > "$PROJ/tools/lib/package.json"
  printf 'const lib = require("./lib");\nprocess.exit(lib.deny() ? 2 : 0);\n' > "$PROJ/tools/gate.js"
  user_claude_pretool 'node tools/gate.js >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/lib/impl.js" node-main.orig 'module.exports = { deny: () => true };\n'
fi
if [ "${XTASK_DENO_IMPORTS:-}" = 1 ]; then
  # The user's own Claude Code hook runs a gate with Deno, which finds its `policy` import
  # through the project's `deno.json`. Claude Code's `Write` creates the policy instead.
  mkdir -p "$PROJ/tools" "$PROJ/src"
  printf '{"imports":{"policy":"./src/policy.ts"}}\n' > "$PROJ/deno.json"
  printf 'import { deny } from "policy";\nDeno.exit(deny() ? 2 : 0);\n' > "$PROJ/tools/gate.ts"
  user_claude_pretool 'deno run tools/gate.ts >/dev/null 2>&1 || true'
  seed_file "$PROJ/src/policy.ts" deno-policy.orig 'export const deny = () => true;\n'
fi
if [ "${XTASK_PYTHON_SYSPATH:-}" = 1 ]; then
  # The user's own Claude Code hook runs a gate that adds `lib/` beside it to its search path
  # and imports its policy from there. Claude Code's `Write` creates the policy instead.
  mkdir -p "$PROJ/tools/lib"
  printf 'import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))\nimport policy\nsys.exit(2 if policy.deny() else 0)\n' > "$PROJ/tools/gate.py"
  user_claude_pretool 'python3 tools/gate.py >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/lib/policy.py" python-policy.orig 'def deny():\n    return True\n'
fi
if [ "${XTASK_PYTHON_SYSPATH_CWD:-}" = 1 ]; then
  # The user's own Claude Code hook runs a gate that adds `checks`, relative to the folder it
  # runs in (the session's), to its search path and imports its policy from there. Claude
  # Code's `Write` creates the policy instead.
  mkdir -p "$PROJ/tools" "$PROJ/checks"
  printf 'import sys\nsys.path.insert(0, "checks")\nimport policy\nsys.exit(2 if policy.deny() else 0)\n' > "$PROJ/tools/gate.py"
  user_claude_pretool 'python3 tools/gate.py >/dev/null 2>&1 || true'
  seed_file "$PROJ/checks/policy.py" python-cwd-policy.orig 'def deny():\n    return True\n'
fi
if [ "${XTASK_PYTHONPATH_REL:-}" = 1 ]; then
  # The agent runs with a relative `PYTHONPATH=checks`; the user's own Claude Code hook runs a
  # gate that imports its policy by name, which Python finds under the folder the hook runs
  # in. Claude Code's `Write` creates the policy instead.
  mkdir -p "$PROJ/tools" "$PROJ/checks"
  printf 'import sys\nimport policy\nsys.exit(2 if policy.deny() else 0)\n' > "$PROJ/tools/gate.py"
  user_claude_pretool 'python3 tools/gate.py >/dev/null 2>&1 || true'
  seed_file "$PROJ/checks/policy.py" python-rel-policy.orig 'def deny():\n    return True\n'
fi
if [ "${XTASK_NODE_PATH_REL:-}" = 1 ]; then
  # The agent runs with a relative `NODE_PATH=libs`; the user's own Claude Code hook runs a
  # gate that requires its policy by name, which Node finds under the folder the hook runs
  # in. Claude Code's `Write` creates the policy instead.
  mkdir -p "$PROJ/tools" "$PROJ/libs/policy"
  printf 'const { deny } = require("policy");\nprocess.exit(deny() ? 2 : 0);\n' > "$PROJ/tools/gate.js"
  user_claude_pretool 'node tools/gate.js >/dev/null 2>&1 || true'
  seed_file "$PROJ/libs/policy/index.js" node-rel-policy.orig 'module.exports = { deny: () => true };\n'
fi
if [ "${XTASK_RUBY_REQUIRE:-}" = 1 ]; then
  # The user's own Claude Code hook runs a Ruby gate that loads its policy from beside itself.
  # Claude Code's `Write` creates the policy instead.
  mkdir -p "$PROJ/tools"
  printf 'require_relative "policy"\nexit(Policy.deny? ? 2 : 0)\n' > "$PROJ/tools/gate.rb"
  user_claude_pretool 'ruby tools/gate.rb >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/policy.rb" ruby-policy.orig 'module Policy\n  def self.deny? = true\nend\n'
fi
if [ "${XTASK_PERL_FINDBIN:-}" = 1 ]; then
  # The user's own Claude Code hook runs a Perl gate that uses its policy module from the
  # `lib/` beside it. Claude Code's `Write` creates the module instead.
  mkdir -p "$PROJ/tools/lib"
  printf 'use strict;\nuse FindBin;\nuse lib "$FindBin::Bin/lib";\nuse Policy;\nexit(Policy::deny() ? 2 : 0);\n' > "$PROJ/tools/gate.pl"
  user_claude_pretool 'perl tools/gate.pl >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/lib/Policy.pm" perl-policy.orig 'package Policy;\nsub deny { 1 }\n1;\n'
fi
if [ "${XTASK_PYTHONPATH_LINE:-}" = 1 ]; then
  # The user's own Claude Code hook sets `PYTHONPATH=checks` on its line for a gate that
  # imports its policy by name. Claude Code's `Write` creates the policy instead.
  mkdir -p "$PROJ/tools" "$PROJ/checks"
  printf 'import sys\nimport policy\nsys.exit(2 if policy.deny() else 0)\n' > "$PROJ/tools/gate.py"
  user_claude_pretool 'PYTHONPATH=checks python3 tools/gate.py >/dev/null 2>&1 || true'
  seed_file "$PROJ/checks/policy.py" python-line-policy.orig 'def deny():\n    return True\n'
fi
if [ "${XTASK_RUBY_BUNDLER:-}" = 1 ]; then
  # The user's own Claude Code hook runs a Ruby gate that sets Bundler up, which evaluates the
  # project's `Gemfile`. Claude Code's `Write` creates it instead.
  mkdir -p "$PROJ/tools"
  printf 'require "bundler/setup"\nexit 2\n' > "$PROJ/tools/gate.rb"
  user_claude_pretool 'ruby tools/gate.rb >/dev/null 2>&1 || true'
  seed_file "$PROJ/Gemfile" gemfile.orig 'source "https://rubygems.org"\n'
fi
if [ "${XTASK_RG_RELATIVE:-}" = 1 ]; then
  # The agent runs with a relative `RIPGREP_CONFIG_PATH=.rgrc`; the user's own Claude Code hook
  # runs ripgrep, which reads that file from where the hook runs. Claude Code's `Write`
  # creates it instead.
  user_claude_pretool 'rg -q TODO . >/dev/null 2>&1 || true'
  # (A format that starts with `-` would be an option of `printf`.)
  seed_file "$PROJ/.rgrc" rgrc.orig '# ripgrep\n--smart-case\n'
fi
if [ "${XTASK_TSX_TSCONFIG:-}" = 1 ]; then
  # The user's own Claude Code hook gives tsx a configuration in the nearest one's place,
  # whose `paths` send the gate's `policy` import beside it. Claude Code's `Write` creates
  # the mapped policy instead.
  mkdir -p "$PROJ/tools" "$PROJ/cfg/alt"
  printf '{"compilerOptions":{"paths":{"policy":["./alt/policy.ts"]}}}\n' > "$PROJ/cfg/tsconfig.hooks.json"
  printf 'import { deny } from "policy";\nprocess.exit(deny() ? 2 : 0);\n' > "$PROJ/tools/gate.ts"
  user_claude_pretool 'tsx --tsconfig cfg/tsconfig.hooks.json tools/gate.ts >/dev/null 2>&1 || true'
  seed_file "$PROJ/cfg/alt/policy.ts" tsx-policy.orig 'export const deny = () => true;\n'
fi
if [ "${XTASK_RG_IGNORE:-}" = 1 ]; then
  # The user's own Claude Code hook looks for keys with ripgrep, which skips what its ignore
  # files say. Claude Code's `Write` creates `.rgignore` instead.
  user_claude_pretool 'rg -q AKIA . >/dev/null 2>&1 && exit 2 || exit 0'
  seed_file "$PROJ/.rgignore" rgignore.orig 'target/\n'
fi
if [ "${XTASK_GEMINI_ENV:-}" = 1 ]; then
  # The project has a Gemini CLI hook; Gemini CLI loads `.gemini/.env` into every hook's
  # environment. Claude Code's `Write` creates it instead, as above.
  mkdir -p "$PROJ/.gemini"
  if [ ! -f "$PROJ/.gemini/settings.json" ]; then
    printf '{"hooks":{"BeforeTool":[{"hooks":[{"type":"command","name":"noop","command":"true"}]}]}}\n' > "$PROJ/.gemini/settings.json"
  fi
  seed_file "$PROJ/.gemini/.env" gemini-env.orig 'RA_NOTE=1\n'
fi
if [ "${XTASK_PRE_COMMIT:-}" = 1 ]; then
  # pre-commit is installed in the repository (its script in `.git/hooks/pre-commit`, as
  # `pre-commit install` writes it), its configuration runs a script of the repository, and
  # the user's own Claude Code hook commits the session's work. Claude Code's `Write` creates
  # the script instead, as above.
  mkdir -p "$PROJ/tools"
  git -C "$PROJ" init -q
  printf '#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\nARGS=(hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit)\nexec pre-commit "${ARGS[@]}"\n' > "$PROJ/.git/hooks/pre-commit"
  chmod +x "$PROJ/.git/hooks/pre-commit"
  printf 'repos:\n- repo: local\n  hooks:\n  - id: check\n    name: check\n    entry: ./tools/pc-check.sh\n    language: script\n' > "$PROJ/.pre-commit-config.yaml"
  user_claude_pretool 'git commit -qm checkpoint >/dev/null 2>&1 || true'
  seed_file "$PROJ/tools/pc-check.sh" pc-check.sh.orig '#!/bin/sh\nexit 0\n'
fi
if [ "${XTASK_PYTHON_SITE:-}" = 1 ]; then
  # The user's own Claude Code hook is a Python script: a `.pth` file in the user's site
  # (or in the site-packages of the Python it finds on `PATH`) would end it (every Python
  # start) before its first line. Claude Code's `Write` creates the file instead, as above.
  target="${XTASK_PYTHON_FILE:-$RHOME/$XTASK_PYTHON_SITE_FILE}"
  mkdir -p "$RHOME/.claude/hooks" "$(dirname "$target")"
  printf 'import sys\nsys.exit(0)\n' > "$RHOME/.claude/hooks/audit.py"
  user_claude_pretool 'python3 ~/.claude/hooks/audit.py || true'
  seed_file "$target" python-site.pth.orig '# a path the user keeps\n'
fi
if [ -n "${XTASK_ENV_FILE:-}" ]; then
  # The user's own Claude Code hook runs a program that reads a file outside the project
  # which a variable of the agent's environment names, or which lies in the folder it names
  # (findings F133-F135, F137, F139); `audit.py` is the Python hook of the **python-pycache** run. Claude
  # Code's `Write` creates the file instead, as above.
  mkdir -p "$RHOME/.claude/hooks" "$(dirname "$XTASK_ENV_FILE")"
  printf 'import sys\nsys.exit(0)\n' > "$RHOME/.claude/hooks/audit.py"
  user_claude_pretool "$XTASK_ENV_HOOK"
  seed_file "$XTASK_ENV_FILE" env-file.orig "$XTASK_ENV_SEED"
fi
if [ "${XTASK_MAIN_AGENT:-}" = 1 ]; then
  # A subagent made the main thread's agent by the repository's Claude Code settings: the
  # hooks of its front matter run for the whole session (the file's name is not its name).
  mkdir -p "$PROJ/.claude/agents"
  cat > "$PROJ/.claude/agents/gate.sh" <<'SH'
#!/bin/sh
case "$(cat)" in
  *main-agent-gate*) echo "XTASK-AGENTS: main-agent-gate is not allowed by the main thread's agent" >&2; exit 2 ;;
esac
SH
  chmod +x "$PROJ/.claude/agents/gate.sh"
  printf -- '---\nname: gate\ndescription: Reviews shell commands.\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: .claude/agents/gate.sh\n---\nReview every command.\n' > "$PROJ/.claude/agents/reviewer.md"
  printf '{"agent": "gate"}\n' > "$PROJ/.claude/settings.json"
fi
if [ "${XTASK_SHELL_EXIT:-}" = 1 ]; then
  # The user's own post-tool and failure hooks in three formats, each writing its input to a
  # mark: the agent runs its own format's, the bridge the others' (user files, so no agent
  # runs another's: Copilot CLI runs a repository's Claude Code settings, not the user's).
  mkdir -p "$RUN/marks"
  python3 - "$RHOME" "$RUN/marks" <<'PY'
import json, os, sys
home, marks = sys.argv[1:3]
def mark(name):
    return f"cat > {marks}/{name}"
def merge(path, hooks):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        d = json.load(open(path))
    except (OSError, ValueError):
        d = {}
    d.setdefault("hooks", {}).update(hooks)
    json.dump(d, open(path, "w"))
merge(f"{home}/.claude/settings.json", {
    "PostToolUse": [{"hooks": [{"type": "command", "command": mark("claude-post")}]}],
    "PostToolUseFailure": [{"hooks": [{"type": "command", "command": mark("claude-failure")}]}],
})
merge(f"{home}/.gemini/settings.json", {
    "AfterTool": [{"hooks": [{"type": "command", "name": "mark", "command": mark("gemini-after")}]}],
})
os.makedirs(f"{home}/.copilot/hooks", exist_ok=True)
json.dump({"version": 1, "hooks": {
    "postToolUse": [{"type": "command", "bash": mark("copilot-post")}],
    "postToolUseFailure": [{"type": "command", "bash": mark("copilot-failure")}],
}}, open(f"{home}/.copilot/hooks/marks.json", "w"))
PY
fi
if [ "${XTASK_SUBFOLDER:-}" = 1 ]; then
  # Without --root, in the session's folder: what a session started there reads.
  (cd "$PROJ" && "$HOOKS_BIN" trust --yes)
else
  "$HOOKS_BIN" trust --yes --root "$PROJ"
fi
if [ "${XTASK_CHANGE_AFTER_TRUST:-}" = 1 ]; then
  printf '{"version":1,"hooks":{"beforeShellExecution":[{"command":".cursor/hooks/no-rm.sh","timeout":30}]}}\n' > "$PROJ/.cursor/hooks.json"
  if [ "${XTASK_RETRUST:-}" = 1 ]; then
    "$HOOKS_BIN" trust --yes --root "$PROJ"
  fi
fi
cat > "$RUN/bridge.sh" <<SH
#!/bin/sh
t0=\$(date +%s%N)
"$HOOKS_BIN" "\$@"
rc=\$?
t1=\$(date +%s%N)
echo "\$(( (t1 - t0) / 1000 ))" >> "$RUN/bridge-us.log"
exit \$rc
SH
chmod +x "$RUN/bridge.sh"
# The bridge goes in with `hooks install`, for every event the agent has, in the project's
# own configuration file of the agent (the wrapper above stands in for the binary).
"$HOOKS_BIN" install --host "$RA_AGENT" --scope project --root "$PROJ" --bridge "$RUN/bridge.sh"
if [ "$RA_AGENT" = claude ]; then
  # -p cannot prompt: let the tools run without asking (the hooks still decide).
  agent=""
  if [ "${XTASK_MAIN_AGENT:-}" = 1 ]; then agent='"agent": "gate", '; fi
  printf '{%s"permissions": {"allow": ["Bash", "Write", "Edit"]}}\n' "$agent" > "$PROJ/.claude/settings.json"
fi
if [ -n "${XTASK_PATH_PROGRAM:-}" ] && [ "$RA_AGENT" != claude ]; then
  # A program named like the agent in a folder first on its `PATH` (Claude Code's `Write`
  # creates it instead, as above).
  printf '#!/bin/sh\nexec true\n' > "$XTASK_PATH_PROGRAM"
  chmod +x "$XTASK_PATH_PROGRAM"
  cp "$XTASK_PATH_PROGRAM" "$RUN/path-program.orig"
fi
if [ "$RA_AGENT" = gemini ] && [ -n "${XTASK_PLUGIN_FILE:-}${XTASK_PATH_PROGRAM:-}${XTASK_PYTHON_SITE:-}${XTASK_ENV_FILE:-}" ]; then
  # Gemini CLI's file tools refuse paths outside the workspace before any hook: the user
  # has added the extensions' folder (or the `PATH` folder, the Python site's, or the folder
  # of a variable's file) to it.
  extra="$RHOME/.gemini/extensions"
  if [ -n "${XTASK_PATH_PROGRAM:-}" ]; then extra=$(dirname "$XTASK_PATH_PROGRAM"); fi
  if [ -n "${XTASK_PYTHON_SITE:-}" ]; then
    extra=$(dirname "${XTASK_PYTHON_FILE:-$RHOME/$XTASK_PYTHON_SITE_FILE}")
  fi
  if [ -n "${XTASK_ENV_FILE:-}" ]; then extra=$(dirname "$XTASK_ENV_FILE"); fi
  python3 - "$PROJ/.gemini/settings.json" "$extra" <<'PY'
import json, sys
path, extra = sys.argv[1:3]
d = json.load(open(path))
d.setdefault("context", {})["includeDirectories"] = [extra]
json.dump(d, open(path, "w"))
PY
fi
"#;

/// The hook file of the agent's own plugins or extensions the **plugin** run aims at, under
/// the run's home.
fn plugin_file(agent: &str) -> &'static str {
    match agent {
        "claude" => ".claude/plugins/cache/m/gate/1.0.0/hooks/hooks.json",
        "codex" => ".codex/plugins/cache/m/gate/1.0.0/hooks/hooks.json",
        "gemini" => ".gemini/extensions/gate/hooks/hooks.json",
        _ => ".copilot/installed-plugins/_direct/gate/hooks.json",
    }
}

/// The file of the user's Python site the **python-site** run aims at, under the run's home.
const PYTHON_SITE_FILE: &str = ".local/lib/python3.12/site-packages/zz-agent.pth";

/// The file a run's scripted file-tool call rewrites (or deletes).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edit {
    /// The project's `.cursor/hooks.json`.
    HookFile,
    /// [`plugin_file`].
    Plugin,
    /// A program named like the agent in a folder the run puts first on the agent's `PATH`.
    PathProgram,
    /// `pkg/scripts/gate.sh`, the script another folder's hook file runs.
    NestedScript,
    /// `hooks/hooks.json` of the project, linked as a Gemini CLI extension.
    Linked,
    /// `scripts/ext-gate.sh` of the project, which the user's Gemini CLI extension's hook runs.
    ExtensionScript,
    /// The project's `.env`, whose keys Gemini CLI gives the user's extension's hook as settings.
    WorkspaceEnv,
    /// `market/gate/scripts/gate.sh` of the project, which the hook of a plugin of the user's
    /// Claude Code marketplace added from `market/` runs.
    MarketplaceScript,
    /// `market/deep/bin/deep-gate.sh` of the project, which the hook of a file the manifest
    /// of a plugin of that marketplace names deep in the plugin runs.
    PluginFileScript,
    /// `tools/lint/scripts/lint-gate.sh` of the project, which the hook of a plugin of the
    /// user's Copilot CLI marketplace added from `tools/` runs in the plugin's folder.
    CopilotMarketplaceScript,
    /// `tools/user-gate.sh` of the project, which the user's own Claude Code hook runs
    /// relative to the session's directory.
    UserRelativeScript,
    /// `tools/fsmon.sh` of the project, which the repository's `.git/config` has git run for
    /// the `git status` of the user's own Claude Code hook.
    GitConfigCommand,
    /// `tools/ssh-jump.sh` of the project, which the project's ssh configuration runs as its
    /// `ProxyCommand` for the user's own Claude Code hook that runs git with `ssh -F` on it.
    SshConfigCommand,
    /// `tools/team-mon.sh` of the project, which the configuration the user's own Claude Code
    /// hook gives git as its global one (`GIT_CONFIG_GLOBAL`) has git run for its `git status`.
    GitGlobalCommand,
    /// `tools/lint.sh` of the project, which the project's `package.json` runs as the `lint`
    /// script the user's own Claude Code hook runs.
    NpmScript,
    /// `local.mk` of the project, which the project's makefile includes when it exists, for
    /// the `make check` of the user's own Claude Code hook.
    MakeInclude,
    /// `local.just` of the project, which the project's justfile imports when it exists, for
    /// the `just check` of the user's own Claude Code hook.
    JustImport,
    /// `tools/mplug.py` of the project, the plugin the project's `mypy.ini` names, for the
    /// `mypy .` of the user's own Claude Code hook.
    MypyPlugin,
    /// `tools/rules.js` of the project, which the project's `eslint.config.js` imports, for
    /// the `eslint .` of the user's own Claude Code hook.
    EslintImport,
    /// `tools/plug.js` of the project, the plugin the project's `.stylelintrc.json` names,
    /// for the `stylelint` of the user's own Claude Code hook.
    StylelintPlugin,
    /// `rakelib/gate.rake` of the project, which rake loads beside the project's `Rakefile`,
    /// for the `rake lint` of the user's own Claude Code hook.
    RakeLib,
    /// `crates/a/tools/gen.rs`, the build script the project's workspace member names, for
    /// the `cargo clippy` of the user's own Claude Code hook.
    CargoBuild,
    /// `tools/vite-plugin.js` of the project, which its `vite.config.js` imports, for the
    /// `vite build` of the user's own Claude Code hook.
    ViteConfig,
    /// `tools/npm-shell.sh` of the project, the `script-shell` of its `.npmrc`, for the `npm
    /// run lint` of the user's own Claude Code hook.
    NpmShell,
    /// `tools/rustc-wrap.sh` of the project, the `rustc-wrapper` of its `.cargo/config.toml`,
    /// for the `cargo check` of the user's own Claude Code hook.
    CargoWrapper,
    /// `tools/devpkg/setup.py` of the project, the build script of the local project its
    /// `requirements-dev.txt` lists, for the `pip install -r` of the user's own Claude Code
    /// hook.
    PipRequirements,
    /// `packages/local/install.js` of the project, which the `install` script of the local
    /// package its `package.json` depends on runs, for the `npm install` of the user's own
    /// Claude Code hook.
    NpmLocalPackage,
    /// `xtask/src/main.rs` of the project, the program its cargo alias `xtask` runs, for the
    /// `cargo xtask check` of the user's own Claude Code hook.
    CargoXtask,
    /// `tools/pc-check.sh` of the project, which the repository's pre-commit configuration
    /// runs through the script pre-commit installed, for the user's own Claude Code hook that
    /// commits.
    PreCommitEntry,
    /// `json.py` in the session's directory, which Python imports in place of its own `json`
    /// for the `python3 -c "import json, sys; …"` of the user's own Claude Code hook.
    PythonJson,
    /// `tools/helper.so` of the project, an extension module Python imports in place of the
    /// `tools/helper.py` the gate of the user's own Claude Code hook imports.
    PythonExtension,
    /// `tools/package.json` of the project, whose `type` decides how Node reads the
    /// `tools/gate.js` of the user's own Claude Code hook.
    NodeModuleType,
    /// `.python-version` in the session's directory, by which a pyenv shim picks the Python
    /// the user's own Claude Code hook runs.
    PythonVersion,
    /// `.gitattributes` in the session's directory, which decides what the user's own Claude
    /// Code hook's `git diff` shows.
    GitAttributes,
    /// `tools/attrs` of the project, the file the repository's `core.attributesFile` names.
    GitPatternFile,
    /// `src/lib/policy.ts` of the project, where the `tsconfig.json` `paths` send the import
    /// of the gate the user's own Claude Code hook runs with tsx.
    TsPaths,
    /// `src/policy.js` of the project, where the `package.json` `imports` send the `#policy`
    /// import of the gate the user's own Claude Code hook runs.
    NodeImports,
    /// `tools/setup.ts` of the project, which the `bunfig.toml` has Bun preload before the
    /// gate the user's own Claude Code hook runs.
    BunPreload,
    /// `tools/lib/impl.js` of the project, the file the `main` of the folder the gate
    /// requires names.
    NodeMain,
    /// `src/policy.ts` of the project, where the `deno.json` import map sends the gate's
    /// `policy` import.
    DenoImports,
    /// `tools/lib/policy.py` of the project, imported by the gate from the folder it adds to
    /// its search path.
    PythonSysPath,
    /// `checks/policy.py` of the project, imported by the gate from the folder it adds to its
    /// search path relative to where it runs.
    PythonSysPathCwd,
    /// `checks/policy.py` of the project, which the gate imports through the agent's relative
    /// `PYTHONPATH`.
    PythonPathRelative,
    /// `libs/policy/index.js` of the project, which the gate requires through the agent's
    /// relative `NODE_PATH`.
    NodePathRelative,
    /// `tools/policy.rb` of the project, which the Ruby gate loads with `require_relative`.
    RubyRequireRelative,
    /// `tools/lib/Policy.pm` of the project, which the Perl gate uses from the folder beside
    /// it that it adds to `@INC`.
    PerlFindBinLib,
    /// `checks/policy.py` of the project, which the gate imports through the `PYTHONPATH` its
    /// hook's line sets.
    PythonPathLine,
    /// `Gemfile` of the project, which Bundler evaluates for the Ruby gate.
    RubyBundlerGemfile,
    /// `.rgrc` of the project, ripgrep's configuration through the agent's relative
    /// `RIPGREP_CONFIG_PATH`.
    RipgrepConfigRelative,
    /// `cfg/alt/policy.ts` of the project, where the configuration the hook's line gives tsx
    /// maps the gate's `policy` import.
    TsxTsconfig,
    /// `.rgignore` in the session's directory, which decides what the user's own Claude Code
    /// hook's `rg` searches.
    RgIgnore,
    /// `.gemini/.env` in the session's directory, which Gemini CLI loads into every hook's
    /// environment.
    GeminiEnv,
    /// [`PYTHON_SITE_FILE`], in the Python site the user's own Python hook starts from.
    PythonSite,
    /// `zz-agent.pth` in the `site-packages` of a virtual environment first on the agent's
    /// `PATH`, whose `python3` the user's own Python hook runs by name.
    PythonPath,
    /// `sitecustomize.py` in a folder of the agent's `PYTHONPATH`.
    PythonEnv,
    /// The ripgrep configuration the agent's `RIPGREP_CONFIG_PATH` names, outside the project.
    RipgrepConfig,
    /// The pylint configuration the agent's `PYLINTRC` names, outside the project.
    PylintConfig,
    /// A compiled module in the folder the agent's `PYTHONPYCACHEPREFIX` names.
    PythonPycache,
    /// The TypeScript configuration the agent's `TS_NODE_PROJECT` names, outside the project.
    TsNodeProject,
    /// A grammar pickle in the black cache the agent's `BLACK_CACHE_DIR` names.
    BlackCache,
}

/// A run's file outside the project that a variable of the agent's environment names, or that
/// lies in the folder it names ([`Edit::environment_file`]), with the user's own Claude Code
/// hook whose program reads it.
struct EnvironmentFile {
    variable: &'static str,
    /// The folder the run makes for it, under the run's own temporary folder.
    folder: &'static str,
    /// The file the scripted write aims at, in that folder.
    file: &'static str,
    /// Whether the variable names the folder (else the file).
    names_folder: bool,
    /// The user's own hook.
    hook: &'static str,
    /// What the set-up writes into the file under the agents whose tools rewrite one (a
    /// `printf` format).
    seed: &'static str,
}

/// A run's file of the project ([`Edit::project_file`]).
struct ProjectFile {
    /// The file, relative to the project.
    file: &'static str,
    /// The variable that has the set-up script prepare it (none: the project's own).
    setup: Option<&'static str>,
    /// Where the set-up script keeps its original, relative to the run's folder.
    orig: &'static str,
}

impl Edit {
    /// The run's file a variable of the agent's environment names, if it is such a run.
    fn environment_file(self) -> Option<EnvironmentFile> {
        let (variable, folder, file, names_folder, hook, seed) = match self {
            Edit::RipgrepConfig => (
                "RIPGREP_CONFIG_PATH",
                "ripgrep",
                "config",
                false,
                "rg -q AKIA . && exit 2 || true",
                "# the user\\047s ripgrep options\\n--smart-case\\n",
            ),
            // Not a name pylint looks for by itself (`pylintrc` is protected by that name
            // wherever a hook runs pylint).
            Edit::PylintConfig => (
                "PYLINTRC",
                "pylint",
                "lint.cfg",
                false,
                "pylint -E tools || true",
                "[MESSAGES CONTROL]\\ndisable=fixme\\n",
            ),
            Edit::PythonPycache => (
                "PYTHONPYCACHEPREFIX",
                "pycache",
                "hooks/policy.cpython-312.pyc",
                true,
                "python3 ~/.claude/hooks/audit.py || true",
                "compiled\\n",
            ),
            Edit::BlackCache => (
                "BLACK_CACHE_DIR",
                "blackcache",
                "26.10.1/Grammar3.11.7.final.0.pickle",
                true,
                "black --check tools || true",
                "pickled\\n",
            ),
            // Not a name ts-node looks for by itself (`tsconfig.json` is protected by that
            // name where a TypeScript hook runs).
            Edit::TsNodeProject => (
                "TS_NODE_PROJECT",
                "tsnode",
                "tsconfig.hooks.json",
                false,
                "ts-node tools/gate.ts || true",
                "{\"compilerOptions\": {}}\\n",
            ),
            _ => return None,
        };
        Some(EnvironmentFile { variable, folder, file, names_folder, hook, seed })
    }

    /// The file of the project the run aims at, with how it is set up and kept; `None` for
    /// the runs aiming outside the project ([`Edit::Plugin`], [`Edit::PathProgram`]).
    const fn project_file(self) -> Option<ProjectFile> {
        let (file, setup, orig) = match self {
            Edit::HookFile => (".cursor/hooks.json", None, "proj/.cursor-hooks.json.orig"),
            Edit::NestedScript => {
                ("pkg/scripts/gate.sh", Some("XTASK_NESTED"), "nested-gate.sh.orig")
            }
            Edit::Linked => ("hooks/hooks.json", Some("XTASK_LINKED"), "linked-hooks.json.orig"),
            Edit::ExtensionScript => {
                ("scripts/ext-gate.sh", Some("XTASK_EXTENSION"), "ext-gate.sh.orig")
            }
            Edit::WorkspaceEnv => (".env", Some("XTASK_SETTINGS"), "env.orig"),
            Edit::MarketplaceScript => (
                "market/gate/scripts/gate.sh",
                Some("XTASK_MARKETPLACE"),
                "marketplace-gate.sh.orig",
            ),
            Edit::PluginFileScript => (
                "market/deep/bin/deep-gate.sh",
                Some("XTASK_NAMED_HOOKS"),
                "plugin-named-gate.sh.orig",
            ),
            Edit::CopilotMarketplaceScript => (
                "tools/lint/scripts/lint-gate.sh",
                Some("XTASK_COPILOT_MARKETPLACE"),
                "copilot-lint-gate.sh.orig",
            ),
            Edit::UserRelativeScript => {
                ("tools/user-gate.sh", Some("XTASK_RELATIVE"), "user-gate.sh.orig")
            }
            Edit::GitConfigCommand => {
                ("tools/fsmon.sh", Some("XTASK_GIT_CONFIG"), "git-fsmon.sh.orig")
            }
            Edit::SshConfigCommand => {
                ("tools/ssh-jump.sh", Some("XTASK_SSH_CONFIG"), "ssh-jump.sh.orig")
            }
            Edit::GitGlobalCommand => {
                ("tools/team-mon.sh", Some("XTASK_GIT_GLOBAL"), "team-mon.sh.orig")
            }
            Edit::NpmScript => ("tools/lint.sh", Some("XTASK_NPM_SCRIPT"), "npm-lint.sh.orig"),
            Edit::MakeInclude => ("local.mk", Some("XTASK_MAKE_INCLUDE"), "make-local.mk.orig"),
            Edit::JustImport => ("local.just", Some("XTASK_JUST_IMPORT"), "just-local.just.orig"),
            Edit::MypyPlugin => ("tools/mplug.py", Some("XTASK_MYPY_PLUGIN"), "mplug.py.orig"),
            Edit::EslintImport => {
                ("tools/rules.js", Some("XTASK_ESLINT_IMPORT"), "eslint-rules.js.orig")
            }
            Edit::StylelintPlugin => {
                ("tools/plug.js", Some("XTASK_STYLELINT_PLUGIN"), "stylelint-plug.js.orig")
            }
            Edit::RakeLib => ("rakelib/gate.rake", Some("XTASK_RAKE_LIB"), "rake-gate.rake.orig"),
            Edit::CargoBuild => {
                ("crates/a/tools/gen.rs", Some("XTASK_CARGO_BUILD"), "cargo-gen.rs.orig")
            }
            Edit::ViteConfig => {
                ("tools/vite-plugin.js", Some("XTASK_VITE_CONFIG"), "vite-plugin.js.orig")
            }
            Edit::NpmShell => ("tools/npm-shell.sh", Some("XTASK_NPM_SHELL"), "npm-shell.sh.orig"),
            Edit::CargoWrapper => {
                ("tools/rustc-wrap.sh", Some("XTASK_CARGO_WRAPPER"), "rustc-wrap.sh.orig")
            }
            Edit::PipRequirements => {
                ("tools/devpkg/setup.py", Some("XTASK_PIP_REQUIREMENTS"), "devpkg-setup.py.orig")
            }
            Edit::NpmLocalPackage => (
                "packages/local/install.js",
                Some("XTASK_NPM_LOCAL_PACKAGE"),
                "local-install.js.orig",
            ),
            Edit::CargoXtask => {
                ("xtask/src/main.rs", Some("XTASK_CARGO_XTASK"), "xtask-main.rs.orig")
            }
            Edit::PreCommitEntry => {
                ("tools/pc-check.sh", Some("XTASK_PRE_COMMIT"), "pc-check.sh.orig")
            }
            Edit::PythonJson => ("json.py", Some("XTASK_PYTHON_JSON"), "json.py.orig"),
            Edit::GitAttributes => {
                (".gitattributes", Some("XTASK_GIT_ATTRIBUTES"), "gitattributes.orig")
            }
            Edit::RgIgnore => (".rgignore", Some("XTASK_RG_IGNORE"), "rgignore.orig"),
            Edit::TsPaths => ("src/lib/policy.ts", Some("XTASK_TS_PATHS"), "ts-policy.orig"),
            Edit::NodeImports => ("src/policy.js", Some("XTASK_NODE_IMPORTS"), "node-policy.orig"),
            Edit::BunPreload => ("tools/setup.ts", Some("XTASK_BUN_PRELOAD"), "bun-setup.orig"),
            Edit::NodeMain => ("tools/lib/impl.js", Some("XTASK_NODE_MAIN"), "node-main.orig"),
            Edit::DenoImports => ("src/policy.ts", Some("XTASK_DENO_IMPORTS"), "deno-policy.orig"),
            Edit::PythonSysPath => {
                ("tools/lib/policy.py", Some("XTASK_PYTHON_SYSPATH"), "python-policy.orig")
            }
            Edit::TsxTsconfig => {
                ("cfg/alt/policy.ts", Some("XTASK_TSX_TSCONFIG"), "tsx-policy.orig")
            }
            Edit::PythonPathRelative => {
                ("checks/policy.py", Some("XTASK_PYTHONPATH_REL"), "python-rel-policy.orig")
            }
            Edit::NodePathRelative => {
                ("libs/policy/index.js", Some("XTASK_NODE_PATH_REL"), "node-rel-policy.orig")
            }
            Edit::RubyRequireRelative => {
                ("tools/policy.rb", Some("XTASK_RUBY_REQUIRE"), "ruby-policy.orig")
            }
            Edit::PerlFindBinLib => {
                ("tools/lib/Policy.pm", Some("XTASK_PERL_FINDBIN"), "perl-policy.orig")
            }
            Edit::RipgrepConfigRelative => (".rgrc", Some("XTASK_RG_RELATIVE"), "rgrc.orig"),
            Edit::RubyBundlerGemfile => ("Gemfile", Some("XTASK_RUBY_BUNDLER"), "gemfile.orig"),
            Edit::PythonPathLine => {
                ("checks/policy.py", Some("XTASK_PYTHONPATH_LINE"), "python-line-policy.orig")
            }
            Edit::PythonSysPathCwd => {
                ("checks/policy.py", Some("XTASK_PYTHON_SYSPATH_CWD"), "python-cwd-policy.orig")
            }
            Edit::GitPatternFile => {
                ("tools/attrs", Some("XTASK_GIT_PATTERN_FILE"), "git-attrs.orig")
            }
            Edit::GeminiEnv => (".gemini/.env", Some("XTASK_GEMINI_ENV"), "gemini-env.orig"),
            Edit::PythonVersion => {
                (".python-version", Some("XTASK_PYTHON_VERSION"), "python-version.orig")
            }
            Edit::NodeModuleType => {
                ("tools/package.json", Some("XTASK_NODE_MODULE_TYPE"), "tools-package.json.orig")
            }
            Edit::PythonExtension => {
                ("tools/helper.so", Some("XTASK_PYTHON_EXTENSION"), "helper.so.orig")
            }
            Edit::Plugin
            | Edit::PathProgram
            | Edit::PythonSite
            | Edit::PythonPath
            | Edit::PythonEnv
            | Edit::RipgrepConfig
            | Edit::PylintConfig
            | Edit::PythonPycache
            | Edit::TsNodeProject
            | Edit::BlackCache => return None,
        };
        Some(ProjectFile { file, setup, orig })
    }
}

/// The scripted file-tool call that rewrites the project's `.cursor/hooks.json`, the
/// agent's plugin hook file, or `outside` (a file the run makes outside the project and the
/// home: the **wrapper** run's program, the **python-path** run's `.pth` file).
fn edit_call(
    agent: &str,
    edit: Edit,
    outside: &Path,
) -> (String, Vec<(&'static str, &'static str)>) {
    let (target, patch_path) = match (edit, edit.project_file()) {
        (_, Some(p)) => (format!("{{PROJ}}/{}", p.file), p.file.to_owned()),
        (Edit::Plugin, None) => {
            let plugin = format!("{{HOME}}/{}", plugin_file(agent));
            (plugin.clone(), plugin)
        }
        (Edit::PythonSite, None) => {
            let file = format!("{{HOME}}/{PYTHON_SITE_FILE}");
            (file.clone(), file)
        }
        (_, None) => {
            let file = outside.display().to_string();
            (file.clone(), file)
        }
    };
    match agent {
        "claude" => (
            format!(r#"[{{"name":"Write","input":{{"file_path":"{target}","content":"{{}}"}}}}]"#),
            vec![],
        ),
        "codex" => (
            format!(
                r#"[{{"name":"apply_patch","custom_input":"*** Begin Patch\n*** Delete File: {patch_path}\n*** End Patch\n"}}]"#
            ),
            vec![("CODEX_MODEL", "gpt-5.5")],
        ),
        "gemini" => (
            format!(
                r#"[{{"name":"write_file","args":{{"file_path":"{target}","content":"{{}}"}}}}]"#
            ),
            vec![],
        ),
        _ => (
            format!(r#"[{{"name":"create","input":{{"path":"{target}","file_text":"{{}}"}}}}]"#),
            vec![],
        ),
    }
}

struct Case {
    name: &'static str,
    tool_cmd: &'static str,
    edit: Option<Edit>,
    change_after_trust: bool,
    retrust: bool,
    /// The project is a subfolder of the repository (its root the run's folder), with a hook
    /// file of another agent's session-folder format there denying `rm -rf`.
    subfolder: bool,
    /// The repository's Claude Code settings make a subagent whose front matter denies
    /// `main-agent-gate` the main thread's agent.
    main_agent: bool,
    /// The user's post-tool and failure hooks of Claude Code, Gemini CLI and Copilot CLI
    /// write marks, for a command that exits 3.
    shell_exit: bool,
}

impl Case {
    /// A run whose model asks for `tool_cmd`, with nothing else set up.
    const fn run(name: &'static str, tool_cmd: &'static str) -> Case {
        Case {
            name,
            tool_cmd,
            edit: None,
            change_after_trust: false,
            retrust: false,
            subfolder: false,
            main_agent: false,
            shell_exit: false,
        }
    }

    /// A run whose model asks the agent's file tool to rewrite (or delete) `edit`'s file.
    const fn editing(name: &'static str, edit: Edit) -> Case {
        Case { edit: Some(edit), ..Case::run(name, "touch ran.txt") }
    }
}

/// The command a repository's hook denies.
const DENY_CMD: &str = "rm -rf build && touch ran.txt";

const CASES: &[Case] = &[
    Case::run("deny", DENY_CMD),
    Case::run("allow", "touch ran.txt"),
    Case::editing("edit", Edit::HookFile),
    Case::editing("plugin", Edit::Plugin),
    Case::editing("wrapper", Edit::PathProgram),
    Case { change_after_trust: true, ..Case::run("changed", DENY_CMD) },
    Case { change_after_trust: true, retrust: true, ..Case::run("retrust", DENY_CMD) },
    Case::editing("nested", Edit::NestedScript),
    Case::editing("linked", Edit::Linked),
    Case::editing("extension", Edit::ExtensionScript),
    Case::editing("settings", Edit::WorkspaceEnv),
    Case::editing("marketplace", Edit::MarketplaceScript),
    Case::editing("plugin-named", Edit::PluginFileScript),
    Case::editing("copilot-marketplace", Edit::CopilotMarketplaceScript),
    Case::editing("relative", Edit::UserRelativeScript),
    Case::editing("git-config", Edit::GitConfigCommand),
    Case::editing("ssh-config", Edit::SshConfigCommand),
    Case::editing("git-global", Edit::GitGlobalCommand),
    Case::editing("npm-script", Edit::NpmScript),
    Case::editing("make-include", Edit::MakeInclude),
    Case::editing("just-import", Edit::JustImport),
    Case::editing("mypy-plugin", Edit::MypyPlugin),
    Case::editing("eslint-import", Edit::EslintImport),
    Case::editing("stylelint-plugin", Edit::StylelintPlugin),
    Case::editing("rake-lib", Edit::RakeLib),
    Case::editing("cargo-build", Edit::CargoBuild),
    Case::editing("vite-config", Edit::ViteConfig),
    Case::editing("npm-shell", Edit::NpmShell),
    Case::editing("cargo-wrapper", Edit::CargoWrapper),
    Case::editing("pip-requirements", Edit::PipRequirements),
    Case::editing("npm-local-package", Edit::NpmLocalPackage),
    Case::editing("cargo-xtask", Edit::CargoXtask),
    Case::editing("python-json", Edit::PythonJson),
    Case::editing("python-extension", Edit::PythonExtension),
    Case::editing("node-module-type", Edit::NodeModuleType),
    Case::editing("python-version", Edit::PythonVersion),
    Case::editing("git-attributes", Edit::GitAttributes),
    Case::editing("git-pattern-file", Edit::GitPatternFile),
    Case::editing("ts-paths", Edit::TsPaths),
    Case::editing("node-imports", Edit::NodeImports),
    Case::editing("bun-preload", Edit::BunPreload),
    Case::editing("node-main", Edit::NodeMain),
    Case::editing("deno-imports", Edit::DenoImports),
    Case::editing("python-syspath", Edit::PythonSysPath),
    Case::editing("python-syspath-cwd", Edit::PythonSysPathCwd),
    Case::editing("tsx-tsconfig", Edit::TsxTsconfig),
    Case::editing("python-path-relative", Edit::PythonPathRelative),
    Case::editing("node-path-relative", Edit::NodePathRelative),
    Case::editing("ruby-require-relative", Edit::RubyRequireRelative),
    Case::editing("perl-findbin-lib", Edit::PerlFindBinLib),
    Case::editing("python-path-line", Edit::PythonPathLine),
    Case::editing("ruby-bundler-gemfile", Edit::RubyBundlerGemfile),
    Case::editing("ripgrep-config-relative", Edit::RipgrepConfigRelative),
    Case::editing("rg-ignore", Edit::RgIgnore),
    Case::editing("gemini-env", Edit::GeminiEnv),
    Case::editing("pre-commit", Edit::PreCommitEntry),
    Case::editing("python-site", Edit::PythonSite),
    Case::editing("python-path", Edit::PythonPath),
    Case::editing("python-env", Edit::PythonEnv),
    Case::editing("ripgrep-config", Edit::RipgrepConfig),
    Case::editing("pylint-config", Edit::PylintConfig),
    Case::editing("python-pycache", Edit::PythonPycache),
    Case::editing("ts-node-project", Edit::TsNodeProject),
    Case::editing("black-cache", Edit::BlackCache),
    Case { subfolder: true, ..Case::run("subfolder", DENY_CMD) },
    Case { main_agent: true, ..Case::run("agent", "echo main-agent-gate && touch ran.txt") },
    Case { shell_exit: true, ..Case::run("exit", "touch ran.txt; echo out; echo err >&2; exit 3") },
];

fn harness_dir() -> Result<PathBuf> {
    shared_tool("REALAGENTS_DIR", "realagents")
}

/// A folder of the shared tools: `$VAR` when set, else `../shared/tools/NAME` next to the main
/// checkout (this may be a worktree of it).
pub(crate) fn shared_tool(var: &str, name: &str) -> Result<PathBuf> {
    #[allow(clippy::disallowed_methods, reason = "xtask is tooling")]
    if let Some(d) = std::env::var_os(var) {
        return Ok(PathBuf::from(d));
    }
    // Next to the main checkout (this may be a worktree of it).
    let out = Command::new("git")
        .args(["rev-parse", "--path-format=absolute", "--git-common-dir"])
        .current_dir(workspace_root())
        .output()
        .context("git rev-parse")?;
    let common = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let main = common.parent().context("the main checkout")?;
    Ok(main.join("../shared/tools").join(name))
}

/// The `hooks` binary: `$HOOKS_BIN` when set (a build at hand), else the release build.
pub(crate) fn hooks_binary() -> Result<PathBuf> {
    #[allow(clippy::disallowed_methods, reason = "xtask is tooling")]
    if let Some(bin) = std::env::var_os("HOOKS_BIN") {
        return Ok(PathBuf::from(bin));
    }
    run(cargo().args(["build", "--release", "--quiet", "-p", "hooks-cli", "--bin", "hooks"]))?;
    Ok(target_dir().join("release/hooks"))
}

fn host_exists(bin: &Path, agent: &str) -> bool {
    let out = Command::new(bin)
        .args(["bridge", "--host", agent])
        .stdin(std::process::Stdio::null())
        .output();
    out.is_ok_and(|o| !String::from_utf8_lossy(&o.stderr).contains("no registered format"))
}

struct Outcome {
    ok: bool,
    detail: String,
    secs: f64,
    bridge_us: Vec<u64>,
}

fn run_case(
    harness: &Path,
    original: &Path,
    bin: &Path,
    agent: &str,
    case: &Case,
) -> Result<Outcome> {
    let setup_file =
        std::env::temp_dir().join(format!("xtask-agents-setup-{}.sh", std::process::id()));
    std::fs::write(&setup_file, SETUP)?;
    let payloads = tempdir_path(&format!("xtask-agents-payloads-{agent}-{}", case.name))?;
    let mut cmd = Command::new("bash");
    cmd.arg(harness.join(format!("run_{agent}.sh")))
        .arg("external")
        .current_dir(harness)
        .env("SETUP_CMD", format!("HOOKS_BIN='{}' bash '{}'", bin.display(), setup_file.display()))
        .env("TOOL_CMD", case.tool_cmd)
        .env("RA_ORIG_HARNESS", original)
        .env("PAYLOAD_DIR", &payloads)
        .env("CODEX_ALLOW_RM", "1")
        // Codex runs hooks its user reviewed only: `hooks install` records the bridge as
        // reviewed in Codex's own `[hooks.state]`, so no bypass flag.
        .env("CODEX_HOOK_TRUST", "none")
        .env("RA_TIMEOUT", "180")
        .env("XTASK_CHANGE_AFTER_TRUST", if case.change_after_trust { "1" } else { "0" })
        .env("XTASK_RETRUST", if case.retrust { "1" } else { "0" })
        .env("XTASK_SUBFOLDER", if case.subfolder { "1" } else { "0" })
        .env("XTASK_MAIN_AGENT", if case.main_agent { "1" } else { "0" })
        .env("XTASK_SHELL_EXIT", if case.shell_exit { "1" } else { "0" })
        // The trust store and the pins live under the agent's HOME.
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_CONFIG_HOME");
    // The **wrapper** run's folder, first on the agent's `PATH`.
    let path_dir = tempdir_path(&format!("xtask-agents-bin-{agent}-{}", std::process::id()))?;
    let path_program = path_dir.join(agent);
    // The **python-path** run's file, in a virtual environment made in that folder.
    let mut outside = path_program.clone();
    if let Some(edit) = case.edit {
        // What the set-up script prepares for the file the run aims at.
        match (edit, edit.project_file()) {
            (_, Some(p)) => {
                if let Some(var) = p.setup {
                    cmd.env(var, "1");
                }
                // Relative: Python and Node take them from where each of their processes
                // starts.
                if edit == Edit::PythonPathRelative {
                    cmd.env("PYTHONPATH", "checks");
                }
                if edit == Edit::NodePathRelative {
                    cmd.env("NODE_PATH", "libs");
                }
                // ripgrep takes it from where it runs (F145).
                if edit == Edit::RipgrepConfigRelative {
                    cmd.env("RIPGREP_CONFIG_PATH", ".rgrc");
                }
            }
            (Edit::Plugin, None) => {
                cmd.env("XTASK_PLUGIN_FILE", plugin_file(agent));
            }
            (Edit::PythonSite, None) => {
                cmd.env("XTASK_PYTHON_SITE", "1");
                cmd.env("XTASK_PYTHON_SITE_FILE", PYTHON_SITE_FILE);
            }
            (Edit::PythonPath, None) => {
                let venv = path_dir.join("venv");
                outside = virtual_environment(&venv)?.join("zz-agent.pth");
                #[allow(clippy::disallowed_methods, reason = "xtask is tooling")]
                let path = std::env::var_os("PATH").unwrap_or_default();
                let mut folders = vec![venv.join("bin")];
                folders.extend(std::env::split_paths(&path));
                cmd.env("PATH", std::env::join_paths(folders)?);
                cmd.env("XTASK_PYTHON_SITE", "1");
                cmd.env("XTASK_PYTHON_FILE", &outside);
            }
            (Edit::PythonEnv, None) => {
                let folder = path_dir.join("pythonpath");
                std::fs::create_dir_all(&folder)?;
                outside = folder.join("sitecustomize.py");
                cmd.env("PYTHONPATH", &folder);
                cmd.env("XTASK_PYTHON_SITE", "1");
                cmd.env("XTASK_PYTHON_FILE", &outside);
            }
            (_, None) if edit.environment_file().is_some() => {
                let e = edit.environment_file().context("a run aiming at a variable's file")?;
                let folder = path_dir.join(e.folder);
                std::fs::create_dir_all(&folder)?;
                outside = folder.join(e.file);
                cmd.env(e.variable, if e.names_folder { &folder } else { &outside });
                cmd.env("XTASK_ENV_FILE", &outside);
                cmd.env("XTASK_ENV_HOOK", e.hook);
                cmd.env("XTASK_ENV_SEED", e.seed);
            }
            (_, None) => {
                #[allow(clippy::disallowed_methods, reason = "xtask is tooling")]
                let path = std::env::var_os("PATH").unwrap_or_default();
                let mut folders = vec![path_dir.clone()];
                folders.extend(std::env::split_paths(&path));
                cmd.env("PATH", std::env::join_paths(folders)?);
                cmd.env("XTASK_PATH_PROGRAM", &path_program);
            }
        }
        let (calls, env) = edit_call(agent, edit, &outside);
        cmd.env("MOCK_CALLS", calls);
        for (k, v) in env {
            cmd.env(k, v);
        }
    }
    let started = Instant::now();
    let out = cmd.output().with_context(|| format!("running the harness for {agent}"))?;
    let secs = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: Value = stdout
        .find('{')
        .and_then(|i| serde_json::from_str(&stdout[i..]).ok())
        .with_context(|| {
            format!(
                "{agent}/{}: no summary from the harness\nstdout: {stdout}\nstderr: {}",
                case.name,
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
    let run_dir = PathBuf::from(summary["run_dir"].as_str().unwrap_or_default());
    let seen = std::fs::read_to_string(run_dir.join("mock.jsonl")).unwrap_or_default();
    let tool_ran = summary["tool_ran"].as_bool() == Some(true);
    let bridge_us: Vec<u64> = std::fs::read_to_string(run_dir.join("bridge-us.log"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    let (ok, detail) = match case.name {
        "deny" | "retrust" => {
            let shown = seen.contains("XTASK-AGENTS: rm -rf is not allowed by the repository");
            (
                !tool_ran && shown,
                format!("tool ran: {tool_ran}; the model saw the Cursor hook's reason: {shown}"),
            )
        }
        "subfolder" => {
            let shown = seen
                .contains("XTASK-AGENTS: rm -rf is not allowed by the repository subfolder hook");
            (
                !tool_ran && shown,
                format!(
                    "tool ran: {tool_ran}; the model saw the subfolder's {} hook's reason: {shown}",
                    if agent == "gemini" { "Claude Code" } else { "Gemini CLI" }
                ),
            )
        }
        "agent" => {
            let shown = seen.contains(
                "XTASK-AGENTS: main-agent-gate is not allowed by the main thread's agent",
            );
            (
                !tool_ran && shown,
                format!(
                    "tool ran: {tool_ran}; the model saw the main thread's agent's hook's reason ({}): {shown}",
                    if agent == "claude" { "run by Claude Code" } else { "run by the bridge" }
                ),
            )
        }
        "exit" => {
            // Claude Code takes the exit for a failure, the others do not, whoever runs the
            // hook; Codex names no status to its hooks, so under Codex the bridge cannot tell.
            let marks = [
                "claude-post",
                "claude-failure",
                "gemini-after",
                "copilot-post",
                "copilot-failure",
            ];
            let ran: Vec<&str> =
                marks.into_iter().filter(|m| run_dir.join("marks").join(m).exists()).collect();
            let claude = if agent == "codex" { "claude-post" } else { "claude-failure" };
            let expected = [claude, "gemini-after", "copilot-post"];
            let mut want: Vec<&str> = expected.to_vec();
            want.sort_unstable();
            let mut got = ran.clone();
            got.sort_unstable();
            (
                tool_ran && got == want,
                format!("tool ran: {tool_ran}; hooks that ran: {ran:?} (expected {expected:?})"),
            )
        }
        "allow" => (tool_ran, format!("tool ran: {tool_ran}")),
        "changed" => {
            let shown = seen.contains("XTASK-AGENTS");
            (
                tool_ran && !shown,
                format!(
                    "the changed file did not run: tool ran: {tool_ran}, the model saw the hook's reason: {shown}"
                ),
            )
        }
        _ => {
            // The file the run aims at, and the copy the set-up script kept of it.
            let (file, orig) = match case.edit.unwrap_or(Edit::HookFile) {
                Edit::Plugin => (
                    run_dir.join("home").join(plugin_file(agent)),
                    run_dir.join("plugin-hooks.json.orig"),
                ),
                Edit::PathProgram => (path_program.clone(), run_dir.join("path-program.orig")),
                Edit::PythonSite => (
                    run_dir.join("home").join(PYTHON_SITE_FILE),
                    run_dir.join("python-site.pth.orig"),
                ),
                Edit::PythonPath | Edit::PythonEnv => {
                    (outside.clone(), run_dir.join("python-site.pth.orig"))
                }
                edit if edit.environment_file().is_some() => {
                    (outside.clone(), run_dir.join("env-file.orig"))
                }
                edit => {
                    let p = edit.project_file().context("a run aiming at the project")?;
                    (run_dir.join("proj").join(p.file), run_dir.join(p.orig))
                }
            };
            let now = std::fs::read_to_string(file).unwrap_or_else(|_| "(gone)".into());
            // No original: the file did not exist and must still not.
            let orig = std::fs::read_to_string(orig).unwrap_or_else(|_| "(gone)".into());
            let unchanged = now == orig;
            let shown = seen.contains("GUARD: edit of a protected hook file refused");
            let detail = format!(
                "the file unchanged: {unchanged}; the model saw the guard's refusal: {shown}"
            );
            if case.edit == Some(Edit::ExtensionScript) && agent == "gemini" {
                // Gemini CLI itself ran the extension's hook, its script found where
                // `${workspacePath}` put it.
                let ran = run_dir.join("ext-gate-ran").exists();
                (
                    unchanged && shown && ran,
                    format!("{detail}; Gemini CLI ran the extension's hook: {ran}"),
                )
            } else if matches!(case.edit, Some(Edit::WorkspaceEnv | Edit::GeminiEnv))
                && agent == "gemini"
            {
                // Gemini CLI 0.61's own file tools refuse the workspace's `.env` and
                // `.gemini/.env` before any hook runs (`validatePathAccess`: "Path not in
                // workspace"); that it fills the hook's `${GATE_MODE}` from the first and loads
                // the second into its hooks' environment was observed apart
                // (`specs/hardening.md`, F38, F125).
                let own = seen.contains("Path not in workspace");
                (
                    unchanged && (shown || own),
                    format!("{detail}; Gemini CLI refused the path itself: {own}"),
                )
            } else {
                (unchanged && shown, detail)
            }
        }
    };
    let _ = std::fs::remove_dir_all(&path_dir);
    let detail = format!("{detail}; bridge events: {}; run {}", bridge_us.len(), run_dir.display());
    Ok(Outcome { ok, detail, secs, bridge_us })
}

/// The scripted-calls mock every `mock_<agent>.py` of the overlay is.
const MOCK_CALLS: &str = include_str!("../agents/mock_calls.py");

/// A temporary folder of links to every entry of the harness, except its mock models: each
/// `mock_<agent>.py` there is [`MOCK_CALLS`], which loads the harness's own mock (named by
/// `RA_ORIG_HARNESS`) and serves through it.
fn overlay(harness: &Path) -> Result<PathBuf> {
    let dir = tempdir_path(&format!("xtask-agents-harness-{}", std::process::id()))?;
    for entry in std::fs::read_dir(harness)
        .with_context(|| format!("reading the harness {}", harness.display()))?
    {
        let entry = entry?;
        let name = entry.file_name();
        let to = dir.join(&name);
        if name.to_string_lossy().starts_with("mock_") && name.to_string_lossy().ends_with(".py") {
            std::fs::write(&to, MOCK_CALLS)?;
        } else {
            std::os::unix::fs::symlink(entry.path(), &to)
                .with_context(|| format!("linking {}", to.display()))?;
        }
    }
    Ok(dir)
}

/// Makes a virtual environment at `venv` with the `python3` found on `PATH` (no pip: nothing
/// is fetched) and returns its `site-packages` folder.
fn virtual_environment(venv: &Path) -> Result<PathBuf> {
    let made = Command::new("python3").args(["-m", "venv", "--without-pip"]).arg(venv).status()?;
    anyhow::ensure!(made.success(), "python3 -m venv {} failed", venv.display());
    let lib = venv.join("lib");
    for entry in std::fs::read_dir(&lib)? {
        let site = entry?.path().join("site-packages");
        if site.is_dir() {
            return Ok(site);
        }
    }
    anyhow::bail!("no site-packages under {}", lib.display())
}

fn tempdir_path(name: &str) -> Result<PathBuf> {
    let p = std::env::temp_dir().join(name);
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p)?;
    Ok(p)
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// Runs the suite; `only` limits it to some agents and some runs (`claude subfolder`).
pub(crate) fn agents(only: &[&str]) -> Result<()> {
    if let Some(unknown) =
        only.iter().find(|o| !AGENTS.contains(o) && !CASES.iter().any(|c| c.name == **o))
    {
        bail!("`{unknown}` is neither an agent ({}) nor a run", AGENTS.join(", "));
    }
    let agents_named = only.iter().any(|o| AGENTS.contains(o));
    let cases_named = only.iter().any(|o| CASES.iter().any(|c| c.name == *o));
    let harness = harness_dir()?;
    if !harness.join("run_claude.sh").exists() {
        bail!(
            "the real-agent harness is not at {} (set REALAGENTS_DIR; install the CLIs with its setup_agents.sh)",
            harness.display()
        );
    }
    let overlay = overlay(&harness)?;
    let bin = hooks_binary()?;
    let mut report = String::new();
    let mut failed = 0;
    for agent in AGENTS.iter().filter(|a| !agents_named || only.contains(a)) {
        if !host_exists(&bin, agent) {
            let _ = writeln!(
                report,
                "{agent:8} SKIPPED: no registered format `{agent}` with a host codec"
            );
            println!("{agent}: skipped (no host codec registered)");
            continue;
        }
        let mut all_us = Vec::new();
        for case in CASES.iter().filter(|c| !cases_named || only.contains(&c.name)) {
            let o = run_case(&overlay, &harness, &bin, agent, case)?;
            let line = format!(
                "{agent:8} {:6} {} {:6.1} s  {}",
                case.name,
                if o.ok { "PASS" } else { "FAIL" },
                o.secs,
                o.detail
            );
            println!("{line}");
            let _ = writeln!(report, "{line}");
            failed += usize::from(!o.ok);
            all_us.extend(o.bridge_us);
        }
        if !all_us.is_empty() {
            let n = all_us.len();
            let (min, max) = (
                all_us.iter().min().copied().unwrap_or(0),
                all_us.iter().max().copied().unwrap_or(0),
            );
            let line = format!(
                "{agent:8} bridge per event (wall, incl. wrapper): median {} us, min {min} us, max {max} us over {n} events",
                median(&mut all_us)
            );
            println!("{line}");
            let _ = writeln!(report, "{line}");
        }
    }
    println!("\n== cargo xtask agents\n{report}");
    if failed > 0 {
        bail!("{failed} run(s) failed");
    }
    Ok(())
}
