//! Tests for the shell lexer: quoting, expansions, operators, redirections, and that it
//! never panics.

use proptest::prelude::*;

use crate::shell::{Part, Redir, Sep, Token, Word, lex};

fn words(src: &str) -> Vec<Word> {
    lex(src)
        .tokens
        .into_iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w),
            Token::Sep(_) | Token::Redir(_) => None,
        })
        .collect()
}

fn lit(s: &str) -> Part {
    Part::Lit(s.to_owned())
}

fn var(s: &str) -> Part {
    Part::Var(s.to_owned())
}

#[test]
fn quotes_are_removed_and_quoted_words_stay_words() {
    let w = words(r#"bash "my hooks/gate.sh" 'a b' c\ d "" x"y"'z'"#);
    let texts: Vec<String> = w.iter().map(|w| w.literal().expect("literal")).collect();
    assert_eq!(texts, ["bash", "my hooks/gate.sh", "a b", "c d", "", "xyz"]);
    // A single-quoted `$` is text.
    assert_eq!(words("'$HOME/x.sh'")[0].parts, [lit("$HOME/x.sh")]);
}

#[test]
fn parameters_are_parts_in_every_spelling() {
    for src in [
        r#""$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh"#,
        r#""${CLAUDE_PROJECT_DIR}/.claude/hooks/gate.sh""#,
        "$CLAUDE_PROJECT_DIR/.claude/hooks/gate.sh",
        "${CLAUDE_PROJECT_DIR:-.}/.claude/hooks/gate.sh",
    ] {
        assert_eq!(
            words(src)[0].parts,
            [var("CLAUDE_PROJECT_DIR"), lit("/.claude/hooks/gate.sh")],
            "{src}"
        );
    }
    assert_eq!(words("~/x.sh")[0].parts, [Part::Tilde(String::new()), lit("/x.sh")]);
    assert_eq!(words("~bob/x")[0].parts, [Part::Tilde("bob".to_owned()), lit("/x")]);
    assert_eq!(words("a~/x")[0].parts, [lit("a~/x")]);
    assert_eq!(words("\"~/x\"")[0].parts, [lit("~/x")]);
}

#[test]
fn substitutions_are_opaque_and_kept_for_analysis() {
    let l = lex(r#"bash "$(dirname "$0")/gate.sh" `cat list`"#);
    let Token::Word(w) = &l.tokens[1] else { panic!("{:?}", l.tokens) };
    assert_eq!(w.parts, [Part::Opaque, lit("/gate.sh")]);
    assert_eq!(l.substitutions, [r#"dirname "$0""#, "cat list"]);
    assert!(l.uncertain.contains(&"a command substitution"));
    assert!(lex("echo $((1+2))").uncertain.contains(&"an arithmetic expansion"));
    assert!(lex("echo ${#X}").uncertain.contains(&"a parameter expansion with an operator"));
}

#[test]
fn operators_and_redirections_separate_words() {
    let l = lex("cd d&&./x.sh;a.sh|b.sh||c 2>err <in >>out &");
    let seps: Vec<Sep> = l
        .tokens
        .iter()
        .filter_map(|t| if let Token::Sep(s) = t { Some(*s) } else { None })
        .collect();
    assert_eq!(seps, [Sep::And, Sep::Seq, Sep::Pipe, Sep::Or, Sep::Background]);
    let redirs: Vec<Redir> = l
        .tokens
        .iter()
        .filter_map(|t| if let Token::Redir(r) = t { Some(*r) } else { None })
        .collect();
    assert_eq!(redirs, [Redir::Output, Redir::Input, Redir::Output]);
    let texts: Vec<String> = words("cd d&&./x.sh;a.sh|b.sh||c 2>err <in >>out &")
        .iter()
        .map(|w| w.literal().expect("literal"))
        .collect();
    assert_eq!(texts, ["cd", "d", "./x.sh", "a.sh", "b.sh", "c", "err", "in", "out"]);
    // A quoted operator is text.
    assert_eq!(words("echo '&&' \";\"").len(), 3);
}

#[test]
fn comments_continuations_and_newlines() {
    let texts: Vec<String> =
        words("a.sh # b.sh\nc\\\n.sh").iter().map(|w| w.literal().expect("literal")).collect();
    assert_eq!(texts, ["a.sh", "c.sh"]);
    assert_eq!(words("a#b")[0].literal().as_deref(), Some("a#b"));
}

#[test]
fn bad_quoting_is_reported_not_fatal() {
    let l = lex("bash 'x.sh");
    assert!(l.uncertain.contains(&"an unterminated quote"));
    assert_eq!(words("bash 'x.sh")[1].literal().as_deref(), Some("x.sh"));
    assert!(lex("cat <<EOF\nx\nEOF").uncertain.contains(&"a here-document"));
    assert!(lex("ls *.sh").uncertain.contains(&"a glob pattern"));
    assert_eq!(words("[ -f x ]")[0].literal().as_deref(), Some("["));
}

proptest! {
    #[test]
    fn the_lexer_never_panics(src in "\\PC{0,120}") {
        let _ = lex(&src);
    }

    #[test]
    fn the_lexer_never_panics_on_shell_punctuation(
        src in proptest::collection::vec(
            prop_oneof![
                Just("'"), Just("\""), Just("\\"), Just("$"), Just("${"), Just("$("), Just("`"),
                Just("}"), Just(")"), Just("("), Just("&"), Just("|"), Just(";"), Just("<"),
                Just(">"), Just("~"), Just("#"), Just("\n"), Just(" "), Just("a"), Just("/"),
                Just("*"), Just("["), Just("]"), Just("$'"), Just("<<"),
            ],
            0..40,
        )
    ) {
        let _ = lex(&src.concat());
    }

    #[test]
    fn plain_words_round_trip(ws in proptest::collection::vec("[A-Za-z0-9_./-]{1,12}", 1..8)) {
        let got: Vec<String> = words(&ws.join(" ")).iter().filter_map(Word::literal).collect();
        prop_assert_eq!(got, ws);
    }
}
