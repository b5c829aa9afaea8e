//! Golden tests for [`parse`]: every fixture under `test_data/load/` is compared with what
//! Chrys 0.32.0 itself made of it (`test_data/load/oracle.json`, recorded with the
//! differential oracle) and with a full rendering in `test_data/load/output/`.

use std::{fs, path::Path};

use expect_test::expect_file;
use hooks_schema::{HookCommand, ParseResult};
use serde_json::{Value, json};

use crate::{merge::merge_settings, parse};

const DIR: &str = "<dir>";

/// Fixtures where we deliberately differ from Chrys 0.32.0, with what we do instead
/// (`specs/formats/chrys.md`, "Deviations"). For these the summary is compared only after
/// `adjust` rewrote the oracle's summary to our documented behaviour.
fn adjust(name: &str, oracle: &mut Value) {
    let cut_after = |v: &mut Value, key: &str, marker: &str| {
        if let Some(Value::String(s)) = v.get_mut(key)
            && let Some(i) = s.find(marker)
        {
            s.truncate(i + marker.len());
        }
    };
    match name {
        // Chrys guesses an encoding for non-UTF-8 text; we reject it.
        "stray_byte.yaml" => {
            *oracle = json!({"ok": false,
                "error": "Cannot decode hooks config file <dir>/stray_byte.yaml: 'utf-8' codec can't decode byte 0xff in position 16: invalid start byte",
                "warnings": []});
        }
        // saphyr-parser's wording differs from PyYAML's after the prefix.
        "yaml_syntax.yaml" => {
            cut_after(oracle, "error", ".yaml: ");
        }
        _ => {}
    }
}

/// The oracle's `timeout_seconds` as the timeout Chrys enforces for it ([`crate::timeout`]:
/// no ceiling, `.inf` never, NaN at once), in the form [`summarize`] gives ours.
fn enforced_timeouts(oracle: &mut Value) {
    let Some(Value::Array(hooks)) = oracle.get_mut("hooks") else { return };
    for h in hooks {
        let secs = match &h["timeout"] {
            Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
            Value::String(s) if s == "inf" => f64::INFINITY,
            Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
            _ => f64::NAN,
        };
        h["timeout"] = json!(format!("{:?}", crate::timeout(secs)));
    }
}

/// Cuts our error for the fixtures whose error wording is saphyr-parser's.
fn cut_ours(name: &str, ours: &mut Value) {
    if name == "yaml_syntax.yaml"
        && let Some(Value::String(s)) = ours.get_mut("error")
        && let Some(i) = s.find(".yaml: ")
    {
        s.truncate(i + ".yaml: ".len());
    }
}

/// A float as the oracle summary holds it: a number, or Python's repr when not finite.
fn float(f: f64) -> Value {
    if f.is_finite() { json!(f) } else { json!(crate::pyval::float_repr(f)) }
}

/// The oracle's summary shape, computed from our result.
fn summarize(result: &ParseResult) -> Value {
    match result {
        Err(diags) => json!({
            "ok": false,
            "error": diags[0].text(true),
            "warnings": diags[1..].iter().map(|d| d.text(true).to_owned()).collect::<Vec<_>>(),
        }),
        Ok(src) => {
            let s = merge_settings(None, Some(&src.settings));
            let mut overrides: Vec<&String> = src.settings.keys().collect();
            overrides.sort();
            let hooks: Vec<Value> = src
                .definitions
                .iter()
                .map(|d| {
                    let command: Vec<String> = match &d.command {
                        HookCommand::Script { path, args } => {
                            let p = path.display().to_string();
                            let rel = p.strip_prefix(&format!("{DIR}/")).unwrap_or(&p).to_owned();
                            ["script".to_owned(), rel].into_iter().chain(args.iter().cloned()).collect()
                        }
                        HookCommand::Exec { program, args } => {
                            ["command".to_owned(), program.clone()].into_iter().chain(args.iter().cloned()).collect()
                        }
                        HookCommand::Shell { script, .. } => vec!["shell".to_owned(), script.clone()],
                        HookCommand::Http(h) => vec!["http".to_owned(), h.url.clone()],
                    };
                    let env: serde_json::Map<String, Value> =
                        d.env.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
                    json!({
                        "id": d.id.as_str(),
                        "event": d.native_event,
                        "enabled": d.enabled,
                        "description": d.description.clone().unwrap_or_default(),
                        "match": d.matcher.text(),
                        "command": command,
                        "env": env,
                        "cwd": d.cwd.clone().unwrap_or_default(),
                        "mode": d.mode.as_str(),
                        "detach": d.detach,
                        "delivery": match d.delivery { hooks_schema::Delivery::Durable => "durable", hooks_schema::Delivery::BestEffort => "best_effort" },
                        "timeout": format!("{:?}", d.timeout),
                        "on_error": d.on_failure.as_str(),
                    })
                })
                .collect();
            let skipped: Vec<Value> = src
                .diagnostics
                .iter()
                .filter(|d| d.code.as_deref() == Some("regex_invalid"))
                .map(|d| json!([d.hook_id, d.text(true)]))
                .collect();
            let warnings: Vec<String> = src
                .diagnostics
                .iter()
                .filter(|d| !d.is_error())
                .map(|d| d.text(true).to_owned())
                .collect();
            json!({
                "ok": true,
                "settings": [float(s.shutdown_grace_seconds), s.max_parallel_hooks, float(s.outbox_retry_age_seconds), s.outbox_max_retries],
                "settings_overrides": overrides,
                "hooks": hooks,
                "skipped": skipped,
                "warnings": warnings,
            })
        }
    }
}

/// Everything we produce for a file, for the golden output.
fn render(result: &ParseResult) -> String {
    let mut out = String::new();
    match result {
        Err(diags) => {
            out.push_str("rejected\n");
            for d in diags {
                out.push_str(&format!("{d}\n"));
            }
        }
        Ok(src) => {
            out.push_str(&format!("settings: {}\n", Value::Object(src.settings.clone())));
            for d in &src.diagnostics {
                out.push_str(&format!("{d} [{}]\n", d.code.as_deref().unwrap_or("")));
            }
            for d in &src.definitions {
                out.push_str(&format!(
                    "- {} ({} -> {}) line {:?} order {} enabled {}\n  command: {:?}\n  matcher: {}\n  cwd: {:?} env: {:?}\n  {} {} {:?} detach={} timeout={:?} native={}\n",
                    d.id,
                    d.native_event,
                    d.event,
                    d.line,
                    d.order,
                    d.enabled,
                    d.command,
                    d.matcher.text().unwrap_or("*"),
                    d.cwd,
                    d.env,
                    d.mode.as_str(),
                    d.on_failure.as_str(),
                    d.delivery,
                    d.detach,
                    d.timeout,
                    Value::Object(d.native.clone()),
                ));
            }
        }
    }
    out
}

fn fixtures() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/load");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("test_data/load")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "oracle.json")
        .collect();
    names.sort();
    names
}

fn parse_fixture(name: &str) -> ParseResult {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/load");
    let bytes = fs::read(dir.join(name)).expect("fixture");
    parse(&bytes, &Path::new(DIR).join(name))
}

#[test]
fn every_fixture_behaves_as_chrys_0_32_0() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/load");
    let oracle: serde_json::Map<String, Value> =
        serde_json::from_str(&fs::read_to_string(dir.join("oracle.json")).expect("oracle.json"))
            .expect("json");
    let names = fixtures();
    assert!(names.len() >= 130, "fixtures missing: {}", names.len());
    let mut failures = Vec::new();
    for name in &names {
        let mut expected =
            oracle.get(name).cloned().unwrap_or_else(|| panic!("no oracle record for {name}"));
        adjust(name, &mut expected);
        enforced_timeouts(&mut expected);
        let mut ours = summarize(&parse_fixture(name));
        cut_ours(name, &mut ours);
        if ours != expected {
            failures.push(format!("{name}\n  chrys: {expected}\n  ours:  {ours}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}

#[test]
fn every_fixture_matches_its_golden_output() {
    for name in fixtures() {
        let rendered = render(&parse_fixture(&name));
        expect_file![format!("../test_data/load/output/{name}.txt")].assert_eq(&rendered);
    }
}

#[test]
fn smoke() {
    let src = parse(b"hooks:\n  - {id: a, event: before_tool_call, run: {type: shell, shell: x}, match: {tool_name: t}}\n", Path::new("/p/hooks.yaml"))
        .expect("loads");
    assert_eq!(src.definitions.len(), 1);
    assert_eq!(src.definitions[0].event, hooks_schema::HookEvent::PreToolUse);
    assert!(src.diagnostics.is_empty());
}

mod properties {
    //! Arbitrary input never panics, and a rejection is always one error first.

    use std::path::Path;

    use proptest::prelude::*;

    use crate::parse;

    /// Fragments that exercise the YAML 1.1 resolver, anchors, merges and the schema.
    fn yamlish() -> impl Strategy<Value = String> {
        let token = prop::sample::select(vec![
            "hooks:",
            "\n",
            "  ",
            "- ",
            "id: ",
            "event: ",
            "before_tool_call",
            "run: ",
            "{type: shell, shell: x}",
            "&a ",
            "*a",
            "<<: ",
            "[",
            "]",
            "{",
            "}",
            ", ",
            ": ",
            "yes",
            "1:30",
            "010",
            "1e3",
            ".nan",
            "~",
            "2024-01-01",
            "2026-13-01",
            "!!bool ",
            "!!str ",
            "'q'",
            "\"d\\u00e9\"",
            "match: ",
            "args: ",
            "regex: ",
            "'(['",
            "execution: ",
            "mode: blocking",
            "detach: true",
            "settings: ",
            "version: ",
            "#c",
            "---",
            "|\n  x",
            "? ",
            "\t",
            "\u{a0}",
            "\u{0}",
            "é",
        ]);
        prop::collection::vec(token, 0..60).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_text_never_panics(text in ".*", json in any::<bool>()) {
            let path = if json { Path::new("/x/hooks.json") } else { Path::new("/x/hooks.yaml") };
            check(parse(text.as_bytes(), path));
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256), json in any::<bool>()) {
            let path = if json { Path::new("/x/hooks.json") } else { Path::new("/x/hooks.yml") };
            check(parse(&bytes, path));
        }

        #[test]
        fn yaml_like_text_never_panics(text in yamlish()) {
            check(parse(text.as_bytes(), Path::new("/x/hooks.yaml")));
        }
    }

    fn check(r: hooks_schema::ParseResult) {
        if let Err(d) = r {
            assert!(!d.is_empty() && d[0].is_error());
            assert!(d[1..].iter().all(|w| !w.is_error()));
        }
    }
}
