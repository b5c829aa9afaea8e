//! A proptest state machine: random sequences of registry operations checked against a
//! simple model and the registry's invariants.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
};

use hooks_schema::{AbsPathBuf, HookDiagnostic, HookSourceId, HookSourceKind as K};
use hooks_trust::CommandExecutionPosture;
use proptest::prelude::*;

use crate::{
    HookRegistry,
    test_support::{abs, active, def, inert, malformed, names, ok, sid, update},
};

const P: &str = "/nonexistent-hooks-registry-model";

/// The sources the machine plays with: two nested project files, one project file reachable
/// from any root, a run-delivered file that is also project file 0, and a user file.
const SOURCES: [(K, &str); 5] = [
    (hooks_testing::kinds::PROJECT_CURSOR_FILE, "a/.cursor/hooks.json"),
    (hooks_testing::kinds::PROJECT_CURSOR_FILE, "a/b/.cursor/hooks.json"),
    (hooks_testing::kinds::PROJECT_CLAUDE_SETTINGS, "shared/settings.json"),
    (K::RUN_DELIVERED, "a/.cursor/hooks.json"),
    (hooks_testing::kinds::USER_CURSOR_FILE, "home/hooks.json"),
];
const ROOTS: [&str; 3] = ["a", "a/b", "c"];
const PROBES: [&str; 5] = ["a", "a/b/x", "a/bb", "c/y", "z"];

#[derive(Debug, Clone)]
enum Op {
    Upsert {
        src: usize,
        variant: u8,
        root: usize,
        active: bool,
    },
    /// A read failure (`active: None`) or a parse failure with a trust decision.
    Fail {
        src: usize,
        root: usize,
        active: Option<bool>,
    },
    Remove {
        src: usize,
    },
    RemoveRoot {
        src: usize,
        root: usize,
    },
    SetTrust {
        src: usize,
        active: bool,
    },
    Pin,
    AddRoot {
        root: usize,
    },
    RemoveProjectRoot {
        root: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..5usize, 0..4u8, 0..3usize, any::<bool>())
            .prop_map(|(src, variant, root, active)| Op::Upsert { src, variant, root, active }),
        1 => (0..5usize, 0..3usize, proptest::option::of(any::<bool>())).prop_map(|(src, root, active)| Op::Fail { src, root, active }),
        1 => (0..5usize).prop_map(|src| Op::Remove { src }),
        1 => (0..5usize, 0..3usize).prop_map(|(src, root)| Op::RemoveRoot { src, root }),
        2 => (0..5usize, any::<bool>()).prop_map(|(src, active)| Op::SetTrust { src, active }),
        1 => Just(Op::Pin),
        1 => (0..3usize).prop_map(|root| Op::AddRoot { root }),
        1 => (0..3usize).prop_map(|root| Op::RemoveProjectRoot { root }),
    ]
}

fn source(i: usize) -> HookSourceId {
    let (kind, path) = SOURCES[i];
    sid(kind, format!("{P}/{path}"))
}

fn root(i: usize) -> AbsPathBuf {
    abs(format!("{P}/{}", ROOTS[i]))
}

/// Variant 0 has one definition, 1 has two, 2 has the same two in the other order, 3 has
/// none.
fn variant_names(src: usize, variant: u8) -> Vec<String> {
    let (x, y) = (format!("s{src}x"), format!("s{src}y"));
    match variant {
        0 => vec![x],
        1 => vec![x, y],
        2 => vec![y, x],
        _ => Vec::new(),
    }
}

#[derive(Debug, Clone)]
struct MSource {
    seq: u64,
    valid: Option<u8>,
    /// 0: the registry's default (inert, never loaded), 1: inert, 2: active.
    trust: u8,
    roots: BTreeSet<usize>,
    present_at_pin: bool,
    late: bool,
}

#[derive(Debug, Default)]
struct Model {
    sources: BTreeMap<usize, MSource>,
    announced: BTreeSet<usize>,
    next_seq: u64,
    pinned: bool,
    pinned_roots: BTreeSet<usize>,
    reported_roots: BTreeSet<usize>,
}

impl Model {
    fn is_project(src: usize) -> bool {
        SOURCES[src].0.is_project()
    }

    fn frozen(&self, src: usize) -> bool {
        self.pinned && self.sources.get(&src).is_some_and(|s| s.present_at_pin)
    }

    fn load(&mut self, src: usize, valid: Option<u8>, root: usize, trust: Option<u8>) -> bool {
        if self.frozen(src) {
            return true;
        }
        let (seq, late) = (self.next_seq, self.pinned);
        let s = self.sources.entry(src).or_insert_with(|| MSource {
            seq,
            valid: None,
            trust: 0,
            roots: BTreeSet::new(),
            present_at_pin: false,
            late,
        });
        if s.seq == seq {
            self.next_seq += 1;
        }
        if let Some(t) = trust {
            s.trust = t;
        }
        if Model::is_project(src) {
            s.roots.insert(root);
        }
        if valid.is_some() {
            s.valid = valid;
        }
        true
    }

    /// Applies `op`; returns whether it is a change (publishes a snapshot).
    fn apply(&mut self, op: &Op) -> bool {
        match *op {
            Op::Upsert { src, variant, root, active } => {
                self.load(src, Some(variant), root, Some(code(active)))
            }
            Op::Fail { src, root, active } => self.load(src, None, root, active.map(code)),
            Op::Remove { src } => {
                if !self.sources.contains_key(&src) {
                    return false;
                }
                if !self.frozen(src) {
                    self.sources.remove(&src);
                }
                true
            }
            Op::RemoveRoot { src, root } => {
                let frozen = self.frozen(src);
                let Some(s) = self.sources.get_mut(&src) else { return false };
                if !s.roots.contains(&root) {
                    return false;
                }
                if !frozen {
                    s.roots.remove(&root);
                    if s.roots.is_empty() {
                        self.sources.remove(&src);
                    }
                }
                true
            }
            Op::SetTrust { src, active } => {
                let frozen = self.frozen(src);
                let Some(s) = self.sources.get_mut(&src) else { return false };
                if s.trust == code(active) {
                    return false;
                }
                if !frozen {
                    s.trust = code(active);
                }
                true
            }
            Op::Pin => {
                if self.pinned {
                    return false;
                }
                self.pinned_roots = self.roots();
                self.pinned = true;
                for s in self.sources.values_mut() {
                    s.present_at_pin = true;
                }
                true
            }
            Op::AddRoot { root } => {
                if self.pinned {
                    return !self.pinned_roots.contains(&root) && self.reported_roots.insert(root);
                }
                self.announced.insert(root)
            }
            Op::RemoveProjectRoot { root } => {
                if self.pinned {
                    return false;
                }
                let mut changed = self.announced.remove(&root);
                let mut emptied = Vec::new();
                for (&i, s) in &mut self.sources {
                    if s.roots.remove(&root) {
                        changed = true;
                        if s.roots.is_empty() {
                            emptied.push(i);
                        }
                    }
                }
                for i in emptied {
                    self.sources.remove(&i);
                }
                changed
            }
        }
    }

    fn roots(&self) -> BTreeSet<usize> {
        if self.pinned {
            return self.pinned_roots.clone();
        }
        let mut r = self.announced.clone();
        for (&i, s) in &self.sources {
            if Model::is_project(i) {
                r.extend(s.roots.iter().copied());
            }
        }
        r
    }

    fn can_run(&self, i: usize) -> bool {
        let s = &self.sources[&i];
        !s.late
            && s.trust == 2
            && s.valid.is_some()
            && (!Model::is_project(i) || !s.roots.is_empty())
    }

    fn runs(&self, i: usize) -> bool {
        let suppressed = Model::is_project(i)
            && self.sources.keys().any(|&j| {
                SOURCES[j].0.is_explicit() && SOURCES[j].1 == SOURCES[i].1 && self.can_run(j)
            });
        self.can_run(i) && !suppressed
    }

    fn expected(&self, probe: &str) -> Vec<String> {
        let cwd = format!("{P}/{probe}");
        let nearest = self
            .roots()
            .into_iter()
            .filter(|&r| Path::new(&cwd).starts_with(root(r).as_path()))
            .max_by_key(|&r| ROOTS[r].len());
        let mut parts: Vec<((u32, u64), Vec<String>)> = Vec::new();
        for (&i, s) in &self.sources {
            if !self.runs(i) {
                continue;
            }
            let applies = !Model::is_project(i) || nearest.is_some_and(|r| s.roots.contains(&r));
            if applies {
                let names = variant_names(i, s.valid.unwrap_or(0));
                parts.push(((SOURCES[i].0.priority(), s.seq), names));
            }
        }
        parts.sort_by_key(|p| p.0);
        parts.into_iter().flat_map(|p| p.1).collect()
    }
}

fn code(active: bool) -> u8 {
    if active { 2 } else { 1 }
}

fn run(registry: &mut HookRegistry, op: &Op) {
    match *op {
        Op::Upsert { src, variant, root: r, active: a } => {
            let id = source(src);
            let d = variant_names(src, variant)
                .iter()
                .zip(0u32..)
                .map(|(n, i)| def(n, i, &format!("./{n}.sh")))
                .collect();
            registry.upsert_source(update(
                &id,
                ok(d),
                Some(&root(r)),
                if a { active() } else { inert() },
            ));
        }
        Op::Fail { src, root: r, active: trust } => {
            let id = source(src);
            match trust {
                None => {
                    registry.record_read_failure(
                        &id,
                        Some(root(r)),
                        HookDiagnostic::error("unreadable"),
                    );
                }
                Some(a) => {
                    let t = if a { active() } else { inert() };
                    registry.upsert_source(update(&id, malformed(), Some(&root(r)), t));
                }
            }
        }
        Op::Remove { src } => {
            registry.remove_source(&source(src));
        }
        Op::RemoveRoot { src, root: r } => {
            registry.remove_source_root(&source(src), &root(r));
        }
        Op::SetTrust { src, active: a } => {
            registry.set_trust(&source(src), if a { active() } else { inert() });
        }
        Op::Pin => {
            registry.pin(CommandExecutionPosture::AutoApproves);
        }
        Op::AddRoot { root: r } => {
            registry.add_project_root(root(r));
        }
        Op::RemoveProjectRoot { root: r } => {
            registry.remove_project_root(&root(r));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_operation_sequences_keep_the_registry_invariants(ops in proptest::collection::vec(op(), 1..40)) {
        let mut registry = HookRegistry::new();
        let mut model = Model::default();
        let mut pinned_view = None;
        for op in &ops {
            let before = registry.snapshot();
            let changed = model.apply(op);
            run(&mut registry, op);
            let after = registry.snapshot();

            // The revision never decreases; the generation moves exactly on a change.
            prop_assert!(after.revision() >= before.revision(), "{op:?}");
            let expected_gen = if changed { before.generation().next() } else { before.generation() };
            prop_assert_eq!(after.generation(), expected_gen, "{:?}", op);

            // The revision moves iff the bindings or the roots changed.
            let moved = after.revision() != before.revision();
            let differs = after.bindings() != before.bindings()
                || after.project_roots() != before.project_roots();
            prop_assert_eq!(moved, differs, "{:?}", op);

            // The model agrees on what runs where and which projects exist.
            for probe in PROBES {
                let got = names(&after.bindings_for(Path::new(&format!("{P}/{probe}"))));
                prop_assert_eq!(got, model.expected(probe), "{:?} at {}", op, probe);
            }
            let roots: Vec<AbsPathBuf> = model.roots().into_iter().map(root).collect::<BTreeSet<_>>().into_iter().collect();
            prop_assert_eq!(after.project_roots(), roots.as_slice());

            // Every known source file is protected, and the known sources agree.
            let known: BTreeSet<HookSourceId> = model.sources.keys().map(|&i| source(i)).collect();
            let listed: BTreeSet<HookSourceId> = after.sources().iter().map(|v| v.id.clone()).collect();
            prop_assert_eq!(&listed, &known);
            for id in &known {
                prop_assert!(after.protected_paths().contains(id.path.as_path()));
            }

            // Nothing after the pin changes the bindings or the roots.
            if let Some((bindings, roots, revision)) = &pinned_view {
                prop_assert_eq!(&after.bindings(), bindings);
                prop_assert_eq!(&after.project_roots().to_vec(), roots);
                prop_assert_eq!(after.revision(), *revision);
            } else if after.pinned().is_some() {
                pinned_view = Some((after.bindings(), after.project_roots().to_vec(), after.revision()));
            }
        }
    }
}
