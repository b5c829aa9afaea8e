//! Tests of the reaper's allocation-free reader of the registration file's lines, against
//! what the shell script accepts.

use proptest::prelude::*;

use crate::fuzzing::{registered_groups as lines, registered_groups_reference};

#[test]
fn a_line_is_one_to_ten_digits_between_blanks_and_above_one() {
    let text = b"T         \n       123\n          \ngarbage\n0\n1\n-5\n+7\n12 34\n12345678901\n\t42 \n2147483648\n99";
    assert_eq!(lines(text), vec![123, 42, 99]);
}

proptest! {
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
