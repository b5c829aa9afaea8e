//! Tests for `parse`: golden files for every accepted and rejected shape, size and nesting
//! limits, encodings, and proptest properties (no panics, render round trip).

use std::{fmt::Write as _, path::Path};

use expect_test::expect_file;
use hooks_schema::{HookDefinition, ParseResult};
use proptest::prelude::*;

use crate::{MAX_FILE_BYTES, parse, render, testing::fixtures};

/// A stable text form of a parse result for golden files.
fn show(result: &ParseResult) -> String {
    let mut out = String::new();
    let diagnostics = match result {
        Ok(parsed) => {
            for d in &parsed.definitions {
                show_definition(&mut out, d);
            }
            &parsed.diagnostics
        }
        Err(diags) => {
            out.push_str("REJECTED\n");
            diags
        }
    };
    for d in diagnostics {
        let code = d.code.as_deref().unwrap_or("-");
        let hook = d.hook_id.as_deref().map(|h| format!(" [{h}]")).unwrap_or_default();
        let _ = writeln!(out, "{d} ({code}){hook}");
    }
    out
}

fn show_definition(out: &mut String, d: &HookDefinition) {
    let _ = writeln!(
        out,
        "{} @{}:{} order={} {} <- {}",
        d.id,
        d.line.unwrap_or(0),
        d.column.unwrap_or(0),
        d.order,
        d.event,
        d.native_event
    );
    let _ = writeln!(out, "  matcher: {}", d.matcher.text().unwrap_or("*"));
    let _ = writeln!(out, "  command: {:?}", d.command);
    let _ = writeln!(
        out,
        "  timeout: {:?} on_failure: {} mode: {} enabled: {}",
        d.timeout,
        d.on_failure.as_str(),
        d.mode.as_str(),
        d.enabled
    );
    let _ = writeln!(out, "  native: {}", serde_json::Value::Object(d.native.clone()));
}

#[test]
fn golden_files() {
    for (stem, bytes) in fixtures("parse") {
        let result = parse(&bytes, Path::new(".cursor/hooks.json"));
        expect_file![format!("../../test_data/parse/output/{stem}.txt")].assert_eq(&show(&result));
    }
}

#[test]
fn every_diagnostic_has_file_line_and_column() {
    for (stem, bytes) in fixtures("parse") {
        let diags = match parse(&bytes, Path::new("h.json")) {
            Ok(p) => p.diagnostics,
            Err(d) => d,
        };
        for d in diags {
            assert!(d.source.is_some() && d.line.is_some() && d.column.is_some(), "{stem}: {d:?}");
        }
    }
}

#[test]
fn size_cap_applies_before_parsing() {
    let mut big = br#"{"version": 1, "hooks": {}, "pad": ""#.to_vec();
    big.resize(MAX_FILE_BYTES + 1, b' ');
    let diags = parse(&big, Path::new("h.json")).expect_err("too large");
    assert_eq!(diags[0].code.as_deref(), Some("too_large"));
    // A 10 MB file of garbage is rejected the same way, without reading it as JSON.
    let diags = parse(&vec![b'['; 10 * 1024 * 1024], Path::new("h.json")).expect_err("too large");
    assert_eq!(diags[0].code.as_deref(), Some("too_large"));
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_stack_overflow() {
    for depth in [129, 1000, 500_000] {
        let text = "[".repeat(depth.min(MAX_FILE_BYTES));
        let diags = parse(text.as_bytes(), Path::new("h.json")).expect_err("rejected");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code.as_deref(), Some("syntax"));
        assert!(diags[0].message.contains("recursion limit"), "{}", diags[0].message);
    }
    // Nesting within serde_json's limit of 128 is read, inside an unknown key.
    let nested =
        format!(r#"{{"version":1,"hooks":{{}},"x":{}{}}}"#, "[".repeat(120), "]".repeat(120));
    let parsed = parse(nested.as_bytes(), Path::new("h.json")).expect("parses");
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
}

#[test]
fn render_round_trips_the_fixture_definitions() {
    for (stem, bytes) in fixtures("parse") {
        let Ok(parsed) = parse(&bytes, Path::new("h.json")) else { continue };
        // Ids are positions in each event's array: a skipped entry renumbers the entries after
        // it once rendered, so only files whose events lost nothing can round-trip.
        let loaded: Vec<&str> =
            parsed.definitions.iter().map(|d| d.native_event.as_str()).collect();
        let renumbered = parsed.diagnostics.iter().filter_map(|d| d.hook_id.as_deref()).any(|h| {
            let event = h.split('[').next().unwrap_or("");
            !parsed.definitions.iter().any(|d| d.id.as_str() == h) && loaded.contains(&event)
        });
        if renumbered {
            continue;
        }
        assert_round_trip(&parsed.definitions, &stem);
    }
}

fn without_position(defs: &[HookDefinition]) -> Vec<HookDefinition> {
    defs.iter()
        .cloned()
        .map(|mut d| {
            d.line = None;
            d.column = None;
            d
        })
        .collect()
}

fn assert_round_trip(defs: &[HookDefinition], what: &str) {
    let text = render(defs);
    let again = parse(text.as_bytes(), Path::new("h.json")).expect("rendered file parses");
    assert_eq!(without_position(&again.definitions), without_position(defs), "{what}:\n{text}");
}

const EVENTS: [&str; 21] = [
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "preCompact",
    "stop",
    "afterAgentResponse",
    "afterAgentThought",
    "beforeTabFileRead",
    "afterTabFileEdit",
    "workspaceOpen",
];

fn arb_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        "[ -~]{0,12}".prop_map(serde_json::Value::String),
        prop::sample::select(EVENTS.to_vec()).prop_map(|s| serde_json::Value::String(s.into())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let keys = prop_oneof![
            prop::sample::select(EVENTS.to_vec()).prop_map(str::to_owned),
            prop::sample::select(vec![
                "version",
                "hooks",
                "command",
                "matcher",
                "timeout",
                "failClosed",
                "loop_limit",
                "type",
            ])
            .prop_map(str::to_owned),
            "[a-z]{1,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::Array),
            prop::collection::vec((keys, inner), 0..5)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn arb_entry() -> impl Strategy<Value = serde_json::Value> {
    (
        "[a-z./][a-z./ -]{0,19}",
        prop::option::of(prop_oneof![Just("Shell".to_owned()), "[a-z|]{1,8}", Just(String::new())]),
        prop::option::of(1u32..=600),
        prop::option::of(any::<bool>()),
        prop::option::of(prop::option::of(0u32..20)),
    )
        .prop_map(|(command, matcher, timeout, fail_closed, loop_limit)| {
            let mut m = serde_json::Map::new();
            m.insert("command".into(), command.into());
            if let Some(x) = matcher {
                m.insert("matcher".into(), x.into());
            }
            if let Some(t) = timeout {
                m.insert("timeout".into(), t.into());
            }
            if let Some(f) = fail_closed {
                m.insert("failClosed".into(), f.into());
            }
            if let Some(l) = loop_limit {
                m.insert("loop_limit".into(), l.map_or(serde_json::Value::Null, Into::into));
            }
            serde_json::Value::Object(m)
        })
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = parse(&bytes, Path::new("h.json"));
    }

    #[test]
    fn arbitrary_json_never_panics(v in arb_json(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) };
        let text = text.expect("serializes");
        let diags = match parse(text.as_bytes(), Path::new("h.json")) {
            Ok(p) => p.diagnostics,
            Err(d) => d,
        };
        for d in diags {
            prop_assert!(d.line.is_some() && d.column.is_some());
        }
    }

    #[test]
    fn valid_files_round_trip(
        events in prop::collection::vec(
            (prop::sample::select(EVENTS[..18].to_vec()), prop::collection::vec(arb_entry(), 1..4)),
            0..6,
        )
    ) {
        let mut hooks = serde_json::Map::new();
        for (event, entries) in events {
            hooks.insert(event.to_owned(), serde_json::Value::Array(entries));
        }
        let file = serde_json::json!({ "version": 1, "hooks": hooks });
        let text = serde_json::to_string_pretty(&file).expect("serializes");
        let parsed = parse(text.as_bytes(), Path::new("h.json")).expect("parses");
        prop_assert!(parsed.diagnostics.iter().all(|d| !d.is_error()), "{:?}", parsed.diagnostics);
        let expected: usize = hooks.values().map(|v| v.as_array().map_or(0, Vec::len)).sum();
        prop_assert_eq!(parsed.definitions.len(), expected);
        assert_round_trip(&parsed.definitions, &text);
    }
}
