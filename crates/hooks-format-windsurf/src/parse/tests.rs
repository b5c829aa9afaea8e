//! Tests of `hooks.json` parsing: golden files (the documentation's example and the entries
//! the adapter skips), narrowing matchers, and properties over arbitrary input.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use expect_test::expect_file;
use hooks_schema::testing::GoldenParse;
use hooks_schema::{Envelope, HookEvent, ParseResult, ToolCall, ToolKind};
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

fn render(result: &ParseResult) -> String {
    let golden = GoldenParse { all_matcher: "*", policy: false, revealed: false, run_line: None };
    golden.render(result, |d, out| {
        let _ = writeln!(
            out,
            "  timeout={}s cwd={:?} native={}",
            d.timeout.as_secs(),
            d.cwd,
            Value::Object(d.native.clone())
        );
    })
}

#[test]
fn golden_files() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir().join("files"))
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 8);
    for f in files {
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        let bytes = std::fs::read(&f).expect("read");
        let got = render(&parse(&bytes, Path::new("/repo/.windsurf/hooks.json")));
        expect_file![data_dir().join("output/files").join(name.replace(".json", ".txt"))]
            .assert_eq(&got);
    }
}

fn call(kind: ToolKind) -> Envelope {
    let mut env = Envelope::new(HookEvent::PreToolUse);
    env.tool = Some(ToolCall {
        name: "x".into(),
        kind,
        native_kind: None,
        call_id: None,
        mcp_server: None,
        args: json!({}),
    });
    env
}

#[test]
fn each_pre_event_fires_for_its_kind_of_tool_only() {
    let bytes = std::fs::read(data_dir().join("files/all-events.json")).expect("read");
    let parsed = parse(&bytes, Path::new("/repo/.windsurf/hooks.json")).expect("ok");
    let pre: Vec<_> =
        parsed.definitions.iter().filter(|d| d.event == HookEvent::PreToolUse).collect();
    assert_eq!(pre.len(), 4);
    for (kind, native) in [
        (ToolKind::FileRead, "pre_read_code"),
        (ToolKind::FileWrite, "pre_write_code"),
        (ToolKind::Shell, "pre_run_command"),
        (ToolKind::Mcp, "pre_mcp_tool_use"),
    ] {
        let firing: Vec<_> = pre
            .iter()
            .filter(|d| d.matcher.matches(&call(kind)))
            .map(|d| d.native_event.as_str())
            .collect();
        assert_eq!(firing, [native], "{kind:?}");
    }
    assert!(pre.iter().all(|d| !d.matcher.matches(&call(ToolKind::Web))));
    assert_eq!(parsed.definitions.len(), 10, "two gap events skipped");
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Err(d) = parse(&bytes, Path::new("/r/.windsurf/hooks.json")) {
            prop_assert!(!d.is_empty());
        }
    }

    #[test]
    fn arbitrary_entries_parse_with_positions(
        entries in prop::collection::vec(
            prop::collection::btree_map(
                prop::sample::select(vec!["command", "powershell", "show_output", "working_directory", "x"]),
                prop_oneof![Just(json!(null)), Just(json!(true)), Just(json!(3)), "[a-z./ ]{0,8}".prop_map(Value::String)],
                0..4,
            ),
            0..5,
        ),
        event in prop::sample::select(vec!["pre_run_command", "post_read_code", "pre_user_prompt", "nope"]),
    ) {
        let doc = json!({"hooks": {event: entries}});
        let bytes = serde_json::to_vec_pretty(&doc).expect("json");
        let parsed = parse(&bytes, Path::new("/r/.windsurf/hooks.json")).expect("a hooks object is accepted");
        for d in &parsed.definitions {
            prop_assert!(d.line.is_some());
        }
        for d in &parsed.diagnostics {
            prop_assert!(d.line.is_some_and(|l| l >= 1));
        }
    }
}
