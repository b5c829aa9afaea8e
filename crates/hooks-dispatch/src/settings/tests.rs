//! Tests of the run-settings table and the per-format semaphores.

use std::{path::Path, sync::Arc};

use hooks_schema::{FormatId, RunSettings};

use super::{FormatSlots, RunSettingsTable};

const A: FormatId = FormatId::new("a");
const B: FormatId = FormatId::new("b");

fn parallel(n: u32) -> RunSettings {
    RunSettings { max_parallel: Some(n), ..RunSettings::default() }
}

#[test]
fn settings_are_looked_up_by_format_and_place() {
    let mut t = RunSettingsTable::default();
    assert!(t.is_empty());
    t.set(A, None, parallel(2));
    t.set(A, Some("/r".into()), parallel(1));
    assert_eq!(t.get(A, None), parallel(2));
    assert_eq!(t.get(A, Some(Path::new("/r"))), parallel(1));
    assert_eq!(t.get(A, Some(Path::new("/other"))), RunSettings::default(), "no fallback");
    assert_eq!(t.get(B, None), RunSettings::default(), "another format's are its own");
    t.set(A, None, parallel(3));
    assert_eq!(t.get(A, None), parallel(3), "set replaces");
    t.set(A, None, RunSettings::default());
    assert_eq!(t.get(A, None), RunSettings::default());
    t.set(A, Some("/r".into()), RunSettings::default());
    assert!(t.is_empty(), "empty settings are not stored");
}

#[test]
fn one_semaphore_per_format_place_and_limit_while_held() {
    let slots = FormatSlots::default();
    let s1 = slots.semaphore(A, None, 1);
    assert_eq!(s1.available_permits(), 1);
    assert!(Arc::ptr_eq(&s1, &slots.semaphore(A, None, 1)), "shared while held");
    assert!(!Arc::ptr_eq(&s1, &slots.semaphore(B, None, 1)), "per format");
    assert!(!Arc::ptr_eq(&s1, &slots.semaphore(A, Some(Path::new("/r")), 1)), "per place");
    let s2 = slots.semaphore(A, None, 2);
    assert!(!Arc::ptr_eq(&s1, &s2), "a new limit gets its own");
    assert_eq!(s2.available_permits(), 2);
    drop((s1, s2));
    // Dropped when nobody holds it; a limit of 0 still lets one run through.
    assert_eq!(slots.semaphore(A, None, 0).available_permits(), 1);
    assert_eq!(slots.slots.lock().unwrap().len(), 1, "unused entries are forgotten");
}
