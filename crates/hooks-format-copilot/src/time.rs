//! The two timestamp spellings of Copilot's payloads: epoch milliseconds (a JSON number) in
//! the camelCase dialect, an ISO 8601 UTC string with milliseconds in the PascalCase one
//! (`1796155949621` and `2026-12-01T20:12:54.053Z`, both observed). The envelope keeps a
//! timestamp as text; these convert between the two.

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Epoch milliseconds of `text`: a decimal integer as is, an ISO 8601 UTC time
/// (`YYYY-MM-DDTHH:MM:SS[.fff]Z`) converted; `None` for anything else.
pub(crate) fn epoch_millis(text: &str) -> Option<i64> {
    if let Ok(ms) = text.parse::<i64>() {
        return Some(ms);
    }
    let t = text.strip_suffix('Z')?;
    let (date, time) = t.split_once('T')?;
    let mut d = date.splitn(3, '-');
    let (y, mo, da): (i64, i64, i64) =
        (d.next()?.parse().ok()?, d.next()?.parse().ok()?, d.next()?.parse().ok()?);
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    let mut h = hms.splitn(3, ':');
    let (hh, mm, ss): (i64, i64, i64) =
        (h.next()?.parse().ok()?, h.next()?.parse().ok()?, h.next()?.parse().ok()?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&da) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms: i64 = format!("{:0<3}", frac).get(..3)?.parse().ok()?;
    let days = days_from_civil(y, mo, da);
    Some(((days * 24 + hh) * 60 + mm) * 60_000 + ss * 1000 + ms)
}

/// The ISO 8601 UTC text with milliseconds of epoch milliseconds `ms`.
pub(crate) fn iso(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let (h, rem) = (rem / 3_600_000, rem % 3_600_000);
    let (mi, rem) = (rem / 60_000, rem % 60_000);
    let (s, milli) = (rem / 1000, rem % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn observed_timestamps_convert_both_ways() {
        assert_eq!(epoch_millis("2026-12-01T20:12:54.053Z"), Some(1_796_155_974_053));
        assert_eq!(iso(1_796_155_974_053), "2026-12-01T20:12:54.053Z");
        assert_eq!(epoch_millis("1796155949621"), Some(1_796_155_949_621));
        assert_eq!(epoch_millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(epoch_millis("2026-13-01T00:00:00Z"), None);
        assert_eq!(epoch_millis("yesterday"), None);
    }

    proptest! {
        #[test]
        fn iso_and_back(ms in -62_000_000_000_000i64..253_000_000_000_000i64) {
            prop_assert_eq!(epoch_millis(&iso(ms)), Some(ms));
        }

        #[test]
        fn never_panics(s in "\\PC{0,40}") {
            let _ = epoch_millis(&s);
        }
    }
}
