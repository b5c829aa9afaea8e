//! Registry benchmark: nearest-root lookups at 10, 1 000 and 10 000 project roots (flat and
//! nested), each place's first lookup in a snapshot (which merges the list the later ones
//! share) apart from the later ones, republishing after one source changes with 1 000 sources loaded, and a reader's
//! `snapshot()`. Plain `Instant` loops, medians; `--json` prints one object.

use std::{
    hint::black_box,
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, Instant},
};

use hooks_registry::{HookRegistry, RegistrySnapshot, SourceUpdate, canonicalize};
use hooks_schema::{
    AbsPathBuf, HookDefinition, HookSourceId, HookSourceKind, ParsedSource, PolicySwitch,
    SourcePolicy, SwitchRule, TrustDecision,
};

const BASE: &str = "/nonexistent-hooks-registry-bench";

fn abs(p: impl Into<PathBuf>) -> AbsPathBuf {
    AbsPathBuf::new(p.into()).expect("absolute")
}

fn definition(id: &str, order: u32) -> HookDefinition {
    hooks_testing::definition(id, order, &format!("./hooks/{id}.sh"))
}

fn active() -> TrustDecision {
    TrustDecision::Active { reason: "bench".to_owned() }
}

fn project_update(root: &AbsPathBuf, defs: Vec<HookDefinition>) -> SourceUpdate {
    SourceUpdate {
        source: HookSourceId::new(
            hooks_testing::kinds::PROJECT_CURSOR_FILE,
            abs(root.as_path().join(".cursor/hooks.json")),
        ),
        parsed: Ok(ParsedSource { definitions: defs, ..ParsedSource::default() }),
        project_root: Some(root.clone()),
        project_dir: None,
        trust: active(),
    }
}

/// `n` roots side by side (`flat`) or as every prefix of a 10-ary tree of depth 4 taken in
/// breadth-first order (`nested`).
fn roots(n: usize, nested: bool) -> Vec<AbsPathBuf> {
    if !nested {
        return (0..n).map(|i| abs(format!("{BASE}/flat/org/repo{i}"))).collect();
    }
    let mut out = Vec::with_capacity(n);
    let mut frontier = vec![PathBuf::from(format!("{BASE}/nested"))];
    while out.len() < n {
        let mut next = Vec::new();
        for dir in &frontier {
            for c in 0..10 {
                let child = dir.join(format!("p{c}"));
                if out.len() < n {
                    out.push(abs(child.clone()));
                }
                next.push(child);
            }
        }
        frontier = next;
    }
    out
}

/// A registry with one project source per root, `per_root` definitions each, and two
/// explicit sources of two definitions that apply everywhere.
fn registry_with(roots: &[AbsPathBuf], per_root: usize) -> HookRegistry {
    let mut r = HookRegistry::new();
    let mut updates: Vec<SourceUpdate> = roots
        .iter()
        .enumerate()
        .map(|(i, root)| {
            let defs = (0..per_root).map(|k| definition(&format!("r{i}d{k}"), k as u32)).collect();
            project_update(root, defs)
        })
        .collect();
    for (i, kind) in
        [HookSourceKind::FACTORY_AGENT, HookSourceKind::RUN_DELIVERED].into_iter().enumerate()
    {
        updates.push(SourceUpdate {
            source: HookSourceId::new(kind, abs(format!("{BASE}/explicit{i}/hooks.json"))),
            parsed: Ok(ParsedSource {
                definitions: vec![
                    definition(&format!("e{i}a"), 0),
                    definition(&format!("e{i}b"), 1),
                ],
                ..ParsedSource::default()
            }),
            project_root: None,
            project_dir: None,
            trust: active(),
        });
    }
    r.upsert_sources(updates);
    r
}

/// The user's settings picking the main thread's agent `gate` (Claude Code's `agent`) beside
/// the policy of [`policy_update`], and the user's subagent `gate` with one hook, which runs
/// only where that name is picked.
fn picks_updates() -> [SourceUpdate; 2] {
    let pick = || hooks_schema::Pick { key: "agent", name: "gate".to_owned() };
    let mut settings = policy_update();
    if let Ok(parsed) = &mut settings.parsed {
        parsed.policy.picks = Some(pick());
    }
    let subagent = SourceUpdate {
        source: HookSourceId::new(
            hooks_testing::kinds::USER_CLAUDE_SETTINGS,
            abs(format!("{BASE}/home/.claude/agents/gate.md")),
        ),
        parsed: Ok(ParsedSource {
            definitions: vec![definition("gate", 0)],
            policy: SourcePolicy { picked_as: Some(pick()), ..SourcePolicy::default() },
            ..ParsedSource::default()
        }),
        project_root: None,
        project_dir: None,
        trust: active(),
    };
    [settings, subagent]
}

/// A user file with one hook that carries a source policy (a hooks switch left on).
fn policy_update() -> SourceUpdate {
    let switch = PolicySwitch { key: "disableAllHooks", rule: SwitchRule::Hooks, on: true };
    SourceUpdate {
        source: HookSourceId::new(
            hooks_testing::kinds::USER_CLAUDE_SETTINGS,
            abs(format!("{BASE}/home/.claude/settings.json")),
        ),
        parsed: Ok(ParsedSource {
            definitions: vec![definition("user", 0)],
            policy: SourcePolicy { switches: vec![switch], ..SourcePolicy::default() },
            ..ParsedSource::default()
        }),
        project_root: None,
        project_dir: None,
        trust: active(),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Median nanoseconds per call over `batches` batches of at most `per_batch` calls (fewer
/// when one call is slow, so a batch takes about 2 ms).
fn measure(batches: usize, per_batch: usize, mut f: impl FnMut(usize)) -> f64 {
    let t = Instant::now();
    let mut warm = 0;
    while warm < per_batch.min(10_000) && t.elapsed() < Duration::from_millis(20) {
        f(warm);
        warm += 1;
    }
    let one = t.elapsed().as_nanos() as f64 / warm.max(1) as f64;
    let per_batch = ((2_000_000.0 / one.max(1.0)) as usize).clamp(10, per_batch);
    let samples = (0..batches)
        .map(|_| {
            let t = Instant::now();
            for i in 0..per_batch {
                f(i);
            }
            t.elapsed().as_nanos() as f64 / per_batch as f64
        })
        .collect();
    median(samples)
}

struct Lookup {
    label: String,
    roots: usize,
    depth: usize,
    returned: usize,
    ns: f64,
    /// The first lookup under each root of a fresh snapshot (it merges the list).
    first_ns: f64,
    index_ns: f64,
}

/// Median nanoseconds per first lookup: every root of `rs` looked up once, two levels below
/// it, in a snapshot nothing was looked up in; over several registries.
fn first_lookups(rs: &[AbsPathBuf], per_root: usize) -> f64 {
    let probes: Vec<PathBuf> = rs.iter().map(|r| r.as_path().join("src/module")).collect();
    let rounds = (3_000 / rs.len()).clamp(1, 21);
    let samples = (0..rounds)
        .map(|_| {
            let snap = registry_with(rs, per_root).snapshot();
            let t = Instant::now();
            for p in &probes {
                black_box(snap.bindings_for_canonical(black_box(p)));
            }
            t.elapsed().as_nanos() as f64 / probes.len() as f64
        })
        .collect();
    median(samples)
}

fn lookup(n: usize, nested: bool, per_root: usize) -> Lookup {
    let rs = roots(n, nested);
    let reg = registry_with(&rs, per_root);
    let snap: Arc<RegistrySnapshot> = reg.snapshot();
    // Probes two levels below a spread of the deepest roots.
    let step = (rs.len() / 64).max(1);
    let probes: Vec<PathBuf> =
        rs.iter().rev().step_by(step).take(64).map(|r| r.as_path().join("src/module")).collect();
    let returned = snap.bindings_for_canonical(&probes[0]).len();
    assert_eq!(returned, per_root + 4, "the nearest root's bindings and the explicit ones");
    let depth = probes[0].components().count();
    let ns = measure(51, 2_000, |i| {
        black_box(snap.bindings_for_canonical(black_box(&probes[i % probes.len()])));
    });
    let index_ns = measure(51, 5_000, |i| {
        black_box(snap.project_root_for(black_box(&probes[i % probes.len()])));
    });
    let label = format!(
        "{} {} roots, {} bindings",
        if nested { "nested" } else { "flat" },
        n,
        n * per_root + 4
    );
    // Measured last (`main`): the registries it builds and drops would weigh on the figures
    // after it.
    Lookup { label, roots: n, depth, returned, ns, first_ns: 0.0, index_ns }
}

fn main() {
    let json = std::env::args().any(|a| a == "--json");

    let mut lookups = Vec::new();
    for nested in [false, true] {
        for n in [10, 1_000, 10_000] {
            lookups.push(lookup(n, nested, 10_000 / n));
        }
    }
    // The same lookups with one binding per root: the index's cost without the result size.
    let mut single = Vec::new();
    for nested in [false, true] {
        for n in [10, 1_000, 10_000] {
            single.push(lookup(n, nested, 1));
        }
    }

    // Canonicalizing the working directory, which `bindings_for` does first.
    let dir = tempfile::tempdir().expect("tempdir");
    let deep = dir.path().join("a/b/c/d/e");
    std::fs::create_dir_all(&deep).expect("mkdir");
    let canon_ns = measure(21, 2_000, |_| {
        black_box(canonicalize(black_box(&deep)).ok());
    });

    // Republishing after one source changes, 1 000 sources (10 000 bindings) loaded.
    let rs = roots(1_000, false);
    let mut reg = registry_with(&rs, 10);
    let changing = rs[500].clone();
    let variants: Vec<Vec<HookDefinition>> =
        (0..2).map(|v| (0..10).map(|k| definition(&format!("chg{v}d{k}"), k)).collect()).collect();
    let mut last = reg.revision();
    let mut flip = 0usize;
    let republish_ns = measure(31, 50, |_| {
        flip += 1;
        let rev = reg.upsert_source(project_update(&changing, variants[flip % 2].clone()));
        assert!(rev > last);
        last = rev;
    });
    let touch_ns = measure(31, 50, |_| {
        black_box(reg.upsert_source(project_update(&changing, variants[0].clone())));
    });

    // A reader's snapshot().
    let reader = reg.reader();
    let load_ns = measure(51, 200_000, |_| {
        black_box(reader.snapshot());
    });

    // Announcing and withdrawing one root among `n` (one project source each), with and
    // without a file that carries a source policy (which makes a publish place every project
    // source's roots for the policy), and with a pick besides (a subagent that runs only where
    // the user's settings name it, resolved in every place).
    let mut root_churn = Vec::new();
    for n in [100, 1_000, 10_000] {
        for policy in ["", "_with_policy", "_with_picks"] {
            let rs = roots(n, false);
            let mut reg = registry_with(&rs, 1);
            match policy {
                "_with_policy" => {
                    reg.upsert_source(policy_update());
                }
                "_with_picks" => {
                    reg.upsert_sources(Vec::from(picks_updates()));
                }
                _ => {}
            }
            let extra = abs(format!("{BASE}/flat/org/zz-extra"));
            let ns = measure(21, 200, |_| {
                reg.add_project_root(extra.clone());
                reg.remove_project_root(&extra);
            });
            root_churn.push((n, policy, ns / 2.0));
        }
    }

    // Each place's first lookup, last: it builds and drops a registry per round.
    for (group, per_root) in [(&mut lookups, None), (&mut single, Some(1))] {
        for l in group.iter_mut() {
            let rs = roots(l.roots, l.label.starts_with("nested"));
            l.first_ns = first_lookups(&rs, per_root.unwrap_or(10_000 / l.roots));
        }
    }

    let flat_10k = lookups
        .iter()
        .find(|l| l.roots == 10_000 && l.label.starts_with("flat"))
        .map_or(0.0, |l| l.ns);
    let nested_10k = lookups
        .iter()
        .find(|l| l.roots == 10_000 && l.label.starts_with("nested"))
        .map_or(0.0, |l| l.ns);
    let headline = flat_10k.max(nested_10k);

    if json {
        let mut o = serde_json::Map::new();
        o.insert("bindings_for_10000_roots_ns".into(), headline.round().into());
        o.insert("bindings_for_10000_roots_flat_ns".into(), flat_10k.round().into());
        o.insert("bindings_for_10000_roots_nested_ns".into(), nested_10k.round().into());
        for (group, suffix) in [(&lookups, ""), (&single, "_one_binding_per_root")] {
            for l in group.iter() {
                let shape = l.label.split(' ').next().unwrap_or("flat");
                let key = format!("bindings_for_{shape}_{}_roots{suffix}_ns", l.roots);
                o.insert(key, l.ns.round().into());
                let key = format!("bindings_for_first_{shape}_{}_roots{suffix}_ns", l.roots);
                o.insert(key, l.first_ns.round().into());
                let key = format!("project_root_for_{shape}_{}_roots{suffix}_ns", l.roots);
                o.insert(key, l.index_ns.round().into());
            }
        }
        o.insert("cwd_canonicalize_ns".into(), canon_ns.round().into());
        o.insert(
            "republish_1000_sources_us".into(),
            ((republish_ns / 1_000.0 * 10.0).round() / 10.0).into(),
        );
        o.insert(
            "republish_unchanged_1000_sources_us".into(),
            ((touch_ns / 1_000.0 * 10.0).round() / 10.0).into(),
        );
        o.insert("snapshot_load_ns".into(), ((load_ns * 10.0).round() / 10.0).into());
        for (n, policy, ns) in &root_churn {
            let key = format!("root_add_or_remove_{n}_roots{policy}_us");
            o.insert(key, ((ns / 1_000.0 * 100.0).round() / 100.0).into());
        }
        println!("{}", serde_json::Value::Object(o));
        return;
    }

    println!("bindings_for (cwd already canonical), median per call");
    println!(
        "{:<44} {:>6} {:>9} {:>12} {:>12} {:>12} {:>10}",
        "scenario", "depth", "returned", "lookup ns", "first ns", "index ns", "vs 10"
    );
    for group in [&lookups, &single] {
        for l in group.iter() {
            let base = group
                .iter()
                .find(|b| b.roots == 10 && b.label.split(' ').next() == l.label.split(' ').next())
                .map_or(l.ns, |b| b.ns);
            println!(
                "{:<44} {:>6} {:>9} {:>12.0} {:>12.0} {:>12.0} {:>9.2}x",
                l.label,
                l.depth,
                l.returned,
                l.ns,
                l.first_ns,
                l.index_ns,
                l.ns / base
            );
        }
    }
    println!();
    println!("{:<44} {:>12.0} ns", "canonicalize cwd (5 levels below a tempdir)", canon_ns);
    println!(
        "{:<44} {:>12.1} us",
        "republish, one of 1 000 sources changed",
        republish_ns / 1_000.0
    );
    println!("{:<44} {:>12.1} us", "republish, same definitions (no revision)", touch_ns / 1_000.0);
    println!("{:<44} {:>12.1} ns", "reader snapshot()", load_ns);
    for (n, policy, ns) in &root_churn {
        let policy = match *policy {
            "_with_policy" => ", a policy file",
            "_with_picks" => ", a policy file and a pick",
            _ => "",
        };
        println!(
            "{:<44} {:>12.2} us",
            format!("root added or removed, {n} roots{policy}"),
            ns / 1_000.0
        );
    }
    println!("{:<44} {:>12.2}x", "canonicalize / 10 000-root lookup", canon_ns / headline.max(1.0));
    let _ = Path::new(BASE);
}
