//! Unit tests of the sequence parser: each construct of Mermaid 11's grammar, each error.

use crate::model::{Head, NotePlace, ParticipantKind, SeqEvent, Sequence, Stroke};
use crate::{parse, Diagram};

fn sequence(source: &str) -> Sequence {
    match parse(source) {
        Ok(Diagram::Sequence(sequence)) => sequence,
        other => panic!("{source}: {other:?}"),
    }
}

fn people(s: &Sequence) -> Vec<(&str, &str, ParticipantKind)> {
    s.participants.iter().map(|p| (p.id.as_str(), p.label.as_str(), p.kind)).collect()
}

fn messages(s: &Sequence) -> Vec<(usize, usize, &str)> {
    s.events
        .iter()
        .filter_map(|e| match e {
            SeqEvent::Message { from, to, text, .. } => Some((*from, *to, text.as_str())),
            _ => None,
        })
        .collect()
}

#[test]
fn participants_in_order_with_labels_and_actors() {
    let s = sequence("sequenceDiagram\nparticipant A as Alice\nactor B\nC->>A: hi\nparticipant B as Bob the builder");
    use ParticipantKind::*;
    // A second declaration replaces the first, kind included (as Mermaid's `addActor` does).
    assert_eq!(
        people(&s),
        [("A", "Alice", Participant), ("B", "Bob the builder", Participant), ("C", "C", Participant)]
    );
    assert!(sequence("sequenceDiagram\nactor B\nB->>C: x").participants[0].actor);
}

#[test]
fn names_with_spaces_and_parentheses() {
    let s = sequence(
        "sequenceDiagram\nparticipant Cluster creator\nparticipant Pod (main)\nA B->>Cluster creator: hi\nCluster creator-->>A B: ok",
    );
    let ids: Vec<&str> = s.participants.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["Cluster creator", "Pod (main)", "A B"]);
    assert_eq!(messages(&s), [(2, 0, "hi"), (0, 2, "ok")]);
    // Parentheses inside a name in a message, as Mermaid's lexer reads them.
    let s = sequence("sequenceDiagram\nparticipant MS1 (OldMS)\nA->>MS1 (OldMS): go\nMS1 (OldMS)-->>A: done");
    assert_eq!(messages(&s), [(1, 0, "go"), (0, 1, "done")]);
    // Mermaid reads an alias only after a name without spaces.
    let s = sequence("sequenceDiagram\nparticipant Foo Bar as Baz");
    assert_eq!(s.participants[0].id, "Foo Bar as Baz");
}

#[test]
fn participant_types_and_aliases_in_metadata() {
    let s = sequence(
        "sequenceDiagram\nparticipant Alice@{ \"type\" : \"boundary\" }\nparticipant C@{ \"type\": \"control\" }\n\
         participant E@{ \"type\": \"entity\" }\nactor DB@{ \"type\": \"database\" } as User Database\n\
         participant Q@{ \"type\": \"queue\", \"alias\": \"Jobs\" }\nparticipant L@{ type: collections }\n\
         participant API@{ \"type\": \"boundary\", \"alias\": \"Internal\" } as External",
    );
    use ParticipantKind::*;
    assert_eq!(
        people(&s),
        [
            ("Alice", "Alice", Boundary),
            ("C", "C", Control),
            ("E", "E", Entity),
            ("DB", "User Database", Database),
            ("Q", "Jobs", Queue),
            ("L", "L", Collections),
            ("API", "External", Boundary)
        ]
    );
}

#[test]
fn every_arrow() {
    use Head::{Arrow as F, Cross as X, None as N, Open as O};
    use Stroke::{Dotted as D, Normal as S};
    let cases = [
        ("->", S, N, N),
        ("-->", D, N, N),
        ("->>", S, F, N),
        ("-->>", D, F, N),
        ("<<->>", S, F, F),
        ("<<-->>", D, F, F),
        ("-x", S, X, N),
        ("--x", D, X, N),
        ("-)", S, O, N),
        ("--)", D, O, N),
        ("-|\\", S, F, N),
        ("--|\\", D, F, N),
        ("-|/", S, F, N),
        ("--|/", D, F, N),
        ("/|-", S, N, F),
        ("/|--", D, N, F),
        ("\\|-", S, N, F),
        ("\\|--", D, N, F),
        ("-\\\\", S, O, N),
        ("--\\\\", D, O, N),
        ("-//", S, O, N),
        ("--//", D, O, N),
        ("//-", S, N, O),
        ("//--", D, N, O),
        ("\\\\-", S, N, O),
        ("\\\\--", D, N, O),
    ];
    for (arrow, stroke, head, tail) in cases {
        let source = format!("sequenceDiagram\nAlice{arrow}Bob: text");
        let s = sequence(&source);
        let want = SeqEvent::Message { from: 0, to: 1, text: "text".into(), stroke, head, tail };
        assert_eq!(s.events, [want], "{arrow}");
        assert_eq!(s.participants.len(), 2, "{arrow}");
    }
}

#[test]
fn activations_central_connections_and_self_messages() {
    let s = sequence(
        "sequenceDiagram\nA->>+B: ask\nactivate B\nB-->>-A: answer\nA->>A: think\ndeactivate B\nA ->>+ B: spaced\nA->>()B: c\nA()->>()B: d",
    );
    assert_eq!(
        s.events.iter().filter(|e| !matches!(e, SeqEvent::Message { .. })).collect::<Vec<_>>(),
        [
            &SeqEvent::Activate(1),
            &SeqEvent::Activate(1),
            &SeqEvent::Deactivate(1),
            &SeqEvent::Deactivate(1),
            &SeqEvent::Activate(1)
        ]
    );
    assert_eq!(messages(&s)[2], (0, 0, "think"));
    assert_eq!(messages(&s)[4], (0, 1, "c"));
    assert_eq!(s.participants.len(), 2);
}

#[test]
fn autonumber_start_step_and_off() {
    let s = sequence(
        "sequenceDiagram\nautonumber 10 5\nA->>B: a\nB->>A: b\nautonumber off\nA->>B: c\nautonumber\nA->>B: d\nautonumber 1.5\nA->>B\n",
    );
    let texts: Vec<&str> = messages(&s).iter().map(|m| m.2).collect();
    assert_eq!(texts, ["10. a", "15. b", "c", "20. d", "1.5"]);
}

#[test]
fn create_destroy_and_boxes() {
    let s = sequence(
        "sequenceDiagram\nbox Aqua Front end\nparticipant A\nactor U as User\nend\nbox Back\nparticipant B\nend\n\
         create participant C\nA->>C: new\ncreate actor D as Donald\nC->>D: hi\ndestroy C\nA-xC: bye",
    );
    assert_eq!(s.groups.len(), 2);
    assert_eq!((s.groups[0].label.as_str(), s.groups[0].members.as_slice()), ("Front end", &[0, 1][..]));
    assert!(s.groups[0].color.is_some() && s.groups[1].color.is_none());
    assert_eq!(s.groups[1].members, [2]);
    assert!(s.participants[3].created && s.participants[4].created && !s.participants[0].created);
    assert_eq!(s.participants[4].kind, ParticipantKind::Actor);
    assert!(s.events.contains(&SeqEvent::Create(3)) && s.events.contains(&SeqEvent::Destroy(3)));
}

#[test]
fn notes_frames_and_rect_colours() {
    let s = sequence(
        "sequenceDiagram\nA->>B: x\nNote left of A: l\nnote right of B: r\nNote over A,B: both\nloop Every minute\nA->>B: ping\nend\nalt ok\nB->>A: y\nelse failed\nB->>A: n\nend\nrect rgb(0, 0, 255)\nA->>B: z\nend\npar_over p\nA->>B: q\nand\nB->>A: r\nend\ncritical c\nA->>B: s\noption o\nB->>A: t\nend\nbreak b\nA->>B: u\nend",
    );
    let kinds: Vec<String> = s
        .events
        .iter()
        .filter(|e| !matches!(e, SeqEvent::Message { .. }))
        .map(|e| match e {
            SeqEvent::Note { place, text } => format!("{place:?} {text}"),
            SeqEvent::Open { kind, label, color } => format!("open {kind} {label} {}", color.is_some()),
            SeqEvent::Divide { label } => format!("divide {label}"),
            SeqEvent::Close => "close".into(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            format!("{:?} l", NotePlace::LeftOf(0)),
            format!("{:?} r", NotePlace::RightOf(1)),
            format!("{:?} both", NotePlace::Over(0, 1)),
            "open loop Every minute false".into(),
            "close".into(),
            "open alt ok false".into(),
            "divide failed".into(),
            "close".into(),
            "open rect  true".into(),
            "close".into(),
            "open par_over p false".into(),
            "divide ".into(),
            "close".into(),
            "open critical c false".into(),
            "divide o".into(),
            "close".into(),
            "open break b false".into(),
            "close".into(),
        ]
    );
}

#[test]
fn what_is_read_and_not_drawn() {
    let s = sequence(
        "---\ntitle: front\n---\n%%{init: {\"theme\": \"dark\"}}%%\nsequenceDiagram\ntitle Checkout flow\naccTitle: The title\n\
         accDescr: one line\naccDescr {\n  many\n  lines\n}\nparticipant Alice\nlink Alice: Dashboard @ https://x.example\n\
         links Alice: {\"Wiki\": \"https://w.example\"}\nproperties Alice: {\"class\": \"x\"}\ndetails Alice: {\"k\": \"v\"}\n\
         Alice->>John: Hi #59; there #9829; # a comment\nAlice->>John: one; John->>Alice: two %% end\nAlice->John: a<br/>b",
    );
    assert_eq!(s.title.as_deref(), Some("Checkout flow"));
    assert_eq!(messages(&s), [(0, 1, "Hi ; there ♥"), (0, 1, "one"), (1, 0, "two"), (0, 1, "a\nb")]);
    assert_eq!(sequence("sequenceDiagram\ntitle: Legacy title\nA->>B: x").title.as_deref(), Some("Legacy title"));
    assert_eq!(messages(&sequence("sequenceDiagram A->>B: same line")), [(0, 1, "same line")]);
    assert_eq!(messages(&sequence("sequenceDiagram\nA->>B: x\nLOOP l\nB->>A: y\nEND")).len(), 2);
}

#[test]
fn errors_name_line_and_column() {
    let cases = [
        ("sequenceDiagram\nA->>B: x\nend", 3, 1, "`end` without an open block"),
        ("sequenceDiagram\n  loop forever\nA->>B: x", 2, 3, "not closed"),
        ("sequenceDiagram\n  box Team\nparticipant A", 2, 3, "`box` is not closed"),
        ("sequenceDiagram\nbox A\nbox B\nend\nend", 3, 1, "cannot hold another"),
        ("sequenceDiagram\nA B C", 2, 1, "expected a message"),
        ("sequenceDiagram\n->>B: x", 2, 1, "sender"),
        ("sequenceDiagram\nA->>: x", 2, 5, "receiver"),
        ("sequenceDiagram\nA->>(x): y", 2, 5, "receiver"),
        ("sequenceDiagram\nA->>B, C: y", 2, 5, "receiver"),
        ("sequenceDiagram\nNote A: x", 2, 6, "left of"),
        ("sequenceDiagram\nNote over A", 2, 12, "expected ':'"),
        ("sequenceDiagram\nelse nothing", 2, 1, "outside a block"),
        ("sequenceDiagram\nparticipant A@{ \"type\": \"queue\"", 2, 14, "unterminated `@{`"),
        ("sequenceDiagram\nparticipant A@{ type: queue } B", 2, 31, "expected `as`"),
        ("sequenceDiagram\nparticipant a<b", 2, 14, "cannot hold '<'"),
        ("sequenceDiagram\ncreate A", 2, 8, "expected `participant` or `actor`"),
        ("sequenceDiagram\nautonumber x", 2, 12, "expected a start and a step"),
        ("sequenceDiagram\nactivate", 2, 9, "expected a participant"),
        ("sequenceDiagram\n%% nothing", 1, 16, "no participants"),
    ];
    for (source, line, column, message) in cases {
        let err = parse(source).expect_err(source);
        assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
        assert!(err.message.contains(message), "{source:?}: {err}");
    }
}
