//! HTTP hooks: a hook that POSTs its input to a URL instead of running a process.
//!
//! Pure data and pure functions; `hooks-dispatch` sends the request. The header value
//! interpolation rule is Claude Code's (2.1.x): `$NAME` and `${NAME}`, where a name is an
//! uppercase letter or `_` followed by uppercase letters, digits and `_`, are replaced by the
//! variable's value when the name is listed in the hook's allowed variables and by nothing
//! otherwise; CR, LF and NUL are then removed from the value.

/// An HTTP hook: where to POST the hook input, with which headers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HttpHook {
    /// The URL the input is POSTed to.
    pub url: String,
    /// Header names and value templates, in file order; see [`HttpHook::header_values`].
    pub headers: Vec<(String, String)>,
    /// The environment variables a header value may name.
    pub allowed_env_vars: Vec<String>,
}

/// Headers the client works out itself; a hook's own values for them are dropped.
const COMPUTED_HEADERS: [&str; 2] = ["content-length", "transfer-encoding"];

impl HttpHook {
    /// The headers to send: each template interpolated with `lookup` (the environment) for the
    /// allowed names only, `Content-Length` and `Transfer-Encoding` left out.
    ///
    /// ```
    /// use hooks_schema::HttpHook;
    ///
    /// let hook = HttpHook {
    ///     url: "http://127.0.0.1:8080/hook".to_owned(),
    ///     headers: vec![
    ///         ("Authorization".to_owned(), "Bearer $TOKEN".to_owned()),
    ///         ("X-Other".to_owned(), "v=${SECRET}".to_owned()),
    ///     ],
    ///     allowed_env_vars: vec!["TOKEN".to_owned()],
    /// };
    /// let env = |name: &str| Some(format!("<{name}>"));
    /// assert_eq!(
    ///     hook.header_values(env),
    ///     vec![
    ///         ("Authorization".to_owned(), "Bearer <TOKEN>".to_owned()),
    ///         ("X-Other".to_owned(), "v=".to_owned()),
    ///     ]
    /// );
    /// ```
    pub fn header_values(&self, lookup: impl Fn(&str) -> Option<String>) -> Vec<(String, String)> {
        self.headers
            .iter()
            .filter(|(name, _)| !COMPUTED_HEADERS.contains(&name.trim().to_lowercase().as_str()))
            .map(|(name, template)| {
                (name.clone(), interpolate(template, &self.allowed_env_vars, &lookup))
            })
            .collect()
    }

    /// The variable names the header templates reference, in order, each once, with whether
    /// the hook allows it.
    pub fn referenced_vars(&self) -> Vec<(String, bool)> {
        let mut out: Vec<(String, bool)> = Vec::new();
        for (_, template) in &self.headers {
            for name in references(template) {
                if !out.iter().any(|(n, _)| n == name) {
                    let allowed = self.allowed_env_vars.iter().any(|a| a == name);
                    out.push((name.to_owned(), allowed));
                }
            }
        }
        out
    }
}

/// A variable name's characters after the first.
fn name_char(c: char) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'
}

/// A variable name's first character.
fn name_start(c: char) -> bool {
    c.is_ascii_uppercase() || c == '_'
}

/// One piece of a template.
enum Piece<'a> {
    Text(&'a str),
    Var(&'a str),
}

/// Splits a template into text and variable references.
fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    let bytes = template.as_bytes();
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        let rest = &template[i + 1..];
        let found = if let Some(braced) = rest.strip_prefix('{') {
            let len = braced.find(|c: char| !name_char(c)).unwrap_or(braced.len());
            let name = &braced[..len];
            let closed = braced[len..].starts_with('}');
            (closed && name.starts_with(name_start)).then_some((name, len + 3))
        } else {
            let len = rest.find(|c: char| !name_char(c)).unwrap_or(rest.len());
            let name = &rest[..len];
            name.starts_with(name_start).then_some((name, len + 1))
        };
        match found {
            Some((name, used)) => {
                out.push(Piece::Text(&template[text_start..i]));
                out.push(Piece::Var(name));
                i += used;
                text_start = i;
            }
            None => i += 1,
        }
    }
    out.push(Piece::Text(&template[text_start..]));
    out
}

fn references(template: &str) -> impl Iterator<Item = &str> {
    pieces(template).into_iter().filter_map(|p| match p {
        Piece::Var(n) => Some(n),
        Piece::Text(_) => None,
    })
}

/// Interpolates one header value template (see the module docs).
pub fn interpolate(
    template: &str,
    allowed: &[String],
    lookup: impl Fn(&str) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(template.len());
    for piece in pieces(template) {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Var(name) if allowed.iter().any(|a| a == name) => {
                out.push_str(&lookup(name).unwrap_or_default());
            }
            Piece::Var(_) => {}
        }
    }
    out.retain(|c| !matches!(c, '\r' | '\n' | '\0'));
    out
}

/// The URL with any `user:password@` credentials and the query replaced by `…`, for output
/// that is not asked to reveal values.
///
/// ```
/// assert_eq!(
///     hooks_schema::redact_url("https://me:pw@hooks.example/h?key=1"),
///     "https://…@hooks.example/h?…"
/// );
/// assert_eq!(hooks_schema::redact_url("http://127.0.0.1:8080/h"), "http://127.0.0.1:8080/h");
/// ```
pub fn redact_url(url: &str) -> String {
    let (scheme, rest) = match url.find("://") {
        Some(i) => (&url[..i + 3], &url[i + 3..]),
        None => ("", url),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let host = match authority.rfind('@') {
        Some(i) => format!("…@{}", &authority[i + 1..]),
        None => authority.to_owned(),
    };
    let tail = match tail.find(['?', '#']) {
        Some(i) => format!("{}{}…", &tail[..i], &tail[i..=i]),
        None => tail.to_owned(),
    };
    format!("{scheme}{host}{tail}")
}

#[cfg(test)]
mod tests;
