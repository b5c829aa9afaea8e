//! Registry benchmark (placeholder until filled in).
fn main() {}
