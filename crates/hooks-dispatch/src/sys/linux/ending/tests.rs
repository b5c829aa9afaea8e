//! Tests of the reaper's allocation-free reader of the registration file's lines, against
//! what the shell script accepts.

use proptest::prelude::*;

use crate::fuzzing::{
    environment_pending, environment_pending_reference, registered_groups as lines,
    registered_groups_reference,
};

#[test]
fn a_line_is_one_to_ten_digits_between_blanks_and_above_one() {
    let text = b"T         \n       123\n          \ngarbage\n0\n1\n-5\n+7\n12 34\n12345678901\n\t42 \n2147483648\n99";
    assert_eq!(lines(text), vec![123, 42, 99]);
}

/// A `/proc/<pid>/stat` line as Linux 6 writes it, for a process named `name` in `state`
/// with `flags`, its environment between `env_start` and `env_end`.
fn stat(name: &str, state: &str, flags: u64, env_start: u64, env_end: u64) -> Vec<u8> {
    format!(
        "10269 ({name}) {state} 10265 10265 31305 0 -1 {flags} 198 0 0 0 0 0 0 0 20 0 1 0 \
         2563104 2560000 355 18446744073709551615 94861200232448 94861200250377 \
         140731973875696 0 0 0 0 6 0 1 0 0 17 1 0 0 0 0 0 94861200264464 94861200265728 \
         94861781532672 140731973877731 140731973877741 {env_start} {env_end} 0\n"
    )
    .into_bytes()
}

#[test]
fn an_environment_read_empty_is_pending_while_exec_has_not_laid_it_out() {
    // What `execve` leaves for a few microseconds: the new program's memory, both bounds 0.
    assert!(environment_pending(&stat("sh", "R", 4194304, 0, 0)));
    assert!(environment_pending(&stat("sh", "D", 4194304, 0, 0)));
    // The environment laid out meanwhile, read empty a moment before: read again too.
    assert!(environment_pending(&stat("sleep", "S", 4194304, 140731973877741, 140731973877754)));
    // A name holding a parenthesis and spaces is skipped whole.
    assert!(environment_pending(&stat("a) R 1 (b", "R", 4194304, 0, 0)));
    // An empty environment (`env -i`): settled.
    assert!(!environment_pending(&stat("sleep", "S", 4194304, 140731973877741, 140731973877741)));
    // A zombie, or a process being reaped: no memory, both bounds 0, settled.
    for state in ["Z", "X", "x"] {
        assert!(!environment_pending(&stat("sleep", state, 4194316, 0, 0)), "{state}");
    }
    // A kernel thread (`PF_KTHREAD`, as kthreadd's 2129984): no memory, settled.
    assert!(!environment_pending(&stat("kthreadd", "S", 2129984, 0, 0)));
    // Lines it cannot read say no.
    for text in [&b""[..], b"10269 (sh", b"10269 (sh) R 1 2", b"10269 (sh) R 1 2 3 4 5 -6 7"] {
        assert!(!environment_pending(text), "{}", String::from_utf8_lossy(text));
    }
    let mut cut = stat("sh", "R", 4194304, 0, 0);
    cut.truncate(cut.len() - 5);
    assert!(!environment_pending(&cut));
}

#[test]
fn the_processes_here_whose_environment_reads_empty_are_settled() {
    let read = |pid: &str| std::fs::read(format!("/proc/{pid}/stat")).expect("a stat line");
    // This process has an environment: read empty, it would be read again.
    assert!(environment_pending(&read("self")));
    // A kernel thread (kthreadd, where the kernel shows one).
    if let Ok(name) = std::fs::read_to_string("/proc/2/comm")
        && name.trim() == "kthreadd"
    {
        assert!(!environment_pending(&read("2")));
    }
    // A process with an empty environment, and the zombie it becomes.
    let mut child = std::process::Command::new("sleep")
        .arg("60")
        .env_clear()
        .stdin(std::process::Stdio::null())
        .spawn()
        .expect("spawn sleep");
    let pid = child.id().to_string();
    // Until `exec` laid the new program out, the line may still say its environment is to come.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::fs::read_to_string(format!("/proc/{pid}/cmdline"))
        .is_ok_and(|c| !c.starts_with("sleep"))
        && std::time::Instant::now() < deadline
    {
        std::thread::yield_now();
    }
    assert!(!environment_pending(&read(&pid)));
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(child.id().cast_signed()).expect("a pid"),
        rustix::process::Signal::KILL,
    )
    .expect("kill");
    // A zombie until waited for.
    while !std::fs::read(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| s.rsplit(|b| *b == b')').next().is_some_and(|t| t.starts_with(b" Z")))
        && std::time::Instant::now() < deadline
    {
        std::thread::yield_now();
    }
    assert!(!environment_pending(&read(&pid)));
    child.wait().expect("wait");
}

proptest! {
    #[test]
    fn stat_lines_never_panic_and_agree_with_the_plain_reading(
        text in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        prop_assert_eq!(environment_pending(&text), environment_pending_reference(&text));
    }

    /// Lines shaped like the kernel's, where random bytes would rarely have 49 fields: any
    /// name, state, flags and bounds, numbers around `u64`'s bound included.
    #[test]
    fn stat_lines_of_the_kernel_s_shape_agree_with_the_plain_reading(
        name in "[a-z() ]{0,16}",
        state in "[RSDZXxT]",
        flags in prop_oneof![any::<u64>(), Just(4194304u64), Just(2129984u64)],
        start in prop_oneof![Just("0".to_owned()), "[0-9]{1,21}"],
        same in any::<bool>(),
        end in prop_oneof![Just("0".to_owned()), "[0-9]{1,21}"],
        fields in 40usize..52,
    ) {
        let end = if same { start.clone() } else { end };
        let line = stat(&name, &state, flags, 0, 0);
        let text = String::from_utf8(line).expect("text");
        let mut parts: Vec<&str> = text.trim_end().rsplitn(2, ')').collect();
        let tail = parts.remove(0);
        let mut f: Vec<String> = tail.split_whitespace().map(str::to_owned).collect();
        f[47] = start;
        f[48] = end;
        f.truncate(fields.min(f.len()));
        let line = format!("{}){}", parts[0], f.iter().map(|x| format!(" {x}")).collect::<String>());
        prop_assert_eq!(
            environment_pending(line.as_bytes()),
            environment_pending_reference(line.as_bytes())
        );
    }

    #[test]
    fn registration_lines_never_panic_and_agree_with_the_plain_reading(
        text in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let groups = lines(&text);
        prop_assert!(groups.iter().all(|g| *g > 1));
        prop_assert_eq!(groups, registered_groups_reference(&text));
    }

    /// Lines shaped like registrations (blanks, up to eleven digits, blanks, now and then a
    /// second number or a stray byte), where random bytes would rarely form a number: every
    /// length around the ten-digit limit and `i32`'s bound comes up.
    #[test]
    fn registration_lines_of_digits_and_blanks_agree_with_the_plain_reading(
        text in "([ \t]{0,2}[0-2]?[0-9]{0,10}[ \t]{0,2}( 7|x|-)?\n){0,6}[ \t]{0,2}[0-9]{0,11}",
    ) {
        prop_assert_eq!(lines(text.as_bytes()), registered_groups_reference(text.as_bytes()));
    }
}
