//! The command tree: valid as a whole, each command's arguments built only when it is parsed.

use clap::{CommandFactory, Parser};

use super::{Cli, Command};

#[test]
fn the_whole_command_tree_is_valid() {
    // Builds every deferred command, as `--help` of each would.
    Cli::command().debug_assert();
}

#[test]
fn a_command_s_arguments_are_built_only_when_it_is_parsed() {
    let cmd = Cli::command();
    let fire = cmd.find_subcommand("fire").expect("fire");
    assert_eq!(fire.get_arguments().count(), 0, "fire's arguments are deferred");
    let mut built = Cli::command();
    built.build();
    let fire = built.find_subcommand("fire").expect("fire");
    assert!(fire.get_arguments().any(|a| a.get_id() == "payload"), "built on demand");
}

#[test]
fn deferred_commands_parse_as_before() {
    let cli = Cli::try_parse_from([
        "hooks",
        "fire",
        "beforeShellExecution",
        "--payload",
        "-",
        "--dry-run",
        "--log-level",
        "debug",
    ])
    .expect("parses");
    let Command::Fire(a) = &cli.command else { panic!("fire: {:?}", cli.command) };
    assert_eq!(a.event.as_deref(), Some("beforeShellExecution"));
    assert_eq!(a.payload.as_deref(), Some("-"));
    assert!(a.dry_run);
    assert_eq!(cli.log_level.as_deref(), Some("debug"));

    let cli = Cli::try_parse_from(["hooks", "bridge", "--host", "claude"]).expect("parses");
    let Command::Bridge(a) = &cli.command else { panic!("bridge: {:?}", cli.command) };
    assert_eq!(a.host, "claude");

    // Another command's option is still refused, a missing required one still named.
    let e = Cli::try_parse_from(["hooks", "bridge", "--host", "claude", "--dry-run"])
        .expect_err("not a bridge option");
    assert_eq!(e.kind(), clap::error::ErrorKind::UnknownArgument);
    let e = Cli::try_parse_from(["hooks", "bridge"]).expect_err("--host is required");
    assert_eq!(e.kind(), clap::error::ErrorKind::MissingRequiredArgument);
}

/// The tool's description names the agent of every registered format, so it does not fall
/// behind when a format is added.
#[test]
fn the_description_names_every_registered_format() {
    let about = Cli::command().get_about().map(ToString::to_string).unwrap_or_default();
    for format in hooks_app::formats::workspace_formats().iter() {
        assert!(about.contains(format.agent()), "{about:?} does not name {}", format.agent());
    }
}

/// `install --host` and `bridge --host` name every format whose agent can run the bridge (a
/// host codec, and for `install` a file it writes), so their help does not fall behind.
#[test]
fn the_host_options_name_every_agent_that_can_run_the_bridge() {
    let mut cmd = Cli::command();
    cmd.build();
    let help = |command: &str| {
        let sub = cmd.find_subcommand(command).expect(command);
        let host = sub.get_arguments().find(|a| a.get_id() == "host").expect("--host");
        host.get_help().map(ToString::to_string).unwrap_or_default()
    };
    let (install, bridge) = (help("install"), help("bridge"));
    for format in hooks_app::formats::workspace_formats().iter() {
        let id = format!("`{}`", format.id().as_str());
        if format.host().is_some() {
            assert!(bridge.contains(&id), "bridge --host: {bridge:?} does not name {id}");
        }
        if !format.install_targets().is_empty() {
            assert!(install.contains(&id), "install --host: {install:?} does not name {id}");
        }
    }
}
