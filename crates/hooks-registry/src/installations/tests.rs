//! Tests for finding an interpreter and the installation it starts from.

use std::{
    os::unix::fs::{PermissionsExt, symlink},
    path::{Path, PathBuf},
};

use hooks_schema::AbsPathBuf;

use super::{find_program, installation, system_configs};
use crate::scripts::Family;

/// Writes `text` at `path` (its folders made), executable when `exec`.
fn write(path: &Path, text: &str, exec: bool) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    let mode = if exec { 0o755 } else { 0o644 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn abs(path: PathBuf) -> AbsPathBuf {
    AbsPathBuf::new(path).unwrap()
}

#[test]
fn a_program_is_the_first_executable_of_its_name_on_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let d = &crate::paths::canonicalize(dir.path()).unwrap().into_path_buf();
    write(&d.join("a/python3"), "not executable", false);
    std::fs::create_dir_all(d.join("b/python3")).unwrap();
    write(&d.join("c/python3"), "#!/bin/sh\n", true);
    write(&d.join("d/python3"), "#!/bin/sh\n", true);
    let folders: Vec<AbsPathBuf> = ["missing", "a", "b", "c", "d"].map(|f| abs(d.join(f))).into();
    assert_eq!(find_program("python3", &folders), Some(d.join("c/python3")));
    assert_eq!(find_program("python3.99", &folders), None);
    // A name with a `/` is no program looked up on `PATH`.
    assert_eq!(find_program("c/python3", &[abs(d.to_path_buf())]), None);
    assert_eq!(find_program("", &folders), None);
}

#[test]
fn a_virtual_environment_starts_from_its_lib_its_config_and_its_base_installation() {
    let dir = tempfile::tempdir().unwrap();
    let d = &crate::paths::canonicalize(dir.path()).unwrap().into_path_buf();
    // A base installation (a pyenv version, a uv-managed Python) and a venv linked to it.
    write(&d.join("base/bin/python3.12"), "#!/bin/sh\n", true);
    std::fs::create_dir_all(d.join("venv/bin")).unwrap();
    symlink(d.join("base/bin/python3.12"), d.join("venv/bin/python3")).unwrap();
    let home = d.join("base/bin");
    write(
        &d.join("venv/pyvenv.cfg"),
        &format!("home = {}\nversion = 3.12.1\n", home.display()),
        false,
    );
    assert_eq!(
        installation(&d.join("venv/bin/python3"), Family::Python),
        vec![
            d.join("base/lib"),
            d.join("base/lib64"),
            // Where a Debian or Fedora build of that version loads `.pth` files from too.
            d.join("base/local/lib/python3.12"),
            d.join("base/local/lib64/python3.12"),
            // Written, it would make the base installation take its library from elsewhere.
            d.join("base/pyvenv.cfg"),
            d.join("venv/lib"),
            d.join("venv/lib64"),
            d.join("venv/local/lib/python3.12"),
            d.join("venv/local/lib64/python3.12"),
            d.join("venv/pyvenv.cfg"),
        ],
    );
    // A copy (`python -m venv --copies`): the base only through `pyvenv.cfg`'s `home`.
    write(&d.join("copies/bin/python3"), "#!/bin/sh\n", true);
    write(&d.join("copies/pyvenv.cfg"), &format!("home={}\n", home.display()), false);
    assert_eq!(
        installation(&d.join("copies/bin/python3"), Family::Python),
        vec![
            d.join("base/lib"),
            d.join("copies/lib"),
            d.join("copies/lib64"),
            // No name says the version: the whole of `local/lib` and `local/lib64`.
            d.join("copies/local/lib"),
            d.join("copies/local/lib64"),
            d.join("copies/pyvenv.cfg"),
        ],
    );
    // An installation: its `lib/`, and the `pyvenv.cfg` it would read if one were written.
    assert_eq!(
        installation(&d.join("base/bin/python3.12"), Family::Python),
        vec![
            d.join("base/lib"),
            d.join("base/lib64"),
            d.join("base/local/lib/python3.12"),
            d.join("base/local/lib64/python3.12"),
            d.join("base/pyvenv.cfg"),
        ],
    );
}

#[test]
fn a_version_manager_s_shim_leads_to_the_manager_s_folder_and_the_root_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = &crate::paths::canonicalize(dir.path()).unwrap().into_path_buf();
    let root = d.join("elsewhere/.pyenv");
    write(
        &d.join(".pyenv/shims/python3"),
        &format!(
            "#!/usr/bin/env bash\nset -e\nprogram=\"${{0##*/}}\"\n\nexport PYENV_ROOT=\"{}\"\nexec \"{}/libexec/pyenv\" exec \"$program\" \"$@\"\n",
            root.display(),
            root.display()
        ),
        true,
    );
    assert_eq!(
        installation(&d.join(".pyenv/shims/python3"), Family::Python),
        vec![d.join(".pyenv"), root]
    );
    // asdf's and mise's shims name no root: the folder above `shims/`.
    write(
        &d.join(".asdf/shims/python3"),
        "#!/usr/bin/env bash\nexec asdf exec python3 \"$@\"\n",
        true,
    );
    assert_eq!(installation(&d.join(".asdf/shims/python3"), Family::Python), vec![d.join(".asdf")]);
    // A root that is not an absolute path names nothing more.
    write(&d.join("m/shims/python3"), "export PYENV_ROOT=\"$HOME/.pyenv\"\n", true);
    assert_eq!(installation(&d.join("m/shims/python3"), Family::Python), vec![d.join("m")]);
}

#[test]
fn a_program_in_another_folder_or_a_fifo_for_a_config_names_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let d = &crate::paths::canonicalize(dir.path()).unwrap().into_path_buf();
    write(&d.join("tools/python3"), "#!/bin/sh\n", true);
    assert!(installation(&d.join("tools/python3"), Family::Python).is_empty());
    // A FIFO where `pyvenv.cfg` is read does not hold the reading.
    write(&d.join("env/bin/python3"), "#!/bin/sh\n", true);
    let made = std::process::Command::new("mkfifo").arg(d.join("env/pyvenv.cfg")).status();
    assert!(made.unwrap().success());
    assert_eq!(
        installation(&d.join("env/bin/python3"), Family::Python),
        vec![
            d.join("env/lib"),
            d.join("env/lib64"),
            d.join("env/local/lib"),
            d.join("env/local/lib64"),
            d.join("env/pyvenv.cfg"),
        ],
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Whatever a shim or a `pyvenv.cfg` holds, reading it ends, names absolute paths only,
    /// and keeps what the program's folders name.
    #[test]
    fn any_shim_or_config_text_names_absolute_paths_only(text in "(?s).{0,300}", cfg in "(?s).{0,300}") {
        let dir = tempfile::tempdir().unwrap();
        let d = &crate::paths::canonicalize(dir.path()).unwrap().into_path_buf();
        write(&d.join("m/shims/python3"), &text, true);
        write(&d.join("v/bin/python3"), "", true);
        write(&d.join("v/pyvenv.cfg"), &cfg, false);
        let shim = installation(&d.join("m/shims/python3"), Family::Python);
        let venv = installation(&d.join("v/bin/python3"), Family::Python);
        proptest::prop_assert!(shim.iter().chain(&venv).all(|p| p.is_absolute()));
        proptest::prop_assert!(shim.contains(&d.join("m")));
        proptest::prop_assert!(venv.contains(&d.join("v/lib")) && venv.contains(&d.join("v/pyvenv.cfg")));
    }
}

#[test]
fn another_interpreter_s_installation_is_its_lib_and_its_manager_s_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = &crate::paths::canonicalize(dir.path()).unwrap().into_path_buf();
    // nvm's Node, rbenv's shim: no `pyvenv.cfg` for what is not a Python.
    write(&d.join(".nvm/versions/node/v22.1.0/bin/node"), "", true);
    assert_eq!(
        installation(&d.join(".nvm/versions/node/v22.1.0/bin/node"), Family::Node),
        vec![
            d.join(".nvm/versions/node/v22.1.0/lib"),
            d.join(".nvm/versions/node/v22.1.0/lib64"),
            d.join(".nvm/versions/node/v22.1.0/share/nodejs"),
        ],
    );
    write(&d.join(".rbenv/shims/ruby"), "#!/usr/bin/env bash\nexec rbenv exec ruby \"$@\"\n", true);
    assert_eq!(installation(&d.join(".rbenv/shims/ruby"), Family::Ruby), vec![d.join(".rbenv")]);
}

#[test]
fn a_system_interpreter_s_installation_holds_its_distribution_s_module_folders() {
    // The programs need not exist: the folders follow from where each is, and a Python's
    // version from its name (Debian's `/usr/bin/python3` links to `python3.11`).
    let usr = |f: &str| Path::new("/usr").join(f);
    let python = installation(Path::new("/usr/bin/python3.11"), Family::Python);
    for f in ["lib", "lib64", "local/lib/python3.11", "local/lib64/python3.11"] {
        assert!(python.contains(&usr(f)), "{f}: {python:?}");
    }
    assert!(!python.contains(&usr("local/lib")), "{python:?}");
    let perl = installation(Path::new("/usr/bin/perl"), Family::Perl);
    assert_eq!(
        perl,
        [
            "/etc/perl",
            "/usr/lib",
            "/usr/lib64",
            "/usr/local/lib",
            "/usr/local/lib64",
            "/usr/local/share/perl",
            "/usr/local/share/perl5",
            "/usr/share/perl",
            "/usr/share/perl5",
        ]
        .map(PathBuf::from),
    );
    let ruby = installation(Path::new("/usr/bin/ruby"), Family::Ruby);
    for f in ["/usr/share/ruby", "/usr/share/gems", "/usr/local/lib/site_ruby", "/var/lib/gems"] {
        assert!(ruby.contains(&PathBuf::from(f)), "{f}: {ruby:?}");
    }
    let node = installation(Path::new("/usr/bin/node"), Family::Node);
    assert!(node.contains(&usr("share/nodejs")), "{node:?}");
    // `/etc/perl` and `/var/lib/gems` belong to the system's `/usr` installation only.
    let elsewhere = installation(Path::new("/opt/perl/bin/perl"), Family::Perl);
    assert!(elsewhere.contains(&PathBuf::from("/opt/perl/share/perl5")), "{elsewhere:?}");
    assert!(!elsewhere.iter().any(|f| f.starts_with("/etc")), "{elsewhere:?}");
    // Another program: its `lib/` and `lib64/` alone.
    assert_eq!(
        installation(Path::new("/usr/bin/jq"), Family::Other),
        [PathBuf::from("/usr/lib"), PathBuf::from("/usr/lib64")]
    );
}

#[test]
fn a_program_s_installation_configuration_is_under_the_prefix_it_is_found_in() {
    let paths = |v: &[&str]| v.iter().map(PathBuf::from).collect::<Vec<_>>();
    // A distribution's build reads the system's files besides its prefix's.
    assert_eq!(
        system_configs(Path::new("/usr/bin/git")),
        paths(&["/usr/etc/gitconfig", "/etc/gitconfig"])
    );
    assert_eq!(
        system_configs(Path::new("/usr/bin/npm")),
        paths(&[
            "/usr/etc/npmrc",
            "/usr/lib/node_modules/npm/npmrc",
            "/etc/npmrc",
            "/usr/share/nodejs/npm/npmrc",
        ])
    );
    // Another prefix (a git built from source, Homebrew, nvm's Node): its own files alone.
    assert_eq!(
        system_configs(Path::new("/usr/local/bin/git")),
        paths(&["/usr/local/etc/gitconfig"])
    );
    assert_eq!(
        system_configs(Path::new("/home/u/.nvm/versions/node/v22.1.0/bin/npx")),
        paths(&[
            "/home/u/.nvm/versions/node/v22.1.0/etc/npmrc",
            "/home/u/.nvm/versions/node/v22.1.0/lib/node_modules/npm/npmrc",
        ])
    );
    assert_eq!(
        system_configs(Path::new("/opt/homebrew/bin/wget")),
        paths(&["/opt/homebrew/etc/wgetrc"])
    );
    // Outside a `bin/` folder no prefix is known; a program that reads none names none.
    assert!(system_configs(Path::new("/opt/tools/git")).is_empty());
    assert!(system_configs(Path::new("/usr/bin/jq")).is_empty());
    assert!(system_configs(Path::new("/usr/bin/python3")).is_empty());
}

/// A version manager's shim names the files that manager picks the version by (finding
/// F120); another program names none.
#[test]
fn a_version_manager_s_shim_names_its_version_files() {
    let files = |p: &str| super::version_files(Path::new(p));
    let pyenv = files("/home/u/.pyenv/shims/python3").expect("pyenv");
    assert_eq!(pyenv.here, [".python-version"]);
    assert!(pyenv.home.is_empty());
    assert_eq!(files("/home/u/.rbenv/shims/ruby").expect("rbenv").here, [".ruby-version"]);
    let asdf = files("/home/u/.asdf/shims/node").expect("asdf");
    assert!(asdf.here.contains(&".tool-versions") && asdf.here.contains(&".nvmrc"));
    assert_eq!(asdf.home, [".tool-versions"]);
    let mise = files("/home/u/.local/share/mise/shims/python3").expect("mise");
    assert!(mise.here.contains(&"mise.toml") && mise.here.contains(&".python-version"));
    for other in ["/usr/bin/python3", "/home/u/.venv/bin/python3", "/opt/shims/python3", "python3"]
    {
        assert_eq!(files(other), None, "{other}");
    }
}
