//! Tests of the identifier invariants.

use super::*;

#[test]
fn hook_ids_are_validated_on_construction_and_deserialization() {
    assert!(HookId::new("protect-etc").is_ok());
    assert!(HookId::new(" spaced id ").is_ok());
    assert!(HookId::new("").is_err());
    assert!(HookId::new("a\tb").is_err());
    assert!(HookId::new(&"x".repeat(512)).is_ok());
    assert!(HookId::new(&"x".repeat(513)).is_err());
    assert!(serde_json::from_str::<HookId>("\"\"").is_err());
    let id: HookId = serde_json::from_str("\"ok\"").unwrap();
    assert_eq!(serde_json::to_string(&id).unwrap(), "\"ok\"");
}

#[test]
fn abs_paths_refuse_relative_and_unnormalized_paths() {
    assert!(AbsPathBuf::new("/a/b".into()).is_ok());
    assert!(matches!(AbsPathBuf::new("a/b".into()), Err(SchemaError::RelativePath { .. })));
    assert!(matches!(AbsPathBuf::new("/a/../b".into()), Err(SchemaError::UnnormalizedPath { .. })));
    assert!(AbsPathBuf::new("/a/./b".into()).is_ok(), "std drops interior `.` components");
    assert!(serde_json::from_str::<AbsPathBuf>("\"rel\"").is_err());
    let p = AbsPathBuf::new("/a".into()).unwrap();
    assert_eq!(p.join(Path::new("b/c")).unwrap().as_path(), Path::new("/a/b/c"));
    assert!(p.join(Path::new("../c")).is_err());
    assert_eq!(p.parent().unwrap().as_path(), Path::new("/"));
}

const FMT: FormatId = FormatId::new("fmt");
const FILE: FileRole = FileRole::new(FMT, "fmt_file", 100);
const LOCAL: FileRole = FileRole::new(FMT, "fmt_local", 110);

#[test]
fn priority_runs_explicit_then_managed_then_project_then_user() {
    let kinds = [
        HookSourceKind::FACTORY_AGENT,
        HookSourceKind::FACTORY_WIDE,
        HookSourceKind::RUN_DELIVERED.in_format(FMT),
        HookSourceKind::file(FileScope::Managed, FILE),
        HookSourceKind::file(FileScope::Project, FILE),
        HookSourceKind::file(FileScope::Project, LOCAL),
        HookSourceKind::file(FileScope::User, FILE),
    ];
    let prios: Vec<u32> = kinds.iter().map(|k| k.priority()).collect();
    let mut sorted = prios.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(prios, sorted, "strictly increasing priority");
    let mut by_ord = kinds;
    by_ord.reverse();
    by_ord.sort();
    assert_eq!(by_ord, kinds, "ordering follows precedence");
    let owners: Vec<SourceOwner> = kinds.iter().map(|k| k.owner()).collect();
    assert!(owners.windows(2).all(|w| w[0] <= w[1]));
    assert!(HookSourceKind::file(FileScope::Project, FILE).is_project());
    assert!(HookSourceKind::RUN_DELIVERED.is_explicit());
}

#[test]
fn kind_names_join_the_scope_and_the_role() {
    let names: Vec<String> = [
        HookSourceKind::FACTORY_AGENT,
        HookSourceKind::FACTORY_WIDE,
        HookSourceKind::RUN_DELIVERED.in_format(FMT),
        HookSourceKind::file(FileScope::Managed, FILE),
        HookSourceKind::file(FileScope::Project, LOCAL),
        HookSourceKind::file(FileScope::User, FILE),
    ]
    .iter()
    .map(|k| k.name())
    .collect();
    assert_eq!(
        names,
        [
            "factory_agent",
            "factory_wide",
            "run_delivered",
            "managed_fmt_file",
            "project_fmt_local",
            "user_fmt_file"
        ]
    );
    let k = HookSourceKind::file(FileScope::Project, FILE);
    assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!("project_fmt_file"));
    assert_eq!(k.format(), Some(FMT));
    assert_eq!(HookSourceKind::FACTORY_AGENT.format(), None);
    assert_eq!(k.in_format(FormatId::new("other")), k, "a file kind keeps its role's format");
}

#[test]
fn a_source_key_names_the_source_it_was_made_from() {
    let id = HookSourceId::new(HookSourceKind::file(FileScope::Project, FILE), abs("/r/f"));
    let key: SourceKey = serde_json::from_value(serde_json::to_value(&id).unwrap()).unwrap();
    assert_eq!(key, id.key());
    assert!(key.names(&id));
    let other = HookSourceId::new(HookSourceKind::file(FileScope::User, FILE), abs("/r/f"));
    assert!(!key.names(&other));
}

fn abs(p: &str) -> AbsPathBuf {
    AbsPathBuf::new(p.into()).unwrap()
}

proptest::proptest! {
    /// The byte scan refuses exactly the absolute paths whose components hold `.` or `..`.
    #[test]
    fn the_dot_scan_agrees_with_the_components(s in "/[/.ab]{0,14}") {
        let path = std::path::Path::new(&s);
        let by_components = path
            .components()
            .any(|c| matches!(c, Component::CurDir | Component::ParentDir));
        proptest::prop_assert_eq!(has_dot_component(path), by_components);
        proptest::prop_assert_eq!(AbsPathBuf::new(path.to_path_buf()).is_ok(), !by_components);
    }
}
