//! [`FormatSet`]: the formats a runtime reads, in registration order.

use std::{fmt, path::Path, sync::Arc};

use crate::{Claim, FileScope, FormatDescriptor, FormatId, HookEvent};

/// The formats a runtime is built with, in registration order. The order breaks ties between
/// equally strong claims on a file and orders the names looked for in an explicit folder;
/// precedence between sources comes from their kinds, not from this order.
///
/// Cheap to clone (the descriptors are shared).
#[derive(Clone, Default)]
pub struct FormatSet {
    formats: Arc<[Arc<dyn FormatDescriptor>]>,
}

/// A format id that is not registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format `{name}`; registered formats: {known}")]
pub struct UnknownFormat {
    /// The name asked for.
    pub name: String,
    /// The registered ids, comma-separated.
    pub known: String,
}

impl FormatSet {
    /// A set of `formats`, in order.
    ///
    /// # Panics
    /// When two descriptors share an id, or two roles of one format share a name: both are
    /// programming errors of whoever registers the formats.
    pub fn new(formats: Vec<Arc<dyn FormatDescriptor>>) -> FormatSet {
        for (i, f) in formats.iter().enumerate() {
            let dup = formats.iter().skip(i + 1).any(|g| g.id() == f.id());
            assert!(!dup, "format `{}` is registered twice", f.id());
            for l in f.locations() {
                assert_eq!(
                    l.role.format(),
                    f.id(),
                    "a location of `{}` names another format",
                    f.id()
                );
            }
        }
        FormatSet { formats: formats.into() }
    }

    /// The descriptors, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn FormatDescriptor>> {
        self.formats.iter()
    }

    /// How many formats are registered.
    pub fn len(&self) -> usize {
        self.formats.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.formats.is_empty()
    }

    /// The descriptor of `id`.
    pub fn get(&self, id: FormatId) -> Option<&Arc<dyn FormatDescriptor>> {
        self.formats.iter().find(|f| f.id() == id)
    }

    /// The descriptor named `name` (`claude`), or an error listing the registered ones.
    pub fn named(&self, name: &str) -> Result<&Arc<dyn FormatDescriptor>, UnknownFormat> {
        self.formats.iter().find(|f| f.id().as_str() == name).ok_or_else(|| UnknownFormat {
            name: name.to_owned(),
            known: self.formats.iter().map(|f| f.id().as_str()).collect::<Vec<_>>().join(", "),
        })
    }

    /// The format that claims a file named `path` most strongly ([`FormatDescriptor::claim`]);
    /// ties go to the format registered first. `None` when no format claims it.
    pub fn format_for_file(&self, path: &Path) -> Option<&Arc<dyn FormatDescriptor>> {
        self.claim_for_file(path).map(|(_, f)| f)
    }

    /// [`FormatSet::format_for_file`] with the strength of the winning claim.
    pub fn claim_for_file(&self, path: &Path) -> Option<(Claim, &Arc<dyn FormatDescriptor>)> {
        best(self.formats.iter().map(|f| (f.claim(path), f)))
    }

    /// The format that claims `bytes` most strongly by content
    /// ([`FormatDescriptor::claim_content`]).
    pub fn format_for_content(&self, bytes: &[u8]) -> Option<&Arc<dyn FormatDescriptor>> {
        best(self.formats.iter().map(|f| (f.claim_content(bytes), f))).map(|(_, f)| f)
    }

    /// The file names looked for in a folder named as an explicit source, in order, each with
    /// the format that reads it there: the names every format offers
    /// ([`FormatDescriptor::explicit_names`]), each read in the format that claims
    /// `dir/name` most strongly, grouped by that format in registration order and, within a
    /// group, in the order its format lists them.
    pub fn explicit_candidates(&self, dir: &Path) -> Vec<(&'static str, FormatId)> {
        let mut claimed: Vec<(&'static str, FormatId)> = Vec::new();
        for f in self.formats.iter() {
            for name in f.explicit_names() {
                if claimed.iter().any(|(n, _)| *n == name) {
                    continue;
                }
                if let Some(owner) = self.format_for_file(&dir.join(name)) {
                    claimed.push((name, owner.id()));
                }
            }
        }
        let mut out = Vec::with_capacity(claimed.len());
        for f in self.formats.iter() {
            let own: Vec<&'static str> = f.explicit_names();
            let mut mine: Vec<(&'static str, FormatId)> =
                claimed.iter().copied().filter(|(_, id)| *id == f.id()).collect();
            mine.sort_by_key(|(n, _)| own.iter().position(|o| o == n).unwrap_or(usize::MAX));
            out.extend(mine);
        }
        out
    }

    /// The canonical event of a native name in any registered format, the first that knows it.
    pub fn canonical_event(&self, native: &str) -> Option<HookEvent> {
        self.formats.iter().find_map(|f| f.canonical_event(native))
    }

    /// Whether any registered format has a location in `scope`.
    pub fn has_scope(&self, scope: FileScope) -> bool {
        self.formats.iter().any(|f| f.locations().iter().any(|l| l.scope == scope))
    }
}

fn best<'a>(
    claims: impl Iterator<Item = (Claim, &'a Arc<dyn FormatDescriptor>)>,
) -> Option<(Claim, &'a Arc<dyn FormatDescriptor>)> {
    let mut best: Option<(Claim, &'a Arc<dyn FormatDescriptor>)> = None;
    for (claim, f) in claims {
        if claim > Claim::No && best.is_none_or(|(b, _)| claim > b) {
            best = Some((claim, f));
        }
    }
    best
}

impl fmt::Debug for FormatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.formats.iter().map(|d| d.id())).finish()
    }
}
