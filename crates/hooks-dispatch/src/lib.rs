//! Runs hook processes safely (process groups, timeouts, capped output, outbox) and folds their verdicts.
