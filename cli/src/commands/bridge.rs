//! `hooks bridge --host <agent> [--event E]`: one hook event of a host agent, answered in its
//! own protocol (see [`hooks_app::bridge`]).

use std::{io::Write, time::Duration};

use anyhow::Result;
use hooks_sources::{EnvVars, ManagedDirs, UserDirs};

use hooks_app::{
    bridge::{BridgeConfig, PinStore, run_event},
    trust::{StoreGatedPolicy, StoreNeed},
};

use crate::{cli::BridgeArgs, setup::absolute};

/// The folder of the bridge's session pins under the engine's own state folder.
pub const PINS_FOLDER: &str = "bridge-sessions";

/// Runs `hooks bridge`. Never fails: whatever goes wrong is said on stderr and answered
/// with exit code 0 and nothing on stdout, so the host goes on as without hooks.
pub fn run(a: &BridgeArgs) -> Result<u8> {
    let stdin = super::input::read_stream(
        std::io::stdin().lock(),
        super::input::MAX_PAYLOAD_BYTES,
        "the hook input on stdin",
    );
    let stdin = match stdin {
        Ok(s) => s,
        Err(e) => {
            eprintln!("hooks bridge: {e:#}");
            return Ok(0);
        }
    };
    let config = match config(a) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hooks bridge: {e:#}");
            return Ok(0);
        }
    };
    let outcome = run_event(&config, stdin.as_bytes(), a.event.as_deref());
    let answer = outcome.answer;
    let mut out = std::io::stdout().lock();
    out.write_all(&answer.stdout)?;
    out.flush()?;
    std::io::stderr().write_all(&answer.stderr)?;
    // Answered: the exit comes next, and the agent waits for it. The engine's teardown is
    // left to the exit and the reaper (`Kept::leave_to_exit`).
    outcome.engine.leave_to_exit();
    Ok(u8::try_from(answer.exit_code).unwrap_or(1))
}

fn config(a: &BridgeArgs) -> Result<BridgeConfig> {
    let formats = hooks_app::formats::workspace_formats();
    let env = EnvVars::from_process_with(&formats);
    let process_cwd = std::env::current_dir()?;
    let user_dirs = match &a.config_dir {
        Some(dir) => UserDirs::under_home(&formats, &absolute(dir, &process_cwd)),
        None => UserDirs::from_env(&formats, &env),
    };
    let user_opt_in = hooks_sources::read_user_policy(&formats, &user_dirs).opt_in.unwrap_or(false);
    let config_dir = user_dirs.folder(hooks_format_chrys::FORMAT).map(std::path::Path::to_path_buf);
    let managed_dirs = a.config_dir.is_none().then(|| ManagedDirs::system_from_env(&formats, &env));
    let state = env.engine_state_dir();
    // The runtime's own trust gate, with every project file needing the user's trust.
    let trust = StoreGatedPolicy::new(
        std::sync::Arc::new(hooks_trust::StaticTrustPolicy),
        formats.clone(),
        hooks_app::trust::user_store(&env),
        hooks_app::trust::user_paths(env.home_dir().as_deref(), config_dir.as_deref()),
        Some(user_dirs.clone()),
    )
    .with_need(StoreNeed::ProjectFiles);
    let dispatch = hooks_dispatch::DispatchConfig {
        runtime_dir: env.engine_config_dir(),
        ..Default::default()
    };
    // The folders of `$PATH` are protected whole, but not one holding the session's folder.
    let shell_startup = hooks_app::trust::ShellStartupDirs::from_env(&env)
        .with_engine_program(std::env::current_exe().ok())
        .without_path_folders_holding(&[process_cwd.as_path()]);
    Ok(BridgeConfig {
        host: a.host.clone(),
        user_dirs: Some(user_dirs),
        managed_dirs,
        pins: state.map(|s| PinStore::new(s.join(PINS_FOLDER))),
        trust: std::sync::Arc::new(trust),
        process_cwd,
        home_dir: env.home_dir(),
        shell_startup,
        config_dir,
        user_shell: env.shell().map(str::to_owned),
        dispatch,
        drain_grace: Duration::from_secs(2),
        trust_store: hooks_app::trust::user_store(&env).map(|s| s.path().to_path_buf()),
        user_opt_in,
        formats,
    })
}
