//! Project automation: `cargo xtask <command>`.
//!
//! Commands: `test <layer>`, `check-layers`, `tidy`, `fuzz-lock`, `check-pie`, `check-static`,
//! `package`, `doc`, `ci`, `dist`, `layout`, `bench <area> [--json]`, `fuzz --seconds N [TARGET…]`,
//! `agents [AGENT...] [RUN...]`. Run `cargo xtask help`
//! for the list.

mod agents;
mod fuzz_seeds;
mod layers;
mod layout;
mod peer;
mod tidy;

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

const HELP: &str = "\
cargo xtask <command>

commands:
  test <layer>          run the tests of a layer: schema, formats, core, io, app, it, all
  check-layers          fail when a crate depends on a layer above it or owns a forbidden dependency
  tidy                  fail when a source file lacks its `//!` line or a test is ignored
  package               `cargo package` every publishable crate (see specs/publishing.md)
  doc                   `cargo doc --no-deps` for the workspace, warnings denied
  fuzz-lock             fail when fuzz/Cargo.lock is not current
  check-pie             build the debug `hooks` binary and fail when it is a PIE on Linux (see
                        cli/build.rs; HOOKS_PIE=1 expects one)
  check-static          link the debug `hooks` binary with glibc built in (Linux, glibc) and
                        run the integration tests that drive the tool on it
  ci                    fmt check, clippy (warnings denied), check-layers, tidy, fuzz-lock,
                        package, doc, all tests (doc tests included), check-pie, check-static,
                        the otel feature's clippy and tests
  dist                  build the `hooks` binary to hand out: on Linux with glibc the release
                        build with glibc linked in and its one-shot path's functions placed
                        together (xtask/layout/hooks.order; target/dist/hooks-static),
                        elsewhere profile `dist`
  layout                record the functions a one-shot event runs into
                        xtask/layout/hooks.order (needs valgrind; see xtask/src/layout.rs)
  bench <area> [--json] [--features F]
                        run one benchmark area: registry, dispatch, guard, watcher, serve,
                        oneshot, subscriber, protocols, bridge (F: cargo features, e.g. otel
                        for subscriber's exporter variant, tracing/max_level_off)
  bench peer [--json] [--runs N] [--rounds N]
                        Chrys's own HookManager.fire vs `hooks serve` (the Chrys oracle's
                        fire_bench.py; needs $CHRYS_WHEEL_DIR, see xtask/src/peer.rs)
  fuzz --seconds N [TARGET...]
                        run every fuzz target (or the ones named) for N seconds each (needs
                        cargo-fuzz), a missing corpus seeded from the checkout's test_data
  agents [AGENT...] [RUN...]
                        the real-agent suite for `hooks bridge` (not in CI; needs the agent CLIs
                        and the real-agent harness, $REALAGENTS_DIR); names limit the agents and
                        runs (deny, allow, edit, plugin, wrapper, changed, retrust, subfolder)
";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["test", layer] => test_layer(layer),
        ["check-layers"] => {
            layers::check(&workspace_root())?;
            println!("check-layers: ok");
            Ok(())
        }
        ["tidy"] => {
            tidy::check(&workspace_root())?;
            println!("tidy: ok");
            Ok(())
        }
        ["package"] => package(),
        ["doc"] => doc(),
        ["fuzz-lock"] => fuzz_lock(),
        ["check-pie"] => linked_without_pie(),
        ["ci"] => ci(),
        ["check-static"] => check_static(),
        ["dist"] => dist(),
        ["layout"] => record_layout(),
        ["agents", only @ ..] => agents::agents(only),
        ["bench", "peer", rest @ ..] => peer::peer(rest),
        ["bench", area, rest @ ..] => bench(area, rest),
        ["fuzz", "--seconds", n, targets @ ..] => {
            fuzz(n.parse().context("--seconds takes a number")?, targets)
        }
        [] | ["help" | "--help" | "-h"] => {
            print!("{HELP}");
            Ok(())
        }
        other => bail!("unknown command {other:?}\n\n{HELP}"),
    }
}

/// The workspace root (the parent of this crate's folder).
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// The cargo target folder: `$CARGO_TARGET_DIR`, else the workspace's `target/`.
pub(crate) fn target_dir() -> PathBuf {
    #[allow(clippy::disallowed_methods, reason = "xtask is tooling")]
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace_root().join("target"), PathBuf::from)
}

/// The packages each test layer covers.
fn layer_packages(layer: &str) -> Result<Vec<&'static str>> {
    let schema = ["hooks-schema", "hooks-json", "hooks-yaml"];
    let formats = [
        "hooks-format-cursor",
        "hooks-format-chrys",
        "hooks-format-claude",
        "hooks-format-codex",
        "hooks-format-gemini",
        "hooks-format-copilot",
        "hooks-format-windsurf",
    ];
    let core = ["hooks-trust", "hooks-registry", "hooks-testing"];
    let io =
        ["hooks-sources", "hooks-watcher", "hooks-guard", "hooks-dispatch", "hooks-truststore"];
    let app = ["hooks-app", "hooks-cli"];
    let it = ["hooks-tests"];
    Ok(match layer {
        "schema" => schema.to_vec(),
        "formats" => formats.to_vec(),
        "core" => core.to_vec(),
        "io" => io.to_vec(),
        "app" => app.to_vec(),
        "it" => it.to_vec(),
        "all" => [&schema[..], &formats, &core, &io, &app, &it, &["xtask"]].concat(),
        other => bail!("unknown layer `{other}`: schema, formats, core, io, app, it, all"),
    })
}

fn test_layer(layer: &str) -> Result<()> {
    let packages = layer_packages(layer)?;
    if layer == "schema" {
        // hooks-schema must build on its own, without any feature another crate enables.
        run(cargo().args(["check", "--quiet", "-p", "hooks-schema"]))?;
    }
    // nextest runs no doc tests: every library's examples run here (edition 2024 builds one
    // binary of them per crate).
    let libraries: Vec<&str> =
        packages.iter().copied().filter(|p| !matches!(*p, "hooks-tests" | "xtask")).collect();
    if !libraries.is_empty() {
        let mut doc = cargo();
        doc.args(["test", "--quiet", "--doc"]);
        for p in &libraries {
            doc.args(["-p", p]);
        }
        run(&mut doc)?;
    }
    let mut cmd = cargo();
    if has_nextest() {
        cmd.args(["nextest", "run", "--no-fail-fast"]);
    } else {
        cmd.args(["test", "--no-fail-fast"]);
    }
    for p in packages {
        cmd.args(["-p", p]);
    }
    run(&mut cmd)
}

fn ci() -> Result<()> {
    run(cargo().args(["fmt", "--all", "--check"]))?;
    run(cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--quiet",
        "--",
        "-D",
        "warnings",
    ]))?;
    layers::check(&workspace_root())?;
    println!("check-layers: ok");
    tidy::check(&workspace_root())?;
    println!("tidy: ok");
    fuzz_lock()?;
    package()?;
    doc()?;
    test_layer("all")?;
    linked_without_pie()?;
    check_static()?;
    otel()
}

/// Whether the build asked for a position-independent `hooks` (`HOOKS_PIE=1`, read by
/// `cli/build.rs` too).
fn pie_wanted() -> bool {
    #[allow(clippy::disallowed_methods, reason = "xtask is tooling")]
    std::env::var("HOOKS_PIE").is_ok_and(|v| v == "1")
}

/// Whether `hooks` can be linked with glibc built in: Linux with the GNU C library (the flag
/// is `crt-static`; musl targets are static already).
const STATIC_LINK: bool = cfg!(all(target_os = "linux", target_env = "gnu"));

/// Links the `hooks` binary of cargo profile `profile` with glibc built in and returns the
/// path of a copy, `hooks-static` beside `hooks`.
///
/// Why (`specs/dispatch.md`, "Linked with glibc built in"): an agent starts `hooks` once per
/// event, and the dynamic loader's work (three shared libraries mapped and relocated, their
/// symbols bound) was a quarter to a half of an event that runs no hook. Cargo cannot give
/// one binary `-C target-feature=+crt-static` (as a workspace flag it reaches the proc macros,
/// which cannot be static), so the binary is linked again by `cargo rustc` with the flag on
/// its own crate; it lands where the normal build puts `hooks`, which the next `cargo build`
/// links again as before, hence the copy. Position-dependent like the normal build (`cli/build.rs`),
/// or a static PIE with `HOOKS_PIE=1`.
///
/// With `ordered`, the functions of [`layout::LIST`] are placed together (`specs/dispatch.md`,
/// "Code layout"): the profile's ordinary build is made first, as the reference the list's
/// names are resolved against.
fn static_hooks(profile: &str, ordered: bool) -> Result<PathBuf> {
    let pie_wanted = pie_wanted();
    let dir = target_dir().join(match profile {
        "dev" | "test" => "debug",
        "release" | "bench" => "release",
        other => other,
    });
    let mut ordering = None;
    if ordered {
        run(cargo()
            .args(["build", "--quiet", "--profile", profile, "-p", "hooks-cli"])
            .args(["--bin", "hooks"]))?;
        let recorded = matches!(profile, "release" | "bench");
        ordering = layout::ordering_file(&workspace_root(), &dir.join("hooks"), recorded)?;
    }
    let mut cmd = cargo();
    cmd.args(["rustc", "--quiet", "--profile", profile, "-p", "hooks-cli", "--bin", "hooks"]);
    cmd.args(["--", "-C", "target-feature=+crt-static"]);
    if !pie_wanted {
        cmd.args(["-C", "relocation-model=static"]);
    }
    for a in ordering.iter().flat_map(|f| layout::link_args(f)) {
        cmd.args(["-C", &a]);
    }
    run(&mut cmd)?;
    let copy = dir.join("hooks-static");
    std::fs::copy(dir.join("hooks"), &copy).with_context(|| {
        format!("copying {} to {}", dir.join("hooks").display(), copy.display())
    })?;
    let headers = program_headers(&copy)?;
    // PT_INTERP (3): a dynamic loader is named; PT_DYNAMIC (2): shared libraries or, for a
    // static PIE, its own relocations (allowed then).
    if headers.contains(&3) || (!pie_wanted && headers.contains(&2)) {
        bail!("{} is not statically linked (program header types {headers:?})", copy.display());
    }
    if let Some(file) = &ordering {
        layout::check_placed(&copy, file)?;
    }
    Ok(copy)
}

/// The `p_type` of every program header of a 64-bit little-endian ELF file.
fn program_headers(path: &Path) -> Result<Vec<u32>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let field = |at: u64, len: usize| layout::le_field(&bytes, at, len);
    if !bytes.starts_with(b"\x7fELF\x02") {
        bail!("{} is not a 64-bit ELF file", path.display());
    }
    let (off, size, count) = (field(0x20, 8)?, field(0x36, 2)?, field(0x38, 2)?);
    (0..count)
        .map(|i| u32::try_from(field(layout::entry_at(off, i, size)?, 4)?).context("p_type"))
        .collect()
}

/// `check-static`: the debug `hooks` linked with glibc built in runs the integration tests
/// that drive the tool as a process (`HOOKS_IT_BIN`, `tests/it/cli.rs`): every command, the
/// formats' end-to-end fires, HTTP hooks (name resolution without the shared C library's
/// loader), the bridge, strict mode, `hooks serve` SIGKILLed while a hook runs (and the rest of
/// the modules those tests are in). Nothing to do where `hooks` is not linked with glibc.
fn check_static() -> Result<()> {
    if !STATIC_LINK {
        return Ok(());
    }
    let suites = tool_suites(&workspace_root().join("tests/it"))?;
    let bin = static_hooks("dev", true)?;
    let mut cmd = cargo();
    cmd.args(["test", "--quiet", "-p", "hooks-tests", "--test", "it", "--"]);
    cmd.args(&suites);
    cmd.env("HOOKS_IT_BIN", &bin);
    run(&mut cmd)?;
    println!("check-static: {} ok", bin.display());
    Ok(())
}

/// The modules of `tests/it` whose tests start the `hooks` tool through `tests/it/cli.rs`
/// (they call one of its runners), as test-name filters (`cli::`, `http_hooks::`, …).
fn tool_suites(dir: &Path) -> Result<Vec<String>> {
    const RUNNERS: [&str; 6] = [
        "hooks_in",
        "spawn_hooks",
        "fire_auto_approved",
        "fire_args",
        "hooks_argv",
        "hooks_command",
    ];
    let mut suites = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = entry?.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
        if path.extension().is_none_or(|e| e != "rs") || matches!(stem, "main" | "support") {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        // `cli.rs` itself defines the runners, so it is found the same way.
        if RUNNERS.iter().any(|r| text.contains(r)) {
            suites.push(format!("{stem}::"));
        }
    }
    suites.sort();
    if suites.len() < 2 {
        bail!("{}: no test module drives the `hooks` tool, expected several", dir.display());
    }
    Ok(suites)
}

/// `dist`: the `hooks` binary to hand out. On Linux with glibc: the `release` profile linked
/// with glibc built in and its one-shot path's functions placed together, copied to
/// `target/dist/hooks-static` (`specs/dispatch.md`, "Code layout": this layout, recorded on
/// `release`, saves more page faults than the `dist` profile's LTO, whose build would need a
/// list of its own); elsewhere profile `dist` (target/dist/hooks).
fn dist() -> Result<()> {
    if STATIC_LINK {
        let bin = static_hooks("release", true)?;
        let dir = target_dir().join("dist");
        std::fs::create_dir_all(&dir).with_context(|| format!("making {}", dir.display()))?;
        let out = dir.join("hooks-static");
        std::fs::copy(&bin, &out)
            .with_context(|| format!("copying {} to {}", bin.display(), out.display()))?;
        println!("{}", out.display());
        return Ok(());
    }
    run(cargo().args(["build", "--profile", "dist", "-p", "hooks-cli", "--bin", "hooks"]))
}

/// `layout`: records [`layout::LIST`] on the static release binary linked in cargo's own
/// layout.
fn record_layout() -> Result<()> {
    if !STATIC_LINK {
        bail!("`cargo xtask layout` records the static Linux binary's layout (Linux, glibc)");
    }
    let bin = static_hooks("release", false)?;
    layout::record(&workspace_root(), &bin, &target_dir().join("xtask-layout"))
}

/// On Linux the `hooks` binary (the debug build, linked here if the tests did not) is a
/// position-dependent executable
/// (`cli/build.rs` links it with `-no-pie`: no relocations at each start, `specs/dispatch.md`,
/// "One-shot"), unless `HOOKS_PIE=1` asked for a PIE: the ELF header's type is `ET_EXEC`,
/// not `ET_DYN`.
fn linked_without_pie() -> Result<()> {
    if !cfg!(target_os = "linux") {
        return Ok(());
    }
    let pie_wanted = pie_wanted();
    run(cargo().args(["build", "--quiet", "-p", "hooks-cli", "--bin", "hooks"]))?;
    let bin = target_dir().join("debug/hooks");
    let mut header = [0u8; 18];
    std::io::Read::read_exact(
        &mut std::fs::File::open(&bin).with_context(|| format!("opening {}", bin.display()))?,
        &mut header,
    )
    .with_context(|| format!("reading the ELF header of {}", bin.display()))?;
    if &header[..4] != b"\x7fELF" {
        bail!("{} is not an ELF file", bin.display());
    }
    // e_type, little-endian on every Linux target the workspace builds for (x86-64, aarch64).
    let kind = u16::from_le_bytes([header[16], header[17]]);
    let (want, name) = if pie_wanted { (3, "ET_DYN (a PIE)") } else { (2, "ET_EXEC (no PIE)") };
    if kind != want {
        bail!("{} has ELF type {kind}, expected {name}: see cli/build.rs", bin.display());
    }
    println!("hooks binary linked as {name}: ok");
    Ok(())
}

/// The `otel` feature (off by default, so the rest of CI never builds it): clippy over the
/// code it adds to hooks-app and hooks-cli, and the exporter's tests against a receiver on
/// 127.0.0.1 (`specs/observability.md`, "OpenTelemetry").
fn otel() -> Result<()> {
    run(cargo()
        .args(["clippy", "--quiet", "-p", "hooks-app", "-p", "hooks-cli", "--all-targets"])
        .args(["--features", "hooks-app/otel,hooks-cli/otel", "--", "-D", "warnings"]))?;
    let mut cmd = cargo();
    if has_nextest() {
        cmd.args(["nextest", "run", "--no-fail-fast", "-p", "hooks-app", "--features", "otel"]);
        cmd.args(["-E", "test(/^otel::/)"]);
    } else {
        cmd.args(["test", "-p", "hooks-app", "--features", "otel", "--lib", "otel::"]);
    }
    run(&mut cmd)
}

/// The crates that are published: every library crate, the app and the `hooks` tool (not
/// the integration tests, not xtask).
const PUBLISHED: &[&str] = &[
    "hooks-schema",
    "hooks-json",
    "hooks-yaml",
    "hooks-format-cursor",
    "hooks-format-chrys",
    "hooks-format-claude",
    "hooks-format-codex",
    "hooks-format-gemini",
    "hooks-format-copilot",
    "hooks-format-windsurf",
    "hooks-testing",
    "hooks-trust",
    "hooks-registry",
    "hooks-truststore",
    "hooks-sources",
    "hooks-guard",
    "hooks-dispatch",
    "hooks-watcher",
    "hooks-app",
    "hooks-cli",
];

/// `cargo package` for every published crate, as one workspace package run: cargo packs them
/// in dependency order and resolves each one's dependencies on the others against the crates
/// it just packed (a local overlay), so the path dependencies need no registry. Only
/// `hooks-schema`, whose dependencies are all published crates, is verified (unpacked and
/// built from its archive); verifying the rest would build the whole workspace a second
/// time in CI. `specs/publishing.md` says why.
fn package() -> Result<()> {
    run(cargo().args(["package", "--quiet", "--locked", "--allow-dirty", "-p", "hooks-schema"]))?;
    let mut cmd = cargo();
    // `--allow-dirty`: `cargo xtask ci` runs before a commit too; what is packed is the tree.
    cmd.args(["package", "--quiet", "--locked", "--allow-dirty", "--no-verify"]);
    for p in PUBLISHED {
        cmd.args(["-p", p]);
    }
    run(&mut cmd)?;
    println!("package: ok ({} crates)", PUBLISHED.len());
    Ok(())
}

/// Fails when `fuzz/Cargo.lock` is not current: the fuzz crate is its own workspace, which
/// `cargo xtask ci` never builds, so a dependency added to a crate it uses would otherwise
/// leave its lock behind until someone runs `cargo fuzz`. Resolving with `--locked` is
/// enough (no build); the fix is `cargo metadata --offline --manifest-path fuzz/Cargo.toml`.
fn fuzz_lock() -> Result<()> {
    let manifest = workspace_root().join("fuzz/Cargo.toml");
    let out = cargo()
        .args(["metadata", "--locked", "--format-version", "1", "--manifest-path"])
        .arg(&manifest)
        .stdout(std::process::Stdio::null())
        .output()
        .context("running cargo metadata for fuzz/")?;
    if !out.status.success() {
        bail!(
            "fuzz/Cargo.lock is not current (refresh it with `cargo metadata --offline \
             --manifest-path fuzz/Cargo.toml` and commit it):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    println!("fuzz lock: ok");
    Ok(())
}

/// `cargo doc --no-deps` for the workspace, with rustdoc's warnings (broken links, bad code
/// blocks) denied.
fn doc() -> Result<()> {
    run(cargo()
        .args(["doc", "--quiet", "--no-deps", "--workspace", "--exclude", "xtask"])
        .env("RUSTDOCFLAGS", "-D warnings"))?;
    println!("doc: ok");
    Ok(())
}

/// Maps a benchmark area to the package and bench target that hold it.
fn bench_target(area: &str) -> Result<(&'static str, &'static str)> {
    Ok(match area {
        "registry" => ("hooks-registry", "registry"),
        "dispatch" => ("hooks-dispatch", "dispatch"),
        "guard" => ("hooks-guard", "guard"),
        "watcher" => ("hooks-watcher", "watcher"),
        "serve" => ("hooks-app", "serve"),
        "oneshot" => ("hooks-cli", "oneshot"),
        "subscriber" => ("hooks-app", "subscriber"),
        "protocols" => ("hooks-app", "protocols"),
        "bridge" => ("hooks-cli", "bridge"),
        other => bail!(
            "unknown bench area `{other}`: registry, dispatch, guard, watcher, serve, oneshot, subscriber, protocols, bridge"
        ),
    })
}

/// `cargo bench` of one area. `--features F` builds it with cargo features (the `subscriber`
/// area's OpenTelemetry variant needs `otel`; `tracing/max_level_off` compiles every span
/// and event out, the baseline for "no cost without a subscriber": give such a build its own
/// `CARGO_TARGET_DIR`, or it rebuilds the workspace each time the features change).
fn bench(area: &str, rest: &[&str]) -> Result<()> {
    let (package, target) = bench_target(area)?;
    let mut json = false;
    let mut features = None;
    let mut args = rest.iter();
    while let Some(a) = args.next() {
        match *a {
            "--json" => json = true,
            "--features" => features = Some(*args.next().context("--features needs a value")?),
            other => bail!("unexpected argument {other:?}: --json, --features F"),
        }
    }
    let mut cmd = cargo();
    if matches!(area, "oneshot" | "bridge") && STATIC_LINK && features.is_none() {
        // The binary `cargo xtask dist` hands out is linked with glibc built in: measured
        // beside the one cargo builds, in the same rounds.
        cmd.env("HOOKS_BENCH_STATIC", static_hooks("release", true)?);
    }
    cmd.args(["bench", "--quiet", "-p", package, "--bench", target]);
    if let Some(f) = features {
        cmd.args(["--features", f]);
    }
    cmd.arg("--");
    if json {
        cmd.arg("--json");
    }
    run(&mut cmd)
}

/// Runs the fuzz targets named in `only` (every one when it is empty) for `seconds` each.
fn fuzz(seconds: u64, only: &[&str]) -> Result<()> {
    let root = workspace_root().join("fuzz");
    if !root.join("Cargo.toml").exists() {
        bail!("no fuzz/ folder: the fuzz targets are not in this checkout");
    }
    let out = Command::new("cargo")
        .args(["fuzz", "list"])
        .env("RUSTC_BOOTSTRAP", "1")
        .current_dir(&root)
        .output()
        .context("running `cargo fuzz list` (install cargo-fuzz)")?;
    if !out.status.success() {
        bail!("`cargo fuzz list` failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let listed = String::from_utf8_lossy(&out.stdout);
    let listed: Vec<&str> = listed.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if let Some(unknown) = only.iter().find(|t| !listed.contains(t)) {
        bail!("no fuzz target {unknown}; the targets: {}", listed.join(", "));
    }
    for target in listed.into_iter().filter(|t| only.is_empty() || only.contains(t)) {
        let seeded =
            fuzz_seeds::seed_corpus(&workspace_root(), target, &root.join("corpus").join(target))?;
        if seeded > 0 {
            println!("fuzz: {target}: a new corpus with {seeded} seeds from the checkout");
        }
        println!("fuzz: {target} for {seconds} s");
        // cargo-fuzz needs nightly flags; on the stable toolchain RUSTC_BOOTSTRAP lets them
        // through, and only the optimized build (`-O`) gets past cargo's target probe
        // (specs/hardening.md, "Running").
        run(Command::new("cargo")
            .args(["fuzz", "run", "-O", target, "--", &format!("-max_total_time={seconds}")])
            .env("RUSTC_BOOTSTRAP", "1")
            .current_dir(&root))?;
    }
    Ok(())
}

/// The cargo that runs us (`$CARGO`), so a pinned toolchain is used throughout.
#[allow(
    clippy::disallowed_methods,
    reason = "xtask is tooling, not the engine's environment table"
)]
pub(crate) fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(workspace_root());
    c
}

fn has_nextest() -> bool {
    cargo().args(["nextest", "--version"]).output().is_ok_and(|o| o.status.success())
}

fn run(cmd: &mut Command) -> Result<()> {
    eprintln!("$ {}", display(cmd));
    let status = cmd.status().with_context(|| format!("spawning {}", display(cmd)))?;
    if !status.success() {
        bail!("`{}` failed: {status}", display(cmd));
    }
    Ok(())
}

fn display(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|s| s.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}
