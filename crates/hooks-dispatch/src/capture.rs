//! Bounded output capture: keeps the head and the tail of a stream, counts everything.

use hooks_schema::CapturedOutput;

/// Collects a stream of bytes up to a cap, keeping the first third and the last two thirds
/// of the cap and dropping the middle, like Chrys's runner.
///
/// Invariant: memory use never exceeds `cap` bytes (plus the marker when finished), however
/// much is pushed.
#[derive(Debug, Clone)]
pub(crate) struct HeadTail {
    cap: usize,
    head_cap: usize,
    head: Vec<u8>,
    /// A ring buffer of at most `cap - head_cap` bytes; `tail_start` is its oldest byte.
    tail: Vec<u8>,
    tail_start: usize,
    total: u64,
}

impl HeadTail {
    /// A collector keeping at most `cap` bytes.
    pub(crate) fn new(cap: usize) -> HeadTail {
        let head_cap = cap / 3;
        HeadTail { cap, head_cap, head: Vec::new(), tail: Vec::new(), tail_start: 0, total: 0 }
    }

    /// Appends bytes.
    pub(crate) fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.head.len() < self.head_cap {
            let n = (self.head_cap - self.head.len()).min(bytes.len());
            self.head.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
        }
        let tail_cap = self.cap - self.head_cap;
        if tail_cap == 0 || bytes.is_empty() {
            return;
        }
        if bytes.len() >= tail_cap {
            self.tail.clear();
            self.tail.extend_from_slice(&bytes[bytes.len() - tail_cap..]);
            self.tail_start = 0;
            return;
        }
        if self.tail.len() < tail_cap {
            let n = (tail_cap - self.tail.len()).min(bytes.len());
            self.tail.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
        }
        // The ring is full: overwrite the oldest bytes.
        for &b in bytes {
            self.tail[self.tail_start] = b;
            self.tail_start = (self.tail_start + 1) % tail_cap;
        }
    }

    /// The captured output: the whole stream when it fit, else head, marker, tail.
    pub(crate) fn finish(self) -> CapturedOutput {
        let kept = (self.head.len() + self.tail.len()) as u64;
        let mut bytes = self.head;
        let truncated = kept < self.total;
        if truncated {
            let marker = format!("\n[... {} bytes omitted ...]\n", self.total - kept);
            bytes.extend_from_slice(marker.as_bytes());
        }
        bytes.extend_from_slice(&self.tail[self.tail_start..]);
        bytes.extend_from_slice(&self.tail[..self.tail_start]);
        CapturedOutput { bytes, total_len: self.total, truncated }
    }
}

#[cfg(test)]
mod tests;
