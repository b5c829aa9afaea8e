//! `hooks audit`: what an audit log says, summarised — decisions per hook, the slowest hooks,
//! denials with their reasons, and the guard's refusals.

use std::{collections::BTreeMap, fmt::Write as _, path::PathBuf};

use hooks_schema::Decision;
use serde::Serialize;

use super::{AuditRead, AuditRecord, HookRef};

/// How many rows the "slowest hooks" part lists.
pub const SLOWEST: usize = 5;

/// The summary of an audit log (the `--json` form of `hooks audit`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditSummary {
    /// Fire records.
    pub fires: usize,
    /// Guard records.
    pub guard_decisions: usize,
    /// Lines that were not whole records.
    pub unreadable: usize,
    /// Distinct sessions.
    pub sessions: usize,
    /// The first and the last record's time.
    pub first: Option<String>,
    /// The last record's time.
    pub last: Option<String>,
    /// Fires by folded decision (`allow`, `ask`, `deny`, `none`).
    pub verdicts: BTreeMap<String, usize>,
    /// Every hook that ran, by file and line.
    pub hooks: Vec<HookSummary>,
    /// The hooks with the longest runs, longest first.
    pub slowest: Vec<HookSummary>,
    /// Denials by deciding hook and reason, most frequent first.
    pub denials: Vec<Denial>,
    /// Protected files the guard refused edits of, most refused first.
    pub refusals: Vec<Refusal>,
}

/// One hook's runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HookSummary {
    /// Which hook.
    #[serde(flatten)]
    pub hook: HookRef,
    /// Runs (blocking and background runs that ran).
    pub runs: usize,
    /// Its own decisions.
    pub allow: usize,
    /// Asks.
    pub ask: usize,
    /// Denies.
    pub deny: usize,
    /// Runs its codec reported as failed.
    pub failed: usize,
    /// Runs killed at their timeout.
    pub timed_out: usize,
    /// Median run time, milliseconds.
    pub median_ms: f64,
    /// Longest run time, milliseconds.
    pub max_ms: f64,
}

/// Fires a hook decided with a deny, and its reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Denial {
    /// The deciding hook.
    #[serde(flatten)]
    pub hook: HookRef,
    /// The reason it gave.
    pub reason: Option<String>,
    /// How many fires.
    pub count: usize,
}

/// Edits the guard refused because they reach one protected file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refusal {
    /// The protected file.
    pub protected: PathBuf,
    /// The hook file that protects it.
    pub file: PathBuf,
    /// How many refused edits reached it.
    pub count: usize,
}

/// Summarises what [`super::read_records`] read.
pub fn summarize(read: &AuditRead) -> AuditSummary {
    let mut s = AuditSummary {
        fires: 0,
        guard_decisions: 0,
        unreadable: read.unreadable,
        sessions: 0,
        first: None,
        last: None,
        verdicts: BTreeMap::new(),
        hooks: Vec::new(),
        slowest: Vec::new(),
        denials: Vec::new(),
        refusals: Vec::new(),
    };
    let mut sessions = std::collections::BTreeSet::new();
    let mut hooks: BTreeMap<HookRef, (HookSummary, Vec<f64>)> = BTreeMap::new();
    let mut denials: BTreeMap<(HookRef, Option<String>), usize> = BTreeMap::new();
    let mut refusals: BTreeMap<(PathBuf, PathBuf), usize> = BTreeMap::new();
    for record in &read.records {
        let time = match record {
            AuditRecord::Fire(f) => &f.time,
            AuditRecord::Guard(g) => &g.time,
        };
        if s.first.is_none() {
            s.first = Some(time.clone());
        }
        s.last = Some(time.clone());
        match record {
            AuditRecord::Fire(f) => {
                s.fires += 1;
                if let Some(id) = &f.session {
                    sessions.insert(id.clone());
                }
                let name = f.decision.map_or("none", Decision::as_str);
                *s.verdicts.entry(name.to_owned()).or_default() += 1;
                if f.decision == Some(Decision::Deny)
                    && let Some(by) = &f.decided_by
                {
                    *denials.entry((by.clone(), f.reason.clone())).or_default() += 1;
                }
                for h in f.hooks.iter().filter(|h| h.status != "skipped") {
                    let Some(ms) = h.duration_ms else { continue };
                    let (sum, times) = hooks.entry(h.hook.clone()).or_insert_with(|| {
                        (
                            HookSummary {
                                hook: h.hook.clone(),
                                runs: 0,
                                allow: 0,
                                ask: 0,
                                deny: 0,
                                failed: 0,
                                timed_out: 0,
                                median_ms: 0.0,
                                max_ms: 0.0,
                            },
                            Vec::new(),
                        )
                    });
                    sum.runs += 1;
                    match h.decision {
                        Some(Decision::Allow) => sum.allow += 1,
                        Some(Decision::Ask) => sum.ask += 1,
                        Some(Decision::Deny) => sum.deny += 1,
                        None => {}
                    }
                    sum.failed += usize::from(h.failed);
                    sum.timed_out += usize::from(h.timed_out);
                    times.push(ms);
                }
            }
            AuditRecord::Guard(g) => {
                s.guard_decisions += 1;
                for hit in &g.hits {
                    *refusals.entry((hit.protected.clone(), hit.file.clone())).or_default() += 1;
                }
            }
        }
    }
    s.sessions = sessions.len();
    s.hooks = hooks
        .into_values()
        .map(|(mut sum, mut times)| {
            times.sort_by(f64::total_cmp);
            sum.median_ms = times.get(times.len() / 2).copied().unwrap_or(0.0);
            sum.max_ms = times.last().copied().unwrap_or(0.0);
            sum
        })
        .collect();
    s.slowest = s.hooks.clone();
    s.slowest.sort_by(|a, b| b.max_ms.total_cmp(&a.max_ms).then_with(|| a.hook.cmp(&b.hook)));
    s.slowest.truncate(SLOWEST);
    s.denials =
        denials.into_iter().map(|((hook, reason), count)| Denial { hook, reason, count }).collect();
    s.denials.sort_by_key(|d| std::cmp::Reverse(d.count));
    s.refusals = refusals
        .into_iter()
        .map(|((protected, file), count)| Refusal { protected, file, count })
        .collect();
    s.refusals.sort_by_key(|r| std::cmp::Reverse(r.count));
    s
}

fn at(h: &HookRef) -> String {
    match h.line {
        Some(l) => format!("{}:{l}", h.file.display()),
        None => h.file.display().to_string(),
    }
}

/// The summary as `hooks audit` prints it: plain-text tables.
pub fn render(s: &AuditSummary) -> String {
    let mut out = String::new();
    let verdicts: Vec<String> = s.verdicts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(
        out,
        "{} fires ({}), {} guard decisions, {} sessions",
        s.fires,
        if verdicts.is_empty() { "none".to_owned() } else { verdicts.join(", ") },
        s.guard_decisions,
        s.sessions,
    );
    if let (Some(first), Some(last)) = (&s.first, &s.last) {
        let _ = writeln!(out, "from {first} to {last}");
    }
    if s.unreadable > 0 {
        let _ = writeln!(out, "{} unreadable lines skipped", s.unreadable);
    }
    let hook_rows = |rows: &[HookSummary]| -> Vec<Vec<String>> {
        rows.iter()
            .map(|h| {
                vec![
                    h.hook.hook.clone(),
                    at(&h.hook),
                    h.runs.to_string(),
                    h.allow.to_string(),
                    h.ask.to_string(),
                    h.deny.to_string(),
                    h.failed.to_string(),
                    h.timed_out.to_string(),
                    format!("{:.1}", h.median_ms),
                    format!("{:.1}", h.max_ms),
                ]
            })
            .collect()
    };
    let hook_head =
        ["hook", "at", "runs", "allow", "ask", "deny", "failed", "timeout", "median ms", "max ms"];
    section(&mut out, "decisions per hook", &hook_head, hook_rows(&s.hooks));
    section(&mut out, "slowest hooks", &hook_head, hook_rows(&s.slowest));
    let denials = s
        .denials
        .iter()
        .map(|d| {
            vec![
                d.count.to_string(),
                d.hook.hook.clone(),
                at(&d.hook),
                d.reason.as_deref().map_or("(no reason)".to_owned(), one_line),
            ]
        })
        .collect();
    section(&mut out, "denials", &["fires", "hook", "at", "reason"], denials);
    let refusals = s
        .refusals
        .iter()
        .map(|r| {
            vec![
                r.count.to_string(),
                r.protected.display().to_string(),
                r.file.display().to_string(),
            ]
        })
        .collect();
    section(&mut out, "guard refusals", &["edits", "protected file", "protected by"], refusals);
    out
}

/// A reason on one line, at most 100 characters.
fn one_line(reason: &str) -> String {
    let flat: String = reason.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if flat.chars().count() > 100 {
        let cut: String = flat.chars().take(99).collect();
        format!("{cut}…")
    } else {
        flat
    }
}

/// Appends a titled table with aligned columns; numbers are right-aligned.
fn section(out: &mut String, title: &str, head: &[&str], rows: Vec<Vec<String>>) {
    let _ = writeln!(out, "\n{title}");
    if rows.is_empty() {
        let _ = writeln!(out, "  (none)");
        return;
    }
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let numeric: Vec<bool> = (0..head.len())
        .map(|i| rows.iter().all(|r| r.get(i).is_some_and(|c| c.parse::<f64>().is_ok())))
        .collect();
    let line = |cells: Vec<&str>| -> String {
        let mut l = String::from(" ");
        for (i, cell) in cells.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            let pad = w.saturating_sub(cell.chars().count());
            l.push(' ');
            if numeric.get(i).copied().unwrap_or(false) {
                l.push_str(&" ".repeat(pad));
                l.push_str(cell);
            } else {
                l.push_str(cell);
                l.push_str(&" ".repeat(pad));
            }
        }
        l.trim_end().to_owned()
    };
    let _ = writeln!(out, "{}", line(head.to_vec()));
    for row in &rows {
        let _ = writeln!(out, "{}", line(row.iter().map(String::as_str).collect()));
    }
}
