//! Tests for the path helpers.

use std::path::Path;

use hooks_schema::AbsPathBuf;

use crate::{canonicalize, canonicalize_lenient, normalize_lexically};

fn abs(p: &str) -> AbsPathBuf {
    AbsPathBuf::new(p.into()).unwrap()
}

#[test]
fn lexical_normalization_removes_dots_and_never_climbs_above_the_root() {
    let base = abs("/work/repo");
    assert_eq!(normalize_lexically(Path::new("a/./b/../c"), &base), abs("/work/repo/a/c"));
    assert_eq!(normalize_lexically(Path::new("../../../../x"), &base), abs("/x"));
    assert_eq!(normalize_lexically(Path::new("/etc/../tmp/"), &base), abs("/tmp"));
}

#[test]
fn canonicalize_resolves_symlinks_and_fails_on_a_missing_path() {
    let dir = tempfile::tempdir().unwrap();
    let real = canonicalize(dir.path()).unwrap();
    std::fs::write(real.as_path().join("f"), "x").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(real.as_path().join("f"), real.as_path().join("l")).unwrap();
        assert_eq!(
            canonicalize(&real.as_path().join("l")).unwrap(),
            real.join(Path::new("f")).unwrap()
        );
    }
    assert!(canonicalize(&real.as_path().join("missing")).is_err());
}

#[test]
fn lenient_canonicalization_resolves_the_nearest_existing_ancestor() {
    let dir = tempfile::tempdir().unwrap();
    let real = canonicalize(dir.path()).unwrap();
    std::fs::create_dir(real.as_path().join("target")).unwrap();
    let got = canonicalize_lenient(Path::new("target/new/../new2/file.txt"), &real);
    assert_eq!(got, real.join(Path::new("target/new2/file.txt")).unwrap());
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(real.as_path().join("target"), real.as_path().join("link"))
            .unwrap();
        let got = canonicalize_lenient(Path::new("link/x.json"), &real);
        assert_eq!(got, real.join(Path::new("target/x.json")).unwrap());
        assert_eq!(
            canonicalize_lenient(Path::new("link"), &real),
            real.join(Path::new("target")).unwrap()
        );
    }
}

proptest::proptest! {
    #[test]
    fn lexical_normalization_is_absolute_clean_idempotent_and_stays_under_the_root(
        parts in proptest::collection::vec(proptest::sample::select(vec!["a", "b", ".", "..", "", "c.d"]), 0..12),
        absolute in proptest::bool::ANY,
    ) {
        let base = abs("/base/dir");
        let joined = parts.join("/");
        let raw = if absolute { format!("/{joined}") } else { joined };
        let n = normalize_lexically(Path::new(&raw), &base);
        proptest::prop_assert!(n.as_path().is_absolute());
        proptest::prop_assert!(n.as_path().components().all(|c| matches!(
            c,
            std::path::Component::RootDir | std::path::Component::Normal(_)
        )));
        proptest::prop_assert_eq!(normalize_lexically(n.as_path(), &base), n.clone());
        // A missing path resolves leniently to its lexical form under an existing root.
        let lenient = canonicalize_lenient(
            Path::new(&format!("/nonexistent-hooks-registry-paths/{raw}")),
            &base,
        );
        proptest::prop_assert!(lenient.as_path().is_absolute());
    }
}

proptest::proptest! {
    /// `needs_clean`'s one pass says what the three scans it replaced said (a trailing,
    /// doubled or `/./` separator), and `clean_cow` gives `clean`'s spelling.
    #[test]
    fn needs_clean_is_the_three_scans_in_one_pass(s in "[/.a]{0,12}") {
        let bytes = s.as_bytes();
        let scans = (bytes.len() > 1 && bytes.last() == Some(&b'/'))
            || bytes.windows(2).any(|w| w == b"//")
            || bytes.windows(3).any(|w| w == b"/./");
        proptest::prop_assert_eq!(crate::paths::needs_clean(Path::new(&s)), scans);
        let (cow, clean) = (crate::paths::clean_cow(Path::new(&s)), crate::paths::clean(Path::new(&s)));
        proptest::prop_assert_eq!(cow.as_ref(), clean.as_path());
    }

    /// A path taken as normal (by the resolver, by a lookup) is the spelling
    /// `normalize_lexically` gives it.
    #[test]
    fn a_path_taken_as_normal_is_its_normal_spelling(s in "/[/.ab]{0,12}") {
        if crate::paths::is_normal(Path::new(&s)) {
            let base = abs("/base");
            let n = normalize_lexically(Path::new(&s), &base);
            proptest::prop_assert_eq!(n.as_path(), Path::new(&s));
        }
    }
}

#[test]
fn a_value_names_a_path_from_the_home_or_the_root_only() {
    use std::path::PathBuf;

    use super::home_or_absolute;
    let home = Path::new("/home/u");
    assert_eq!(home_or_absolute("~/lib/p.so", Some(home)), Some(home.join("lib/p.so")));
    assert_eq!(home_or_absolute("/opt/p.so", Some(home)), Some(PathBuf::from("/opt/p.so")));
    for value in ["lib/p.so", "~user/p.so", "~", ""] {
        assert_eq!(home_or_absolute(value, Some(home)), None, "{value}");
    }
    assert_eq!(home_or_absolute("~/lib/p.so", None), None);
}
