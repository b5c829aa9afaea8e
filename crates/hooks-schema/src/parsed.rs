//! What a format adapter makes of one file.

use serde_json::{Map, Value};

use crate::{HookDefinition, HookDiagnostic, SourcePolicy};

/// The definitions and diagnostics an adapter read from one file.
///
/// Partial success is normal: a definition the adapter rejected is absent from
/// `definitions` and has an error in `diagnostics`; the rest load.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParsedSource {
    /// The definitions, in declared order.
    pub definitions: Vec<HookDefinition>,
    /// Warnings, infos, and errors for rejected definitions, with line and column.
    pub diagnostics: Vec<HookDiagnostic>,
    /// The format's own file-level settings, keyed by its names, for listings (Chrys
    /// `settings`). What the engine acts on is in `policy`.
    pub settings: Map<String, Value>,
    /// The typed policy the file carries, which the registry applies without knowing the
    /// format (Claude Code's `disableAllHooks`, Chrys's opt-in and run settings).
    pub policy: SourcePolicy,
}

/// The result of parsing one file: the parsed source, or the diagnostics explaining why the
/// whole file was rejected (invalid syntax, unsupported version, Chrys's first error). A
/// rejected file keeps the previous configuration in effect where the registry has one.
pub type ParseResult = Result<ParsedSource, Vec<HookDiagnostic>>;
