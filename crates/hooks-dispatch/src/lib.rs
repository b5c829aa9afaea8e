//! Runs hook processes safely (process groups, timeouts, capped output, outbox) and folds their verdicts.
//!
//! The crate knows no hook format: each binding's codec ([`hooks_schema::HookCodec`])
//! encodes the envelope into an [`hooks_schema::Invocation`] and decodes the
//! [`hooks_schema::RawOutcome`]; this crate spawns, bounds, kills, collects and folds.
//! [`run_invocation`] runs one process; [`Dispatcher::fire`] runs the bindings of one event;
//! the [`Outbox`] makes durable delivery survive a crash. Design: `specs/dispatch.md`.
#![warn(missing_docs)]

mod capture;
#[cfg(target_os = "linux")]
mod child;
mod config;
mod contain;
mod detach;
mod dispatcher;
mod error;
mod files;
#[doc(hidden)]
pub mod fuzzing;
mod http;
mod join;
mod limits;
mod outbox;
mod reaper;
mod runner;
mod runs;
mod settings;
mod spawner;
mod sys;
mod tag;
#[cfg(test)]
mod testing;
mod trace;

pub use crate::{
    config::{CpuMax, DispatchConfig, HookLimitRule, HookLimits, LimitSetting, LimitSettingError},
    contain::{Containment, ContainmentReport, Mechanism},
    dispatcher::{
        Dispatcher, DrainReport, FireContext, FireReport, HookRun, RecoveryReport, RunStatus,
        SkipReason,
    },
    error::DispatchError,
    files::finish_deletions,
    limits::{Enforcement, LimitInForce, LimitsVia, Resource},
    outbox::{JobState, Outbox, OutboxJob, find_binding},
    runner::run_invocation,
    settings::RunSettingsTable,
};
