//! Tests for the files a pre-tool call writes, as the bridge's guard reads them.

use serde_json::{Value, json};

use crate::{HookEvent, ToolKind, edited_paths_from_args, testing::pre_tool_use as call};

/// An MCP file server's writing tools name their files in their arguments, under the
/// reference server's names and others; the bridge cannot tell what an unknown server does
/// with a path, so only a tool whose own name starts with a reading verb, and holds no
/// writing one, is left out.
#[test]
fn an_mcp_tool_s_files_are_edits_unless_its_name_says_it_reads() {
    let mcp = |name: &str, args: Value| edited_paths_from_args(&call(name, ToolKind::Mcp, args));
    let target = ".claude/settings.json";
    for (name, args) in [
        ("mcp__filesystem__write_file", json!({"path": target, "content": "{}"})),
        ("mcp__filesystem__edit_file", json!({"path": target, "edits": []})),
        ("mcp__fs__create_file", json!({"file_path": target})),
        ("mcp__filesystem__move_file", json!({"source": "notes.md", "destination": target})),
        ("mcp__x__Delete-File", json!({"target": target})),
        ("mcp__x__apply", json!({"edits": [{"path": target}]})),
        ("mcp__x__save_all", json!({"paths": ["a.txt", target]})),
        ("write_file", json!({"path": target})),
        ("mcp__serena__find_and_replace", json!({"path": target})),
        ("mcp__x__get_or_create_file", json!({"path": target})),
        ("mcp__x__write_resource", json!({"uri": target})),
    ] {
        let paths = mcp(name, args).unwrap_or_default();
        assert!(paths.iter().any(|p| p == target), "{name}: {paths:?}");
    }
    assert_eq!(
        mcp("mcp__filesystem__move_file", json!({"source": "a", "destination": "b"})),
        Some(vec!["a".to_owned(), "b".to_owned()])
    );
    for (name, args) in [
        ("mcp__filesystem__read_text_file", json!({"path": target})),
        ("mcp__filesystem__read_multiple_files", json!({"paths": [target]})),
        ("mcp__filesystem__list_directory", json!({"path": ".claude"})),
        ("mcp__filesystem__get_file_info", json!({"path": target})),
        ("mcp__filesystem__search_files", json!({"path": ".", "pattern": "*.json"})),
        ("mcp__filesystem__directory_tree", json!({"path": "."})),
        ("mcp__github__list_issues", json!({"owner": "o", "repo": "r"})),
        ("mcp__x__write_nothing", json!({"text": "no file named"})),
    ] {
        assert_eq!(mcp(name, args), None, "{name}");
    }
    // Only before the call: a post-tool envelope of the same call names nothing.
    let mut post = call("mcp__filesystem__write_file", ToolKind::Mcp, json!({"path": target}));
    post.event = HookEvent::PostToolUse;
    assert_eq!(edited_paths_from_args(&post), None);
}

/// An MCP server names its files as it likes (`filePath`, `target_path`, `outputFile`, a path
/// inside an object, `newName`): every argument whose name names a file or folder, at any
/// depth, is a path the guard checks; the folder a tool works in (`cwd`, `root`) is not, nor
/// the content it writes. Before, only the reference server's names were read, so a camel-case
/// server's `write_file` edited hook files unguarded.
#[test]
fn an_mcp_tool_s_files_are_found_under_any_name_that_names_a_file() {
    let mcp = |args: Value| {
        edited_paths_from_args(&call("mcp__fs__write_file", ToolKind::Mcp, args))
            .unwrap_or_default()
    };
    let target = ".cursor/hooks.json";
    for args in [
        json!({"filePath": target, "content": "{}"}),
        json!({"target_path": target}),
        json!({"file": {"path": target}}),
        json!({"outputFile": target}),
        json!({"dest": target}),
        json!({"targetDir": ".claude/skills/x"}),
        json!({"operations": [{"op": "write", "FilePath": target}]}),
        json!({"newName": target, "path": "a.json"}),
        json!({"files": [{"name": "x", "location": target}]}),
        json!({"file-paths": ["a", target]}),
    ] {
        let paths = mcp(args.clone());
        assert!(paths.iter().any(|p| p == target || p == ".claude/skills/x"), "{args}: {paths:?}");
    }
    // The folder it works in, its content, empty values: not edits.
    assert_eq!(
        mcp(json!({"path": "notes.md", "cwd": ".", "root": "/repo", "content": target})),
        ["notes.md"]
    );
    assert_eq!(
        mcp(json!({"path": "notes.md", "filePath": "  ", "workingDirectory": "."})),
        ["notes.md"]
    );
    // No depth or count to hide a path past.
    let mut deep = json!({"filePath": target});
    for _ in 0..100 {
        deep = json!({"inner": [deep]});
    }
    assert_eq!(mcp(deep), [target]);
    let mut wide: Vec<String> = (0..1000).map(|i| format!("f{i}")).collect();
    wide.push(target.to_owned());
    assert_eq!(mcp(json!({ "filePaths": wide })).len(), 1001);
}
