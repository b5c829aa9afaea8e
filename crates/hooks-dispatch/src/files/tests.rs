//! Provided files' deletion: left to a runtime's blocking pool, finished on demand.

use std::path::PathBuf;

use hooks_schema::{ProvidedFile, ProvidedFileRole};

use super::{ProvidedFiles, finish_deletions};

fn specs() -> Vec<ProvidedFile> {
    vec![
        ProvidedFile {
            env_var: "PAYLOAD".into(),
            name_hint: "payload".into(),
            role: ProvidedFileRole::Input(b"{\"tool\":\"secret\"}".to_vec()),
        },
        ProvidedFile {
            env_var: "RESULT".into(),
            name_hint: "result".into(),
            role: ProvidedFileRole::Output,
        },
    ]
}

/// Files of one run handed to a runtime's blocking pool whose one thread is kept busy (until
/// the returned sender is used), so that the pool deletes nothing; their paths.
fn left_to_a_busy_pool(
    dir: &std::path::Path,
) -> (tokio::runtime::Runtime, std::sync::mpsc::Sender<()>, Vec<PathBuf>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(1)
        .build()
        .expect("runtime");
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let (busy, is_busy) = std::sync::mpsc::channel::<()>();
    let paths: Vec<PathBuf> = rt.block_on(async {
        drop(tokio::task::spawn_blocking(move || {
            busy.send(()).expect("busy");
            let _ = wait.recv();
        }));
        is_busy.recv().expect("the pool's thread is taken");
        let files = ProvidedFiles::create(&specs(), Some(dir)).expect("files");
        let paths = files.env().map(|(_, p)| p.to_path_buf()).collect();
        files.delete_later();
        paths
    });
    (rt, release, paths)
}

/// A one-shot process leaves its runtime to its exit, whose pool threads die with it: the
/// deletions the pool has not made yet are made by `finish_deletions`, which the one-shot
/// calls before. Here the pool's one thread is kept busy, so the pool deletes nothing.
#[test]
fn files_whose_deletion_the_pool_has_not_made_are_deleted_by_finish_deletions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (rt, release, paths) = left_to_a_busy_pool(dir.path());
    assert_eq!(paths.len(), 2);
    assert!(paths.iter().all(|p| p.exists()), "the pool is busy: nothing is deleted yet");
    finish_deletions();
    for p in &paths {
        assert!(!p.exists(), "{} is left behind", p.display());
    }
    release.send(()).expect("release the pool");
    drop(rt);
}

/// A runtime that ends before its pool started the deletion still deletes the files.
#[test]
fn files_are_deleted_when_the_runtime_ends_before_the_pool_ran() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (rt, release, paths) = left_to_a_busy_pool(dir.path());
    assert!(paths.iter().all(|p| p.exists()), "the pool is busy: nothing is deleted yet");
    release.send(()).expect("release the pool");
    drop(rt);
    for p in &paths {
        assert!(!p.exists(), "{} is left behind", p.display());
    }
}
