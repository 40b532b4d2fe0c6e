//! Unit tests of the sequence parser: each construct, each error.

use crate::model::{Head, NotePlace, SeqEvent, Sequence, Stroke};
use crate::{parse, Diagram};

fn sequence(source: &str) -> Sequence {
    match parse(source) {
        Ok(Diagram::Sequence(sequence)) => sequence,
        other => panic!("{source}: {other:?}"),
    }
}

#[test]
fn participants_in_order_with_labels_and_actors() {
    let s = sequence("sequenceDiagram\nparticipant A as Alice\nactor B\nC->>A: hi\nparticipant B as Bob the builder");
    let people: Vec<(&str, &str, bool)> =
        s.participants.iter().map(|p| (p.id.as_str(), p.label.as_str(), p.actor)).collect();
    assert_eq!(people, [("A", "Alice", false), ("B", "Bob the builder", true), ("C", "C", false)]);
}

#[test]
fn the_eight_arrows() {
    let source = "sequenceDiagram\nA->B: a\nA-->B: b\nA->>B: c\nA-->>B: d\nA-xB: e\nA--xB: f\nA-)B: g\nA--)B: h";
    let arrows: Vec<(Stroke, Head)> = sequence(source)
        .events
        .iter()
        .map(|e| match e {
            SeqEvent::Message { stroke, head, .. } => (*stroke, *head),
            other => panic!("{other:?}"),
        })
        .collect();
    use Head::*;
    use Stroke::*;
    assert_eq!(
        arrows,
        [
            (Normal, None),
            (Dotted, None),
            (Normal, Arrow),
            (Dotted, Arrow),
            (Normal, Cross),
            (Dotted, Cross),
            (Normal, Open),
            (Dotted, Open)
        ]
    );
}

#[test]
fn autonumber_activation_and_self_messages() {
    let s =
        sequence("sequenceDiagram\nautonumber\nA->>+B: ask\nactivate B\nB-->>-A: answer\nA->>A: think\ndeactivate B");
    let texts: Vec<(usize, usize, &str)> = s
        .events
        .iter()
        .filter_map(|e| match e {
            SeqEvent::Message { from, to, text, .. } => Some((*from, *to, text.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(texts, [(0, 1, "1. ask"), (1, 0, "2. answer"), (0, 0, "3. think")]);
}

#[test]
fn notes_and_frames() {
    let s = sequence(
        "sequenceDiagram\nA->>B: x\nNote left of A: l\nnote right of B: r\nNote over A,B: both\nloop Every minute\nA->>B: ping\nend\nalt ok\nB->>A: y\nelse failed\nB->>A: n\nend\nrect rgb(0, 0, 255)\nA->>B: z\nend",
    );
    let kinds: Vec<String> = s
        .events
        .iter()
        .map(|e| match e {
            SeqEvent::Message { .. } => "msg".into(),
            SeqEvent::Note { place, text } => format!("{place:?} {text}"),
            SeqEvent::Open { kind, label } => format!("open {kind} {label}"),
            SeqEvent::Divide { label } => format!("divide {label}"),
            SeqEvent::Close => "close".into(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "msg",
            &format!("{:?} l", NotePlace::LeftOf(0)),
            &format!("{:?} r", NotePlace::RightOf(1)),
            &format!("{:?} both", NotePlace::Over(0, 1)),
            "open loop Every minute",
            "msg",
            "close",
            "open alt ok",
            "msg",
            "divide failed",
            "msg",
            "close",
            "open rect ",
            "msg",
            "close"
        ]
    );
}

#[test]
fn errors_name_line_and_column() {
    let cases = [
        ("sequenceDiagram\nA->>B: x\nend", 3, 1, "`end` without an open block"),
        ("sequenceDiagram\n  loop forever\nA->>B: x", 2, 3, "not closed"),
        ("sequenceDiagram\nA B C", 2, 1, "expected a message"),
        ("sequenceDiagram\n->>B: x", 2, 1, "sender"),
        ("sequenceDiagram\nA->>: x", 2, 5, "receiver"),
        ("sequenceDiagram\nNote A: x", 2, 6, "left of"),
        ("sequenceDiagram\nNote over A", 2, 12, "expected ':'"),
        ("sequenceDiagram\nelse nothing", 2, 1, "outside a block"),
        ("sequenceDiagram\n  box Aqua Group", 2, 3, "not supported"),
        ("sequenceDiagram A->>B", 1, 17, "own lines"),
        ("sequenceDiagram\nA<<->>B: both", 2, 1, "sender"),
    ];
    for (source, line, column, message) in cases {
        let err = parse(source).expect_err(source);
        assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
        assert!(err.message.contains(message), "{source:?}: {err}");
    }
}
