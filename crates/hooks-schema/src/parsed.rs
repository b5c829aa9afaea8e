//! What a format adapter makes of one file.

use serde_json::{Map, Value};

use crate::{HookDefinition, HookDiagnostic};

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
    /// File-level settings the runtime needs (Chrys `settings`, Claude `disableAllHooks`),
    /// keyed by the format's own names.
    pub settings: Map<String, Value>,
}

/// The result of parsing one file: the parsed source, or the diagnostics explaining why the
/// whole file was rejected (invalid syntax, unsupported version, Chrys's first error). A
/// rejected file keeps the previous configuration in effect where the registry has one.
pub type ParseResult = Result<ParsedSource, Vec<HookDiagnostic>>;
