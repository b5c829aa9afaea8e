//! Tests of the limit settings' grammar and the default limits.

use super::{CpuMax, DispatchConfig, HookLimits, LimitSetting};
use crate::limits::Resource;

fn parse(s: &str) -> Result<LimitSetting, String> {
    s.parse::<LimitSetting>().map_err(|e| e.to_string())
}

#[test]
fn settings_read_sizes_counts_cores_and_max() {
    let m = parse("memory=512M").expect("valid");
    assert_eq!((m.hook, m.resource, m.value), (None, Resource::Memory, Some(512 << 20)));
    assert_eq!(parse("memory=2G").expect("valid").value, Some(2 << 30));
    assert_eq!(parse("memory=4096").expect("valid").value, Some(4096));
    assert_eq!(parse("pids=64").expect("valid").value, Some(64));
    assert_eq!(parse("cpu=50%").expect("valid").value, Some(50_000));
    assert_eq!(parse("cpu=1.5").expect("valid").value, Some(150_000));
    assert_eq!(parse("pids=max").expect("valid").value, None);
    let h = parse("my:hook:pids=8").expect("a hook id may hold colons");
    assert_eq!(h.hook.as_ref().map(|h| h.as_str()), Some("my:hook"));
}

#[test]
fn bad_settings_are_refused_with_the_reason() {
    for (spec, why) in [
        ("pids", "no `=`"),
        ("disk=1", "unknown resource"),
        ("memory=12T", "unknown size suffix"),
        ("memory=-1", "not a whole number"),
        ("memory=99999999999999G", "too large"),
        ("pids=0", "zero would stop every hook"),
        ("cpu=0", "CPU must be above 0"),
        ("cpu=NaN", "CPU must be above 0"),
        (":pids=1", "invalid hook id"),
    ] {
        let e = parse(spec).expect_err(spec);
        assert!(e.contains(why), "{spec}: {e}");
    }
}

#[test]
fn hook_rules_start_from_the_defaults_set_alongside_them() {
    let mut cfg = DispatchConfig { limits: HookLimits::UNLIMITED, ..DispatchConfig::default() };
    let settings: Vec<LimitSetting> = ["a:cpu=25%", "pids=100", "a:pids=5", "b:memory=1K"]
        .iter()
        .map(|s| s.parse().expect("valid"))
        .collect();
    cfg.apply_limits(&settings);
    assert_eq!(cfg.limits.pids_max, Some(100));
    let a = &cfg.hook_limits[0];
    assert_eq!(a.hook.as_str(), "a");
    assert_eq!(a.limits.pids_max, Some(5));
    assert_eq!(a.limits.cpu_max, Some(CpuMax { quota_us: 25_000, period_us: 100_000 }));
    let b = &cfg.hook_limits[1];
    assert_eq!((b.limits.memory_max, b.limits.pids_max), (Some(1024), Some(100)));
}

/// The default memory limit is half of `MemTotal` as the whole of `/proc/meminfo` gives it
/// (the limit reads only the file's first line).
#[cfg(target_os = "linux")]
#[test]
fn the_default_memory_limit_is_half_of_mem_total() {
    let text = std::fs::read_to_string("/proc/meminfo").expect("/proc/meminfo");
    let kib: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("MemTotal");
    assert_eq!(HookLimits::default().memory_max, Some(kib * 1024 / 2));
}

/// A hook runs for its own event, and for another only where its format says so
/// (`DispatchConfig::event_rules`): Gemini CLI's post-tool hooks on a tool failure; a rule
/// of another format, or the other way round, does not apply.
#[test]
fn a_hook_runs_on_its_event_and_on_those_its_format_adds() {
    use hooks_schema::{FormatId, HookEvent};
    use hooks_testing::TEST_FORMAT;

    let of = |event: HookEvent| {
        let mut d = crate::testing::sh_def("h", "true");
        d.event = event;
        d
    };
    const ALSO: [(HookEvent, HookEvent); 1] = [(HookEvent::PostToolUse, HookEvent::ToolFailure)];
    let rule = |format: FormatId| DispatchConfig {
        event_rules: vec![(
            format,
            hooks_schema::EventRule { also_runs_on: &ALSO, shell_exit_is_failure: false },
        )],
        ..DispatchConfig::default()
    };
    let post = of(HookEvent::PostToolUse);
    let failure = of(HookEvent::ToolFailure);
    let this = rule(TEST_FORMAT);
    let fired = |event: HookEvent| hooks_schema::Envelope::new(event);
    assert!(this.runs_on(&post, &fired(HookEvent::PostToolUse)));
    assert!(this.runs_on(&post, &fired(HookEvent::ToolFailure)));
    assert!(this.runs_on(&failure, &fired(HookEvent::ToolFailure)));
    assert!(!this.runs_on(&failure, &fired(HookEvent::PostToolUse)), "not the other way round");
    assert!(!this.runs_on(&post, &fired(HookEvent::PreToolUse)));
    assert!(!rule(FormatId::new("other")).runs_on(&post, &fired(HookEvent::ToolFailure)));
    assert!(!DispatchConfig::default().runs_on(&post, &fired(HookEvent::ToolFailure)));
}

/// A shell command that ran to its end with a non-zero status is a post-tool firing: for a
/// format whose agent takes that for a failure of the tool
/// (`EventRule::shell_exit_is_failure` in `DispatchConfig::event_rules`, Claude Code's) its failure hooks run and its
/// post-tool hooks do not; for every other format the other way round; a zero status, or no
/// status, is a post-tool firing for every format.
#[test]
fn a_failed_shell_exit_is_a_failure_only_for_the_formats_that_say_so() {
    use hooks_schema::{Envelope, FormatId, HookEvent, ToolResult};
    use hooks_testing::TEST_FORMAT;

    let of = |event: HookEvent| {
        let mut d = crate::testing::sh_def("h", "true");
        d.event = event;
        d
    };
    let (post, failure) = (of(HookEvent::PostToolUse), of(HookEvent::ToolFailure));
    let exited = |code: Option<i32>| {
        let mut e = Envelope::new(HookEvent::PostToolUse);
        e.result = Some(ToolResult { exit_code: code, ..ToolResult::default() });
        e
    };
    let rule = |format: FormatId| DispatchConfig {
        event_rules: vec![(
            format,
            hooks_schema::EventRule { also_runs_on: &[], shell_exit_is_failure: true },
        )],
        ..DispatchConfig::default()
    };
    let (failing, other) = (rule(TEST_FORMAT), rule(FormatId::new("other")));
    assert!(failing.runs_on(&failure, &exited(Some(3))));
    assert!(!failing.runs_on(&post, &exited(Some(3))));
    assert!(other.runs_on(&post, &exited(Some(3))));
    assert!(!other.runs_on(&failure, &exited(Some(3))));
    for code in [Some(0), None] {
        assert!(failing.runs_on(&post, &exited(code)), "{code:?}");
        assert!(!failing.runs_on(&failure, &exited(code)), "{code:?}");
    }
    // A status on another event changes nothing (only a post-tool firing reports one).
    let mut failed = exited(Some(3));
    failed.event = HookEvent::ToolFailure;
    assert!(failing.runs_on(&failure, &failed) && other.runs_on(&failure, &failed));
}
