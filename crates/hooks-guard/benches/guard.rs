//! Guard benchmark: checking one edited path against 1 000 protected paths, canonicalization
//! included, next to the bare canonicalize it is built on and a naive linear scan.
//!
//! `cargo bench -p hooks-guard --bench guard [-- --json]`. Plain `Instant` loops: a warm-up,
//! then batches of calls; each sample is the ns per call of one batch and the figures are
//! medians (p10 and p90 in the table).

use std::{
    fs,
    hint::black_box,
    path::{Path, PathBuf},
    time::Instant,
};

use hooks_guard::{ProtectedEntry, ProtectedRole, ProtectedSet};
use hooks_schema::{AbsPathBuf, HookSourceId};

/// Projects in the tree; each has one hook file and `SCRIPTS_PER_PROJECT` scripts.
const PROJECTS: usize = 10;
const SCRIPTS_PER_PROJECT: usize = 99;
const BATCHES: usize = 51;

struct Figures {
    name: &'static str,
    json_key: &'static str,
    samples: Vec<f64>,
}

impl Figures {
    fn quantile(&self, q: f64) -> f64 {
        let mut sorted = self.samples.clone();
        sorted.sort_by(f64::total_cmp);
        let index = ((sorted.len().saturating_sub(1)) as f64 * q).round() as usize;
        sorted.get(index).copied().unwrap_or(f64::NAN)
    }

    fn median(&self) -> f64 {
        self.quantile(0.5)
    }
}

/// Runs `f` `calls` times per batch over `batches` batches after a warm-up.
fn measure(
    name: &'static str,
    json_key: &'static str,
    batches: usize,
    calls: usize,
    mut f: impl FnMut(),
) -> Figures {
    for _ in 0..calls.min(2_000) {
        f();
    }
    let mut samples = Vec::with_capacity(batches);
    for _ in 0..batches {
        let start = Instant::now();
        for _ in 0..calls {
            f();
        }
        samples.push(start.elapsed().as_nanos() as f64 / calls as f64);
    }
    Figures { name, json_key, samples }
}

fn abs(path: PathBuf) -> AbsPathBuf {
    AbsPathBuf::new(path).expect("absolute")
}

fn main() {
    let json = std::env::args().any(|a| a == "--json");
    let dir = tempfile::tempdir().expect("temp dir");
    let root = hooks_registry::canonicalize(dir.path()).expect("canonical").into_path_buf();

    // <tmp>/p<i>/.cursor/hooks.json, <tmp>/p<i>/hooks/s<j>.sh, <tmp>/p<i>/src/main.rs.
    let mut entries = Vec::with_capacity(PROJECTS * (SCRIPTS_PER_PROJECT + 1));
    for i in 0..PROJECTS {
        let project = root.join(format!("p{i}"));
        for folder in [".cursor", "hooks", "src"] {
            fs::create_dir_all(project.join(folder)).expect("create folder");
        }
        let hook_file = project.join(".cursor/hooks.json");
        fs::write(&hook_file, "{}").expect("write");
        fs::write(project.join("src/main.rs"), "fn main() {}\n").expect("write");
        let source =
            HookSourceId::new(hooks_testing::kinds::PROJECT_CURSOR_FILE, abs(hook_file.clone()));
        entries.push(ProtectedEntry {
            path: abs(hook_file),
            source: source.clone(),
            role: ProtectedRole::HookFile,
        });
        for j in 0..SCRIPTS_PER_PROJECT {
            let script = project.join(format!("hooks/s{j}.sh"));
            fs::write(&script, "#!/bin/sh\n").expect("write");
            entries.push(ProtectedEntry {
                path: abs(script),
                source: source.clone(),
                role: ProtectedRole::Script,
            });
        }
    }
    symlink(&root.join("p0"), &root.join("link"));
    let cwd = root.join("p0");
    let edit = cwd.join("src/main.rs");
    let set = ProtectedSet::new(entries.clone());
    assert_eq!(set.len(), PROJECTS * (SCRIPTS_PER_PROJECT + 1));
    assert!(set.check(&[&edit], &cwd).is_allowed(), "the benchmark edit must go through");
    assert!(!set.check(&[".cursor/hooks.json"], &cwd).is_allowed());

    // The same set with the patterns a session-directory format adds: names under any
    // folder of a project, copies in the session's folder, folders protected as a whole.
    let patterns: Vec<hooks_registry::ProtectedPattern> = (0..20)
        .map(|k| {
            let project = root.join(format!("p{}", k % PROJECTS));
            let source = HookSourceId::new(
                hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                abs(project.join(".claude/settings.json")),
            );
            let (tail, session) = match k % 4 {
                0 => (PathBuf::new(), None),
                1 => (
                    PathBuf::from(format!("tools/t{k}.sh")),
                    Some(PathBuf::from(format!("tools/t{k}.sh"))),
                ),
                _ => (PathBuf::from(format!(".claude/hooks/h{k}.sh")), None),
            };
            let scope = if k % 4 == 0 { project.join("vendor") } else { project };
            hooks_registry::ProtectedPattern {
                scope: abs(scope),
                tail,
                session,
                source,
                what: hooks_registry::ProtectedKind::Script,
                nested: false,
                nested_file: false,
                stem: false,
            }
        })
        .collect();
    let with_patterns = set.clone().with_patterns(patterns);
    assert!(with_patterns.check(&[&edit], &cwd).is_allowed());

    // A runtime with a thousand project roots: three folders protected whole under each (an
    // agent's subagents, skills and commands), none holding the edit.
    let folders: Vec<hooks_registry::ProtectedPattern> = (0..1_000)
        .flat_map(|k| {
            let project = root.join(format!("many/r{k}"));
            let source = HookSourceId::new(
                hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS,
                abs(project.join(".claude/settings.json")),
            );
            ["agents", "skills", "commands"].map(|dir| hooks_registry::ProtectedPattern {
                scope: abs(project.join(".claude").join(dir)),
                tail: PathBuf::new(),
                session: None,
                source: source.clone(),
                what: hooks_registry::ProtectedKind::File,
                nested: false,
                nested_file: false,
                stem: false,
            })
        })
        .collect();
    let with_folders = set.clone().with_patterns(folders.clone());
    assert!(with_folders.check(&[&edit], &cwd).is_allowed());

    let calls = 2_000;
    let edit_rel = PathBuf::from("src/main.rs");
    let via_link = root.join("link/src/main.rs");
    let dotdot = PathBuf::from("src/../src/main.rs");
    let missing = PathBuf::from("src/new/file.rs");
    let hook_rel = PathBuf::from(".cursor/hooks.json");
    let figures = vec![
        measure("canonicalize (5 components)", "canonicalize_ns", BATCHES, calls, || {
            black_box(hooks_registry::canonicalize(black_box(&edit)).is_ok());
        }),
        measure("check, 1000 protected", "check_1000_protected_ns", BATCHES, calls, || {
            black_box(set.check(black_box(std::slice::from_ref(&edit)), &cwd).is_allowed());
        }),
        measure("check, relative path", "check_relative_ns", BATCHES, calls, || {
            black_box(set.check(black_box(std::slice::from_ref(&edit_rel)), &cwd).is_allowed());
        }),
        measure("check, through a symlink", "check_symlink_ns", BATCHES, calls, || {
            black_box(set.check(black_box(std::slice::from_ref(&via_link)), &cwd).is_allowed());
        }),
        measure("check, `..` (two readings)", "check_dotdot_ns", BATCHES, calls, || {
            black_box(set.check(black_box(std::slice::from_ref(&dotdot)), &cwd).is_allowed());
        }),
        measure("check, missing file", "check_missing_ns", BATCHES, calls, || {
            black_box(set.check(black_box(std::slice::from_ref(&missing)), &cwd).is_allowed());
        }),
        measure("check, protected hit", "check_protected_hit_ns", BATCHES, calls, || {
            black_box(set.check(black_box(std::slice::from_ref(&hook_rel)), &cwd).is_allowed());
        }),
        measure(
            "check, 1000 protected + 20 patterns",
            "check_with_patterns_ns",
            BATCHES,
            calls,
            || {
                black_box(
                    with_patterns.check(black_box(std::slice::from_ref(&edit)), &cwd).is_allowed(),
                );
            },
        ),
        measure(
            "check, 1000 protected + 3000 folders",
            "check_with_3000_folders_ns",
            BATCHES,
            calls,
            || {
                black_box(
                    with_folders.check(black_box(std::slice::from_ref(&edit)), &cwd).is_allowed(),
                );
            },
        ),
        measure("naive: canonicalize + scan 1000", "naive_scan_1000_ns", BATCHES, calls, || {
            black_box(naive_check(&entries, black_box(&edit)));
        }),
        measure("build set of 1000", "build_1000_ns", 21, 5, || {
            black_box(ProtectedSet::new(entries.clone()).len());
        }),
        measure("add 3000 folders (probed)", "add_3000_folders_ns", 21, 5, || {
            black_box(ProtectedSet::new(Vec::new()).with_patterns(folders.clone()).len());
        }),
    ];

    if json {
        let fields: Vec<String> = figures
            .iter()
            .map(|f| format!("\"{}\":{}", f.json_key, f.median().round() as u64))
            .chain([format!("\"protected_paths\":{}", set.len())])
            .collect();
        println!("{{{}}}", fields.join(","));
        return;
    }
    let baseline = figures.first().map(Figures::median).unwrap_or(f64::NAN);
    println!("guard: one edited path against {} protected paths (ns per call)", set.len());
    println!(
        "{:<36} {:>10} {:>10} {:>10} {:>14}",
        "case", "median", "p10", "p90", "÷ canonicalize"
    );
    for f in &figures {
        println!(
            "{:<36} {:>10.0} {:>10.0} {:>10.0} {:>14.2}",
            f.name,
            f.median(),
            f.quantile(0.1),
            f.quantile(0.9),
            f.median() / baseline
        );
    }
}

/// What a guard without an index does: canonicalize, then compare with every protected path
/// and every folder above it.
fn naive_check(entries: &[ProtectedEntry], edit: &Path) -> bool {
    let Ok(resolved) = hooks_registry::canonicalize(edit) else { return false };
    entries.iter().any(|e| e.path.as_path().starts_with(resolved.as_path()))
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

#[cfg(windows)]
fn symlink(target: &Path, link: &Path) {
    std::os::windows::fs::symlink_dir(target, link).expect("symlink");
}
