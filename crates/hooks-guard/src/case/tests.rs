//! Tests for case-sensitivity detection and case folding.

use std::path::Path;

use crate::{
    CaseSensitivity,
    case::{flip_case, fold, probe_case_sensitivity},
    test_tree::Tree,
};

#[test]
fn flipping_swaps_every_letter_and_keeps_the_rest() {
    assert_eq!(flip_case("hooks.json"), "HOOKS.JSON");
    assert_eq!(flip_case("Check-2.SH"), "cHECK-2.sh");
    assert_eq!(flip_case("123_-."), "123_-.");
    assert_eq!(flip_case("Ärger"), "äRGER");
}

#[test]
fn folding_lowercases_the_whole_path() {
    assert_eq!(fold(Path::new("/Proj/.Cursor/HOOKS.json")), "/proj/.cursor/hooks.json");
}

/// The temporary folders of the Linux test machines are on case-sensitive file systems.
#[cfg(target_os = "linux")]
#[test]
fn a_case_sensitive_file_system_probes_sensitive() {
    let tree = Tree::new();
    assert_eq!(probe_case_sensitivity(tree.hook_file.as_path()), CaseSensitivity::Sensitive);
}

#[cfg(target_os = "linux")]
#[test]
fn a_name_without_letters_probes_its_folder() {
    let tree = Tree::new();
    let digits = tree.cwd.join("src/1234");
    std::fs::write(&digits, "x").expect("write");
    assert_eq!(probe_case_sensitivity(&digits), CaseSensitivity::Sensitive);
    // A missing file probes its folder as well.
    assert_eq!(probe_case_sensitivity(&tree.cwd.join("src/missing")), CaseSensitivity::Sensitive);
}

#[cfg(target_os = "linux")]
#[test]
fn two_files_differing_by_case_probe_sensitive() {
    let tree = Tree::new();
    let upper = tree.cwd.join(".cursor/HOOKS.JSON");
    std::fs::write(&upper, "{}").expect("write");
    assert_eq!(probe_case_sensitivity(tree.hook_file.as_path()), CaseSensitivity::Sensitive);
}

#[test]
fn nothing_to_probe_falls_back_to_the_platform_default() {
    assert_eq!(probe_case_sensitivity(Path::new("/")), CaseSensitivity::platform_default());
}
