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
