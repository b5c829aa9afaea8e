//! Counters that only move forward: snapshot revisions and generations.

use std::fmt;

use serde::{Deserialize, Serialize};

macro_rules! forward_counter {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(u64);

        impl $name {
            /// The first value.
            pub const ZERO: $name = $name(0);

            /// The next value. Invariant: the only way to move the counter.
            #[must_use]
            pub fn next(self) -> $name {
                $name(self.0.checked_add(1).expect("counter overflow"))
            }

            /// The value as a number.
            pub fn get(self) -> u64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

forward_counter!(
    /// Moves when the runnable bindings or the project roots that scope them change.
    /// Pre-tool verdicts and envelopes are keyed on it.
    Revision
);

forward_counter!(
    /// Moves on every published snapshot, including failed reloads and changes recorded
    /// after pinning.
    Generation
);
