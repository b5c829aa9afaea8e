//! Tests of the exporter's configuration and, with the `otel` feature, of the exporter
//! against an OTLP/HTTP receiver on 127.0.0.1 that decodes the protobuf it receives.

use std::ffi::OsStr;

use hooks_sources::EnvVars;

use super::*;

fn env(pairs: &[(&str, &str)]) -> EnvVars {
    EnvVars::from_pairs(pairs.iter().map(|(k, v)| (*k, OsStr::new(*v))))
}

#[test]
fn nothing_is_exported_without_an_endpoint() {
    let e = env(&[(EnvVars::OTEL_EXPORTER_OTLP_HEADERS, "a=b"), (EnvVars::OTEL_SERVICE_NAME, "x")]);
    assert_eq!(OtelConfig::resolve(None, &e).unwrap(), None);
}

#[test]
fn the_flag_wins_over_the_variables_and_signal_urls_win_over_the_base() {
    let e = env(&[
        (EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT, "http://collector:4318/"),
        (EnvVars::OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, "https://logs.example/ingest"),
        (EnvVars::OTEL_EXPORTER_OTLP_HEADERS, "authorization=Bearer%20tok, x-team = hooks ,"),
        (EnvVars::OTEL_SERVICE_NAME, "agent-fleet"),
    ]);
    let c = OtelConfig::resolve(None, &e).unwrap().expect("configured");
    assert_eq!(c.traces_endpoint.as_deref(), Some("http://collector:4318/v1/traces"));
    assert_eq!(c.logs_endpoint.as_deref(), Some("https://logs.example/ingest"));
    assert_eq!(c.headers.get("authorization").map(String::as_str), Some("Bearer tok"));
    assert_eq!(c.headers.get("x-team").map(String::as_str), Some("hooks"));
    assert_eq!(c.service_name, "agent-fleet");
    assert_eq!(c.timeout, DEFAULT_TIMEOUT);

    let c = OtelConfig::resolve(Some("http://127.0.0.1:9"), &e).unwrap().expect("configured");
    assert_eq!(c.traces_endpoint.as_deref(), Some("http://127.0.0.1:9/v1/traces"));
    assert_eq!(c.logs_endpoint.as_deref(), Some("http://127.0.0.1:9/v1/logs"));
    assert_eq!(c.service_name, "agent-fleet", "the variables still name the service");

    let only_traces = env(&[(EnvVars::OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "http://t:1/x")]);
    let c = OtelConfig::resolve(None, &only_traces).unwrap().expect("configured");
    assert_eq!(c.traces_endpoint.as_deref(), Some("http://t:1/x"));
    assert_eq!(c.logs_endpoint, None);
    assert_eq!(c.service_name, DEFAULT_SERVICE_NAME);
}

#[test]
fn bad_endpoints_and_headers_are_typed_errors_that_never_echo_a_header() {
    for url in ["collector:4318", "ftp://x", "http://", "http:///v1", "http://a b"] {
        let err = OtelConfig::resolve(Some(url), &env(&[])).unwrap_err();
        assert!(matches!(err, OtelError::Endpoint { from: "--otlp-endpoint", .. }), "{url}: {err}");
    }
    let e = env(&[(EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT, "localhost")]);
    let err = OtelConfig::resolve(None, &e).unwrap_err();
    assert!(
        matches!(err, OtelError::Endpoint { from: EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT, .. }),
        "{err}"
    );
    let e = env(&[
        (EnvVars::OTEL_EXPORTER_OTLP_ENDPOINT, "http://c:4318"),
        (EnvVars::OTEL_EXPORTER_OTLP_HEADERS, "a=b,tok3n-without-equals"),
    ]);
    let err = OtelConfig::resolve(None, &e).unwrap_err();
    assert!(matches!(err, OtelError::Header { position: 2, .. }), "{err}");
    assert!(!err.to_string().contains("tok3n"), "{err}");
}

#[cfg(feature = "otel")]
mod export {
    //! The exporter end to end: a runtime fires a deny with the exporter's layer installed,
    //! and a receiver on 127.0.0.1 decodes what arrives.

    use std::{
        collections::BTreeMap,
        io::{BufRead, BufReader, Read, Write},
        net::{SocketAddr, TcpListener, TcpStream},
        sync::{
            Arc, Mutex,
            atomic::{AtomicBool, Ordering},
        },
        thread::JoinHandle,
        time::Duration,
    };

    use hooks_schema::{Decision, Envelope, HookEvent, ToolCall, ToolKind};
    use hooks_trust::{CommandExecutionPosture, Surface};
    use hooks_watcher::RootOrigin;
    use opentelemetry_proto::tonic::{
        collector::{logs::v1::ExportLogsServiceRequest, trace::v1::ExportTraceServiceRequest},
        common::v1::{AnyValue, KeyValue, any_value::Value},
        trace::v1::Span,
    };
    use prost::Message;
    use tracing_subscriber::prelude::*;

    use crate::{
        otel::{OtelConfig, OtelExporter},
        runtime::{HookRuntime, RuntimeConfig, RuntimeEvent, WindowId},
    };

    /// One request the receiver got.
    struct Request {
        path: String,
        headers: BTreeMap<String, String>,
        body: Vec<u8>,
    }

    /// A minimal OTLP/HTTP receiver: HTTP/1.1 with keep-alive, `Content-Length` bodies, an
    /// empty 200 answer (an empty protobuf response message) to each request.
    struct Receiver {
        addr: SocketAddr,
        received: Arc<Mutex<Vec<Request>>>,
        stop: Arc<AtomicBool>,
        thread: JoinHandle<()>,
    }

    impl Receiver {
        fn start() -> Receiver {
            let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
            let addr = listener.local_addr().expect("local address");
            let received = Arc::new(Mutex::new(Vec::new()));
            let stop = Arc::new(AtomicBool::new(false));
            let thread = {
                let (received, stop) = (Arc::clone(&received), Arc::clone(&stop));
                std::thread::spawn(move || {
                    for stream in listener.incoming() {
                        if stop.load(Ordering::SeqCst) {
                            return;
                        }
                        let Ok(stream) = stream else { continue };
                        let received = Arc::clone(&received);
                        std::thread::spawn(move || serve(stream, &received));
                    }
                })
            };
            Receiver { addr, received, stop, thread }
        }

        fn url(&self) -> String {
            format!("http://{}", self.addr)
        }

        /// Stops accepting (a connection of its own wakes the accept loop) and returns what
        /// was received.
        fn finish(self) -> Vec<Request> {
            self.stop.store(true, Ordering::SeqCst);
            let _ = TcpStream::connect(self.addr);
            self.thread.join().expect("the accept loop ends");
            std::mem::take(&mut *self.received.lock().unwrap())
        }
    }

    /// Serves one connection until the client closes it (or stays silent for 10 s).
    fn serve(stream: TcpStream, received: &Mutex<Vec<Request>>) {
        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
        let Ok(mut writer) = stream.try_clone() else { return };
        let mut reader = BufReader::new(stream);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let path = line.split_whitespace().nth(1).unwrap_or_default().to_owned();
            let mut headers = BTreeMap::new();
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 {
                    return;
                }
                let h = h.trim_end();
                if h.is_empty() {
                    break;
                }
                if let Some((k, v)) = h.split_once(':') {
                    headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
                }
            }
            let len: usize =
                headers.get("content-length").and_then(|l| l.parse().ok()).unwrap_or(0);
            let mut body = vec![0; len];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            received.lock().unwrap().push(Request { path, headers, body });
            let answer = "HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n";
            if writer.write_all(answer.as_bytes()).is_err() {
                return;
            }
        }
    }

    fn text(v: &AnyValue) -> String {
        match &v.value {
            Some(Value::StringValue(s)) => s.clone(),
            Some(Value::IntValue(i)) => i.to_string(),
            Some(Value::DoubleValue(d)) => d.to_string(),
            Some(Value::BoolValue(b)) => b.to_string(),
            other => format!("{other:?}"),
        }
    }

    fn attrs(kvs: &[KeyValue]) -> BTreeMap<String, String> {
        kvs.iter()
            .map(|kv| (kv.key.clone(), kv.value.as_ref().map(text).unwrap_or_default()))
            .collect()
    }

    const DENY_SH: &str = "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo '{\"permission\":\"deny\",\"user_message\":\"no rm -rf here s3cr3t-out\"}' ;; *) echo '{}' ;; esac\n";

    #[test]
    fn a_deny_reaches_an_otlp_receiver_as_spans_and_a_decision_record_without_secrets() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".cursor")).unwrap();
        let script = root.join(".cursor/deny.sh");
        std::fs::write(&script, DENY_SH).unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        std::fs::write(
            root.join(".cursor/hooks.json"),
            r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "TOKEN=s3cr3t-cmd ./.cursor/deny.sh"}]}}"#,
        )
        .unwrap();

        let receiver = Receiver::start();
        let mut config = OtelConfig::from_base_url(&receiver.url()).unwrap();
        config.service_name = "hooks-under-test".into();
        config.headers.insert("authorization".into(), "Bearer t".into());
        let exporter = OtelExporter::start(&config).expect("the exporter starts");
        let subscriber = tracing_subscriber::registry().with(exporter.layer());
        let report = tracing::subscriber::with_default(subscriber, || {
            let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            tokio.block_on(async {
                let mut rt = HookRuntime::new(RuntimeConfig::new(Surface::CliRun));
                rt.handle(RuntimeEvent::WindowPosture {
                    window: WindowId(1),
                    posture: CommandExecutionPosture::AutoApproves,
                })
                .unwrap();
                rt.handle(RuntimeEvent::RepositoryDetected {
                    root: root.to_path_buf(),
                    origin: RootOrigin::TerminalNavigation,
                })
                .unwrap();
                rt.exchange_appended(Envelope::new(HookEvent::SessionStart)).await.unwrap();
                let mut call = Envelope::new(HookEvent::PreToolUse);
                call.cwd = Some(root.to_path_buf());
                call.session_id = Some("conv-9".into());
                call.tool = Some(ToolCall {
                    name: "Shell".into(),
                    kind: ToolKind::Shell,
                    native_kind: None,
                    call_id: Some("c1".into()),
                    mcp_server: None,
                    args: serde_json::json!({ "command": "rm -rf s3cr3t-arg" }),
                });
                rt.fire(&call).await
            })
        });
        assert_eq!(report.verdict.decision, Some(Decision::Deny), "{report:#?}");
        // Shutting down flushes the batches; it is bounded by the exporter's timeout.
        exporter.shutdown().expect("the last batches are delivered");
        let requests = receiver.finish();

        for r in &requests {
            assert_eq!(
                r.headers.get("content-type").map(String::as_str),
                Some("application/x-protobuf")
            );
            assert_eq!(r.headers.get("authorization").map(String::as_str), Some("Bearer t"));
            let leak = r.body.windows(6).any(|w| w == b"s3cr3t");
            assert!(
                !leak,
                "a secret reached the collector in {}: {:?}",
                r.path,
                String::from_utf8_lossy(&r.body)
            );
        }
        let traces: Vec<ExportTraceServiceRequest> = requests
            .iter()
            .filter(|r| r.path == "/v1/traces")
            .map(|r| ExportTraceServiceRequest::decode(r.body.as_slice()).expect("protobuf traces"))
            .collect();
        let logs: Vec<ExportLogsServiceRequest> = requests
            .iter()
            .filter(|r| r.path == "/v1/logs")
            .map(|r| ExportLogsServiceRequest::decode(r.body.as_slice()).expect("protobuf logs"))
            .collect();

        let resources: Vec<BTreeMap<String, String>> = traces
            .iter()
            .flat_map(|t| &t.resource_spans)
            .filter_map(|r| r.resource.as_ref().map(|res| attrs(&res.attributes)))
            .collect();
        assert!(!resources.is_empty(), "spans were exported");
        for r in &resources {
            assert_eq!(r.get("service.name").map(String::as_str), Some("hooks-under-test"));
        }
        let spans: Vec<&Span> = traces
            .iter()
            .flat_map(|t| &t.resource_spans)
            .flat_map(|r| &r.scope_spans)
            .flat_map(|s| &s.spans)
            .collect();
        let fire = spans
            .iter()
            .find(|s| {
                s.name == "hooks.fire"
                    && attrs(&s.attributes).get("event").map(String::as_str) == Some("pre_tool_use")
            })
            .expect("the pre_tool_use fire span");
        let fire_attrs = attrs(&fire.attributes);
        assert_eq!(fire_attrs.get("decision").map(String::as_str), Some("deny"));
        assert_eq!(fire_attrs.get("session").map(String::as_str), Some("conv-9"));
        assert_eq!(
            fire_attrs.get("decided_by").map(String::as_str),
            Some("beforeShellExecution[0]")
        );
        let run = spans
            .iter()
            .find(|s| s.name == "hooks.run" && s.parent_span_id == fire.span_id)
            .expect("the hook's run span, a child of the fire span");
        assert_eq!(run.trace_id, fire.trace_id);
        let run_attrs = attrs(&run.attributes);
        let file = hooks_registry::canonicalize(&root.join(".cursor/hooks.json")).unwrap();
        assert_eq!(run_attrs.get("hook_id").map(String::as_str), Some("beforeShellExecution[0]"));
        assert_eq!(run_attrs.get("file").map(String::as_str), Some(file.to_string().as_str()));
        assert_eq!(run_attrs.get("line").map(String::as_str), Some("1"));
        assert_eq!(run_attrs.get("decision").map(String::as_str), Some("deny"));
        assert_eq!(run_attrs.get("source_kind").map(String::as_str), Some("project_cursor_file"));
        let ms: f64 = run_attrs.get("duration_ms").expect("a duration").parse().expect("a number");
        assert!(ms > 0.0);
        assert!(run.end_time_unix_nano >= run.start_time_unix_nano);
        assert!(run.events.iter().any(|e| e.name == "hook denied"), "{:?}", run.events);

        let records: Vec<BTreeMap<String, String>> = logs
            .iter()
            .flat_map(|l| &l.resource_logs)
            .flat_map(|r| &r.scope_logs)
            .flat_map(|s| &s.log_records)
            .filter(|l| l.body.as_ref().map(text).as_deref() == Some("decision record"))
            .map(|l| attrs(&l.attributes))
            .collect();
        let deny = records
            .iter()
            .find(|r| r.get("event").map(String::as_str) == Some("pre_tool_use"))
            .unwrap_or_else(|| panic!("the fire's decision record in {records:#?}"));
        assert_eq!(deny.get("kind").map(String::as_str), Some("fire"));
        assert_eq!(deny.get("decision").map(String::as_str), Some("deny"));
        assert_eq!(deny.get("decided_by").map(String::as_str), Some("beforeShellExecution[0]"));
        assert_eq!(deny.get("file").map(String::as_str), Some(file.to_string().as_str()));
        assert_eq!(deny.get("line").map(String::as_str), Some("1"));
        let record: serde_json::Value =
            serde_json::from_str(deny.get("record").expect("the record")).expect("JSON");
        assert_eq!(record["kind"], "fire");
        assert_eq!(record["hooks"][0]["decision"], "deny");
        assert!(record.get("reason").is_none(), "{record}");
    }
}
