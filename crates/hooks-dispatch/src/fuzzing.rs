//! Entry points for the fuzz targets (`fuzz/`) and the proptests: the allocation-free readers
//! the trees' reaper runs after the engine's end, each beside a plain reading of the same rule
//! to check it against. Not part of the crate's API.

use crate::tag::{TagMatch, TagRest};

/// The group ids the reaper's registration-file reader takes out of `text`, fed byte by byte
/// (the last line counts without its newline).
#[cfg(target_os = "linux")]
pub fn registered_groups(text: &[u8]) -> Vec<i32> {
    let mut line = crate::sys::Line::default();
    let mut groups: Vec<i32> = text.iter().filter_map(|b| line.feed(*b)).collect();
    groups.extend(line.finish());
    groups
}

/// The rule [`registered_groups`] reads, spelled plainly: each line, spaces and tabs trimmed
/// from both ends, is one to ten digits naming a number above 1 that fits an `i32`.
pub fn registered_groups_reference(text: &[u8]) -> Vec<i32> {
    text.split(|b| *b == b'\n')
        .filter_map(|line| {
            let blank = |b: &u8| matches!(b, b' ' | b'\t');
            let start = line.iter().position(|b| !blank(b))?;
            let end = line.iter().rposition(|b| !blank(b))? + 1;
            let digits = &line[start..end];
            if digits.len() > 10 || !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            std::str::from_utf8(digits).ok()?.parse::<i32>().ok().filter(|g| *g > 1)
        })
        .collect()
}

/// Whether the tag sweep's reader of `/proc/<pid>/stat` takes a process whose environment read
/// empty for one whose environment is still to come (caught in `execve`), so the pass does not
/// count as quiet.
#[cfg(target_os = "linux")]
pub fn environment_pending(stat: &[u8]) -> bool {
    crate::sys::environment_pending(stat)
}

/// The rule [`environment_pending`] reads, spelled plainly: the fields after the last `)`,
/// split on ASCII whitespace; the state (the first) is not `Z`, `X` or `x`, the flags (the
/// seventh) are a decimal number without `PF_KTHREAD` (`0x200000`), and the environment's
/// bounds (the 48th and 49th) are decimal numbers, not equal unless both are 0. Numbers of
/// more than twenty digits are no numbers; larger ones saturate.
pub fn environment_pending_reference(stat: &[u8]) -> bool {
    let Some(close) = stat.iter().rposition(|b| *b == b')') else { return false };
    let fields: Vec<&[u8]> =
        stat[close + 1..].split(|b| b.is_ascii_whitespace()).filter(|f| !f.is_empty()).collect();
    let number = |i: usize| -> Option<u64> {
        let f = fields.get(i)?;
        if f.is_empty() || f.len() > 20 || !f.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let text = std::str::from_utf8(f).ok()?;
        Some(text.parse::<u64>().unwrap_or(u64::MAX))
    };
    match fields.first() {
        None => return false,
        Some(state) if [&b"Z"[..], b"X", b"x"].contains(state) => return false,
        Some(_) => {}
    }
    let Some(flags) = number(6) else { return false };
    if flags & 0x0020_0000 != 0 {
        return false;
    }
    match (number(47), number(48)) {
        (Some(start), Some(end)) => start != end || start == 0,
        _ => false,
    }
}

/// Whether the reaper's tag matcher finds, in the NUL-separated environment block `block` fed
/// in two pieces cut at `cut`, an entry that is `prefix` followed by one or more digits
/// (`digits`) or by nothing.
pub fn tag_found(block: &[u8], prefix: &[u8], digits: bool, cut: usize) -> bool {
    let mut m = TagMatch::new(prefix, rest(digits));
    let at = cut.min(block.len());
    m.feed(&block[..at]);
    m.feed(&block[at..]);
    m.found()
}

/// The rule [`tag_found`] reads, spelled plainly: what `grep -zx 'PREFIX[0-9][0-9]*'`
/// matches (`digits`), or an entry equal to the prefix.
pub fn tag_found_reference(block: &[u8], prefix: &[u8], digits: bool) -> bool {
    block.split(|b| *b == 0).any(|e| match rest(digits) {
        TagRest::Nothing => e == prefix,
        TagRest::Digits => {
            e.len() > prefix.len()
                && e.starts_with(prefix)
                && e[prefix.len()..].iter().all(u8::is_ascii_digit)
        }
    })
}

fn rest(digits: bool) -> TagRest {
    if digits { TagRest::Digits } else { TagRest::Nothing }
}
