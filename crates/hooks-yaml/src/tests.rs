//! Tests of the event reader.

use super::*;

fn kinds(text: &str) -> Vec<String> {
    Events::new(text)
        .map(|item| match item {
            Ok((event, _)) => match event {
                Event::StreamStart => "stream".to_owned(),
                Event::StreamEnd => "/stream".to_owned(),
                Event::DocumentStart(_) => "doc".to_owned(),
                Event::DocumentEnd => "/doc".to_owned(),
                Event::MappingStart(..) => "{".to_owned(),
                Event::MappingEnd => "}".to_owned(),
                Event::SequenceStart(..) => "[".to_owned(),
                Event::SequenceEnd => "]".to_owned(),
                Event::Scalar(v, ..) => v.into_owned(),
                Event::Alias(_) => "*".to_owned(),
                Event::Nothing => "nothing".to_owned(),
            },
            Err(e) => format!("error at {}:{}: {}", e.marker().line(), e.marker().col(), e.info()),
        })
        .collect()
}

#[test]
fn the_events_of_a_document_come_in_order_with_their_positions() {
    assert_eq!(
        kinds("a: [1, two]\nb: c\n"),
        ["stream", "doc", "{", "a", "[", "1", "two", "]", "b", "c", "}", "/doc", "/stream"]
    );
    let spans: Vec<(usize, usize, usize)> = Events::new("k: é\nv: x\n")
        .filter_map(Result::ok)
        .filter(|(e, _)| matches!(e, Event::Scalar(..)))
        .map(|(_, s)| (s.start.line(), s.start.col(), s.start.index()))
        .collect();
    // Lines from 1, columns from 0, indexes in characters (the `é` is one).
    assert_eq!(spans, [(1, 0, 0), (1, 3, 3), (2, 0, 5), (2, 3, 8)]);
}

/// saphyr-parser's own iterator goes on after this error (the mapping's and the stream's ends
/// follow it); the reader's error is its last item.
#[test]
fn an_error_the_parser_goes_on_after_is_the_last_item() {
    assert_eq!(
        kinds("a: [1, two]\nb: *x\n"),
        [
            "stream",
            "doc",
            "{",
            "a",
            "[",
            "1",
            "two",
            "]",
            "b",
            "error at 2:3: while parsing node, found unknown anchor",
        ]
    );
}

/// saphyr-parser's own iterator repeats this error forever: collecting it never returned.
#[test]
fn an_error_the_parser_repeats_is_the_last_item_with_its_place() {
    let items: Vec<_> = Events::new("a: 'open\n").collect();
    let Some(Err(e)) = items.last() else { panic!("no error last in {items:?}") };
    assert_eq!(items.iter().filter(|i| i.is_err()).count(), 1);
    // At the opening quote.
    assert_eq!((e.marker().line(), e.marker().col()), (1, 3), "{e:?}");
    assert!(e.info().contains("quoted scalar"), "{}", e.info());
}

proptest::proptest! {
    /// Any text's events end, with at most one error, and that one last.
    #[test]
    fn any_text_ends_with_at_most_one_error_last(text in "[ -~\n\t]{0,200}") {
        let items: Vec<_> = Events::new(&text).take(10_000).collect();
        proptest::prop_assert!(items.len() < 10_000, "no end for {:?}", text);
        let errors = items.iter().filter(|i| i.is_err()).count();
        proptest::prop_assert!(errors <= 1);
        if errors == 1 {
            proptest::prop_assert!(items.last().is_some_and(Result::is_err));
        }
    }
}
