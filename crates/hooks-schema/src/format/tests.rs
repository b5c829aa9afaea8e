//! Tests of the descriptor's declarations: name patterns, claims and the explicit-folder
//! candidates a format set derives from them.

use std::{path::Path, sync::Arc};

use super::*;
use crate::{
    EncodeContext, EncodeError, Envelope, FileRole, FileScope, HookDefinition, HookVerdict,
    Invocation, RawOutcome,
};

#[test]
fn a_file_pattern_knows_its_folders_names_and_matches() {
    let file = FilePattern::File(".cursor/hooks.json");
    assert_eq!(file.dir(), ".cursor");
    assert_eq!(file.folders(), [".cursor"]);
    assert_eq!(file.file_names(), ["hooks.json"]);
    assert!(file.matches(".cursor/hooks.json"));
    assert!(!file.matches(".cursor/other.json"));

    let first = FilePattern::FirstOf { dir: ".chrys/hooks", names: &["hooks.yaml", "hooks.json"] };
    assert_eq!(first.folders(), [".chrys", ".chrys/hooks"]);
    assert!(first.matches(".chrys/hooks/hooks.json"), "a shadowed name still counts");
    assert!(!first.matches(".chrys/hooks.json"));

    let each = FilePattern::EachIn { dir: ".github/hooks", suffix: ".json", recursive: false };
    assert_eq!(each.folders(), [".github", ".github/hooks"]);
    assert!(each.file_names().is_empty());
    assert!(each.matches(".github/hooks/a.json"));
    assert!(!each.matches(".github/hooks/.hidden.json"));
    assert!(!each.matches(".github/hooks/a.yaml"));
    assert!(!each.matches(".github/hooks/sub/a.json"));
    assert!(!each.is_recursive() && !each.holds_subfolder(".github/hooks/sub"));

    // Recursive: the subfolders' files too, down to MAX_NESTING folders, none hidden.
    let tree = FilePattern::EachIn { dir: ".github/hooks", suffix: ".json", recursive: true };
    assert!(tree.is_recursive());
    assert_eq!(tree.folders(), [".github", ".github/hooks"]);
    assert!(tree.matches(".github/hooks/a.json"));
    assert!(tree.matches(".github/hooks/sub/a.json"));
    assert!(tree.matches(".github/hooks/sub/deeper/a.json"));
    assert!(!tree.matches(".github/hooks/sub/.a.json"));
    assert!(!tree.matches(".github/hooks/.git/a.json"), "hidden folders are skipped");
    assert!(!tree.matches(".github/hooksx/a.json"));
    assert!(!tree.matches(".github/a.json"));
    assert!(!tree.matches(".github/hooks/sub/a.yaml"));
    let deep = |n: usize| format!(".github/hooks/{}", vec!["d"; n].join("/"));
    assert!(tree.matches(&format!("{}/a.json", deep(FilePattern::MAX_NESTING))));
    assert!(!tree.matches(&format!("{}/a.json", deep(FilePattern::MAX_NESTING + 1))));
    assert!(tree.holds_subfolder(".github/hooks/sub"));
    assert!(tree.holds_subfolder(&deep(FilePattern::MAX_NESTING)));
    assert!(!tree.holds_subfolder(&deep(FilePattern::MAX_NESTING + 1)));
    assert!(!tree.holds_subfolder(".github/hooks"), "the folder itself is one of folders()");
    assert!(!tree.holds_subfolder(".github/hooks/.cache"));
    assert!(!tree.holds_subfolder(".github/other"));
    let at_base = FilePattern::EachIn { dir: "", suffix: ".json", recursive: true };
    assert!(at_base.matches("a.json") && at_base.matches("x/a.json"));
    assert!(at_base.holds_subfolder("x") && !at_base.holds_subfolder(""));

    let at_base = FilePattern::File("hooks.json");
    assert_eq!(at_base.dir(), "");
    assert!(at_base.folders().is_empty());
    assert!(at_base.matches("hooks.json"));
}

#[test]
fn a_managed_dir_picks_this_platform() {
    let d = ManagedDir::per_platform("/etc/x", "/Library/X", r"C:\X");
    let want = if cfg!(target_os = "macos") {
        "/Library/X"
    } else if cfg!(windows) {
        r"C:\X"
    } else {
        "/etc/x"
    };
    assert_eq!(d.this_platform(), want);
}

/// A descriptor made of declarations only, for the set's derivations.
#[derive(Debug)]
struct Fake {
    id: FormatId,
    locations: Vec<FileLocation>,
    claims: fn(&Path) -> Claim,
}

#[derive(Debug)]
struct NoCodec;

impl HookCodec for NoCodec {
    fn wire_format(&self) -> FormatId {
        FormatId::new("none")
    }
    fn encode(
        &self,
        _: &HookDefinition,
        _: &Envelope,
        _: &EncodeContext<'_>,
    ) -> Result<Invocation, EncodeError> {
        Err(EncodeError::Refused("declarations only".to_owned()))
    }
    fn decode(&self, _: &HookDefinition, _: &Envelope, _: &RawOutcome) -> HookVerdict {
        HookVerdict::no_opinion()
    }
}

impl FormatDescriptor for Fake {
    fn id(&self) -> FormatId {
        self.id
    }
    fn agent(&self) -> &'static str {
        "Fake"
    }
    fn dirs(&self) -> FormatDirs {
        FormatDirs::default()
    }
    fn locations(&self) -> &[FileLocation] {
        &self.locations
    }
    fn claim(&self, path: &Path) -> Claim {
        (self.claims)(path)
    }
    fn parse(&self, _: &[u8], _: &ParseContext<'_>) -> crate::ParseResult {
        Ok(crate::ParsedSource::default())
    }
    fn events(&self) -> &[NativeEvent] {
        &[
            NativeEvent { name: "beforeTool", canonical: Some(HookEvent::PreToolUse) },
            NativeEvent { name: "beforeShell", canonical: Some(HookEvent::PreToolUse) },
            NativeEvent { name: "tabRead", canonical: None },
        ]
    }
    fn codec(&self) -> Arc<dyn HookCodec> {
        Arc::new(NoCodec)
    }
}

const FLAT: FormatId = FormatId::new("flat");
const LISTED: FormatId = FormatId::new("listed");

/// Two formats shaped like Cursor (one `hooks.json`, the fallback) and Chrys (three names in
/// a `hooks` folder, YAML by name).
fn two() -> FormatSet {
    let flat = Fake {
        id: FLAT,
        locations: vec![FileLocation::hooks(
            FileRole::new(FLAT, "flat_file", 100),
            FileScope::Project,
            FilePattern::File(".flat/hooks.json"),
        )],
        claims: |_| Claim::Fallback,
    };
    let listed = Fake {
        id: LISTED,
        locations: vec![FileLocation::hooks(
            FileRole::new(LISTED, "listed_file", 200),
            FileScope::Project,
            FilePattern::FirstOf {
                dir: ".listed/hooks",
                names: &["hooks.yaml", "hooks.yml", "hooks.json"],
            },
        )],
        claims: |p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if name.ends_with(".yaml") || name.ends_with(".yml") {
                Claim::Name
            } else if p.parent().and_then(Path::file_name).is_some_and(|n| n == "hooks") {
                Claim::Folder
            } else {
                Claim::No
            }
        },
    };
    FormatSet::new(vec![Arc::new(flat), Arc::new(listed)])
}

#[test]
fn the_strongest_claim_wins_and_ties_go_to_the_first_registered() {
    let set = two();
    let of = |p: &str| set.format_for_file(Path::new(p)).map(|f| f.id());
    assert_eq!(of("/x/hooks.yaml"), Some(LISTED));
    assert_eq!(of("/x/hooks/hooks.json"), Some(LISTED), "the folder beats the fallback");
    assert_eq!(of("/x/.flat/hooks.json"), Some(FLAT));
    assert_eq!(of("/x/anything"), Some(FLAT));
    assert!(FormatSet::default().format_for_file(Path::new("/x/hooks.json")).is_none());
}

#[test]
fn explicit_folder_candidates_follow_the_format_that_claims_each_name() {
    let set = two();
    assert_eq!(
        set.explicit_candidates(Path::new("/run/delivered")),
        [("hooks.json", FLAT), ("hooks.yaml", LISTED), ("hooks.yml", LISTED)],
        "outside a `hooks` folder the fallback format reads hooks.json, first"
    );
    assert_eq!(
        set.explicit_candidates(Path::new("/run/hooks")),
        [("hooks.yaml", LISTED), ("hooks.yml", LISTED), ("hooks.json", LISTED)],
        "in a `hooks` folder the listed format reads all three, in its own order"
    );
}

#[test]
fn native_events_map_both_ways_and_gaps_map_to_nothing() {
    let set = two();
    let flat = set.get(FLAT).unwrap();
    assert_eq!(flat.canonical_event("beforeShell"), Some(HookEvent::PreToolUse));
    assert_eq!(flat.canonical_event("tabRead"), None);
    assert_eq!(flat.native_events(HookEvent::PreToolUse), ["beforeTool", "beforeShell"]);
    assert_eq!(set.canonical_event("beforeTool"), Some(HookEvent::PreToolUse));
    assert_eq!(set.named("listed").unwrap().id(), LISTED);
    let err = set.named("nope").unwrap_err();
    assert_eq!(err.to_string(), "unknown format `nope`; registered formats: flat, listed");
}

#[test]
fn explicit_names_default_to_the_project_file_names() {
    let set = two();
    assert_eq!(
        set.get(LISTED).unwrap().explicit_names(),
        ["hooks.yaml", "hooks.yml", "hooks.json"]
    );
}

#[test]
fn a_path_claim_beats_a_name_claim() {
    assert!(Claim::Path > Claim::Name && Claim::Name > Claim::Folder);
    assert!(Claim::Folder > Claim::Fallback && Claim::Fallback > Claim::No);
}

/// A format of `roles` (each in the project scope), for the set's checks.
fn with_roles(id: FormatId, roles: &[FileRole]) -> Arc<dyn FormatDescriptor> {
    let locations = roles
        .iter()
        .map(|&r| FileLocation::hooks(r, FileScope::Project, FilePattern::File(".x/hooks.json")))
        .collect();
    Arc::new(Fake { id, locations, claims: |_| Claim::No })
}

#[test]
fn a_format_set_refuses_shared_ranks_role_names_and_ids_with_a_typed_error() {
    const A: FormatId = FormatId::new("a");
    const B: FormatId = FormatId::new("b");
    let a1 = FileRole::new(A, "a_file", 400);
    let a2 = FileRole::new(A, "a_config", 410);
    // One role listed at several locations is one role; distinct ranks across formats pass.
    let ok = FormatSet::try_new(vec![
        with_roles(A, &[a1, a2, a1]),
        with_roles(B, &[FileRole::new(B, "b_file", 450)]),
    ]);
    assert_eq!(ok.map(|s| s.len()), Ok(2));
    // The collision the workspace once had: two formats' roles both at 400.
    let clash = FormatSet::try_new(vec![
        with_roles(A, &[a1, a2]),
        with_roles(B, &[FileRole::new(B, "b_file", 400)]),
    ]);
    assert_eq!(
        clash.err(),
        Some(FormatSetError::RankCollision { rank: 400, first: "a_file", second: "b_file" })
    );
    // Within one format too.
    let inner = FormatSet::try_new(vec![with_roles(A, &[a1, FileRole::new(A, "a_other", 400)])]);
    assert!(matches!(inner, Err(FormatSetError::RankCollision { rank: 400, .. })), "{inner:?}");
    let named = FormatSet::try_new(vec![
        with_roles(A, &[a1]),
        with_roles(B, &[FileRole::new(B, "a_file", 500)]),
    ]);
    assert_eq!(
        named.err(),
        Some(FormatSetError::RoleNameCollision { role: "a_file", first: A, second: B })
    );
    let twice = FormatSet::try_new(vec![with_roles(A, &[a1]), with_roles(A, &[a2])]);
    assert_eq!(twice.err(), Some(FormatSetError::Duplicate { format: A }));
    let foreign = FormatSet::try_new(vec![with_roles(B, &[a1])]);
    assert_eq!(
        foreign.err(),
        Some(FormatSetError::ForeignRole { format: B, role: "a_file", owner: A })
    );
    let message = FormatSet::try_new(vec![
        with_roles(A, &[a1]),
        with_roles(B, &[FileRole::new(B, "b", 400)]),
    ])
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        message.as_deref(),
        Some(
            "roles `a_file` and `b` share rank 400; each role needs its own rank (specs/formats.md, \"Source kinds are data\")"
        )
    );
}
