//! `hooks serve --stdio` end to end: the JSON-lines protocol over real pipes with a real
//! runtime, real hook files and real hook processes; the Python example client against a
//! child process of this test binary.

use std::{
    collections::HashMap,
    io::{BufRead, BufReader, Write},
    path::{Path, PathBuf},
    sync::{
        OnceLock,
        mpsc::{Receiver, RecvTimeoutError, channel},
    },
    thread,
    time::{Duration, Instant},
};

use hooks_app::{
    runtime::{HookRuntime, RuntimeConfig},
    serve::{PolledInput, ServeOptions, protocol::METHODS, run_stdio_with},
};
use hooks_trust::Surface;
use serde_json::{Value, json};

use crate::support::{TestDir, git_repository};

/// How long any single answer may take before the test fails.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// An in-process server over pipes, and the test's side of them.
struct Server {
    input: Option<std::io::PipeWriter>,
    messages: Receiver<Value>,
    exited: Receiver<Result<(), String>>,
    /// Messages read while waiting for something else.
    backlog: Vec<Value>,
    /// The method of each request sent, by id, to check answers against its schema.
    methods: HashMap<String, String>,
}

impl Server {
    fn start(runtime: HookRuntime) -> Server {
        Server::start_with(runtime, ServeOptions::default())
    }

    fn start_with(runtime: HookRuntime, options: ServeOptions) -> Server {
        let (in_r, in_w) = std::io::pipe().expect("pipe");
        let (out_r, out_w) = std::io::pipe().expect("pipe");
        let (exit_tx, exited) = channel();
        thread::spawn(move || {
            let _ = exit_tx
                .send(run_stdio_with(runtime, in_r, out_w, options).map_err(|e| format!("{e:#}")));
        });
        let (msg_tx, messages) = channel();
        thread::spawn(move || {
            for line in BufReader::new(out_r).lines() {
                let Ok(line) = line else { return };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout carried a non-JSON line {line:?}: {e}"));
                if msg_tx.send(value).is_err() {
                    return;
                }
            }
        });
        let mut s = Server {
            input: Some(in_w),
            messages,
            exited,
            backlog: Vec::new(),
            methods: HashMap::new(),
        };
        let hello = s.next();
        assert_eq!(hello["method"], "hello", "{hello}");
        assert_eq!(hello["params"]["protocol_version"], 1, "{hello}");
        s
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let w = self.input.as_mut().expect("stdin open");
        w.write_all(bytes).expect("write request");
        w.flush().expect("flush");
    }

    fn send(&mut self, id: Value, method: &str, params: Value) {
        let line = json!({ "id": id, "method": method, "params": params });
        schemas().check(&format!("{method}.request.json"), &line);
        schemas().check("request.json", &line);
        self.methods.insert(id.to_string(), method.to_owned());
        self.send_raw(format!("{line}\n").as_bytes());
    }

    fn next(&mut self) -> Value {
        match self.messages.recv_timeout(ANSWER_TIMEOUT) {
            Ok(v) => {
                self.check(&v);
                v
            }
            Err(e) => panic!("no message from the server: {e}"),
        }
    }

    /// Checks a message against the protocol's schemas.
    fn check(&self, m: &Value) {
        let schemas = schemas();
        match (m.get("id"), m.get("error")) {
            (_, Some(_)) => schemas.check("error.json", m),
            (Some(id), None) => {
                schemas.check("response.json", m);
                if let Some(method) = self.methods.get(&id.to_string()) {
                    schemas.check(&format!("{method}.result.json"), &m["result"]);
                }
            }
            (None, None) => {
                let method = m["method"].as_str().expect("a notification has a method");
                schemas.check(&format!("{method}.notification.json"), m);
            }
        }
    }

    /// Waits for the answer to `id`, keeping everything else in the backlog.
    fn answer(&mut self, id: &Value) -> Value {
        if let Some(i) = self.backlog.iter().position(|m| m.get("id") == Some(id)) {
            return self.backlog.remove(i);
        }
        loop {
            let m = self.next();
            if m.get("id") == Some(id) {
                return m;
            }
            self.backlog.push(m);
        }
    }

    fn call(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!(id), method, params);
        let m = self.answer(&json!(id));
        assert!(m.get("error").is_none(), "{method} failed: {m}");
        m["result"].clone()
    }

    fn call_err(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(id.clone(), method, params);
        let m = self.answer(&id);
        assert!(m.get("result").is_none(), "{method} did not fail: {m}");
        m["error"].clone()
    }

    /// Waits until a notification with `method` arrived.
    fn notification(&mut self, method: &str) -> Value {
        if let Some(i) =
            self.backlog.iter().position(|m| m.get("id").is_none() && m["method"] == method)
        {
            return self.backlog.remove(i);
        }
        loop {
            let m = self.next();
            if m.get("id").is_none() && m["method"] == method {
                return m;
            }
            self.backlog.push(m);
        }
    }

    fn close_input(&mut self) {
        self.input = None;
    }

    fn wait_exit(&mut self) {
        match self.exited.recv_timeout(ANSWER_TIMEOUT) {
            Ok(r) => r.expect("the server exits cleanly"),
            Err(e) => panic!("the server did not exit: {e}"),
        }
    }

    /// Every message left until stdout closes.
    fn rest(&mut self) -> Vec<Value> {
        let mut out = std::mem::take(&mut self.backlog);
        loop {
            match self.messages.recv_timeout(ANSWER_TIMEOUT) {
                Ok(v) => {
                    self.check(&v);
                    out.push(v);
                }
                Err(RecvTimeoutError::Disconnected) => return out,
                Err(RecvTimeoutError::Timeout) => panic!("stdout did not close"),
            }
        }
    }
}

fn runtime() -> HookRuntime {
    HookRuntime::new(RuntimeConfig::new(Surface::CliRun))
}

const BLOCK_RM: &str = r#"#!/bin/bash
input=$(cat)
if echo "$input" | grep -q 'rm -rf'; then
  echo '{ "permission": "deny", "user_message": "Destructive command blocked", "agent_message": "rm -rf is not allowed here" }'
  exit 0
fi
echo '{ "permission": "allow" }'
"#;

/// A project with a Cursor hook that denies `rm -rf`.
fn cursor_project() -> TestDir {
    let dir = TestDir::new();
    dir.script(".cursor/hooks/block-rm.sh", BLOCK_RM);
    dir.write(
        ".cursor/hooks.json",
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/block-rm.sh" } ] } }"#,
    );
    dir
}

fn shell_event(cwd: &Path, command: &str) -> Value {
    json!({
        "event": "pre_tool_use",
        "session_id": "s-1",
        "cwd": cwd,
        "tool": { "name": "Shell", "kind": "shell", "call_id": "c-1", "args": { "command": command } }
    })
}

fn canonical(p: &Path) -> PathBuf {
    hooks_registry::canonicalize(p).expect("canonical").into_path_buf()
}

/// Adds `root` with an auto-approving window and pins the run.
fn activate(s: &mut Server, root: &Path) {
    let r = s.call(900, "set_posture", json!({ "window": 1, "posture": "auto_approves" }));
    assert_eq!(r["posture"], "auto_approves");
    let r = s.call(901, "add_root", json!({ "root": root }));
    assert_eq!(r["effect"], "added", "{r}");
    let r = s.call(
        902,
        "exchange_appended",
        json!({ "envelope": { "event": "session_start", "cwd": root } }),
    );
    assert_eq!(r["started"], true, "{r}");
}

#[test]
fn every_request_round_trips() {
    let project = cursor_project();
    let root = canonical(project.path());
    let mut s = Server::start(runtime());

    let r = s.call(1, "hello", json!({ "protocol_version": 1 }));
    assert_eq!(r["protocol_version"], 1);
    assert!(r["methods"].as_array().expect("methods").len() >= 11, "{r}");
    let e = s.call_err(json!(2), "hello", json!({ "protocol_version": 99 }));
    assert_eq!(e["code"], "unsupported_version");
    assert_eq!(s.call(3, "ping", json!({})), json!({}));

    let r = s.call(4, "set_posture", json!({ "window": 1, "posture": "auto_approves" }));
    assert_eq!(r, json!({ "effect": "applied", "posture": "auto_approves" }));
    let r = s.call(5, "set_posture", json!({ "window": 2, "posture": "requires_approval" }));
    assert_eq!(r["posture"], "requires_approval", "the strictest window wins");
    let r = s.call(6, "close_window", json!({ "window": 2 }));
    assert_eq!(r["posture"], "auto_approves");

    let r = s.call(7, "add_root", json!({ "root": project.path() }));
    assert_eq!(r["effect"], "added", "{r}");
    assert_eq!(r["watching"], true, "{r}");
    assert_eq!(r["root"], json!(root));
    let n = s.notification("snapshot_changed");
    assert!(n["params"]["generation"].as_u64().is_some(), "{n}");
    let r = s.call(8, "add_root", json!({ "root": project.path(), "origin": "code_review" }));
    assert_eq!(r["effect"], "ignored", "{r}");

    // Before the pin the project file is loaded but inert, and redacted by default.
    let snap = s.call(9, "snapshot", json!({}));
    assert_eq!(snap["pinned"], Value::Null);
    let src = &snap["sources"][0];
    assert_eq!(src["kind"], "project_cursor_file", "{snap}");
    assert_eq!(src["load_state"], "loaded");
    assert_eq!(src["trust"]["decision"], "inert", "{snap}");
    assert!(src["trust"]["reason"].as_str().is_some_and(|r| !r.is_empty()));
    let hook = &src["hooks"][0];
    assert_eq!(hook["id"], "beforeShellExecution[0]");
    assert_eq!(hook["event"], "pre_tool_use");
    assert!(hook["fingerprint"].as_str().is_some_and(|f| f.len() > 8), "{hook}");
    assert!(hook.get("command").is_none(), "commands are redacted: {hook}");
    assert!(!snap.to_string().contains("block-rm.sh"), "no command text leaks: {snap}");
    let revealed = s.call(10, "snapshot", json!({ "reveal": true }));
    assert_eq!(revealed["sources"][0]["hooks"][0]["command"]["type"], "shell", "{revealed}");
    assert!(revealed.to_string().contains("block-rm.sh"));
    // The hook file and every other project hook file of the registered formats that would
    // be loaded if it existed are protected and shown; the script it names only with
    // `reveal`.
    let protected = |v: &Value, what: &str| {
        v["protected_paths"]
            .as_array()
            .map_or(0, |a| a.iter().filter(|p| p["what"] == what).count())
    };
    let files = hooks_sources::candidates(
        &hooks_app::formats::workspace_formats(),
        hooks_schema::FileScope::Project,
        Path::new("/"),
        &hooks_sources::ScopeDirs::new(),
    )
    .iter()
    .filter(|c| matches!(c, hooks_sources::Candidate::File { .. }))
    .count();
    assert!(files >= 6, "the seed's formats name six project files");
    // And on Linux the dynamic linker's `/etc/ld.so.preload` (finding F48).
    let files = files + usize::from(cfg!(target_os = "linux"));
    assert_eq!((protected(&snap, "file"), protected(&snap, "script")), (files, 0), "{snap}");
    assert_eq!(
        (protected(&revealed, "file"), protected(&revealed, "script")),
        (files, 1),
        "{revealed}"
    );

    let r = s.call(11, "load_explicit_sources", json!({}));
    assert_eq!(r, json!({ "ok": true, "errors": [] }));

    let r = s.call(
        12,
        "exchange_appended",
        json!({ "envelope": { "event": "session_start", "cwd": root } }),
    );
    assert_eq!(r["started"], true, "{r}");
    assert_eq!(r["pin"]["posture"], "auto_approves");
    assert!(r["session_start"]["runs"].is_array());
    let r = s.call(13, "exchange_appended", json!({}));
    assert_eq!(r["started"], false);
    assert_eq!(r["pin"]["posture"], "auto_approves");
    let snap = s.call(14, "snapshot", json!({}));
    assert_eq!(snap["sources"][0]["trust"]["decision"], "active", "{snap}");
    assert_eq!(snap["pinned"]["posture"], "auto_approves");

    // The real hook script decides.
    let r = s.call(15, "fire", json!({ "envelope": shell_event(&root, "rm -rf /tmp/x") }));
    let v = &r["verdict"];
    assert_eq!(v["decision"], "deny", "{r}");
    assert_eq!(v["reason"], "rm -rf is not allowed here");
    assert_eq!(v["decided_by"]["hook_id"], "beforeShellExecution[0]");
    assert_eq!(v["decided_by"]["source"]["kind"], "project_cursor_file");
    assert_eq!(v["decided_by"]["source"]["path"], json!(root.join(".cursor/hooks.json")), "{r}");
    assert_eq!(v["user_messages"][0]["text"], "Destructive command blocked");
    assert_eq!(r["runs"][0]["status"], "ran");
    assert_eq!(r["runs"][0]["process"]["exit_code"], 0);
    let r =
        s.call(16, "fire", json!({ "envelope": shell_event(&root, "ls"), "host_decision": "ask" }));
    assert_eq!(r["verdict"]["decision"], "allow", "{r}");
    assert_eq!(r["decision_to_act_on"], "ask", "a hook's allow does not relax the host");
    let r = s.call(17, "fire", json!({ "envelope": { "event": "stop", "cwd": root } }));
    assert_eq!(r["runs"], json!([]));
    assert_eq!(r["verdict"]["decision"], Value::Null);

    let r = s.call(18, "can_write_files", json!({ "paths": [".cursor/hooks.json"], "cwd": root }));
    assert_eq!(r["allowed"], false, "{r}");
    assert_eq!(r["decision"], "protected");
    assert_eq!(r["hits"][0]["role"], "hook_file");
    let r = s.call(19, "can_write_files", json!({ "paths": ["src/main.rs"], "cwd": root }));
    assert_eq!(r["allowed"], true, "{r}");

    let r = s.call(20, "remove_root", json!({ "root": root }));
    assert_eq!(r["effect"], "applied", "{r}");
    let r = s.call(21, "remove_root", json!({ "root": root }));
    assert_eq!(r["effect"], "ignored", "{r}");

    let r = s.call(22, "shutdown", json!({ "grace_ms": 1000 }));
    assert_eq!(r["aborted_requests"], 0);
    assert_eq!(r["drained"], json!({ "finished": [], "cancelled": [] }));
    s.wait_exit();
    assert!(s.rest().iter().all(|m| m.get("id").is_none()), "nothing answered after shutdown");
}

/// `fire` with an agent's own hook input (`from`, `input`): a Claude Code call, as Claude
/// Code 2.1.328 sent it, reaches the repository's Cursor hook; an input that is not the
/// agent's is an `invalid_params` error.
#[test]
fn fire_takes_an_agents_own_hook_input() {
    let project = cursor_project();
    let root = canonical(project.path());
    let mut s = Server::start(runtime());
    activate(&mut s, &root);
    let claude = &crate::native_payloads::SAMPLES[0];
    let input = claude.input(&root, "rm -rf build");
    let r = s.call(1, "fire", json!({ "from": "claude", "input": input }));
    assert_eq!(r["verdict"]["decision"], "deny", "{r}");
    assert_eq!(r["verdict"]["reason"], "rm -rf is not allowed here");
    let r = s.call(
        2,
        "fire",
        json!({ "from": "claude", "input": claude.input(&root, "ls"), "host_decision": "ask" }),
    );
    assert_eq!(r["verdict"]["decision"], "allow", "{r}");
    assert_eq!(r["decision_to_act_on"], "ask");
    let copilot = &crate::native_payloads::SAMPLES[3];
    let input = copilot.input(&root, "rm -rf build");
    let r = s.call(3, "fire", json!({ "from": "copilot", "input": input, "event": "preToolUse" }));
    assert_eq!(r["verdict"]["decision"], "deny", "{r}");
    let e = s.call_err(json!(4), "fire", json!({ "from": "copilot", "input": input }));
    assert_eq!(e["code"], "invalid_params", "{e}");
    let input = claude.input(&root, "ls");
    let e =
        s.call_err(json!(5), "fire", json!({ "from": "claude", "input": input, "event": "Stop" }));
    assert_eq!(e["code"], "invalid_params", "{e}");
    s.call(6, "shutdown", json!({}));
}

#[test]
fn string_ids_and_pipelined_requests_are_answered() {
    let mut s = Server::start(runtime());
    let mut batch = String::new();
    for i in 0..50 {
        batch.push_str(&format!(
            "{}\n",
            json!({ "id": format!("req-{i}"), "method": "fire", "params": { "envelope": { "event": "turn_start" } } })
        ));
    }
    s.send_raw(batch.as_bytes());
    for i in 0..50 {
        let m = s.answer(&json!(format!("req-{i}")));
        assert_eq!(m["result"]["runs"], json!([]), "{m}");
    }
    s.close_input();
    s.wait_exit();
}

#[test]
fn error_paths_are_answered_and_the_server_keeps_serving() {
    let mut s = Server::start(runtime());
    let cases: [(&str, Value, &str, &str); 12] = [
        ("{\"id\": 1, \"method\": ", Value::Null, "parse_error", "malformed JSON"),
        ("[1, 2, 3]", Value::Null, "invalid_request", "JSON object"),
        (r#"{"method":"ping"}"#, Value::Null, "invalid_request", "missing field `id`"),
        (r#"{"id":{"a":1},"method":"ping"}"#, Value::Null, "invalid_request", "`id`"),
        (r#"{"id":2}"#, json!(2), "invalid_request", "missing field `method`"),
        (r#"{"id":3,"method":7}"#, json!(3), "invalid_request", "`method`"),
        (r#"{"id":4,"method":"launch_missiles"}"#, json!(4), "unknown_method", "`launch_missiles`"),
        (
            r#"{"id":5,"method":"fire","params":{}}"#,
            json!(5),
            "invalid_params",
            "missing field `envelope`",
        ),
        (
            r#"{"id":6,"method":"fire","params":{"envelope":{"event":"no_such_event"}}}"#,
            json!(6),
            "invalid_params",
            "no_such_event",
        ),
        (
            r#"{"id":7,"method":"can_write_files","params":{"paths":[]}}"#,
            json!(7),
            "invalid_params",
            "missing field `cwd`",
        ),
        (
            r#"{"id":8,"method":"add_root","params":{"root":"/no/such/dir/anywhere"}}"#,
            json!(8),
            "runtime_error",
            "/no/such/dir/anywhere",
        ),
        (r#"{"id":9,"method":"ping","params":[1]}"#, json!(9), "invalid_request", "`params`"),
    ];
    for (line, id, code, needle) in cases {
        s.send_raw(format!("{line}\n").as_bytes());
        let m = if id.is_null() { s.next() } else { s.answer(&id) };
        assert_eq!(m["id"], id, "{line}: {m}");
        assert_eq!(m["error"]["code"], code, "{line}: {m}");
        let msg = m["error"]["message"].as_str().expect("message");
        assert!(msg.contains(needle), "{line}: {msg}");
    }
    // Blank lines are ignored; the server still answers.
    s.send_raw(b"\n  \n");
    assert_eq!(s.call(10, "ping", json!({})), json!({}));
    s.close_input();
    s.wait_exit();
}

#[test]
fn a_100_mb_line_is_rejected_and_the_next_request_is_served() {
    let mut s = Server::start(runtime());
    let mut w = s.input.take().expect("stdin");
    let writer = thread::spawn(move || {
        let chunk = vec![b'x'; 1024 * 1024];
        for _ in 0..100 {
            w.write_all(&chunk).expect("write chunk");
        }
        w.write_all(b"\n{\"id\":\"after\",\"method\":\"ping\"}\n").expect("write ping");
        w
    });
    let m = s.next();
    assert_eq!(m["id"], Value::Null, "{m}");
    assert_eq!(m["error"]["code"], "line_too_long", "{m}");
    let msg = m["error"]["message"].as_str().expect("message");
    assert!(msg.contains("104857600 bytes"), "{msg}");
    assert!(msg.contains(&format!("{} bytes", 16 * 1024 * 1024)), "{msg}");
    let m = s.answer(&json!("after"));
    assert_eq!(m["result"], json!({}));
    s.input = Some(writer.join().expect("writer"));
    s.close_input();
    s.wait_exit();
}

#[test]
fn stdin_closed_mid_request_answers_what_it_can_and_exits_cleanly() {
    let project = TestDir::new();
    project.script(
        ".cursor/hooks/slow.sh",
        "#!/bin/bash\ncat > /dev/null\nsleep 0.5\necho '{\"permission\":\"deny\"}'\n",
    );
    project.write(
        ".cursor/hooks.json",
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/slow.sh" } ] } }"#,
    );
    let root = canonical(project.path());
    let mut s = Server::start(runtime());
    activate(&mut s, &root);
    // A fire is in flight, then a request is cut off by the end of input.
    s.send(json!("slow"), "fire", json!({ "envelope": shell_event(&root, "make") }));
    s.send_raw(br#"{"id":"cut","method":"fi"#);
    s.close_input();
    let rest = s.rest();
    let cut = rest.iter().find(|m| m.get("error").is_some()).expect("an error for the cut request");
    assert_eq!(cut["error"]["code"], "parse_error", "{cut}");
    let msg = cut["error"]["message"].as_str().expect("message");
    assert!(msg.starts_with("stdin closed in the middle of a request"), "{msg}");
    let slow = rest.iter().find(|m| m["id"] == "slow").expect("the in-flight fire is answered");
    assert_eq!(slow["result"]["verdict"]["decision"], "deny", "{slow}");
    s.wait_exit();
}

#[test]
fn a_complete_last_line_without_newline_is_served() {
    let mut s = Server::start(runtime());
    s.send_raw(br#"{"id":1,"method":"ping"}"#);
    s.close_input();
    let rest = s.rest();
    assert_eq!(rest, vec![json!({ "id": 1, "result": {} })]);
    s.wait_exit();
}

/// A Claude Code project whose async post-tool hook writes `marker` after `delay` seconds.
fn async_project(delay: &str) -> (TestDir, PathBuf) {
    let dir = TestDir::new();
    let marker = dir.path().join("marker");
    dir.script(
        "hooks/log.sh",
        &format!(
            "#!/bin/bash\ncat > /dev/null\nsleep {delay}\necho done > '{}'\n",
            marker.display()
        ),
    );
    dir.write(
        ".claude/settings.json",
        r#"{ "hooks": { "PostToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/hooks/log.sh", "async": true, "timeout": 30 } ] } ] } }"#,
    );
    (dir, marker)
}

fn post_bash(cwd: &Path) -> Value {
    json!({
        "event": "post_tool_use",
        "cwd": cwd,
        "tool": { "name": "Bash", "kind": "shell", "args": { "command": "ls" } },
        "result": { "text": "ok" }
    })
}

#[test]
fn shutdown_drains_async_hooks_within_the_grace() {
    let (project, marker) = async_project("0.3");
    let root = canonical(project.path());
    let mut s = Server::start(runtime());
    activate(&mut s, &root);
    let r = s.call(1, "fire", json!({ "envelope": post_bash(&root) }));
    assert_eq!(r["runs"][0]["status"], "background", "{r}");
    assert!(!marker.exists(), "the async hook is still running");
    let r = s.call(2, "shutdown", json!({ "grace_ms": 10000 }));
    assert_eq!(r["drained"]["cancelled"], json!([]), "{r}");
    assert_eq!(r["drained"]["finished"][0]["process"]["exit_code"], 0, "{r}");
    assert!(marker.exists(), "the async hook finished before the answer");
    s.wait_exit();
}

#[test]
fn shutdown_cancels_async_hooks_past_the_grace() {
    let (project, marker) = async_project("20");
    let root = canonical(project.path());
    let mut s = Server::start(runtime());
    activate(&mut s, &root);
    let r = s.call(1, "fire", json!({ "envelope": post_bash(&root) }));
    assert_eq!(r["runs"][0]["status"], "background", "{r}");
    let started = Instant::now();
    let r = s.call(2, "shutdown", json!({ "grace_ms": 200 }));
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(r["drained"]["finished"], json!([]), "{r}");
    assert!(r["drained"]["cancelled"][0]["hook_id"].is_string(), "{r}");
    assert_eq!(r["drained"]["cancelled"].as_array().map(Vec::len), Some(1), "{r}");
    assert!(!marker.exists());
    s.wait_exit();
}

#[test]
fn a_hung_hook_does_not_delay_another_fire_on_a_multi_thread_runtime() {
    hung_hook_case(ServeOptions { worker_threads: 2, ..ServeOptions::default() });
}

#[test]
fn a_hung_hook_does_not_delay_another_fire_on_a_current_thread_runtime() {
    hung_hook_case(ServeOptions { worker_threads: 1, ..ServeOptions::default() });
}

fn hung_hook_case(options: ServeOptions) {
    let hung = TestDir::new();
    hung.script(".cursor/hooks/hang.sh", "#!/bin/bash\ncat > /dev/null\nsleep 30\n");
    hung.write(
        ".cursor/hooks.json",
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/hang.sh", "timeout": 3 } ] } }"#,
    );
    let quick = cursor_project();
    let (hung_root, quick_root) = (canonical(hung.path()), canonical(quick.path()));
    let mut s = Server::start_with(runtime(), options);
    s.call(1, "set_posture", json!({ "window": 1, "posture": "auto_approves" }));
    s.call(2, "add_root", json!({ "root": hung_root }));
    s.call(3, "add_root", json!({ "root": quick_root }));
    s.call(4, "exchange_appended", json!({}));

    let started = Instant::now();
    s.send(json!("hung"), "fire", json!({ "envelope": shell_event(&hung_root, "make") }));
    s.send(json!("quick"), "fire", json!({ "envelope": shell_event(&quick_root, "rm -rf /") }));
    let first = loop {
        let m = s.next();
        if m.get("id").is_some() {
            break m;
        }
    };
    let quick_after = started.elapsed();
    assert_eq!(first["id"], "quick", "the quick fire is answered first: {first}");
    assert_eq!(first["result"]["verdict"]["decision"], "deny");
    assert!(quick_after < Duration::from_secs(2), "quick answer took {quick_after:?}");
    let hung_answer = s.answer(&json!("hung"));
    let hung_after = started.elapsed();
    assert_eq!(hung_answer["result"]["runs"][0]["process"]["timed_out"], true, "{hung_answer}");
    assert!(hung_after >= Duration::from_secs(3), "{hung_after:?}");
    s.close_input();
    s.wait_exit();
}

#[test]
fn at_the_in_flight_limit_the_server_stops_reading_until_an_answer_is_written() {
    let gated = TestDir::new();
    let release = gated.path().join("release");
    gated.script(
        ".cursor/hooks/wait.sh",
        &format!(
            "#!/bin/bash\ncat > /dev/null\nwhile [ ! -e '{}' ]; do sleep 0.02; done\necho '{{ \"permission\": \"allow\" }}'\n",
            release.display()
        ),
    );
    gated.write(
        ".cursor/hooks.json",
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/wait.sh", "timeout": 20 } ] } }"#,
    );
    let root = canonical(gated.path());
    let mut s =
        Server::start_with(runtime(), ServeOptions { max_in_flight: 2, ..ServeOptions::default() });
    activate(&mut s, &root);

    // Two fires take both places; the third waits for one, and the ping behind it is not
    // even read, although the reader thread would answer it at once.
    for id in ["a", "b", "c"] {
        s.send(json!(id), "fire", json!({ "envelope": shell_event(&root, "make") }));
    }
    s.send(json!("p"), "ping", json!({}));
    let quiet_until = Instant::now() + Duration::from_millis(500);
    while let Some(left) = quiet_until.checked_duration_since(Instant::now()) {
        match s.messages.recv_timeout(left) {
            Ok(m) => {
                assert!(m.get("id").is_none(), "nothing is answered while the hooks wait: {m}");
                s.backlog.push(m);
            }
            Err(_) => break,
        }
    }

    std::fs::write(&release, "").expect("release the hooks");
    let mut order = Vec::new();
    while order.len() < 4 {
        let m = s.next();
        if let Some(id) = m.get("id").and_then(Value::as_str) {
            if id != "p" {
                assert_eq!(m["result"]["runs"][0]["status"], "ran", "{m}");
            }
            order.push(id.to_owned());
        }
    }
    let ping = order.iter().position(|id| id == "p").expect("the ping is answered");
    assert!(ping >= 1, "the ping is read only after a place was given back: {order:?}");
    s.close_input();
    s.wait_exit();
}

#[test]
fn shutdown_answers_requests_still_running_past_the_grace() {
    let hung = TestDir::new();
    // The hook holds a FIFO open for writing while it lives: the test reads `started`, then
    // end of file once the hook's process is gone.
    let fifo = hung.path().join("alive");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    hung.script(
        ".cursor/hooks/hang.sh",
        &format!(
            "#!/bin/bash\ncat > /dev/null\nexec 3>'{}'\necho started >&3\nexec sleep 30\n",
            fifo.display()
        ),
    );
    hung.write(
        ".cursor/hooks.json",
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/hang.sh", "timeout": 60 } ] } }"#,
    );
    let (alive_tx, alive) = channel();
    let reader_fifo = fifo.clone();
    thread::spawn(move || {
        let mut r = BufReader::new(std::fs::File::open(&reader_fifo).expect("open fifo"));
        let mut line = String::new();
        let _ = r.read_line(&mut line);
        let _ = alive_tx.send(line.trim().to_owned());
        line.clear();
        let n = r.read_line(&mut line).unwrap_or(usize::MAX);
        let _ = alive_tx.send(format!("closed after {n} more bytes"));
    });
    let root = canonical(hung.path());
    let mut s = Server::start(runtime());
    activate(&mut s, &root);
    s.send(json!("hung"), "fire", json!({ "envelope": shell_event(&root, "make") }));
    assert_eq!(alive.recv_timeout(ANSWER_TIMEOUT).expect("the hook started"), "started");
    let started = Instant::now();
    s.send(json!("bye"), "shutdown", json!({ "grace_ms": 300 }));
    let hung_answer = s.answer(&json!("hung"));
    assert_eq!(hung_answer["error"]["code"], "shutting_down", "{hung_answer}");
    let bye = s.answer(&json!("bye"));
    assert_eq!(bye["result"]["aborted_requests"], 1, "{bye}");
    assert!(started.elapsed() < Duration::from_secs(10));
    s.wait_exit();
    assert_eq!(
        alive.recv_timeout(ANSWER_TIMEOUT).expect("the hook process ended"),
        "closed after 0 more bytes",
        "the aborted request's hook was killed"
    );
}

/// Not a test of its own: when `HOOKS_SERVE_CHILD` is set, this test process becomes a
/// `hooks serve --stdio` server on its stdin and stdout (the Python client test starts it
/// that way, since the `hooks` binary of another package is not built for this one).
#[test]
fn serve_child_entry() {
    #[allow(clippy::disallowed_methods, reason = "test-only switch into the child role")]
    let child = std::env::var_os("HOOKS_SERVE_CHILD").is_some();
    if !child {
        return;
    }
    // The test harness has printed `test serve::serve_child_entry ... ` without a newline;
    // end that line so the protocol starts on a line of its own (the client skips what
    // comes before the `hello` notification).
    {
        let mut out = std::io::stdout().lock();
        out.write_all(b"\n").expect("stdout");
        out.flush().expect("stdout");
    }
    // As `hooks serve` reads it: with adaptive polling.
    let input = PolledInput::new(std::io::stdin());
    let result = run_stdio_with(runtime(), input, std::io::stdout(), ServeOptions::default());
    result.expect("serve");
}

#[test]
fn the_python_client_fires_a_real_hook_script() {
    let project = TestDir::new();
    project.script(
        "hooks/no-force-push.sh",
        r#"#!/bin/bash
input=$(cat)
if echo "$input" | grep -q 'push --force'; then
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"force pushes are blocked"}}'
fi
exit 0
"#,
    );
    project.write(
        ".claude/settings.json",
        r#"{ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/hooks/no-force-push.sh" } ] } ] } }"#,
    );
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
    let script = repo.join("examples/python/example.py");
    let exe = std::env::current_exe().expect("test executable");
    // With a reader thread (notifications to a callback), and reading on the calling thread.
    for mode in [None, Some("--no-reader-thread")] {
        let output = std::process::Command::new("python3")
            .arg(&script)
            .args(mode)
            .arg("--root")
            .arg(project.path())
            .arg("--command")
            .arg("git push --force origin main")
            .arg("--")
            .arg(&exe)
            .args(["--exact", "serve::serve_child_entry", "--nocapture", "--test-threads", "1"])
            .env("HOOKS_SERVE_CHILD", "1")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run python3");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "python {mode:?} failed: {stdout}\n{stderr}");
        let last = stdout.lines().last().expect("a verdict line");
        let verdict: Value = serde_json::from_str(last).expect("verdict JSON");
        assert_eq!(verdict["decision"], "deny", "{mode:?}: {stdout}\n{stderr}");
        assert_eq!(verdict["reason"], "force pushes are blocked");
        assert_eq!(verdict["decided_by"]["source"]["kind"], "project_claude_settings");
        // The root added and the pin make the snapshot change: seen either way.
        let seen = stderr
            .lines()
            .find_map(|l| l.split(" aborted, ").nth(1)?.split(' ').next()?.parse::<u32>().ok());
        assert!(seen.is_some_and(|n| n > 0), "{mode:?}: no snapshot change seen: {stderr}");
    }
}

/// The protocol's JSON Schemas (`specs/serve-schema/`), with a checker for the subset of JSON
/// Schema they use: `$ref`, `type`, `const`, `enum`, `anyOf`, `properties`, `required`,
/// `additionalProperties`, `items`, `maxItems`, `minimum`, `maximum`.
struct Schemas {
    files: HashMap<String, Value>,
}

fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .join("specs/serve-schema")
}

fn schemas() -> &'static Schemas {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let mut files = HashMap::new();
        for entry in std::fs::read_dir(schema_dir()).expect("schema dir") {
            let path = entry.expect("entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).expect("name").to_owned();
            let text = std::fs::read_to_string(&path).expect("read schema");
            let value: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
            files.insert(name, value);
        }
        Schemas { files }
    })
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("unsupported type {other}"),
    }
}

impl Schemas {
    fn file(&self, name: &str) -> &Value {
        self.files.get(name).unwrap_or_else(|| panic!("no schema {name}"))
    }

    fn check(&self, file: &str, instance: &Value) {
        let mut errors = Vec::new();
        self.validate(file, self.file(file), instance, "$", &mut errors);
        assert!(errors.is_empty(), "{instance} does not match {file}: {errors:#?}");
    }

    fn validate(&self, file: &str, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
        let Some(s) = schema.as_object() else { return };
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let (target_file, pointer) = r.split_once('#').expect("a $ref with a pointer");
            let target_file = if target_file.is_empty() { file } else { target_file };
            let target = self
                .file(target_file)
                .pointer(pointer)
                .unwrap_or_else(|| panic!("dangling $ref {r} in {file}"));
            self.validate(target_file, target, v, at, errors);
        }
        if let Some(t) = s.get("type") {
            let types: Vec<&str> = match t {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                other => panic!("bad type {other}"),
            };
            if !types.iter().any(|t| type_matches(t, v)) {
                errors.push(format!("{at}: expected {types:?}, got {v}"));
            }
        }
        if let Some(c) = s.get("const")
            && c != v
        {
            errors.push(format!("{at}: expected {c}, got {v}"));
        }
        if let Some(Value::Array(allowed)) = s.get("enum")
            && !allowed.contains(v)
        {
            errors.push(format!("{at}: {v} is not one of {allowed:?}"));
        }
        if let (Some(pattern), Some(text)) = (s.get("pattern").and_then(Value::as_str), v.as_str())
            && !regex::Regex::new(pattern).expect("a valid schema pattern").is_match(text)
        {
            errors.push(format!("{at}: {v} does not match {pattern}"));
        }
        if let Some(Value::Array(any)) = s.get("anyOf") {
            let fits = any.iter().any(|sub| {
                let mut e = Vec::new();
                self.validate(file, sub, v, at, &mut e);
                e.is_empty()
            });
            if !fits {
                errors.push(format!("{at}: {v} matches no alternative"));
            }
        }
        if let Some(obj) = v.as_object() {
            let props = s.get("properties").and_then(Value::as_object);
            for req in s.get("required").and_then(Value::as_array).into_iter().flatten() {
                let key = req.as_str().expect("required names");
                if !obj.contains_key(key) {
                    errors.push(format!("{at}: missing `{key}`"));
                }
            }
            for (k, val) in obj {
                let path = format!("{at}.{k}");
                match props.and_then(|p| p.get(k)) {
                    Some(sub) => self.validate(file, sub, val, &path, errors),
                    None => match s.get("additionalProperties") {
                        Some(Value::Bool(false)) => errors.push(format!("{path}: not allowed")),
                        Some(sub @ Value::Object(_)) => {
                            self.validate(file, sub, val, &path, errors)
                        }
                        _ => {}
                    },
                }
            }
        }
        if let Some(arr) = v.as_array() {
            if let Some(items) = s.get("items") {
                for (i, x) in arr.iter().enumerate() {
                    self.validate(file, items, x, &format!("{at}[{i}]"), errors);
                }
            }
            if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
                && arr.len() as u64 > max
            {
                errors.push(format!("{at}: more than {max} items"));
            }
            if let Some(min) = s.get("minItems").and_then(Value::as_u64)
                && (arr.len() as u64) < min
            {
                errors.push(format!("{at}: fewer than {min} items"));
            }
        }
        if let Some(n) = v.as_f64() {
            if let Some(min) = s.get("minimum").and_then(Value::as_f64)
                && n < min
            {
                errors.push(format!("{at}: {n} < {min}"));
            }
            if let Some(max) = s.get("maximum").and_then(Value::as_f64)
                && n > max
            {
                errors.push(format!("{at}: {n} > {max}"));
            }
        }
    }
}

const CHRYS_NOTIFY: &str =
    "hooks:\n  - id: notify\n    event: after_turn\n    run: {type: shell, shell: 'true'}\n";

/// The files named by an `advisories` notification's dormant-project advisories.
fn dormant_in(notification: &Value) -> Vec<String> {
    notification["params"]["advisories"]
        .as_array()
        .expect("advisories")
        .iter()
        .filter(|a| a["code"] == "project_hooks_dormant")
        .map(|a| a["source"].as_str().expect("source").to_owned())
        .collect()
}

/// Chrys's dormant-project notice as a serve notification: at start-up, after a workspace
/// change (`add_root`), after a reload (the file created in a watched root), once each.
#[test]
fn dormant_project_files_are_notified_at_start_up_on_a_workspace_change_and_on_reload() {
    let (a, b, c) = (TestDir::new(), TestDir::new(), TestDir::new());
    a.write(".chrys/hooks/hooks.yaml", CHRYS_NOTIFY);
    c.write(".chrys/hooks/hooks.yaml", CHRYS_NOTIFY);
    let file =
        |d: &TestDir| canonical(d.path()).join(".chrys/hooks/hooks.yaml").display().to_string();
    let mut rt = HookRuntime::new(RuntimeConfig::new(Surface::Desktop));
    crate::support::detect_root(&mut rt, a.path());
    let mut s = Server::start(rt);
    // Start-up.
    assert_eq!(dormant_in(&s.notification("advisories")), [file(&a)]);
    // A workspace change to a repository without a Chrys file, then the file appears.
    let r = s.call(1, "add_root", json!({ "root": b.path() }));
    assert_eq!(r["watching"], true, "{r}");
    b.write(".chrys/hooks/hooks.yaml", CHRYS_NOTIFY);
    assert_eq!(dormant_in(&s.notification("advisories")), [file(&b)]);
    // A workspace change to a repository with one.
    s.call(2, "add_root", json!({ "root": c.path() }));
    assert_eq!(dormant_in(&s.notification("advisories")), [file(&c)]);
    s.call(3, "shutdown", json!({}));
    let rest = s.rest();
    assert!(rest.iter().all(|m| m["method"] != "advisories"), "each is sent once: {rest:?}");
}

#[test]
fn every_method_has_schemas_and_is_documented() {
    let spec =
        std::fs::read_to_string(schema_dir().parent().expect("specs").join("serve-protocol.md"))
            .expect("specs/serve-protocol.md");
    for method in METHODS {
        for kind in ["request", "result"] {
            let name = format!("{method}.{kind}.json");
            assert!(schemas().files.contains_key(&name), "no schema {name}");
        }
        assert!(spec.contains(&format!("### `{method}`")), "the spec does not document `{method}`");
        let example = json!({ "id": 1, "method": method });
        let request = schemas().file(&format!("{method}.request.json"));
        let needs_params =
            request["required"].as_array().is_some_and(|r| r.contains(&json!("params")));
        if !needs_params {
            schemas().check(&format!("{method}.request.json"), &example);
        }
    }
    // The checker itself rejects what the schemas forbid.
    let mut errors = Vec::new();
    let s = schemas();
    s.validate("fire.request.json", s.file("fire.request.json"), &json!({ "id": 1.5, "method": "fire", "params": { "envelope": { "event": "nope" }, "x": 1 } }), "$", &mut errors);
    assert_eq!(errors.len(), 3, "{errors:#?}");
}

/// One line of a generated session.
#[derive(Debug, Clone)]
enum GenLine {
    Ping(u32),
    Junk(String),
    Oversized(usize),
    Blank,
}

fn gen_line() -> impl proptest::strategy::Strategy<Value = GenLine> {
    use proptest::prelude::*;
    prop_oneof![
        any::<u32>().prop_map(GenLine::Ping),
        "[^\n\r]{1,40}".prop_map(GenLine::Junk),
        (65usize..5000).prop_map(GenLine::Oversized),
        Just(GenLine::Blank),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Whatever the bytes, parsing answers without panicking, and an error keeps the id only
    /// when the input had a readable one.
    #[test]
    fn parsing_arbitrary_lines_never_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
        match hooks_app::serve::parse_request(&bytes) {
            Ok((id, _)) => proptest::prop_assert!(id.is_string() || id.is_i64() || id.is_u64()),
            Err(e) => proptest::prop_assert!(!e.message.is_empty()),
        }
    }

    /// Any mix of requests, junk, blank and oversized lines (cap 64 bytes) gets exactly one
    /// answer per non-blank line, in order, and the server exits cleanly at end of input.
    #[test]
    fn every_non_blank_line_gets_one_answer(lines in proptest::collection::vec(gen_line(), 0..12)) {
        let options = ServeOptions { max_line_bytes: 64, ..ServeOptions::default() };
        let mut s = Server::start_with(runtime(), options);
        let mut input = Vec::new();
        let mut expected = Vec::new();
        for l in &lines {
            match l {
                GenLine::Ping(i) => {
                    input.extend_from_slice(format!("{{\"id\":{i},\"method\":\"ping\"}}\n").as_bytes());
                    expected.push(json!({ "id": i, "result": {} }));
                }
                GenLine::Junk(text) => {
                    let is_blank = text.bytes().all(|b| b.is_ascii_whitespace());
                    input.extend_from_slice(text.as_bytes());
                    input.push(b'\n');
                    if !is_blank {
                        expected.push(json!("error"));
                    }
                }
                GenLine::Oversized(n) => {
                    input.extend(std::iter::repeat_n(b'{', *n));
                    input.push(b'\n');
                    expected.push(json!("line_too_long"));
                }
                GenLine::Blank => input.extend_from_slice(b" \n"),
            }
        }
        s.send_raw(&input);
        s.close_input();
        let got = s.rest();
        s.wait_exit();
        proptest::prop_assert_eq!(got.len(), expected.len(), "{:?}", got);
        for (g, e) in got.iter().zip(&expected) {
            match e.as_str() {
                Some("error") => proptest::prop_assert!(g.get("error").is_some(), "{}", g),
                Some(code) => proptest::prop_assert_eq!(&g["error"]["code"], code),
                None => proptest::prop_assert_eq!(g, e),
            }
        }
    }
}

#[test]
fn explicit_sources_load_with_their_errors_and_fail_closed_refuses_the_pin() {
    use hooks_schema::ExplicitScope;
    use hooks_sources::ExplicitHookSource;
    let dir = TestDir::new();
    let good = dir.write(
        "run/hooks.json",
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": "echo '{\"permission\":\"ask\"}'" } ] } }"#,
    );
    let broken = dir.write("broken/hooks.json", "{ not json");
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.explicit_sources = vec![
        ExplicitHookSource::new(ExplicitScope::RunDelivered, &good, hooks_format_cursor::FORMAT),
        ExplicitHookSource::new(ExplicitScope::RunDelivered, &broken, hooks_format_cursor::FORMAT),
    ];
    config.fail_closed_on_source_errors = true;
    let mut s = Server::start(HookRuntime::new(config));

    let r = s.call(1, "load_explicit_sources", json!({}));
    assert_eq!(r["ok"], false, "{r}");
    let errors = r["errors"].as_array().expect("errors");
    assert!(!errors.is_empty(), "{r}");
    assert!(errors.iter().all(|e| e["severity"] == "error"), "{r}");
    assert!(r.to_string().contains("broken"), "the error names the broken file: {r}");

    // The valid explicit source runs everywhere, pinned or not.
    let r = s.call(2, "fire", json!({ "envelope": shell_event(dir.path(), "ls") }));
    assert_eq!(r["verdict"]["decision"], "ask", "{r}");
    assert_eq!(r["verdict"]["decided_by"]["source"]["kind"], "run_delivered");

    let e = s.call_err(json!(3), "exchange_appended", json!({}));
    assert_eq!(e["code"], "runtime_error", "{e}");
    assert!(e["message"].as_str().is_some_and(|m| m.contains("explicit")), "{e}");
    let snap = s.call(4, "snapshot", json!({}));
    assert_eq!(snap["pinned"], Value::Null, "the run did not start");
    s.close_input();
    s.wait_exit();
}

#[test]
fn a_closed_stdout_ends_the_server_even_with_stdin_open() {
    let (in_r, mut in_w) = std::io::pipe().expect("pipe");
    let (out_r, out_w) = std::io::pipe().expect("pipe");
    let (exit_tx, exited) = channel();
    thread::spawn(move || {
        let r = run_stdio_with(runtime(), in_r, out_w, ServeOptions::default());
        let _ = exit_tx.send(r.map_err(|e| format!("{e:#}")));
    });
    let mut out = BufReader::new(out_r);
    let mut hello = String::new();
    out.read_line(&mut hello).expect("hello");
    assert!(hello.contains("\"hello\""), "{hello}");
    drop(out);
    in_w.write_all(b"{\"id\":1,\"method\":\"ping\"}\n").expect("write");
    match exited.recv_timeout(ANSWER_TIMEOUT) {
        Ok(r) => r.expect("a clean exit"),
        Err(e) => panic!("the server did not exit: {e}"),
    }
    drop(in_w);
}

/// A long-lived server answers the guard for any session: what the user's hook that runs git
/// in the session's directory reads there (the repository's `core.fsmonitor` script, finding
/// F64) is refused from the first question about that directory, as for a bridged event or
/// `hooks guard --cwd`; the session's other files are not.
#[test]
fn can_write_files_reads_what_the_user_s_hooks_read_in_the_session_s_directory() {
    let home = TestDir::new();
    home.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "git status --porcelain >/dev/null 2>&1 || true"}
        ]}]}})
        .to_string(),
    );
    let repo = git_repository("[core]\n\tbare = false\n\tfsmonitor = tools/fsmon.sh\n");
    let other = git_repository("[core]\n\tfsmonitor = bin/mon.sh\n");
    let mut config = RuntimeConfig::new(Surface::CliRun);
    config.user_dirs = Some(hooks_sources::UserDirs::under_home(&config.formats, home.path()));
    config.home_dir = Some(home.path().to_path_buf());
    let mut s = Server::start(HookRuntime::new(config));
    let root = canonical(repo.path());
    activate(&mut s, &root);
    let r = s.call(40, "can_write_files", json!({ "paths": ["tools/fsmon.sh"], "cwd": root }));
    assert_eq!(r["allowed"], false, "{r}");
    let r = s.call(41, "can_write_files", json!({ "paths": ["src/main.rs"], "cwd": root }));
    assert_eq!(r["allowed"], true, "{r}");
    // Another session, in a folder that is no root.
    let cwd = canonical(other.path());
    let r = s.call(42, "can_write_files", json!({ "paths": ["bin/mon.sh"], "cwd": cwd }));
    assert_eq!(r["allowed"], false, "{r}");
    let r = s.call(43, "can_write_files", json!({ "paths": ["tools/fsmon.sh"], "cwd": root }));
    assert_eq!(r["allowed"], false, "the first session's stays: {r}");
    s.call(44, "shutdown", json!({ "grace_ms": 1000 }));
}

#[test]
fn can_write_files_refuses_a_path_with_a_nul_byte() {
    let project = cursor_project();
    let root = canonical(project.path());
    let mut s = Server::start(runtime());
    activate(&mut s, &root);
    for (id, path) in [(30, ".cursor/hooks.json\u{0}"), (31, "src/new.rs\u{0}"), (32, "\u{0}")] {
        let r = s.call(id, "can_write_files", json!({ "paths": [path], "cwd": root }));
        assert_eq!(r["allowed"], false, "{path:?}: {r}");
        assert_eq!(r["decision"], "unresolved", "{path:?}: {r}");
        assert!(r.to_string().contains("NUL byte"), "{r}");
    }
    s.call(33, "shutdown", json!({ "grace_ms": 1000 }));
}
