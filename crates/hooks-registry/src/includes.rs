//! Following the files a configuration file includes, breadth first and bounded: git's
//! `[include]` sections ([`crate::gitconfig`]) and ssh's `Include` lines
//! ([`crate::sshconfig`]).

use std::path::Path;

/// The places `config`'s includes name, and those the included files name in turn, breadth
/// first: `named(text, file)` gives what one file's text names (and may gather anything else
/// from it: it is called once for `config` and for every file found, those of the last level
/// included, whose places are not followed), `file_of(place)` the file a place is, when it is
/// one to read next. At most `depth` levels below `config` and `max` places, each once,
/// `config` itself never; each file read up to `cap` bytes without blocking on a FIFO; a file
/// that cannot be read names nothing.
pub(crate) fn follow<T: PartialEq>(
    config: &Path,
    depth: usize,
    max: usize,
    cap: u64,
    mut named: impl FnMut(&str, &Path) -> Vec<T>,
    file_of: impl Fn(&T) -> Option<&Path>,
) -> Vec<T> {
    let mut found: Vec<T> = Vec::new();
    // Where the files of the current level are in `found` (the first level: `config`).
    let mut level: Vec<Option<usize>> = vec![None];
    for round in 0..=depth {
        let mut next = Vec::new();
        for at in level {
            let file = match at {
                None => config,
                Some(i) => match found.get(i).and_then(&file_of) {
                    Some(file) => file,
                    None => continue,
                },
            };
            let Some(text) = crate::installations::read_capped(file, cap) else { continue };
            let places = named(&text, file);
            if round == depth {
                continue;
            }
            for place in places {
                if file_of(&place) == Some(config) || found.contains(&place) || found.len() >= max {
                    continue;
                }
                if file_of(&place).is_some() {
                    next.push(Some(found.len()));
                }
                found.push(place);
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    found
}
