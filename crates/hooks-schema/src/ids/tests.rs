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

#[test]
fn priority_runs_explicit_then_managed_then_project_then_user() {
    let prios: Vec<u8> = HookSourceKind::ALL.iter().map(|k| k.priority()).collect();
    let mut sorted = prios.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(prios, sorted, "ALL is in strictly increasing priority");
    let owners: Vec<SourceOwner> = HookSourceKind::ALL.iter().map(|k| k.owner()).collect();
    let rank = |o: &SourceOwner| match o {
        SourceOwner::Explicit => 0,
        SourceOwner::Managed => 1,
        SourceOwner::Project => 2,
        SourceOwner::User => 3,
    };
    assert!(owners.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])));
    assert!(HookSourceKind::ProjectCursorFile.is_project());
    assert!(HookSourceKind::RunDelivered.is_explicit());
    for k in HookSourceKind::ALL {
        assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!(k.as_str()));
    }
}
