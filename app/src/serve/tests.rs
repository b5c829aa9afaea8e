//! Tests of the serve module: line splitting and request parsing.

use std::io::{BufReader, Cursor};

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{
    super::runtime::{HookRuntime, RuntimeConfig},
    lines::{Line, LineReader},
    protocol::{ErrorCode, Request, parse_request},
};

fn lines(input: &[u8], cap: usize, buf: usize) -> Vec<Line> {
    let mut r = LineReader::new(BufReader::with_capacity(buf, Cursor::new(input.to_vec())), cap);
    let mut out = Vec::new();
    while let Some(l) = r.next_line().expect("read") {
        out.push(l);
    }
    out
}

#[test]
fn splits_lines_and_strips_cr() {
    let got = lines(b"a\r\nbc\n\nd", 16, 2);
    assert_eq!(
        got,
        vec![
            Line::Complete(b"a".to_vec()),
            Line::Complete(b"bc".to_vec()),
            Line::Complete(Vec::new()),
            Line::Unterminated(b"d".to_vec()),
        ]
    );
}

/// A reader that has nothing now between its chunks, as a pipe read without waiting does.
struct Trickle(Vec<&'static [u8]>, bool);

impl std::io::Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.1 = !self.1;
        if self.1 {
            return Err(std::io::ErrorKind::WouldBlock.into());
        }
        if self.0.is_empty() {
            return Ok(0);
        }
        let chunk = self.0.remove(0);
        let n = chunk.len().min(buf.len());
        buf[..n].copy_from_slice(&chunk[..n]);
        if n < chunk.len() {
            self.0.insert(0, &chunk[n..]);
        }
        Ok(n)
    }
}

#[test]
fn a_line_interrupted_by_would_block_goes_on_where_it_stopped() {
    let input = Trickle(
        vec![b"{\"id\":", b"1}\nsec", b"ond\r\nlong", b"er than", b" cap\n", b"tail"],
        false,
    );
    let mut r = LineReader::new(BufReader::with_capacity(4, input), 10);
    let mut out = Vec::new();
    let mut would_block = 0;
    loop {
        match r.next_line() {
            Ok(Some(l)) => out.push(l),
            Ok(None) => break,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => would_block += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(would_block >= 6, "every chunk came after a would-block: {would_block}");
    assert_eq!(
        out,
        vec![
            Line::Complete(b"{\"id\":1}".to_vec()),
            Line::Complete(b"second".to_vec()),
            Line::TooLong { len: 15 },
            Line::Unterminated(b"tail".to_vec()),
        ]
    );
}

#[test]
fn an_oversized_line_is_measured_skipped_and_reading_goes_on() {
    let mut input = vec![b'x'; 1000];
    input.extend_from_slice(b"\nok\n");
    input.extend(vec![b'y'; 40]);
    let got = lines(&input, 10, 7);
    assert_eq!(
        got,
        vec![
            Line::TooLong { len: 1000 },
            Line::Complete(b"ok".to_vec()),
            Line::TooLong { len: 40 },
        ]
    );
}

#[test]
fn a_line_exactly_at_the_cap_is_kept() {
    assert_eq!(lines(b"0123456789\n", 10, 3), vec![Line::Complete(b"0123456789".to_vec())]);
    assert_eq!(lines(b"0123456789a\n", 10, 3), vec![Line::TooLong { len: 11 }]);
}

fn err(line: &str) -> (Option<serde_json::Value>, ErrorCode, String) {
    let e = parse_request(line.as_bytes()).expect_err("must fail");
    (e.id, e.code, e.message)
}

#[test]
fn parse_errors_name_the_problem_and_keep_the_id() {
    let (id, code, msg) = err("{not json");
    assert_eq!((id, code), (None, ErrorCode::ParseError));
    assert!(msg.starts_with("malformed JSON"), "{msg}");

    let (id, code, _) = err("[1,2]");
    assert_eq!((id, code), (None, ErrorCode::InvalidRequest));

    let (id, code, msg) = err(r#"{"method":"ping"}"#);
    assert_eq!((id, code), (None, ErrorCode::InvalidRequest));
    assert!(msg.contains("`id`"), "{msg}");

    let (id, code, _) = err(r#"{"id":1.5,"method":"ping"}"#);
    assert_eq!((id, code), (None, ErrorCode::InvalidRequest));

    let (id, code, msg) = err(r#"{"id":7}"#);
    assert_eq!((id, code), (Some(json!(7)), ErrorCode::InvalidRequest));
    assert!(msg.contains("`method`"), "{msg}");

    let (id, code, msg) = err(r#"{"id":"a","method":"frobnicate"}"#);
    assert_eq!((id, code), (Some(json!("a")), ErrorCode::UnknownMethod));
    assert!(msg.contains("`frobnicate`"), "{msg}");

    let (id, code, msg) = err(r#"{"id":3,"method":"fire","params":{}}"#);
    assert_eq!((id, code), (Some(json!(3)), ErrorCode::InvalidParams));
    assert!(msg.contains("missing field `envelope`"), "{msg}");

    let (_, code, msg) =
        err(r#"{"id":3,"method":"set_posture","params":{"window":1,"posture":"yolo"}}"#);
    assert_eq!(code, ErrorCode::InvalidParams);
    assert!(msg.contains("yolo"), "{msg}");

    let (_, code, msg) = err(r#"{"id":3,"method":"snapshot","params":{"reveal":true,"x":1}}"#);
    assert_eq!(code, ErrorCode::InvalidParams);
    assert!(msg.contains("unknown field `x`"), "{msg}");

    let (_, code, msg) = err(r#"{"id":3,"method":"ping","extra":1}"#);
    assert_eq!(code, ErrorCode::InvalidRequest);
    assert!(msg.contains("`extra`"), "{msg}");

    let (_, code, _) = err(r#"{"id":3,"method":"shutdown","params":{"grace_ms":600001}}"#);
    assert_eq!(code, ErrorCode::InvalidParams);
}

#[test]
fn requests_parse_with_defaults() {
    let (id, req) = parse_request(br#"{"id":"x","method":"snapshot"}"#).expect("parses");
    assert_eq!((id, req), (json!("x"), Request::Snapshot { reveal: false }));
    let (_, req) = parse_request(
        br#"{"id":1,"method":"fire","params":{"envelope":{"event":"pre_tool_use","cwd":"/tmp"},"host_decision":"ask"}}"#,
    )
    .expect("parses");
    let Request::Fire { envelope, host_decision } = req else { panic!("not a fire: {req:?}") };
    assert_eq!(envelope.event, hooks_schema::HookEvent::PreToolUse);
    assert_eq!(host_decision, Some(hooks_schema::Decision::Ask));
    let (_, req) =
        parse_request(br#"{"id":1,"method":"exchange_appended","params":null}"#).expect("parses");
    assert!(matches!(req, Request::ExchangeAppended { .. }));
}

#[test]
fn params_errors_name_the_problem_without_a_position() {
    let (_, _, msg) = err(r#"{"id":3,"method":"fire","params":{}}"#);
    assert_eq!(msg, "invalid params for `fire`: missing field `envelope`");
    let (_, _, msg) = err(r#"{"id":3,"method":"close_window","params":{"window":"w"}}"#);
    assert_eq!(msg, "invalid params for `close_window`: invalid type: string \"w\", expected u64");
}

#[test]
fn the_envelope_is_checked_in_order_after_the_whole_line_is_read() {
    // Syntax anywhere in the line comes first, even after a field that is wrong.
    let (id, code, msg) = err(r#"{"id":[1],"method":"ping"} x"#);
    assert_eq!((id, code), (None, ErrorCode::ParseError));
    assert!(msg.starts_with("malformed JSON: trailing characters"), "{msg}");
    let (_, code, _) = err(r#"{"id":1,"method":"ping","x":[1,}"#);
    assert_eq!(code, ErrorCode::ParseError);
    let e = parse_request(b"{\"id\":1,\"method\":\"p\xffng\"}").expect_err("not UTF-8");
    assert_eq!(e.code, ErrorCode::ParseError);
    assert!(e.message.starts_with("malformed JSON"), "{}", e.message);
    for not_object in ["1", "\"s\"", "null", "true", "-2.5", "[[{}]]"] {
        let (id, code, msg) = err(not_object);
        assert_eq!((id, code), (None, ErrorCode::InvalidRequest), "{not_object}");
        assert_eq!(msg, "a request must be a JSON object");
    }
    // Then id, method, params, unknown fields.
    let (id, _, msg) = err(r#"{"x":1,"params":2,"method":3,"id":true}"#);
    assert_eq!((id, msg.as_str()), (None, "field `id` must be a string or an integer"));
    let (id, _, msg) = err(r#"{"x":1,"params":2,"method":3,"id":"a"}"#);
    assert_eq!((id, msg.as_str()), (Some(json!("a")), "field `method` must be a string"));
    let (_, _, msg) = err(r#"{"x":1,"params":2,"method":"ping","id":"a"}"#);
    assert_eq!(msg, "field `params` must be an object");
    let (_, code, msg) = err(r#"{"x":1,"y":{},"method":"ping","id":"a"}"#);
    assert_eq!(code, ErrorCode::InvalidRequest);
    assert_eq!(msg, "unknown field `x` (a request has `id`, `method` and `params`)");
    let (_, code, _) = err(r#"{"id":18446744073709551616,"method":"ping"}"#);
    assert_eq!(code, ErrorCode::InvalidRequest);
}

#[test]
fn envelope_fields_may_be_escaped_repeated_or_spaced() {
    // An escaped key is the same key; a repeated one keeps its last value.
    let (id, req) = parse_request(
        br#" { "\u0069d" : 1 , "method":"snapshot", "id": "last", "params" : { "reveal" : true } } "#,
    )
    .expect("parses");
    assert_eq!((id, req), (json!("last"), Request::Snapshot { reveal: true }));
    let (id, req) =
        parse_request(br#"{"id":-4,"method":"p\u0069ng","params":null}"#).expect("parses");
    assert_eq!((id, req), (json!(-4), Request::Ping));
    // Inside the params a repeated field is refused.
    let (_, code, msg) =
        err(r#"{"id":1,"method":"snapshot","params":{"reveal":true,"reveal":false}}"#);
    assert_eq!(code, ErrorCode::InvalidParams);
    assert!(msg.contains("duplicate field `reveal`"), "{msg}");
}

#[test]
fn deep_nesting_is_answered_without_overflowing_the_stack() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let unknown = format!(r#"{{"id":1,"method":"ping","x":{}}}"#, deep(200_000));
    let (_, code, msg) = err(&unknown);
    assert_eq!(code, ErrorCode::InvalidRequest);
    assert!(msg.contains("unknown field `x`"), "{msg}");
    let params = format!(
        r#"{{"id":1,"method":"fire","params":{{"envelope":{{"event":"stop","tool":{{"name":"t","kind":"other","args":{}}}}}}}}}"#,
        deep(200_000)
    );
    let (_, code, msg) = err(&params);
    assert_eq!(code, ErrorCode::InvalidParams);
    assert!(msg.contains("recursion limit"), "{msg}");
    let (_, code, _) = err(&deep(200_000));
    assert_eq!(code, ErrorCode::InvalidRequest);
}

/// Valid requests of every method, in the shapes clients send.
const VALID: [&str; 8] = [
    r#"{"id":7,"method":"fire","params":{"envelope":{"event":"pre_tool_use","cwd":"/tmp","tool":{"name":"Shell","kind":"shell","args":{"command":"ls"}}},"host_decision":"ask"}}"#,
    r#"{"id":"a","method":"hello","params":{"protocol_version":1}}"#,
    r#"{"id":1,"method":"set_posture","params":{"window":2,"posture":"auto_approves"}}"#,
    r#"{"id":2,"method":"can_write_files","params":{"paths":["a","b"],"cwd":"/x"}}"#,
    r#"{"params":{"grace_ms":10},"method":"shutdown","id":3}"#,
    r#"{"id":4,"method":"add_root","params":{"root":"/r","origin":"code_review"}}"#,
    r#"{"id":5,"method":"exchange_appended","params":{"envelope":{"event":"session_start"}}}"#,
    r#"{"id":6,"method":"snapshot","params":{"reveal":false}}"#,
];

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = parse_request(&bytes);
    }

    /// A valid request with bytes replaced, inserted or removed: no panic, syntax errors are
    /// the lines that are not JSON, and an id that is read is the line's id.
    #[test]
    fn mutated_requests_never_panic_and_agree_with_the_json(
        which in 0..VALID.len(),
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), 0u8..3, prop::sample::select(
                b"{}[],:\"\\ 0123456789.eE-+tfnulxaid\xff\x00".to_vec(),
            )),
            1..4,
        ),
    ) {
        let mut line = VALID[which].as_bytes().to_vec();
        for (at, op, byte) in edits {
            let i = at.index(line.len() + 1);
            match op {
                0 if i < line.len() => line[i] = byte,
                1 if i < line.len() => { line.remove(i); }
                _ => line.insert(i, byte),
            }
        }
        let result = parse_request(&line);
        let json = serde_json::from_slice::<Value>(&line);
        match (&result, &json) {
            (Err(e), Ok(_)) => prop_assert_ne!(e.code, ErrorCode::ParseError, "{}", e.message),
            (Err(e), Err(j)) => {
                // Outside the params, values are checked for syntax, not built: a number
                // out of range there is no parse error (see `parse_request`).
                let unbuilt = j.to_string().starts_with("number out of range");
                prop_assert!(e.code == ErrorCode::ParseError || unbuilt, "{}: {j}", e.message);
            }
            (Ok(_), Err(j)) => prop_assert!(false, "parsed a line that is not JSON: {j}"),
            (Ok(_), Ok(_)) => {}
        }
        let read_id = match &result {
            Ok((id, _)) => Some(id),
            Err(e) => e.id.as_ref(),
        };
        if let (Some(id), Ok(v)) = (read_id, &json) {
            prop_assert_eq!(Some(id), v.get("id"));
        }
    }
}

/// An input that has no descriptor to offer: the server reads it on a reader thread.
struct OnAThread(std::io::PipeReader);

impl std::io::Read for OnAThread {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        std::io::Read::read(&mut self.0, buf)
    }
}

impl super::ServeInput for OnAThread {}

/// The reader starts hookless fires itself only once every earlier state change is applied: a
/// fire pipelined in the same write right behind the changes that bind a hook to it must see
/// that hook, and a fire nothing binds is answered with no runs. Read on the runtime's thread
/// (a pipe) and on a reader thread (an input with no descriptor) alike.
#[test]
fn a_pipelined_fire_sees_the_state_changes_sent_before_it() {
    pipelined_fire_case(false);
    pipelined_fire_case(true);
}

fn pipelined_fire_case(on_a_thread: bool) {
    use std::{io::Write, os::unix::fs::PermissionsExt};

    let project = tempfile::tempdir().expect("tempdir");
    let hooks = project.path().join(".cursor/hooks");
    std::fs::create_dir_all(&hooks).expect("mkdir");
    let script = hooks.join("deny.sh");
    std::fs::write(&script, "#!/bin/bash\ncat > /dev/null\necho '{ \"permission\": \"deny\" }'\n")
        .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::write(
        project.path().join(".cursor/hooks.json"),
        r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".cursor/hooks/deny.sh" } ] } }"#,
    )
    .expect("hooks.json");
    let root = hooks_registry::canonicalize(project.path()).expect("canonical").into_path_buf();
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let shell = |cwd: &std::path::Path| {
        json!({
            "event": "pre_tool_use",
            "cwd": cwd,
            "tool": { "name": "Shell", "kind": "shell", "args": { "command": "make" } }
        })
    };

    let (in_r, mut in_w) = std::io::pipe().expect("pipe");
    let (out_r, out_w) = std::io::pipe().expect("pipe");
    let runtime = HookRuntime::new(RuntimeConfig::new(hooks_trust::Surface::CliRun));
    let server = std::thread::spawn(move || {
        if on_a_thread {
            super::run_stdio(runtime, OnAThread(in_r), out_w)
        } else {
            super::run_stdio(runtime, in_r, out_w)
        }
    });
    let mut out = BufReader::new(out_r);
    let batch = [
        json!({ "id": "posture", "method": "set_posture", "params": { "window": 1, "posture": "auto_approves" } }),
        json!({ "id": "root", "method": "add_root", "params": { "root": root } }),
        json!({ "id": "pin", "method": "exchange_appended", "params": {} }),
        json!({ "id": "bound", "method": "fire", "params": { "envelope": shell(&root) } }),
        json!({ "id": "unbound", "method": "fire", "params": { "envelope": shell(elsewhere.path()) } }),
    ];
    let text: String = batch.iter().map(|m| format!("{m}\n")).collect();
    in_w.write_all(text.as_bytes()).expect("write the batch");

    // End of input: the server answers every request it read, then closes stdout.
    drop(in_w);
    let mut text = String::new();
    std::io::Read::read_to_string(&mut out, &mut text).expect("read to the end");
    let answers: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let answer = |id: &str| {
        answers
            .iter()
            .find(|v| v["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("no answer to {id} (on a thread: {on_a_thread}): {text}"))
    };
    let bound = answer("bound");
    assert_eq!(bound["result"]["verdict"]["decision"], "deny", "{bound}");
    assert_eq!(bound["result"]["runs"].as_array().map(Vec::len), Some(1), "{bound}");
    let unbound = answer("unbound");
    assert_eq!(unbound["result"]["runs"], json!([]), "{unbound}");
    server.join().expect("server thread").expect("a clean exit");
}

/// The server prints nothing itself: its own messages (here the end-of-input summary) go to
/// the caller's `ServeLog`, and stdout carries only protocol lines.
#[test]
fn the_servers_own_messages_go_to_the_callers_log() {
    use std::sync::{Arc, Mutex};

    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = {
        let said = Arc::clone(&said);
        super::ServeLog::new(move |m| said.lock().expect("lock").push(m.to_owned()))
    };
    let (out_r, out_w) = std::io::pipe().expect("pipe");
    let runtime = HookRuntime::new(RuntimeConfig::new(hooks_trust::Surface::CliRun));
    let options = super::ServeOptions { log, ..super::ServeOptions::default() };
    let server = std::thread::spawn(move || {
        super::run_stdio_with(runtime, Cursor::new(Vec::new()), out_w, options)
    });
    let mut text = String::new();
    std::io::Read::read_to_string(&mut BufReader::new(out_r), &mut text).expect("read");
    server.join().expect("server thread").expect("a clean exit");
    for line in text.lines() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    let said = said.lock().expect("lock");
    assert!(
        said.iter().any(|m| m.starts_with("hooks serve: end of input;")),
        "the drain summary reaches the log: {said:?}"
    );
}
