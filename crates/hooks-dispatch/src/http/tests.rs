//! HTTP hooks against a real server on 127.0.0.1 (`hooks_testing::http_server`).

use std::time::{Duration, Instant};

use hooks_schema::{ExitInfo, HttpHook, Invocation, Program, SpawnFailureKind};
use hooks_testing::http_server::{Answer, Server, refused_url};
use serde_json::json;

use crate::{DispatchConfig, run_invocation};

fn hook(url: &str) -> HttpHook {
    HttpHook { url: url.to_owned(), headers: Vec::new(), allowed_env_vars: Vec::new() }
}

fn inv(hook: HttpHook, body: &[u8], timeout: Duration) -> Invocation {
    Invocation {
        program: Program::Http(hook),
        cwd: None,
        env_remove: Vec::new(),
        env: Vec::new(),
        stdin: body.to_vec(),
        files: Vec::new(),
        timeout,
    }
}

const BOUND: Duration = Duration::from_secs(20);

#[tokio::test]
async fn posts_the_payload_as_json_and_reads_the_answer_as_stdout() {
    let deny = json!({"hookSpecificOutput": {"permissionDecision": "deny"}});
    let server = Server::answering(Answer::json(200, &deny));
    let body = br#"{"hook_event_name":"PreToolUse"}"#;
    let out =
        run_invocation(&inv(hook(&server.url("/pre")), body, BOUND), &DispatchConfig::default())
            .await;
    assert_eq!(out.exit, ExitInfo::Responded(200));
    assert!(out.succeeded());
    assert_eq!(out.stdout.bytes, deny.to_string().into_bytes());
    let req = server.next_request(BOUND).expect("the request");
    assert_eq!(req.method, "POST");
    assert_eq!(req.path, "/pre");
    assert_eq!(req.header("content-type"), Some("application/json"));
    assert_eq!(req.body, body);
}

#[tokio::test]
async fn headers_interpolate_only_allowed_variables() {
    let server = Server::answering(Answer::text(204, ""));
    let mut h = hook(&server.url("/h"));
    h.headers = vec![
        ("Authorization".to_owned(), "Bearer $MY_TOKEN".to_owned()),
        ("X-Braced".to_owned(), "${MY_TOKEN}".to_owned()),
        ("X-Secret".to_owned(), "v=$NOT_ALLOWED".to_owned()),
        ("Content-Length".to_owned(), "999".to_owned()),
    ];
    h.allowed_env_vars = vec!["MY_TOKEN".to_owned()];
    let mut i = inv(h, b"{}", BOUND);
    i.env = vec![
        ("MY_TOKEN".to_owned(), "tok123".to_owned()),
        ("NOT_ALLOWED".to_owned(), "secret".to_owned()),
    ];
    let out = run_invocation(&i, &DispatchConfig::default()).await;
    assert_eq!(out.exit, ExitInfo::Responded(204));
    let req = server.next_request(BOUND).expect("the request");
    assert_eq!(req.header("authorization"), Some("Bearer tok123"));
    assert_eq!(req.header("x-braced"), Some("tok123"));
    assert_eq!(req.header("x-secret"), Some("v="));
    // The hook's own Content-Length is dropped: the body's length is sent.
    assert_eq!(req.header("content-length"), Some("2"));
}

#[tokio::test]
async fn a_non_2xx_answer_is_reported_with_its_status_and_body() {
    let server = Server::answering(Answer::text(500, "boom"));
    let out =
        run_invocation(&inv(hook(&server.url("/")), b"{}", BOUND), &DispatchConfig::default())
            .await;
    assert_eq!(out.exit, ExitInfo::Responded(500));
    assert!(!out.succeeded());
    assert_eq!(out.failure_label().as_deref(), Some("http_status=500"));
}

#[tokio::test]
async fn redirects_are_not_followed() {
    let target = Server::answering(Answer::json(200, &json!({"decision": "block"})));
    let server = Server::answering(Answer::Redirect(target.url("/t")));
    let out =
        run_invocation(&inv(hook(&server.url("/")), b"{}", BOUND), &DispatchConfig::default())
            .await;
    assert_eq!(out.exit, ExitInfo::Responded(302));
    assert!(target.requests().is_empty());
}

#[tokio::test]
async fn a_refused_connection_is_unreachable() {
    let out =
        run_invocation(&inv(hook(&refused_url()), b"{}", BOUND), &DispatchConfig::default()).await;
    let ExitInfo::NotStarted(f) = &out.exit else { panic!("{out:?}") };
    assert_eq!(f.kind, SpawnFailureKind::Unreachable);
    assert!(f.message.to_lowercase().contains("refused"), "{}", f.message);
    assert!(!out.timed_out);
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_within_bound() {
    let server = Server::answering(Answer::Hold);
    let t0 = Instant::now();
    let out = run_invocation(
        &inv(hook(&server.url("/")), b"{}", Duration::from_millis(300)),
        &DispatchConfig::default(),
    )
    .await;
    assert!(out.timed_out);
    assert!(matches!(out.exit, ExitInfo::NotStarted(_)));
    assert!(t0.elapsed() < BOUND, "took {:?}", t0.elapsed());
    assert!(server.next_request(BOUND).is_some(), "the request was sent");
}

#[tokio::test]
async fn a_body_beyond_the_cap_is_cut_and_marked() {
    let big = "x".repeat(10_000);
    let server = Server::answering(Answer::text(200, &big));
    let cfg = DispatchConfig { stdout_cap: 1000, ..DispatchConfig::default() };
    let out = run_invocation(&inv(hook(&server.url("/")), b"{}", BOUND), &cfg).await;
    assert_eq!(out.exit, ExitInfo::Responded(200));
    assert!(out.stdout.truncated);
    assert_eq!(out.stdout.bytes.len(), 1000);
}

#[tokio::test]
async fn errors_never_show_the_url_or_header_values() {
    let mut h = hook("http://user:hunter2@127.0.0.1:1/?key=s3cret");
    h.headers = vec![("Bad Name".to_owned(), "hunter2".to_owned())];
    let out = run_invocation(&inv(h, b"{}", BOUND), &DispatchConfig::default()).await;
    let ExitInfo::NotStarted(f) = &out.exit else { panic!("{out:?}") };
    assert!(f.message.contains("Bad Name"), "{}", f.message);
    let unreachable = run_invocation(
        &inv(hook("http://user:hunter2@127.0.0.1:1/?key=s3cret"), b"{}", BOUND),
        &DispatchConfig::default(),
    )
    .await;
    let ExitInfo::NotStarted(g) = &unreachable.exit else { panic!("{unreachable:?}") };
    for m in [&f.message, &g.message] {
        assert!(!m.contains("hunter2") && !m.contains("s3cret"), "{m}");
    }
}

#[tokio::test]
async fn a_scheme_the_client_does_not_speak_fails_to_start() {
    let out =
        run_invocation(&inv(hook("ftp://127.0.0.1/x"), b"{}", BOUND), &DispatchConfig::default())
            .await;
    assert!(matches!(out.exit, ExitInfo::NotStarted(_)), "{out:?}");
}
