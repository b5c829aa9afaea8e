//! Claude Code HTTP hooks (`type: "http"`) through the real `hooks` tool, against a server
//! each test starts on 127.0.0.1: what is sent, and how each answer is read (the table of
//! `specs/formats/claude.md`, "HTTP hooks", observed with Claude Code 2.1.328).

use std::{
    path::Path,
    time::{Duration, Instant},
};

use hooks_testing::http_server::{Answer, Server, refused_url};
use serde_json::{Value, json};

use crate::{
    cli::{hooks_in, hooks_in_env},
    support::TestDir,
};

const BOUND: Duration = Duration::from_secs(30);

fn deny(reason: &str) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": reason}})
}

/// A project whose `.claude/settings.json` has one `http` PreToolUse handler for Bash.
fn project(handler: Value) -> TestDir {
    let dir = TestDir::new();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}});
    dir.write(".claude/settings.json", &settings.to_string());
    dir
}

/// `hooks fire pre_tool_use` for a Bash call, the project's files trusted, with `extra`
/// arguments and environment; the exit code and the JSON report.
fn fire(root: &Path, extra: &[&str], env: &[(&str, &Path)]) -> (i32, Value) {
    let cfg = TestDir::new();
    let root_s = root.to_str().expect("utf-8 root");
    let cfg_s = cfg.path().to_str().expect("utf-8");
    let mut args = vec!["fire", "pre_tool_use", "--root", root_s, "--config-dir", cfg_s];
    args.extend(["--posture", "auto-approves", "--payload", "-", "--json"]);
    args.extend(extra);
    let payload = json!({
        "session_id": "s-http",
        "cwd": root,
        "tool": {"name": "Bash", "kind": "shell", "args": {"command": "rm -rf build"}}
    });
    let out = hooks_in_env(root, &args, &payload.to_string(), env);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report = stdout
        .lines()
        .find_map(|l| serde_json::from_str::<Value>(l).ok())
        .unwrap_or_else(|| panic!("no JSON report: {stdout}\n{stderr}"));
    (out.status.code().expect("exited"), report)
}

#[test]
fn a_2xx_json_deny_denies_and_the_request_carries_the_hook_input() {
    let server = Server::answering(Answer::json(200, &deny("H00-deny-200")));
    let dir = project(json!({"type": "http", "url": server.url("/pre"), "timeout": 10}));
    let (code, report) = fire(dir.path(), &[], &[]);
    assert_eq!(code, 2, "{report}");
    assert_eq!(report["verdict"]["reason"], "H00-deny-200", "{report}");
    let req = server.next_request(BOUND).expect("the hook posted");
    assert_eq!((req.method.as_str(), req.path.as_str()), ("POST", "/pre"));
    assert_eq!(req.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_slice(&req.body).expect("a JSON body");
    assert_eq!(body["hook_event_name"], "PreToolUse", "{body}");
    assert_eq!(body["tool_name"], "Bash", "{body}");
    assert_eq!(body["tool_input"]["command"], "rm -rf build", "{body}");
    assert_eq!(body["session_id"], "s-http", "{body}");
}

/// A URL that names its host (`localhost`, from the machine's hosts file) is resolved by the
/// `hooks` binary: with glibc linked in (`cargo xtask check-static` runs this on that build)
/// the name service is the C library's own, not a loaded module.
#[test]
fn a_host_name_in_the_url_is_resolved() {
    let server = Server::answering(Answer::json(200, &deny("H09-by-name")));
    let url = server.url("/pre").replacen("127.0.0.1", "localhost", 1);
    let dir = project(json!({"type": "http", "url": url, "timeout": 10}));
    let (code, report) = fire(dir.path(), &[], &[]);
    assert_eq!(code, 2, "{report}");
    assert_eq!(report["verdict"]["reason"], "H09-by-name", "{report}");
    assert!(server.next_request(BOUND).is_some(), "the hook posted");
}

#[test]
fn non_2xx_answers_and_non_json_bodies_never_deny() {
    for answer in [
        Answer::json(500, &deny("H02-deny-500")),
        Answer::text(403, "H08 forbidden"),
        Answer::text(200, "H03 not json"),
        Answer::Redirect("http://127.0.0.1:9/elsewhere".to_owned()),
    ] {
        let server = Server::answering(answer.clone());
        let dir = project(json!({"type": "http", "url": server.url("/pre")}));
        let (code, report) = fire(dir.path(), &[], &[]);
        assert_eq!(code, 0, "{answer:?}: {report}");
        assert!(report["verdict"]["reason"].is_null(), "{answer:?}: {report}");
        assert_eq!(server.requests().len(), 1, "{answer:?}");
    }
}

#[test]
fn a_refused_connection_fails_open_by_default_and_closed_when_strict() {
    let dir = project(json!({"type": "http", "url": refused_url()}));
    let (code, report) = fire(dir.path(), &[], &[]);
    assert_eq!(code, 0, "{report}");
    // The strict contract (a user's settings file with `hooks.version: 1`).
    let home = TestDir::new();
    let strict = json!({"hooks": {"version": 1, "PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "http", "url": refused_url()}]}]}});
    home.write(".claude/settings.json", &strict.to_string());
    let empty = TestDir::new();
    let home_s = home.path().to_str().expect("utf-8");
    let args =
        ["fire", "pre_tool_use", "--strict", "--config-dir", home_s, "--payload", "-", "--json"];
    let payload = json!({"cwd": empty.path(),
        "tool": {"name": "Bash", "kind": "shell", "args": {"command": "ls"}}});
    let out = hooks_in(empty.path(), &args, &payload.to_string());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "strict mode fails closed: {stdout}");
    assert!(stdout.contains("no response"), "{stdout}");
    let with_block = project(json!({"type": "http", "url": refused_url(), "onFailure": "block"}));
    let (code, report) = fire(with_block.path(), &[], &[]);
    assert_eq!(code, 2, "onFailure: block fails closed: {report}");
}

#[test]
fn a_server_that_never_answers_is_given_up_at_the_hooks_timeout() {
    let server = Server::answering(Answer::Hold);
    let dir = project(json!({"type": "http", "url": server.url("/slow"), "timeout": 1}));
    let t0 = Instant::now();
    let (code, report) = fire(dir.path(), &[], &[]);
    let took = t0.elapsed();
    assert_eq!(code, 0, "{report}");
    assert!(took < BOUND, "took {took:?}");
    assert!(server.next_request(BOUND).is_some(), "the request was sent");
}

#[test]
fn headers_interpolate_allowed_variables_only() {
    let server = Server::answering(Answer::text(204, ""));
    let dir = project(json!({"type": "http", "url": server.url("/h"),
        "headers": {"X-Tok": "Bearer $MY_TOKEN", "X-Braced": "${MY_TOKEN}", "X-Secret": "v=$NOT_ALLOWED"},
        "allowedEnvVars": ["MY_TOKEN"]}));
    let env = [("MY_TOKEN", Path::new("tok123")), ("NOT_ALLOWED", Path::new("hunter2"))];
    let (code, report) = fire(dir.path(), &[], &env);
    assert_eq!(code, 0, "{report}");
    let req = server.next_request(BOUND).expect("the hook posted");
    assert_eq!(req.header("x-tok"), Some("Bearer tok123"));
    assert_eq!(req.header("x-braced"), Some("tok123"));
    assert_eq!(req.header("x-secret"), Some("v="));
}

#[test]
fn list_check_and_dry_run_withhold_credentials_unless_revealed() {
    let server = Server::answering(Answer::json(200, &deny("never")));
    let url = server.url("/p?key=s3cret").replace("http://", "http://me:hunter2@");
    let dir = project(json!({"type": "http", "url": url,
        "headers": {"Authorization": "Bearer sk-abc-$TOKEN"}, "allowedEnvVars": ["TOKEN"]}));
    let root = dir.path().to_str().expect("utf-8");
    let cfg = TestDir::new();
    let cfg_s = cfg.path().to_str().expect("utf-8");
    let base = ["--root", root, "--config-dir", cfg_s, "--posture", "auto-approves"];
    let text = |args: &[&str]| {
        let o = hooks_in(dir.path(), args, "");
        format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
    };
    let secrets = ["hunter2", "s3cret", "sk-abc"];
    for args in [
        [&["list"][..], &base].concat(),
        [&["list", "--json"][..], &base].concat(),
        vec!["check", ".claude/settings.json"],
        vec!["check", "--json", ".claude/settings.json"],
    ] {
        let out = text(&args);
        assert!(!secrets.iter().any(|s| out.contains(s)), "{args:?} shows a secret: {out}");
    }
    let listed = text(&[&["list"][..], &base].concat());
    assert!(listed.contains("POST http://…@127.0.0.1:"), "{listed}");
    let revealed = text(&[&["list", "--reveal"][..], &base].concat());
    assert!(secrets.iter().all(|s| revealed.contains(s)), "{revealed}");
    // A dry run names the hook and sends nothing.
    let (code, report) = fire(dir.path(), &["--dry-run"], &[]);
    assert!(code == 0 || code == 2, "{report}");
    let shown = report.to_string();
    assert!(!secrets.iter().any(|s| shown.contains(s)), "{shown}");
    assert!(shown.contains("PreToolUse[0][0]"), "{shown}");
    assert!(server.requests().is_empty(), "a dry run posted");
}

#[test]
fn prompt_and_agent_handlers_are_reported_as_gaps() {
    let dir = TestDir::new();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "prompt", "prompt": "is it safe?"}, {"type": "agent", "prompt": "check"}]}]}});
    dir.write(".claude/settings.json", &settings.to_string());
    let o = hooks_in(dir.path(), &["check", ".claude/settings.json"], "");
    let out = String::from_utf8_lossy(&o.stdout);
    for kind in ["prompt", "agent"] {
        assert!(out.contains(&format!("handler type `{kind}` is not supported")), "{kind}: {out}");
    }
}
