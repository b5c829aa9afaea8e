//! Tests of the reaper's allocation-free readers: the registration file's lines and the tag
//! matcher, against what the shell script and `grep -zx` accept.

use proptest::prelude::*;

use super::{Line, TagMatch};

fn lines(text: &[u8]) -> Vec<i32> {
    let mut line = Line::default();
    let mut out: Vec<i32> = text.iter().filter_map(|b| line.feed(*b)).collect();
    out.extend(line.finish());
    out
}

#[test]
fn a_line_is_one_to_ten_digits_between_blanks_and_above_one() {
    let text = b"T         \n       123\n          \ngarbage\n0\n1\n-5\n+7\n12 34\n12345678901\n\t42 \n2147483648\n99";
    assert_eq!(lines(text), vec![123, 42, 99]);
}

fn matches(block: &[u8], prefix: &[u8]) -> bool {
    let mut m = TagMatch::new(prefix);
    m.feed(block);
    m.found()
}

#[test]
fn the_tag_matcher_wants_the_prefix_then_digits_and_nothing_else() {
    let p = b"AGENT_HOOKS_RUN=12-34-";
    assert!(matches(b"A=1\0AGENT_HOOKS_RUN=12-34-5\0B=2\0", p));
    assert!(matches(b"AGENT_HOOKS_RUN=12-34-567", p), "a last entry without its NUL");
    for block in [
        &b"AGENT_HOOKS_RUN=12-34-\0"[..],
        b"AGENT_HOOKS_RUN=12-34-5x\0",
        b"AGENT_HOOKS_RUN=12-349-5\0",
        b"XAGENT_HOOKS_RUN=12-34-5\0",
        b"AGENT_HOOKS_RUN=12-34\0",
        b"",
    ] {
        assert!(!matches(block, p), "{:?}", String::from_utf8_lossy(block));
    }
}

/// What `grep -zx 'PREFIX[0-9][0-9]*'` matches, spelled plainly.
fn reference(block: &[u8], prefix: &[u8]) -> bool {
    block.split(|b| *b == 0).any(|e| {
        e.len() > prefix.len()
            && e.starts_with(prefix)
            && e[prefix.len()..].iter().all(u8::is_ascii_digit)
    })
}

proptest! {
    #[test]
    fn the_tag_matcher_fed_in_pieces_agrees_with_the_plain_reading(
        entries in prop::collection::vec(
            prop_oneof![
                "[A-Z_]{1,6}=[a-z0-9-]{0,6}",
                "AGENT_HOOKS_RUN=7-8-[0-9x]{0,3}",
                "AGENT_HOOKS_RUN=7-[0-9-]{0,4}",
            ],
            0..6,
        ),
        cut in 0usize..64,
        terminated in any::<bool>(),
    ) {
        let prefix = b"AGENT_HOOKS_RUN=7-8-";
        let mut block = entries.join("\0").into_bytes();
        if terminated && !block.is_empty() {
            block.push(0);
        }
        let at = cut.min(block.len());
        let mut m = TagMatch::new(prefix);
        m.feed(&block[..at]);
        m.feed(&block[at..]);
        prop_assert_eq!(m.found(), reference(&block, prefix));
    }

    #[test]
    fn registration_lines_never_panic_and_name_only_ids_above_one(text in prop::collection::vec(any::<u8>(), 0..200)) {
        for g in lines(&text) {
            prop_assert!(g > 1);
        }
    }
}
