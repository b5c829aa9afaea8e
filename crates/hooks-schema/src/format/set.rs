//! [`FormatSet`]: the formats a runtime reads, in registration order.

use std::{fmt, path::Path, sync::Arc};

use crate::{Claim, FileRole, FileScope, FormatDescriptor, FormatId, HookEvent, HookSourceKind};

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

/// Why a list of descriptors cannot make a [`FormatSet`]: each is a mistake of whoever
/// registers the formats, caught before any file is read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatSetError {
    /// Two descriptors share an id.
    #[error("format `{format}` is registered twice")]
    Duplicate {
        /// The id.
        format: FormatId,
    },
    /// A descriptor lists a location whose role belongs to another format.
    #[error("format `{format}` lists a location of role `{role}`, which belongs to `{owner}`")]
    ForeignRole {
        /// The descriptor's id.
        format: FormatId,
        /// The role's name.
        role: &'static str,
        /// The format the role names.
        owner: FormatId,
    },
    /// Two different roles share a rank: their sources' precedence within a scope would be
    /// decided by the order files happen to be found in, not by the formats.
    #[error(
        "roles `{first}` and `{second}` share rank {rank}; each role needs its own rank \
         (specs/formats.md, \"Source kinds are data\")"
    )]
    RankCollision {
        /// The shared rank.
        rank: u16,
        /// The role registered first.
        first: &'static str,
        /// The other one.
        second: &'static str,
    },
    /// Two different roles share a name: their kinds' names (`project_<role>`) would be
    /// the same.
    #[error("two roles are named `{role}` (of `{first}` and `{second}`)")]
    RoleNameCollision {
        /// The name.
        role: &'static str,
        /// The format of the role registered first.
        first: FormatId,
        /// The other one's.
        second: FormatId,
    },
}

impl FormatSet {
    /// A set of `formats`, in order.
    ///
    /// # Panics
    /// When [`FormatSet::try_new`] refuses the list: the formats registered in code are a
    /// programming error of whoever registers them, caught by any test that builds the set.
    pub fn new(formats: Vec<Arc<dyn FormatDescriptor>>) -> FormatSet {
        FormatSet::try_new(formats).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A set of `formats`, in order, or why they cannot be one: two descriptors with one id,
    /// a location whose role is another format's, or two roles with one rank or one name
    /// (ranks order the sources of one scope, so a tie would be decided by discovery order).
    pub fn try_new(formats: Vec<Arc<dyn FormatDescriptor>>) -> Result<FormatSet, FormatSetError> {
        let mut roles: Vec<FileRole> = Vec::new();
        for (i, f) in formats.iter().enumerate() {
            if formats.iter().skip(i + 1).any(|g| g.id() == f.id()) {
                return Err(FormatSetError::Duplicate { format: f.id() });
            }
            for l in f.locations() {
                let role = l.role;
                if role.format() != f.id() {
                    return Err(FormatSetError::ForeignRole {
                        format: f.id(),
                        role: role.name(),
                        owner: role.format(),
                    });
                }
                if roles.contains(&role) {
                    continue;
                }
                if let Some(other) = roles.iter().find(|r| r.rank() == role.rank()) {
                    return Err(FormatSetError::RankCollision {
                        rank: role.rank(),
                        first: other.name(),
                        second: role.name(),
                    });
                }
                if let Some(other) = roles.iter().find(|r| r.name() == role.name()) {
                    return Err(FormatSetError::RoleNameCollision {
                        role: role.name(),
                        first: other.format(),
                        second: role.format(),
                    });
                }
                roles.push(role);
            }
        }
        Ok(FormatSet { formats: formats.into() })
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

    /// Every kind a source of these formats can have: each location's, then each agent
    /// folder's whose hook files are read ([`AgentFolder::reads_hooks`]), in registration
    /// and declaration order (a kind two locations share appears twice).
    ///
    /// [`AgentFolder::reads_hooks`]: crate::AgentFolder::reads_hooks
    pub fn source_kinds(&self) -> impl Iterator<Item = HookSourceKind> + '_ {
        self.formats.iter().flat_map(|f| {
            let files = f.locations().iter().map(|l| HookSourceKind::file(l.scope, l.role));
            let folders = f.agent_folders().iter().filter(|a| a.reads_hooks());
            files.chain(folders.map(|a| HookSourceKind::file(a.scope, a.role)))
        })
    }

    /// The source kind named `name` (`project_cursor_file`) among [`FormatSet::source_kinds`].
    pub fn kind_named(&self, name: &str) -> Option<HookSourceKind> {
        self.source_kinds().find(|k| k.name() == name)
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
