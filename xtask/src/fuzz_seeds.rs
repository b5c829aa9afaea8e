//! Seeds for the fuzz targets' corpora, taken from the checkout: each target's inputs of the
//! same kind in the crates' `test_data` folders (hook files, agents' payloads), with the
//! leading byte the target reads as a selector where it has one, so that a first run starts
//! from real documents rather than from nothing. `fuzz/corpus/` itself is not committed.

use std::{
    fs,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result};

/// Where a target's seeds come from.
struct Source {
    /// Folders under the workspace root, read recursively.
    dirs: &'static [&'static str],
    /// File name endings taken from them.
    endings: &'static [&'static str],
    /// One seed per file and prefix (the target's selector byte), or the file as it is.
    prefixes: &'static [&'static [u8]],
}

/// git configuration files for the reading of their includes: spellings the registry's tests
/// compare with git.
const GIT_CONFIGS: &[&str] = &[
    "[include]\n\tpath = ../.gitconfig\n",
    "[core]\n\tfsmonitor = x\n[includeIf \"gitdir:~/work/\"]\n\tpath = ~/work.inc\n",
    "[Include] path = \"a \\\"b\\\" \" ; c\n\tPATH = c\\\n.inc # d\n",
    "\u{feff}[include]\r\n\tpath = crlf.inc\r\n[user]\n\tname = u\n",
    "[filter \"nb\"]\n\tclean = python3 tools/clean.py %f\n[diff]\n\texternal = ~/bin/ext.sh\n",
    "[alias]\n\tx = \"!sh ~/x.sh\"\n[credential]\n\thelper = store\n[filter.old]\n\tsmudge = s.sh\n",
    // The git hook managers' configurations and scripts (F65): pre-commit's, lefthook's.
    "repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: ./tools/x.sh\n    args: [--fix]\n",
    "extends: [ci/base.yml]\npre-commit:\n  commands:\n    a:\n      run: |\n        ./a.sh {staged_files}\n",
    "{ // c\n \"pre-push\": {\"jobs\": [{\"run\": \"./p.sh\"}]} }\n",
    "[pre-commit.commands.lint]\nrun = \"./l.sh\"\n[[pre-push.jobs]]\nrun = 'x'\n",
    "INSTALL_PYTHON=/v/bin/python3\nARGS=(hook-impl '--config=a b.yaml' --hook-type=pre-commit)\n",
];

/// ssh configuration files for the reading of their `Include` lines.
const SSH_CONFIGS: &[&str] = &[
    "Include ~/.orbstack/ssh/config\n",
    "Host *\n  Include cfg.d/*\nINCLUDE=\"extra one\" two # c\n",
    "Match exec \"true\"\n\tinclude  =  three\r\n# Include no\n",
    "Host b\n  ProxyCommand %d/bin/proxy.sh %h %p\n  KnownHostsCommand=/opt/khc %H\n\
     Match host x !exec \"sh ~/m.sh\" user y\nPKCS11Provider \"/usr/lib/p11.so\"\n",
];

/// Files larger than this are not seeds (libFuzzer's own inputs stay far smaller).
const MAX_SEED_BYTES: u64 = 200_000;

/// Hook command lines for the command analysis: the spellings `specs/guard.md` lists.
const COMMAND_LINES: &[&str] = &[
    "./hooks/check.sh",
    "bash -e .cursor/a.sh",
    "timeout 5 python3 -u .cursor/b.py",
    "env A=b nice -n 5 ./c.sh",
    "cd tools && ./d.sh",
    "cd ~/hooks && ./check.sh",
    "cd \"$CLAUDE_PROJECT_DIR\"/.claude/hooks && ./gate.sh",
    "K=~/lib; sh $K/k.sh",
    "node --require ./pre.js main.js",
    "uv run h.py > out.log 2>&1",
    "bash -c './x.sh' | tee log &",
    "$(dirname \"$0\")/gate.sh",
];

/// The seeds' source of `target`; `None` for targets that start from nothing.
fn source(target: &str) -> Option<Source> {
    const NONE: &[&[u8]] = &[];
    let s = |dirs, endings, prefixes| Some(Source { dirs, endings, prefixes });
    match target {
        "json_dialects" => s(&["crates"], &[".json"], NONE),
        "cursor_parse" => s(&["crates/hooks-format-cursor/test_data"], &[".json"], NONE),
        "chrys_parse" => s(
            &["crates/hooks-format-chrys/test_data"],
            &[".yaml", ".yml", ".json"],
            &[b"\x00", b"\x01"],
        ),
        "claude_parse" => s(
            &["crates/hooks-format-claude/test_data"],
            &[".json", ".md"],
            &[b"\x00", b"\x01", b"\x02", b"\x04", b"\x05", b"\x0a", b"\x10", b"\x16"],
        ),
        "codex_parse" => s(
            &["crates/hooks-format-codex/test_data/parse"],
            &[".json", ".toml"],
            &[b"\x00", b"\x01", b"\x02", b"\x03", b"\x04", b"\x08", b"\x0d"],
        ),
        "codex_host" => s(&["crates/hooks-format-codex/test_data/codec"], &[".json"], NONE),
        "gemini_parse" => s(
            &[
                "crates/hooks-format-gemini/test_data/settings",
                "crates/hooks-format-gemini/test_data/extensions",
            ],
            &[".json"],
            NONE,
        ),
        "claude_host" => {
            s(&["crates/hooks-format-claude/test_data/host/payloads"], &[".json"], &[b"\x00"])
        }
        "cursor_host" => s(
            &[
                "crates/hooks-format-cursor/test_data/host",
                "crates/hooks-format-cursor/test_data/encode",
            ],
            &[".json"],
            &[b"\x00", b"\x01", b"\x02"],
        ),
        "gemini_host" => {
            s(&["crates/hooks-format-gemini/test_data/payloads"], &[".json"], &[b"\x00", b"\x01"])
        }
        "copilot_parse" => s(
            &[
                "crates/hooks-format-copilot/test_data/files",
                "crates/hooks-format-copilot/test_data/settings",
            ],
            &[".json"],
            &[b"\x00", b"\x01", b"\x02", b"\x03", b"\x06", b"\x0a", b"\x0e"],
        ),
        "copilot_host" => {
            s(&["crates/hooks-format-copilot/test_data/payloads"], &[".json"], &[b"\x00", b"\x01"])
        }
        "windsurf_parse" => s(&["crates/hooks-format-windsurf/test_data/files"], &[".json"], NONE),
        "windsurf_host" => {
            s(&["crates/hooks-format-windsurf/test_data/payloads"], &[".json"], NONE)
        }
        _ => None,
    }
}

/// The files of `dir` and its subfolders whose names end with one of `endings`, sorted.
fn files_under(dir: &Path, endings: &[&str], out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .collect::<Result<_, _>>()
        .with_context(|| format!("reading {}", dir.display()))?;
    entries.sort_by_key(fs::DirEntry::file_name);
    for e in entries {
        let path = e.path();
        let kind = e.file_type().with_context(|| format!("reading {}", path.display()))?;
        if kind.is_dir() {
            if e.file_name() != "target" {
                files_under(&path, endings, out)?;
            }
        } else if kind.is_file()
            && endings.iter().any(|end| e.file_name().to_string_lossy().ends_with(end))
            && e.metadata().is_ok_and(|m| m.len() <= MAX_SEED_BYTES)
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The seeds of `target` in the checkout at `root`, as the bytes of each.
pub(crate) fn seeds(root: &Path, target: &str) -> Result<Vec<Vec<u8>>> {
    if target == "command_analysis" {
        return Ok(COMMAND_LINES.iter().map(|l| l.as_bytes().to_vec()).collect());
    }
    if target == "git_config" {
        return Ok(GIT_CONFIGS.iter().map(|l| l.as_bytes().to_vec()).collect());
    }
    if target == "ssh_config" {
        return Ok(SSH_CONFIGS.iter().map(|l| l.as_bytes().to_vec()).collect());
    }
    let Some(src) = source(target) else { return Ok(Vec::new()) };
    let mut files = Vec::new();
    for dir in src.dirs {
        files_under(&root.join(dir), src.endings, &mut files)?;
    }
    let mut out = Vec::new();
    for f in files {
        let bytes = fs::read(&f).with_context(|| format!("reading {}", f.display()))?;
        if src.prefixes.is_empty() {
            out.push(bytes);
        } else {
            out.extend(src.prefixes.iter().map(|p| [*p, bytes.as_slice()].concat()));
        }
    }
    Ok(out)
}

/// Writes the seeds of `target` into `corpus` when that folder does not exist yet (a corpus
/// grown by earlier runs is left alone); returns how many were written.
pub(crate) fn seed_corpus(root: &Path, target: &str, corpus: &Path) -> Result<usize> {
    if corpus.exists() {
        return Ok(0);
    }
    let seeds = seeds(root, target)?;
    fs::create_dir_all(corpus).with_context(|| format!("creating {}", corpus.display()))?;
    for (i, s) in seeds.iter().enumerate() {
        let path = corpus.join(format!("seed-{i:04}"));
        fs::write(&path, s).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(seeds.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fuzz target of the checkout that reads documents or payloads finds seeds, with
    /// its selector byte in front where it has one: a moved or renamed `test_data` folder
    /// fails here, not silently in a fuzz run that starts from nothing.
    #[test]
    fn every_document_target_finds_its_seeds_in_the_checkout() {
        let root = crate::workspace_root();
        let targets: Vec<String> = fs::read_dir(root.join("fuzz/fuzz_targets"))
            .expect("fuzz/fuzz_targets")
            .map(|e| {
                e.expect("entry").file_name().to_string_lossy().trim_end_matches(".rs").to_owned()
            })
            .collect();
        let without = ["decode_outcome", "hook_dirs", "serve_request", "reaper_readers"];
        for t in &targets {
            let seeds = seeds(&root, t).expect("seeds");
            if without.contains(&t.as_str()) {
                assert!(seeds.is_empty(), "{t}");
                continue;
            }
            assert!(seeds.len() >= 3, "{t}: {} seeds", seeds.len());
            if let Some(src) = source(t) {
                for s in &seeds {
                    assert!(
                        src.prefixes.is_empty() || src.prefixes.iter().any(|p| s.starts_with(p)),
                        "{t}: a seed without its selector"
                    );
                }
            }
        }
        assert!(targets.len() >= 16, "{targets:?}");
    }

    /// A corpus that exists is never touched; a missing one is made with the seeds.
    #[test]
    fn an_existing_corpus_is_left_alone() {
        let root = crate::workspace_root();
        let dir = tempfile::tempdir().expect("temp dir");
        let corpus = dir.path().join("cursor_parse");
        let n = seed_corpus(&root, "cursor_parse", &corpus).expect("seeded");
        assert!(n > 0 && fs::read_dir(&corpus).expect("corpus").count() == n);
        assert_eq!(seed_corpus(&root, "cursor_parse", &corpus).expect("again"), 0);
    }
}
