//! A redacted, read-only inventory of hook definitions, with stable command fingerprints.
//!
//! Works from any [`HookDefinition`], so the app can list Cursor and Chrys sources the same
//! way. What a hook runs (command, arguments, environment values, deny reasons) appears only
//! with [`Reveal::Yes`]; by default a listing shows where each hook is, what it applies to,
//! and a fingerprint that changes whenever the command does.

use std::{
    fmt,
    path::{Path, PathBuf},
};

use hooks_schema::{
    HookCommand, HookDefinition, HookDiagnostic, HookEvent, HookSourceKind, ParsedSource,
};
use serde::Serialize;
use serde_json::Value;

use crate::{
    ClaudeMode,
    parse::{self, NATIVE_FAIL_CLOSED},
};

/// Whether a listing shows what hooks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reveal {
    /// Commands, arguments, environment values and deny reasons are withheld.
    #[default]
    No,
    /// Everything is shown.
    Yes,
}

/// One hook in a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InventoryEntry {
    /// The hook id.
    pub hook_id: String,
    /// The canonical event.
    pub event: HookEvent,
    /// The event's name in the file.
    pub native_event: String,
    /// The matcher's text; `None` matches every firing.
    pub matcher: Option<String>,
    /// The kind the source was loaded as, when the caller knows it.
    pub scope: Option<HookSourceKind>,
    /// The file.
    pub source: PathBuf,
    /// The hook's line in the file.
    pub line: Option<u32>,
    /// Whether it runs (false when disabled by the file or the definition).
    pub enabled: bool,
    /// `blocking`, `async` or `fire_and_forget`.
    pub mode: &'static str,
    /// `block`, `warn` or `ignore`.
    pub on_failure: &'static str,
    /// The timeout in milliseconds.
    pub timeout_ms: u64,
    /// `shell`, `exec` or `script`.
    pub handler: &'static str,
    /// [`fingerprint`] of the command.
    pub fingerprint: String,
    /// Whether this entry stands for a strict source that fails closed.
    pub fails_closed: bool,
    /// The command line, program or script path (revealed only).
    pub command: Option<String>,
    /// The arguments (revealed only).
    pub args: Option<Vec<String>>,
    /// The shell (revealed only).
    pub shell: Option<String>,
    /// Environment variable names, with values only when revealed.
    pub env: Vec<(String, Option<String>)>,
    /// The reason a fail-closed entry denies with (revealed only).
    pub deny_reason: Option<String>,
    /// An `http` handler's URL, its credentials and query withheld unless revealed.
    pub url: Option<String>,
    /// An `http` handler's header names, with values (templates) only when revealed.
    pub headers: Vec<(String, Option<String>)>,
}

impl InventoryEntry {
    /// The entry for one definition.
    pub fn from_definition(
        def: &HookDefinition,
        source: &Path,
        scope: Option<HookSourceKind>,
        reveal: Reveal,
    ) -> InventoryEntry {
        let show = reveal == Reveal::Yes;
        let deny = def.native.get(NATIVE_FAIL_CLOSED).and_then(Value::as_str).map(str::to_owned);
        let (handler, command, args, shell) = match &def.command {
            HookCommand::Shell { script, shell } => ("shell", script.clone(), None, shell.clone()),
            HookCommand::Exec { program, args } => {
                ("exec", program.clone(), Some(args.clone()), None)
            }
            HookCommand::Script { path, args } => {
                ("script", path.display().to_string(), Some(args.clone()), None)
            }
            HookCommand::Http(h) => ("http", h.url.clone(), None, None),
        };
        let (url, headers) = match &def.command {
            HookCommand::Http(h) => (
                Some(if show { h.url.clone() } else { hooks_schema::redact_url(&h.url) }),
                h.headers.iter().map(|(k, v)| (k.clone(), show.then(|| v.clone()))).collect(),
            ),
            _ => (None, Vec::new()),
        };
        InventoryEntry {
            hook_id: def.id.to_string(),
            event: def.event,
            native_event: def.native_event.clone(),
            matcher: def.matcher.shown(show).map(str::to_owned),
            scope,
            source: source.to_path_buf(),
            line: def.line,
            enabled: def.enabled,
            mode: def.mode.as_str(),
            on_failure: def.on_failure.as_str(),
            timeout_ms: u64::try_from(def.timeout.as_millis()).unwrap_or(u64::MAX),
            handler,
            fingerprint: fingerprint(def),
            fails_closed: deny.is_some(),
            command: show.then_some(command),
            args: args.filter(|_| show),
            shell: shell.filter(|_| show),
            env: def.env.iter().map(|(k, v)| (k.clone(), show.then(|| v.clone()))).collect(),
            deny_reason: deny.filter(|_| show),
            url,
            headers,
        }
    }
}

/// One line: `id event matcher scope source:line state mode fingerprint [command …]`.
impl fmt::Display for InventoryEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({})", self.hook_id, self.event, self.native_event)?;
        write!(f, " matcher={}", self.matcher.as_deref().unwrap_or("*"))?;
        if let Some(s) = self.scope {
            write!(f, " scope={s}")?;
        }
        write!(f, " source={}", self.source.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        write!(
            f,
            " {} {} on_failure={} timeout={}ms {} {}",
            if self.enabled { "enabled" } else { "disabled" },
            self.mode,
            self.on_failure,
            self.timeout_ms,
            self.handler,
            self.fingerprint
        )?;
        if self.fails_closed {
            f.write_str(" fails-closed")?;
        }
        match (&self.url, &self.command) {
            (Some(u), _) => write!(f, " url={u:?}")?,
            (None, Some(c)) => write!(f, " command={c:?}")?,
            (None, None) => f.write_str(" command=<redacted>")?,
        }
        for (k, v) in &self.headers {
            write!(f, " header:{k}={}", v.as_deref().unwrap_or("<redacted>"))?;
        }
        if let Some(a) = &self.args {
            write!(f, " args={a:?}")?;
        }
        if let Some(s) = &self.shell {
            write!(f, " shell={s}")?;
        }
        for (k, v) in &self.env {
            write!(f, " env:{k}={}", v.as_deref().unwrap_or("<redacted>"))?;
        }
        if let Some(r) = &self.deny_reason {
            write!(f, " deny_reason={r:?}")?;
        }
        Ok(())
    }
}

/// The entries of an already parsed source (fail-closed definitions included).
pub fn entries(
    parsed: &ParsedSource,
    source: &Path,
    scope: Option<HookSourceKind>,
    reveal: Reveal,
) -> Vec<InventoryEntry> {
    parsed
        .definitions
        .iter()
        .map(|d| InventoryEntry::from_definition(d, source, scope, reveal))
        .collect()
}

/// The listing of a settings document: an absent `hooks` section is an empty inventory; a
/// malformed document (or, in strict mode, any contract violation) is an error carrying the
/// diagnostics. Hooks of a file with `disableAllHooks: true` are listed as disabled.
pub fn inventory(
    bytes: &[u8],
    path: &Path,
    mode: ClaudeMode,
    reveal: Reveal,
) -> Result<Vec<InventoryEntry>, Vec<HookDiagnostic>> {
    let reading = parse::read(bytes, path, mode);
    if reading.unreadable || (mode == ClaudeMode::Strict && !reading.violations.is_empty()) {
        return Err(reading.diagnostics);
    }
    let disabled = reading.disabled();
    Ok(reading
        .definitions
        .iter()
        .map(|d| {
            let mut e = InventoryEntry::from_definition(d, path, None, reveal);
            e.enabled &= !disabled;
            e
        })
        .collect())
}

/// A stable fingerprint of what a definition runs: `sha256:` and the first 32 hex digits of
/// the SHA-256 of a length-prefixed encoding of the command variant and its fields.
///
/// It depends only on the command (not on the id, matcher, environment or position), is the
/// same on every run and platform, and reveals nothing usable about the command.
pub fn fingerprint(def: &HookDefinition) -> String {
    let mut buf = Vec::new();
    let mut field = |b: &[u8]| {
        buf.extend_from_slice(&(b.len() as u64).to_le_bytes());
        buf.extend_from_slice(b);
    };
    field(b"agent-hooks command fingerprint v1");
    match &def.command {
        HookCommand::Shell { script, shell } => {
            field(b"shell");
            field(script.as_bytes());
            field(shell.as_deref().unwrap_or_default().as_bytes());
            field(if shell.is_some() { b"1" } else { b"0" });
        }
        HookCommand::Exec { program, args } => {
            field(b"exec");
            field(program.as_bytes());
            for a in args {
                field(a.as_bytes());
            }
        }
        HookCommand::Script { path, args } => {
            field(b"script");
            field(path.as_os_str().as_encoded_bytes());
            for a in args {
                field(a.as_bytes());
            }
        }
        HookCommand::Http(h) => {
            field(b"http");
            field(h.url.as_bytes());
            for (k, v) in &h.headers {
                field(k.as_bytes());
                field(v.as_bytes());
            }
            field(b"allowedEnvVars");
            for a in &h.allowed_env_vars {
                field(a.as_bytes());
            }
        }
    }
    let digest = sha256(&buf);
    let mut out = String::from("sha256:");
    for b in digest.iter().take(16) {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// SHA-256 (FIPS 180-4) of `data`.
pub(crate) fn sha256(data: &[u8]) -> [u8; 32] {
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests;
