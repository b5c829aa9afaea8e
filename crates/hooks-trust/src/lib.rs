//! Trust policy: whether a hook source may run, by surface, source kind and posture.
//!
//! A hook is an arbitrary process that runs without tool approval, so whether a hook
//! file's definitions run depends on who owns the file and on the situation the process is
//! in. [`StaticTrustPolicy`] writes the whole rule down as one exhaustive table over
//! [`Surface`] × [`SourceOwner`] (derived from [`HookSourceKind::owner`]) ×
//! [`CommandExecutionPosture`], plus two user-owned switches carried by [`TrustInputs`]:
//!
//! - Explicit sources (factory agent, factory-wide, run-delivered) activate everywhere; their
//!   loader activates them without asking the table ([`explicit_source_decision`]), and the
//!   rows exist so the table is complete.
//! - Managed files (installed by an administrator) and the user's own files activate
//!   everywhere.
//! - A project file activates only on a cloud run ([`Surface::OzRun`]) or a command-line run
//!   ([`Surface::CliRun`]) whose commands auto-approve; requiring approval, an unknown posture,
//!   every interactive surface and a local child leave it inert, each with its own reason.
//! - The user's opt-in: when the user's own settings enable project hooks
//!   ([`TrustInputs::user_enables_project_hooks`], Chrys's `project.hooks_enabled`, default
//!   off, never settable by a project), project files also activate on interactive surfaces.
//!   A repository's Chrys file needs the opt-in on every surface as well; the registry applies
//!   that after this table (the strictest of both, `specs/trust-and-sources.md`).
//! - Strict mode ([`TrustInputs::strict_project_scopes`], the deny-only rule): project files
//!   never activate, whatever else holds.
//!
//! The table is a `match` without wildcard arms, so adding a surface, an owner or a posture
//! fails to compile until someone decides what it means. This crate does no IO.
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

mod policy;
mod posture;
mod surface;

pub use crate::{
    policy::{
        DenyAllTrustPolicy, FileRead, StaticTrustPolicy, TrustInputs, TrustPolicy,
        explicit_source_decision,
    },
    posture::{CommandExecutionPosture, ParseTrustValueError},
    surface::Surface,
};

pub use hooks_schema::{HookSourceKind, SourceOwner, TrustDecision};
