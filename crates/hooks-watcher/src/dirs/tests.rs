//! Tests of the directory set: it answers as a `BTreeSet` of the same paths does, and holds
//! no spare slots.

use std::{collections::BTreeSet, path::PathBuf};

use super::DirSet;

const DIRS: [&str; 7] =
    ["/r", "/r/.cursor", "/r/.claude", "/r/.chrys", "/r/.chrys/hooks", "/s", "/r/a/b"];

#[test]
fn answers_as_a_btree_set_does() {
    let mut set = DirSet::default();
    let mut model = BTreeSet::new();
    // A fixed pseudo-random walk of inserts and removals over a few paths.
    let mut x: u32 = 7;
    for _ in 0..400 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let dir = PathBuf::from(DIRS[(x >> 16) as usize % DIRS.len()]);
        if (x >> 8).is_multiple_of(3) {
            assert_eq!(set.remove(&dir), model.remove(&dir));
        } else {
            assert_eq!(set.insert(dir.clone()), model.insert(dir));
        }
        for d in DIRS {
            assert_eq!(set.contains(d.as_ref()), model.contains(&PathBuf::from(d)));
        }
        assert!(set.iter().eq(model.iter()));
        assert!((&set).into_iter().eq(model.iter()));
    }
    assert!(set.into_iter().eq(model));
}

#[test]
fn holds_no_spare_slots_as_it_grows() {
    let mut set = DirSet::default();
    for (i, d) in ["/r", "/r/.cursor", "/r/.claude"].into_iter().enumerate() {
        assert!(set.insert(PathBuf::from(d)));
        assert_eq!(set.0.capacity(), i + 1);
    }
    assert!(!set.insert(PathBuf::from("/r")));
    assert_eq!(set.0.capacity(), 3);
}
