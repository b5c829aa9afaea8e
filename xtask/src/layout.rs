//! Code layout of the `hooks` binary: the functions a one-shot event runs, placed together.
//!
//! An agent starts `hooks` once per event. The kernel maps a binary's code into the process
//! 64 KiB at a time around each page fault (fault-around), so a start pays for every 64 KiB
//! block it runs code in, and the exit for unmapping them. In cargo's default layout the
//! 1 500 functions a `hooks fire` runs are spread over about a hundred such blocks of the
//! 16 MB of code; placed together they need about twenty (`specs/dispatch.md`, "Code layout").
//!
//! `cargo xtask layout` records those functions (callgrind, on the events of
//! [`scenarios`]) into [`LIST`], committed. Valgrind cannot run a child started with `CLONE_VM`
//! alone, so what it records of a one-hook event is the engine's other way of starting its
//! reaper (under valgrind the engine is above the size that shares its memory), not the
//! `clone` the real run makes: the reaper's two modules are listed whole instead. The links of the binary that is handed out and
//! measured (`cargo xtask dist`, `bench oneshot`/`bridge`, `check-static`) give LLD that list
//! as its symbol ordering file. Rust symbol names end in a hash that changes with the build's
//! configuration (profile, toolchain, dependency versions), so each link resolves the list
//! against the symbols of the same profile's ordinary build ([`resolve`]): by name, else by
//! the name without its hash ([`key`]) where that is unambiguous. A name that is gone only
//! leaves its function where cargo would put it; the layout changes no behaviour.

use std::{
    borrow::Cow,
    collections::{BTreeMap, BTreeSet},
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use anyhow::{Context, Result, bail};

/// The committed list, relative to the workspace root.
pub(crate) const LIST: &str = "xtask/layout/hooks.order";

/// The name a symbol `name` is matched by when its hash differs between builds ([`resolve`]):
/// without the `.llvm.<n>` suffix of a function promoted out of its codegen unit and without
/// the hash of a Rust legacy-mangled name (`…17h<16 hex digits>E` becomes `…17hE`); borrowed
/// when there was no hash. Other names are kept as they are.
pub(crate) fn key(name: &str) -> Cow<'_, str> {
    let name = plain(name);
    let bytes = name.as_bytes();
    let n = bytes.len();
    if n > 20
        && name.starts_with("_ZN")
        && bytes[n - 1] == b'E'
        && &bytes[n - 20..n - 17] == b"17h"
        && bytes[n - 17..n - 1].iter().all(u8::is_ascii_hexdigit)
    {
        return Cow::Owned(format!("{}E", &name[..n - 17]));
    }
    Cow::Borrowed(name)
}

/// One function symbol of an ELF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    pub name: String,
    pub addr: u64,
    pub size: u64,
}

/// The defined function symbols (`STT_FUNC`, `STT_GNU_IFUNC`) of a 64-bit little-endian ELF
/// file's `.symtab`, and the text of its `.comment` section (where the linker signs).
pub(crate) fn elf_functions(path: &Path) -> Result<(Vec<Symbol>, String)> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    parse_elf(&bytes).with_context(|| format!("reading the symbols of {}", path.display()))
}

/// The little-endian number of `len` bytes at `at` in `bytes` (an ELF file's field).
pub(crate) fn le_field(bytes: &[u8], at: u64, len: usize) -> Result<u64> {
    let at = usize::try_from(at).context("ELF offset")?;
    let end = at.checked_add(len).context("ELF offset")?;
    let b = bytes.get(at..end).context("truncated ELF file")?;
    Ok(b.iter().rev().fold(0, |acc, &x| (acc << 8) | u64::from(x)))
}

/// The offset of entry `i` of a table at `base` whose entries are `size` bytes (ELF headers).
pub(crate) fn entry_at(base: u64, i: u64, size: u64) -> Result<u64> {
    i.checked_mul(size).and_then(|o| base.checked_add(o)).context("ELF offset")
}

fn parse_elf(bytes: &[u8]) -> Result<(Vec<Symbol>, String)> {
    let field = |at: u64, len: usize| le_field(bytes, at, len);
    if !bytes.starts_with(b"\x7fELF\x02\x01") {
        bail!("not a 64-bit little-endian ELF file");
    }
    let (shoff, shentsize, shnum, shstrndx) =
        (field(0x28, 8)?, field(0x3a, 2)?, field(0x3c, 2)?, field(0x3e, 2)?);
    // (name, type, offset, size, link, entsize) of section `i`.
    let section = |i: u64| -> Result<(u64, u64, u64, u64, u64, u64)> {
        let h = entry_at(shoff, i, shentsize)?;
        Ok((
            field(h, 4)?,
            field(h.saturating_add(4), 4)?,
            field(h.saturating_add(0x18), 8)?,
            field(h.saturating_add(0x20), 8)?,
            field(h.saturating_add(0x28), 4)?,
            field(h.saturating_add(0x38), 8)?,
        ))
    };
    let cstr = |at: u64| -> Result<&str> {
        let at = usize::try_from(at).context("offset")?;
        let rest = bytes.get(at..).context("truncated")?;
        let end = rest.iter().position(|&b| b == 0).context("unterminated name")?;
        std::str::from_utf8(&rest[..end]).context("name not UTF-8")
    };
    let (_, _, names_at, _, _, _) = section(shstrndx)?;
    let mut symbols = Vec::new();
    let mut comment = String::new();
    for i in 0..shnum {
        let (name, kind, offset, size, link, entsize) = section(i)?;
        if cstr(names_at.saturating_add(name))? == ".comment" {
            let at = usize::try_from(offset).context("offset")?;
            let end = at.checked_add(usize::try_from(size)?).context("size")?;
            let text = bytes.get(at..end).context("truncated .comment")?;
            comment = String::from_utf8_lossy(text).replace('\0', "\n");
        }
        // SHT_SYMTAB
        if kind != 2 || entsize != 24 {
            continue;
        }
        let (_, _, strings_at, _, _, _) = section(link)?;
        for s in 0..size / 24 {
            let at = entry_at(offset, s, 24)?;
            let info = field(at.saturating_add(4), 1)?;
            let shndx = field(at.saturating_add(6), 2)?;
            // STT_FUNC 2, STT_GNU_IFUNC 10; section index 0 is an undefined symbol.
            if !matches!(info & 0xf, 2 | 10) || shndx == 0 {
                continue;
            }
            let name = cstr(strings_at.saturating_add(field(at, 4)?))?;
            if !name.is_empty() {
                symbols.push(Symbol {
                    name: name.to_owned(),
                    addr: field(at.saturating_add(8), 8)?,
                    size: field(at.saturating_add(16), 8)?,
                });
            }
        }
    }
    Ok((symbols, comment))
}

/// An ordering resolved for one link: the symbol names in order, and how many of the list's
/// Rust functions the reference build has by their name, by their key alone, or not at all.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Resolved {
    pub names: Vec<String>,
    pub by_name: usize,
    pub by_key: usize,
    pub missing: usize,
}

/// A symbol's name without the `.llvm.<n>` suffix of a function promoted out of its codegen
/// unit (the same function may be promoted from several, with several suffixes).
fn plain(name: &str) -> &str {
    match name.find(".llvm.") {
        Some(at) if name[at + 6..].bytes().all(|b| b.is_ascii_digit()) => &name[..at],
        _ => name,
    }
}

/// Resolves the list's lines against `reference`'s symbols. A name the reference has (its
/// `.llvm.<n>` suffixes aside) is taken with every suffix it has there. A Rust name it lacks
/// (another profile, toolchain or dependency version changes every hash) is taken by its
/// [`key`] when exactly one function of the reference has that key: a generic function's
/// instances share their key, and which of them ran is only known from the hash, so they are
/// left out rather than all put on the hot path. Other names (C functions, which a dynamic
/// reference does not contain) are kept for LLD to find. Blank lines and `#` comments are
/// skipped; each symbol is given once.
pub(crate) fn resolve(list: &str, reference: &[Symbol]) -> Resolved {
    let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut by_key: BTreeMap<Cow<'_, str>, BTreeSet<&str>> = BTreeMap::new();
    for s in reference {
        by_name.entry(plain(&s.name)).or_default().push(&s.name);
        by_key.entry(key(&s.name)).or_default().insert(plain(&s.name));
    }
    let mut seen = BTreeSet::new();
    let mut out = Resolved { names: Vec::new(), by_name: 0, by_key: 0, missing: 0 };
    let mut push = |names: &[&str], out: &mut Resolved| {
        for name in names {
            if seen.insert((*name).to_owned()) {
                out.names.push((*name).to_owned());
            }
        }
    };
    for line in list.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let rust = line.starts_with("_ZN") || line.starts_with("_R");
        let k = key(line);
        if let Some(names) = by_name.get(line) {
            out.by_name += usize::from(rust);
            push(names, &mut out);
        } else if matches!(k, Cow::Owned(_)) {
            match by_key.get(&k).filter(|p| p.len() == 1).and_then(|p| p.first()) {
                Some(only) => {
                    out.by_key += 1;
                    push(&by_name[*only], &mut out);
                }
                None => out.missing += 1,
            }
        } else {
            push(&[line], &mut out);
        }
    }
    out
}

/// The symbol ordering file for the `hooks` binary of the profile whose ordinary build is
/// `reference`, written beside it; none (and a line saying why) when there is no list or the
/// reference was not linked by LLD (GNU ld has no ordering file). With `recorded_profile` (the
/// reference is of the profile the list was recorded on, `release`), a list of which fewer
/// than nine in ten Rust functions are found by name is reported as stale.
pub(crate) fn ordering_file(
    root: &Path,
    reference: &Path,
    recorded_profile: bool,
) -> Result<Option<PathBuf>> {
    let list_path = root.join(LIST);
    let list = match std::fs::read_to_string(&list_path) {
        Ok(list) => list,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!("layout: {} missing, cargo's layout kept", list_path.display());
            return Ok(None);
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", list_path.display())),
    };
    let (symbols, comment) = elf_functions(reference)?;
    if !comment.contains("Linker: LLD") {
        println!("layout: {} was not linked by LLD, cargo's layout kept", reference.display());
        return Ok(None);
    }
    let resolved = resolve(&list, &symbols);
    let mut text = resolved.names.join("\n");
    text.push('\n');
    // Cargo relinks when the arguments change, not when a file they name does: the file's name
    // carries its content's hash.
    let hash = text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    let file = reference.with_file_name(format!("hooks-layout-{hash:016x}.order"));
    std::fs::write(&file, text).with_context(|| format!("writing {}", file.display()))?;
    println!(
        "layout: of the Rust functions of {LIST}, {} found by name, {} by their name without \
         its hash, {} not found; {} symbols ordered",
        resolved.by_name,
        resolved.by_key,
        resolved.missing,
        resolved.names.len()
    );
    let listed = resolved.by_name + resolved.by_key + resolved.missing;
    if recorded_profile && resolved.by_name * 10 < listed * 9 {
        println!(
            "layout: warning: {LIST} is stale ({} of {listed} functions found by name: a new \
             toolchain or dependency versions); `cargo xtask layout` records it again",
            resolved.by_name
        );
    }
    Ok(Some(file))
}

/// The `rustc` arguments that give LLD `file` as its symbol ordering file.
pub(crate) fn link_args(file: &Path) -> [String; 2] {
    [
        format!("link-arg=-Wl,--symbol-ordering-file={}", file.display()),
        "link-arg=-Wl,--no-warn-symbol-ordering".to_owned(),
    ]
}

/// Fails unless `binary` has the functions of ordering file `file` placed together: the span
/// of addresses they cover is at most one and a half times their total size plus 64 KiB (a
/// C object without function sections moves whole, with the functions it has beside the
/// listed ones). Cargo's own layout spreads them over more than twice their size.
pub(crate) fn check_placed(binary: &Path, file: &Path) -> Result<()> {
    let names =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let names: BTreeSet<&str> = names.lines().collect();
    let (symbols, _) = elf_functions(binary)?;
    if symbols.is_empty() {
        println!(
            "layout: {} has no symbol table (stripped): placement not checked",
            binary.display()
        );
        return Ok(());
    }
    let placed: Vec<&Symbol> = symbols.iter().filter(|s| names.contains(s.name.as_str())).collect();
    let (Some(start), Some(end)) =
        (placed.iter().map(|s| s.addr).min(), placed.iter().map(|s| s.addr + s.size).max())
    else {
        bail!("{}: none of the functions of {} is in it", binary.display(), file.display());
    };
    let size: u64 = placed.iter().map(|s| s.size).sum();
    let span = end - start;
    if span > size + size / 2 + 65_536 {
        bail!(
            "{}: the {} functions of {} span {span} bytes for {size} bytes of code: not placed \
             together (was it linked with that ordering file?)",
            binary.display(),
            placed.len(),
            file.display()
        );
    }
    println!("layout: {} functions, {size} bytes, placed in {span} bytes", placed.len());
    Ok(())
}

/// The events the list is recorded on: what the benches of issue 23 measure and what an agent
/// runs most (a one-shot `fire` with no hook and with one, the bridge for Claude Code at a
/// session's first event, at a later one and with one hook).
struct Scenario {
    name: &'static str,
    /// Whether the event runs the hook.
    runs_hook: bool,
    args: Vec<String>,
    cwd: PathBuf,
    /// `HOME`, with the XDG folders under it.
    home: PathBuf,
    stdin: Vec<u8>,
}

fn scenarios(dir: &Path) -> Result<Vec<Scenario>> {
    let home = dir.join("home");
    let empty = dir.join("empty");
    let project = dir.join("project");
    for d in [&empty, &project] {
        std::fs::create_dir_all(d.join(".git"))
            .with_context(|| format!("making {}", d.display()))?;
    }
    let hooks_json = r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":"./hook.sh"}]}}"#;
    for d in [&project, &home] {
        std::fs::create_dir_all(d.join(".cursor"))?;
        std::fs::write(d.join(".cursor/hooks.json"), hooks_json)?;
        let script = if d == &project { d.join("hook.sh") } else { d.join(".cursor/hook.sh") };
        // Each run leaves a mark, so that a scenario that ran no hook is an error.
        let hook = format!(
            "#!/bin/sh\ncat >/dev/null\n: > '{}'\necho '{{\"permission\":\"allow\"}}'\n",
            dir.join(HOOK_RAN).display()
        );
        std::fs::write(&script, hook)?;
        let mut perms = std::fs::metadata(&script)?.permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&script, perms)?;
    }
    let config = dir.join("config");
    std::fs::create_dir_all(&config)?;
    let fire = |root: &Path| -> Vec<String> {
        let mut a: Vec<String> =
            ["fire", "beforeShellExecution", "--posture", "auto-approves", "--payload", "-"]
                .map(String::from)
                .to_vec();
        a.extend(["--root".into(), root.display().to_string()]);
        a.extend(["--config-dir".into(), config.display().to_string()]);
        a
    };
    let envelope =
        br#"{"session_id":"s1","tool":{"name":"Shell","kind":"shell","args":{"command":"ls -la"}}}"#
            .to_vec();
    let claude = |cwd: &Path, session: &str| -> Result<Vec<u8>> {
        Ok(serde_json::to_vec(&serde_json::json!({
            "session_id": session,
            "transcript_path": "/tmp/t.jsonl",
            "cwd": cwd,
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": "ls", "description": "list"},
            "tool_use_id": "toolu_1",
        }))?)
    };
    let bridge: Vec<String> = ["bridge", "--host", "claude"].map(String::from).to_vec();
    let bare_home = dir.join("bare-home");
    std::fs::create_dir_all(&bare_home)?;
    // The bridge's user Cursor hook is in `home`; every other event runs with a home that has
    // no hook file.
    let event = |name: &'static str, args, cwd: &Path, home: &Path, stdin| Scenario {
        name,
        runs_hook: name.ends_with("one-hook"),
        args,
        cwd: cwd.to_owned(),
        home: home.to_owned(),
        stdin,
    };
    Ok(vec![
        event("fire-no-hook", fire(&empty), &empty, &bare_home, envelope.clone()),
        event("fire-one-hook", fire(&project), &project, &bare_home, envelope),
        event("bridge-first-event", bridge.clone(), &empty, &bare_home, claude(&empty, "l-1")?),
        event("bridge-no-hook", bridge.clone(), &empty, &bare_home, claude(&empty, "l-1")?),
        event("bridge-one-hook", bridge, &empty, &home, claude(&empty, "l-2")?),
    ])
}

/// The file the scenarios' hook makes, in the recording's folder.
const HOOK_RAN: &str = "hook-ran";

/// Whether `name` is one of glibc's CPU-specific variants of a string function
/// (`__memmove_avx_unaligned_erms`), and its family's prefix (`__memmove_`).
fn glibc_variant_family(name: &str) -> Option<&str> {
    const VARIANTS: [&str; 8] = ["sse2", "ssse3", "sse4", "sse42", "avx", "evex", "erms", "rtm"];
    let rest = name.strip_prefix("__")?;
    let mut at = 2;
    for part in rest.split('_') {
        if VARIANTS.iter().any(|v| part.starts_with(v)) {
            return Some(&name[..at]);
        }
        at += part.len() + 1;
    }
    None
}

/// `cargo xtask layout`: records the functions the scenarios run in the static release
/// binary (callgrind; the forked reaper's too) and writes [`LIST`].
pub(crate) fn record(root: &Path, binary: &Path, work: &Path) -> Result<()> {
    if Command::new("valgrind").arg("--version").output().is_err() {
        bail!("`cargo xtask layout` needs valgrind (its callgrind tool) on the PATH");
    }
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work).with_context(|| format!("making {}", work.display()))?;
    let scenarios = scenarios(work)?;
    let out = work.join("callgrind");
    std::fs::create_dir_all(&out)?;
    for s in &scenarios {
        let home = &s.home;
        let mut child = Command::new("valgrind")
            .args(["--tool=callgrind", "--demangle=no", "--quiet", "--trace-children=no"])
            .arg(format!("--callgrind-out-file={}/{}.%p", out.display(), s.name))
            .arg(binary)
            .args(&s.args)
            .current_dir(&s.cwd)
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env_remove("WARP_HOOK_DIRS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .context("starting valgrind")?;
        child.stdin.take().context("stdin")?.write_all(&s.stdin)?;
        let output = child.wait_with_output()?;
        if String::from_utf8_lossy(&output.stderr).contains("Unsupported clone") {
            bail!(
                "scenario {}: valgrind cannot run the trees' reaper started with CLONE_VM (the \
                 engine takes it when its resident memory, valgrind's included, is below 64 MiB); \
                 the list records the other reapers' start (a fork, or the shell) instead",
                s.name
            );
        }
        let ran = std::fs::remove_file(work.join(HOOK_RAN)).is_ok();
        if ran != s.runs_hook {
            bail!("scenario {}: the hook ran: {ran}, expected {}", s.name, s.runs_hook);
        }
        if !output.status.success() {
            bail!(
                "scenario {}: {} ({})",
                s.name,
                output.status,
                String::from_utf8_lossy(&output.stdout)
            );
        }
        println!("layout: recorded {}", s.name);
    }
    let mut ran = BTreeSet::new();
    for entry in std::fs::read_dir(&out)? {
        let text = std::fs::read_to_string(entry?.path())?;
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("fn=").or_else(|| line.strip_prefix("cfn=")) else {
                continue;
            };
            // Compressed names: `(id) name` the first time, `(id)` after.
            let name = match rest.strip_prefix('(') {
                Some(r) => r.split_once(") ").map_or("", |(_, n)| n),
                None => rest,
            };
            if !name.is_empty() {
                ran.insert(name.to_owned());
            }
        }
    }
    let (symbols, _) = elf_functions(binary)?;
    // The trees' reaper's modules whole (25 KB): under valgrind the engine starts its reaper
    // another way than the real run's `clone(CLONE_VM)`, which valgrind cannot run.
    const REAPER: [&str; 2] = ["_ZN14hooks_dispatch3sys", "_ZN14hooks_dispatch6reaper"];
    let mut chosen: Vec<&Symbol> = symbols
        .iter()
        .filter(|s| ran.contains(&s.name) || REAPER.iter().any(|p| s.name.starts_with(p)))
        .collect();
    // glibc picks a string function's variant by the CPU at start (valgrind's CPU is not the
    // user's): every variant of a family that ran is kept.
    let families: BTreeSet<&str> =
        chosen.iter().filter_map(|s| glibc_variant_family(&s.name)).collect();
    chosen.extend(
        symbols
            .iter()
            .filter(|s| glibc_variant_family(&s.name).is_some_and(|f| families.contains(f))),
    );
    // The variants the user's CPU does not pick go last, not between the code that runs.
    chosen.sort_by_key(|s| (glibc_variant_family(&s.name).is_some(), s.addr));
    let mut keys = Vec::new();
    let mut seen = BTreeSet::new();
    for s in chosen {
        if seen.insert(plain(&s.name)) {
            keys.push(plain(&s.name).to_owned());
        }
    }
    let mut text = String::from(
        "# The functions a one-shot `hooks fire` or `hooks bridge` event runs, in address order\n\
         # (glibc's CPU-specific string functions last);\n\
         # written by `cargo xtask layout` (the release profile), read by xtask/src/layout.rs.\n",
    );
    for k in &keys {
        text.push_str(k);
        text.push('\n');
    }
    let list = root.join(LIST);
    std::fs::create_dir_all(list.parent().context("parent")?)?;
    std::fs::write(&list, text).with_context(|| format!("writing {}", list.display()))?;
    println!("layout: {} functions written to {}", keys.len(), list.display());
    let _ = std::fs::remove_dir_all(work);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_drops_the_rust_hash_and_the_llvm_suffix_only() {
        assert_eq!(
            key("_ZN10hooks_json6reader4next17h0123456789abcdefE"),
            "_ZN10hooks_json6reader4next17hE"
        );
        assert_eq!(
            key("_ZN4core3ptr13drop_in_place17h88975f1cc4c610b6E.llvm.2564833471340643099"),
            "_ZN4core3ptr13drop_in_place17hE"
        );
        // Not a hash: too short, not hex, or not a Rust name.
        assert_eq!(key("_ZN3foo17h0123E"), "_ZN3foo17h0123E");
        assert_eq!(key("_ZN3foo3bar17h0123456789abcdeXE"), "_ZN3foo3bar17h0123456789abcdeXE");
        assert_eq!(key("__memmove_avx_unaligned_erms"), "__memmove_avx_unaligned_erms");
        assert_eq!(key("main.llvm.x1"), "main.llvm.x1");
    }

    fn sym(name: &str, addr: u64) -> Symbol {
        Symbol { name: name.to_owned(), addr, size: 16 }
    }

    #[test]
    fn resolving_takes_names_then_unique_keys_and_keeps_c_names() {
        let reference = [
            sym("_ZN5serde2de4from17h1111111111111111E", 300),
            sym("_ZN5serde2de4from17h2222222222222222E.llvm.7", 100),
            sym("_ZN3app4main17h3333333333333333E", 200),
            sym("_ZN3app3run17h4444444444444444E.llvm.12", 210),
            sym("_ZN3app3run17h4444444444444444E.llvm.13", 220),
            sym("_RNvNtCs1234_3std2io4kind.llvm.5", 230),
            sym("main", 50),
        ];
        let list = "# comment\n\n\
                    _ZN3app3run17h4444444444444444E\n\
                    _ZN3app4main17h0000000000000000E\n\
                    _ZN5serde2de4from17h2222222222222222E\n\
                    _ZN5serde2de4from17h0000000000000000E\n\
                    _ZN3old4gone17h0000000000000000E\n\
                    _RNvNtCs1234_3std2io4kind\n\
                    __memcpy_evex_unaligned\nmain\n_ZN3app3run17h4444444444444444E\n";
        let r = resolve(list, &reference);
        assert_eq!(
            r.names,
            [
                "_ZN3app3run17h4444444444444444E.llvm.12",
                "_ZN3app3run17h4444444444444444E.llvm.13",
                "_ZN3app4main17h3333333333333333E",
                "_ZN5serde2de4from17h2222222222222222E.llvm.7",
                "_RNvNtCs1234_3std2io4kind.llvm.5",
                "__memcpy_evex_unaligned",
                "main",
            ]
        );
        // The second `from` is not guessed among two instances; `gone` is gone.
        assert_eq!((r.by_name, r.by_key, r.missing), (4, 1, 2));
    }

    #[test]
    fn glibc_variants_are_grouped_by_family() {
        assert_eq!(glibc_variant_family("__memmove_avx_unaligned_erms"), Some("__memmove_"));
        assert_eq!(glibc_variant_family("__memcmp_avx2_movbe"), Some("__memcmp_"));
        assert_eq!(glibc_variant_family("__strcspn_sse42"), Some("__strcspn_"));
        assert_eq!(
            glibc_variant_family("__memcpy_chk_avx512_no_vzeroupper"),
            Some("__memcpy_chk_")
        );
        assert_eq!(glibc_variant_family("__libc_start_main"), None);
        assert_eq!(glibc_variant_family("memcpy"), None);
    }

    #[test]
    fn the_symbols_of_this_test_binary_are_read() {
        let exe = std::env::current_exe().expect("current exe");
        let (symbols, comment) = elf_functions(&exe).expect("symbols");
        assert!(!comment.is_empty(), "no .comment section read");
        let this = symbols
            .iter()
            .find(|s| s.name.contains("the_symbols_of_this_test_binary_are_read"))
            .expect("this test's own function is listed");
        assert!(this.addr != 0 && this.size != 0, "{this:?}");
        assert!(parse_elf(b"\x7fELF\x02\x01 too short").is_err());
        // Section headers placed where an offset would overflow: an error, not a panic.
        let mut header = vec![0u8; 64];
        header[..6].copy_from_slice(b"\x7fELF\x02\x01");
        header[0x28..0x30].copy_from_slice(&(u64::MAX - 8).to_le_bytes());
        header[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        header[0x3c..0x3e].copy_from_slice(&2u16.to_le_bytes());
        header[0x3e..0x40].copy_from_slice(&1u16.to_le_bytes());
        assert!(parse_elf(&header).is_err());
        assert!(entry_at(u64::MAX, 1, 1).is_err() && entry_at(0, u64::MAX, 2).is_err());
        assert!(parse_elf(b"not an ELF file at all").is_err());
    }

    #[test]
    fn functions_are_found_placed_together_or_not() {
        let exe = std::env::current_exe().expect("current exe");
        let (mut symbols, _) = elf_functions(&exe).expect("symbols");
        symbols.retain(|s| s.size > 0);
        symbols.sort_by_key(|s| s.addr);
        symbols.dedup_by_key(|s| s.addr);
        let dir = std::env::temp_dir().join(format!("xtask-layout-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("order");
        // Forty neighbours are placed together; every hundredth function is not.
        let names = |picked: Vec<&Symbol>| {
            picked.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join("\n")
        };
        let at = symbols.len() / 2;
        std::fs::write(&file, names(symbols[at..at + 40].iter().collect())).expect("write");
        check_placed(&exe, &file).expect("neighbours are placed together");
        std::fs::write(&file, names(symbols.iter().step_by(100).collect())).expect("write");
        let err = check_placed(&exe, &file).expect_err("spread functions").to_string();
        assert!(err.contains("not placed together"), "{err}");
        std::fs::write(&file, "no_such_function\n").expect("write");
        assert!(check_placed(&exe, &file).is_err());
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
