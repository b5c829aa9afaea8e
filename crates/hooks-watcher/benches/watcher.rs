//! Watcher benchmark: latency from a hook file write to the new snapshot being published (at
//! the default 500 ms window and at a 50 ms window), the idle cost of 1 000 watched roots
//! (CPU, memory, and the kernel watches used), and the same roots deleted (the watches their
//! shared parent costs while they are missing) and recreated (the time until every one is
//! attached again). Plain `Instant` loops, medians; `--json` prints one object.

// The counting allocator below (live heap per watched root) is the only unsafe code: it
// forwards every call to the system allocator.
#![allow(unsafe_code)]

use std::{
    alloc::{GlobalAlloc, Layout, System},
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    sync::atomic::{AtomicUsize, Ordering},
    sync::{Arc, mpsc::Receiver},
    thread,
    time::{Duration, Instant},
};

use hooks_registry::{RegistryEvent, RegistryHandle};
use hooks_trust::{StaticTrustPolicy, Surface};
use hooks_watcher::{
    DEFAULT_DEBOUNCE_WINDOW, HookConfigWatcher, WatchedPlace, WatcherConfig, WatcherEvent,
};

const DEFAULT_SAMPLES: usize = 15;
const SHORT_WINDOW: Duration = Duration::from_millis(50);
const SHORT_SAMPLES: usize = 40;
const IDLE_ROOTS: usize = 1000;
/// Source folders and files per idle root, to show watches do not grow with files.
const DIRS_PER_ROOT: usize = 4;
const FILES_PER_DIR: usize = 3;
const IDLE_FOR: Duration = Duration::from_secs(3);

/// The bytes this process has allocated and not freed: unlike RSS, not inflated by freed
/// memory the allocator keeps (after the roots' snapshots churned through it).
static LIVE_HEAP: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live bytes.
struct Counting;

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE_HEAP.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        LIVE_HEAP.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE_HEAP.fetch_sub(layout.size(), Ordering::Relaxed);
            LIVE_HEAP.fetch_add(new_size, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn heap_kib() -> f64 {
    LIVE_HEAP.load(Ordering::Relaxed) as f64 / 1024.0
}

fn main() {
    let json = std::env::args().any(|a| a == "--json");

    let default_ms = reload_latency(DEFAULT_DEBOUNCE_WINDOW, DEFAULT_SAMPLES);
    let short_ms = reload_latency(SHORT_WINDOW, SHORT_SAMPLES);
    let idle = idle_roots();

    let default_window_ms = ms(DEFAULT_DEBOUNCE_WINDOW);
    let short_window_ms = ms(SHORT_WINDOW);
    if json {
        println!(
            "{{\"reload_latency_ms_default_window\":{:.2},\"reload_latency_ms_default_window_p90\":{:.2},\
\"default_window_ms\":{default_window_ms:.0},\
\"reload_latency_ms_50ms_window\":{:.2},\"reload_latency_ms_50ms_window_p90\":{:.2},\
\"idle_roots\":{IDLE_ROOTS},\"files_under_idle_roots\":{},\"add_roots_ms\":{:.1},\
\"idle_cpu_percent\":{:.4},\"idle_cpu_ms\":{:.3},\"idle_seconds\":{:.1},\
\"rss_kib_before_roots\":{},\"rss_anon_kib_before_roots\":{},\"rss_kib_with_roots\":{},\"rss_kib_per_root\":{:.2},\"heap_kib_per_root\":{:.2},\
\"inotify_watches\":{},\"platform_watches\":{},\"watches_per_root\":{:.2},\
\"missing_roots_inotify_watches\":{},\"missing_roots_platform_watches\":{},\
\"reattach_roots_ms\":{:.1}}}",
            default_ms.median,
            default_ms.p90,
            short_ms.median,
            short_ms.p90,
            idle.files,
            idle.add_ms,
            idle.cpu_percent,
            idle.cpu_ms,
            IDLE_FOR.as_secs_f64(),
            idle.rss_before_kib,
            idle.rss_anon_before_kib,
            idle.rss_after_kib,
            idle.rss_per_root_kib,
            idle.heap_per_root_kib,
            fmt_opt(idle.kernel_watches),
            idle.platform_watches,
            idle.watches_per_root,
            fmt_opt(idle.missing.kernel_watches),
            idle.missing.platform_watches,
            idle.missing.reattach_ms,
        );
        return;
    }

    println!("hooks-watcher benchmark (medians)");
    println!();
    println!(
        "{:<48} {:>10} {:>10} {:>10} {:>8}",
        "write -> snapshot published", "window", "median", "p90", "budget"
    );
    for (window_ms, l) in [(default_window_ms, &default_ms), (short_window_ms, &short_ms)] {
        let budget = window_ms + 25.0;
        println!(
            "{:<48} {:>8.0}ms {:>8.2}ms {:>8.2}ms {:>6.0}ms {}",
            format!("  {} samples", l.samples),
            window_ms,
            l.median,
            l.p90,
            budget,
            if l.median <= budget { "ok" } else { "OVER" }
        );
    }
    println!(
        "  overhead above the window: default {:.2} ms, 50 ms window {:.2} ms",
        default_ms.median - default_window_ms,
        short_ms.median - short_window_ms
    );
    println!();
    println!(
        "{IDLE_ROOTS} roots, {} files under them, idle for {:.0} s",
        idle.files,
        IDLE_FOR.as_secs_f64()
    );
    println!("  add_root x{IDLE_ROOTS} (load + attach)      {:>10.1} ms", idle.add_ms);
    println!(
        "  CPU while idle                       {:>10.3} ms ({:.4} %)",
        idle.cpu_ms, idle.cpu_percent
    );
    println!(
        "  RSS                                  {:>10} KiB -> {} KiB ({:.2} KiB per root)",
        idle.rss_before_kib, idle.rss_after_kib, idle.rss_per_root_kib
    );
    println!(
        "  RSS before the roots, anonymous      {:>10} KiB (the rest is the binary's and libraries' code and data)",
        idle.rss_anon_before_kib
    );
    println!(
        "  live heap added                      {:>10.2} KiB per root",
        idle.heap_per_root_kib
    );
    println!(
        "  watches                              {:>10} kernel, {} recorded ({:.2} per root; files do not add any)",
        fmt_opt(idle.kernel_watches),
        idle.platform_watches,
        idle.watches_per_root
    );
    println!();
    println!("the same {IDLE_ROOTS} roots deleted (rm -r), then recreated with their hook file");
    println!(
        "  watches while missing                {:>10} kernel, {} recorded (their shared parent)",
        fmt_opt(idle.missing.kernel_watches),
        idle.missing.platform_watches
    );
    println!(
        "  recreate x{IDLE_ROOTS} -> every root attached  {:>10.1} ms",
        idle.missing.reattach_ms
    );
}

struct Latency {
    samples: usize,
    median: f64,
    p90: f64,
}

/// Rewrites one hook file `samples` times, timing each write to the registry's next
/// `SnapshotChanged`.
fn reload_latency(window: Duration, samples: usize) -> Latency {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    write_hooks(&root, 0);
    let registry = RegistryHandle::default();
    let config = WatcherConfig::new(Surface::CliRun, hooks_testing::workspace_formats())
        .with_debounce_window(window);
    let watcher = HookConfigWatcher::new(registry.clone(), Arc::new(StaticTrustPolicy), config)
        .expect("start watcher");
    watcher
        .add_root(&root)
        .wait_timeout(Duration::from_secs(10))
        .expect("attached in time")
        .expect("attached");
    let events = registry.subscribe();
    let mut times = Vec::with_capacity(samples);
    for i in 1..=samples {
        let start = Instant::now();
        write_hooks(&root, i);
        wait_snapshot(&events, window);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    drop(watcher);
    times.sort_by(f64::total_cmp);
    Latency { samples, median: quantile(&times, 0.5), p90: quantile(&times, 0.9) }
}

fn wait_snapshot(events: &Receiver<RegistryEvent>, window: Duration) {
    let timeout = window * 4 + Duration::from_secs(5);
    match events.recv_timeout(timeout) {
        Ok(RegistryEvent::SnapshotChanged { .. }) => {}
        Err(e) => panic!("no snapshot within {timeout:?}: {e}"),
    }
}

fn write_hooks(root: &Path, i: usize) {
    let cursor = root.join(".cursor");
    fs::create_dir_all(&cursor).expect("mkdir");
    fs::write(
        cursor.join("hooks.json"),
        format!("{{\"version\":1,\"hooks\":{{\"stop\":[{{\"command\":\"./v{i}.sh\"}}]}}}}"),
    )
    .expect("write hooks");
}

struct Idle {
    files: usize,
    add_ms: f64,
    cpu_ms: f64,
    cpu_percent: f64,
    rss_before_kib: u64,
    /// The anonymous part of `rss_before_kib` (heap, stacks, written data): the process's
    /// own memory. The rest is file-backed: code and read-only data mapped from the
    /// binary and libraries, shared with every process that maps them, and counted by
    /// the kernel in whole fault-around blocks (64 KiB) around each page touched.
    rss_anon_before_kib: u64,
    rss_after_kib: u64,
    rss_per_root_kib: f64,
    /// Live heap bytes the roots added (allocated and not freed), per root.
    heap_per_root_kib: f64,
    kernel_watches: Option<usize>,
    platform_watches: usize,
    watches_per_root: f64,
    missing: Missing,
}

struct Missing {
    kernel_watches: Option<usize>,
    platform_watches: usize,
    reattach_ms: f64,
}

/// Deletes every root, waits until each is withdrawn (`root_missing`), counts the watches
/// then, recreates them all and times until each is attached again.
fn missing_roots(watcher: &HookConfigWatcher, roots: &[PathBuf]) -> Missing {
    let events = watcher.subscribe();
    for root in roots {
        fs::remove_dir_all(root).expect("rm -r root");
    }
    wait_roots(&events, roots.len(), |e| match e {
        WatcherEvent::Diagnostic { place: WatchedPlace::Root(root), diagnostic }
            if diagnostic.code.as_deref() == Some("root_missing") =>
        {
            Some(root.as_path().to_path_buf())
        }
        _ => None,
    });
    let kernel_watches = inotify_watches();
    let platform_watches = watcher.platform_watches();
    let start = Instant::now();
    for (i, root) in roots.iter().enumerate() {
        write_hooks(root, i);
    }
    wait_roots(&events, roots.len(), |e| match e {
        WatcherEvent::Attached { place: WatchedPlace::Root(root), result: Ok(()) } => {
            Some(root.as_path().to_path_buf())
        }
        _ => None,
    });
    let reattach_ms = start.elapsed().as_secs_f64() * 1000.0;
    Missing { kernel_watches, platform_watches, reattach_ms }
}

/// Waits until `pick` has named `n` distinct roots.
fn wait_roots(
    events: &Receiver<WatcherEvent>,
    n: usize,
    pick: impl Fn(&WatcherEvent) -> Option<PathBuf>,
) {
    let mut seen = BTreeSet::new();
    while seen.len() < n {
        match events.recv_timeout(Duration::from_secs(30)) {
            Ok(e) => seen.extend(pick(&e)),
            Err(e) => panic!("{} of {n} roots within 30 s: {e}", seen.len()),
        }
    }
}

/// Adds 1 000 roots (each with a hook file and a few source folders), then measures the CPU
/// the process uses while nothing changes, the memory the roots cost, and the watches held.
fn idle_roots() -> Idle {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut roots = Vec::with_capacity(IDLE_ROOTS);
    let mut files = 0;
    for r in 0..IDLE_ROOTS {
        let root = dir.path().join(format!("repo{r:04}"));
        write_hooks(&root, r);
        files += 1;
        for d in 0..DIRS_PER_ROOT {
            let src = root.join(format!("src/mod{d}"));
            fs::create_dir_all(&src).expect("mkdir src");
            for f in 0..FILES_PER_DIR {
                fs::write(src.join(format!("f{f}.rs")), "fn main() {}\n").expect("write src");
                files += 1;
            }
        }
        roots.push(root);
    }
    let registry = RegistryHandle::default();
    let config = WatcherConfig::new(Surface::CliRun, hooks_testing::workspace_formats());
    let rss_before_kib = rss_kib().unwrap_or(0);
    let rss_anon_before_kib = status_kib("RssAnon:").unwrap_or(0);
    let heap_before_kib = heap_kib();
    let watcher = HookConfigWatcher::new(registry, Arc::new(StaticTrustPolicy), config)
        .expect("start watcher");
    let start = Instant::now();
    let futures: Vec<_> = roots.iter().map(|r| watcher.add_root(r)).collect();
    for f in futures {
        f.wait_timeout(Duration::from_secs(30)).expect("attached in time").expect("attached");
    }
    let add_ms = start.elapsed().as_secs_f64() * 1000.0;
    let rss_after_kib = rss_kib().unwrap_or(0);
    let heap_per_root_kib = (heap_kib() - heap_before_kib) / IDLE_ROOTS as f64;
    let kernel_watches = inotify_watches();
    let platform_watches = watcher.platform_watches();

    let cpu_before = cpu_ns();
    let wall = Instant::now();
    thread::sleep(IDLE_FOR);
    let cpu_ns_used = cpu_ns().zip(cpu_before).map_or(0, |(a, b)| a.saturating_sub(b));
    let wall_ns = wall.elapsed().as_nanos() as f64;
    let cpu_ms = cpu_ns_used as f64 / 1e6;
    let missing = missing_roots(&watcher, &roots);
    drop(watcher);

    Idle {
        files,
        add_ms,
        cpu_ms,
        cpu_percent: cpu_ns_used as f64 / wall_ns * 100.0,
        rss_before_kib,
        rss_anon_before_kib,
        rss_after_kib,
        rss_per_root_kib: rss_after_kib.saturating_sub(rss_before_kib) as f64 / IDLE_ROOTS as f64,
        heap_per_root_kib,
        kernel_watches,
        platform_watches,
        watches_per_root: kernel_watches.unwrap_or(platform_watches) as f64 / IDLE_ROOTS as f64,
        missing,
    }
}

/// CPU time of every thread of this process, in nanoseconds (Linux `schedstat`).
fn cpu_ns() -> Option<u64> {
    let mut total = 0u64;
    for task in fs::read_dir("/proc/self/task").ok()? {
        let stat = fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// Resident memory in KiB (Linux `/proc/self/status`).
fn rss_kib() -> Option<u64> {
    status_kib("VmRSS:")
}

/// One KiB figure of `/proc/self/status` (`VmRSS:`, `RssAnon:`, ...).
fn status_kib(field: &str) -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Kernel inotify watches held by this process (Linux `fdinfo`), or `None` elsewhere.
fn inotify_watches() -> Option<usize> {
    let mut n = 0;
    let mut any = false;
    for fd in fs::read_dir("/proc/self/fdinfo").ok()? {
        let Ok(info) = fs::read_to_string(fd.ok()?.path()) else { continue };
        let count = info.lines().filter(|l| l.starts_with("inotify wd:")).count();
        if count > 0 {
            any = true;
            n += count;
        }
    }
    any.then_some(n)
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let Some(last) = sorted.len().checked_sub(1) else { return f64::NAN };
    let i = ((last as f64) * q).round() as usize;
    sorted.get(i.min(last)).copied().unwrap_or(f64::NAN)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn fmt_opt(v: Option<usize>) -> String {
    v.map_or_else(|| "null".to_owned(), |n| n.to_string())
}
