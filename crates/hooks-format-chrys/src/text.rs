//! Bytes to text: byte-order marks (UTF-8, UTF-16, UTF-32), otherwise strict UTF-8.

/// Why bytes are not text, worded as Python's `UnicodeDecodeError`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// One byte at `position` cannot start or continue a character.
    #[error("'{codec}' codec can't decode byte 0x{byte:02x} in position {position}: {why}")]
    Byte {
        /// The codec (`utf-8`, `utf-8-sig`, `utf-16`).
        codec: &'static str,
        /// The byte.
        byte: u8,
        /// Its offset in the file.
        position: usize,
        /// Python's reason (`invalid start byte`, `truncated data`).
        why: &'static str,
    },
    /// The bytes from `start` to `end` (inclusive) are no character.
    #[error("'{codec}' codec can't decode bytes in position {start}-{end}: {why}")]
    Bytes {
        /// The codec (`utf-16`, `utf-32`).
        codec: &'static str,
        /// The first offset.
        start: usize,
        /// The last offset.
        end: usize,
        /// Python's reason.
        why: &'static str,
    },
}

/// Decodes `bytes` as Chrys does when a BOM is present, and as strict UTF-8 otherwise. The
/// error is Python's `UnicodeDecodeError` text.
///
/// Chrys 0.32.0 falls back to charset detection for text that is not UTF-8 (a short latin-1
/// file may load, as whatever encoding the detector guesses); we reject it instead, because
/// a guess is not reproducible (`specs/formats/chrys.md`, deviations).
pub(crate) fn decode(bytes: &[u8]) -> Result<String, DecodeError> {
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

fn utf8(bytes: &[u8], codec: &'static str, offset: usize) -> Result<String, DecodeError> {
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
            Err(DecodeError::Byte { codec, byte, position: pos + offset, why })
        }
    }
}

fn utf16(bytes: &[u8], big_endian: bool) -> Result<String, DecodeError> {
    let units = bytes.chunks_exact(2).map(|c| {
        let pair = [c[0], c[1]];
        if big_endian { u16::from_be_bytes(pair) } else { u16::from_le_bytes(pair) }
    });
    let mut out = String::with_capacity(bytes.len() / 2);
    for (i, r) in char::decode_utf16(units).enumerate() {
        match r {
            Ok(c) => out.push(c),
            Err(_) => {
                return Err(DecodeError::Bytes {
                    codec: "utf-16",
                    start: 2 + i * 2,
                    end: 3 + i * 2,
                    why: "illegal encoding",
                });
            }
        }
    }
    if !bytes.len().is_multiple_of(2) {
        return Err(DecodeError::Byte {
            codec: "utf-16",
            byte: bytes.last().copied().unwrap_or(0),
            position: 1 + bytes.len(),
            why: "truncated data",
        });
    }
    Ok(out)
}

fn utf32(bytes: &[u8], big_endian: bool) -> Result<String, DecodeError> {
    let mut out = String::with_capacity(bytes.len() / 4);
    for (i, c) in bytes.chunks(4).enumerate() {
        let pos = 4 + i * 4;
        let [a, b, c2, d] = *c else {
            return Err(DecodeError::Bytes {
                codec: "utf-32",
                start: pos,
                end: pos + c.len() - 1,
                why: "truncated data",
            });
        };
        let n = if big_endian {
            u32::from_be_bytes([a, b, c2, d])
        } else {
            u32::from_le_bytes([a, b, c2, d])
        };
        match char::from_u32(n) {
            Some(ch) => out.push(ch),
            None => {
                return Err(DecodeError::Bytes {
                    codec: "utf-32",
                    start: pos,
                    end: pos + 3,
                    why: "code point not in range(0x110000)",
                });
            }
        }
    }
    Ok(out)
}
