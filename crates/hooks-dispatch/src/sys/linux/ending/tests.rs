//! Tests of the reaper's allocation-free reader of the registration file's lines, against
//! what the shell script accepts.

use proptest::prelude::*;

use super::Line;

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

proptest! {
    #[test]
    fn registration_lines_never_panic_and_name_only_ids_above_one(text in prop::collection::vec(any::<u8>(), 0..200)) {
        for g in lines(&text) {
            prop_assert!(g > 1);
        }
    }
}
