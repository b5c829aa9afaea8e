//! Tests of the head-and-tail capture.

use proptest::prelude::*;

use super::HeadTail;

#[track_caller]
fn check(cap: usize, chunks: &[&[u8]], expect: &[u8], truncated: bool) {
    let mut h = HeadTail::new(cap);
    for c in chunks {
        h.push(c);
    }
    let out = h.finish();
    assert_eq!(String::from_utf8_lossy(&out.bytes), String::from_utf8_lossy(expect));
    assert_eq!(out.truncated, truncated);
    assert_eq!(out.total_len, chunks.iter().map(|c| c.len() as u64).sum::<u64>());
}

#[test]
fn fits_whole() {
    check(9, &[b"abc", b"def"], b"abcdef", false);
}

#[test]
fn exactly_cap_is_whole() {
    check(9, &[b"abcdefghi"], b"abcdefghi", false);
}

#[test]
fn keeps_head_third_and_tail_two_thirds() {
    check(9, &[b"0123456789", b"abcdef"], b"012\n[... 7 bytes omitted ...]\nabcdef", true);
}

#[test]
fn ring_wraps_over_many_small_chunks() {
    let chunks: Vec<&[u8]> = vec![b"ab"; 20];
    check(6, &chunks, b"ab\n[... 34 bytes omitted ...]\nabab", true);
}

#[test]
fn zero_cap_keeps_nothing() {
    check(0, &[b"abc"], b"\n[... 3 bytes omitted ...]\n", true);
}

proptest! {
    #[test]
    fn matches_a_naive_model(cap in 0usize..40, chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..30), 0..20)) {
        let mut h = HeadTail::new(cap);
        let mut all = Vec::new();
        for c in &chunks {
            h.push(c);
            all.extend_from_slice(c);
        }
        let out = h.finish();
        prop_assert_eq!(out.total_len, all.len() as u64);
        if all.len() <= cap {
            prop_assert!(!out.truncated);
            prop_assert_eq!(out.bytes, all);
        } else {
            let head = cap / 3;
            let tail = cap - head;
            prop_assert!(out.truncated);
            prop_assert!(out.bytes.starts_with(&all[..head]));
            prop_assert!(out.bytes.ends_with(&all[all.len() - tail..]));
            let marker = format!("\n[... {} bytes omitted ...]\n", all.len() - cap);
            prop_assert_eq!(out.bytes.len(), cap + marker.len());
        }
    }
}
