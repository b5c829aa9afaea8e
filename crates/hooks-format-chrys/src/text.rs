//! Bytes to text: byte-order marks (UTF-8, UTF-16, UTF-32), otherwise strict UTF-8.

/// Decodes `bytes` as Chrys does when a BOM is present, and as strict UTF-8 otherwise. The
/// error is Python's `UnicodeDecodeError` text.
///
/// Chrys 0.32.0 falls back to charset detection for text that is not UTF-8 (a short latin-1
/// file may load, as whatever encoding the detector guesses); we reject it instead, because
/// a guess is not reproducible (`specs/formats/chrys.md`, deviations).
pub(crate) fn decode(bytes: &[u8]) -> Result<String, String> {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return utf8(rest, "utf-8-sig", 3);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE, 0x00, 0x00]) {
        return utf32(rest, false);
    }
    if let Some(rest) = bytes.strip_prefix(&[0x00, 0x00, 0xFE, 0xFF]) {
        return utf32(rest, true);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return utf16(rest, false);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return utf16(rest, true);
    }
    utf8(bytes, "utf-8", 0)
}

fn utf8(bytes: &[u8], codec: &str, offset: usize) -> Result<String, String> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => {
            let pos = e.valid_up_to();
            let byte = bytes.get(pos).copied().unwrap_or(0);
            let why = match e.error_len() {
                None => "unexpected end of data",
                Some(_) if (0x80..=0xC1).contains(&byte) || byte >= 0xF5 => "invalid start byte",
                Some(_) => "invalid continuation byte",
            };
            Err(format!(
                "'{codec}' codec can't decode byte 0x{byte:02x} in position {}: {why}",
                pos + offset
            ))
        }
    }
}

fn utf16(bytes: &[u8], big_endian: bool) -> Result<String, String> {
    let units = bytes.chunks_exact(2).map(|c| {
        let pair = [c[0], c[1]];
        if big_endian { u16::from_be_bytes(pair) } else { u16::from_le_bytes(pair) }
    });
    let mut out = String::with_capacity(bytes.len() / 2);
    for (i, r) in char::decode_utf16(units).enumerate() {
        match r {
            Ok(c) => out.push(c),
            Err(_) => {
                return Err(format!(
                    "'utf-16' codec can't decode bytes in position {}-{}: illegal encoding",
                    2 + i * 2,
                    3 + i * 2
                ));
            }
        }
    }
    if !bytes.len().is_multiple_of(2) {
        return Err(format!(
            "'utf-16' codec can't decode byte 0x{:02x} in position {}: truncated data",
            bytes.last().copied().unwrap_or(0),
            1 + bytes.len()
        ));
    }
    Ok(out)
}

fn utf32(bytes: &[u8], big_endian: bool) -> Result<String, String> {
    let mut out = String::with_capacity(bytes.len() / 4);
    for (i, c) in bytes.chunks(4).enumerate() {
        let pos = 4 + i * 4;
        let [a, b, c2, d] = *c else {
            return Err(format!(
                "'utf-32' codec can't decode bytes in position {}-{}: truncated data",
                pos,
                pos + c.len() - 1
            ));
        };
        let n = if big_endian {
            u32::from_be_bytes([a, b, c2, d])
        } else {
            u32::from_le_bytes([a, b, c2, d])
        };
        match char::from_u32(n) {
            Some(ch) => out.push(ch),
            None => {
                return Err(format!(
                    "'utf-32' codec can't decode bytes in position {}-{}: code point not in range(0x110000)",
                    pos,
                    pos + 3
                ));
            }
        }
    }
    Ok(out)
}
