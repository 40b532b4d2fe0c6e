//! The reference model: what a project holds after any sequence of operations, written from the
//! rules in docs/ (not from the code): containers (a shape holds anything, a connector holds
//! labels, deleting a container deletes what it holds, deepest first), connector ends detached
//! from deleted items, all-or-nothing bulk creates, diagrams whose node shapes are containers,
//! tags (docs/ITEMS.md "Tags": an item carries only live tags of its project; deleting a tag
//! takes it off its items, an `item.updated` each), and frames (docs/ITEMS.md "Frames": a frame
//! or shape holds anything but a frame; an update naming `parent` moves an item, never into itself
//! or what it holds; moving a frame moves everything it holds that has a place of its own, an
//! `item.updated` each).
//!
//! Items are numbered by creation ("slots"); a slot is never reused, so an operation may name a
//! deleted one (the service must answer 404 or 400 for it).

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest_state_machine::ReferenceStateMachine;

/// The item types the sequences create (image and document uploads follow the svg's path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Label,
    Sticky,
    Shape,
    Connector,
    Web,
    Svg,
    Frame,
}

impl Kind {
    pub const JSON: [Kind; 6] = [Kind::Label, Kind::Sticky, Kind::Shape, Kind::Connector, Kind::Web, Kind::Frame];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Label => "label",
            Kind::Sticky => "sticky-note",
            Kind::Shape => "shape",
            Kind::Connector => "connector",
            Kind::Web => "web",
            Kind::Svg => "svg",
            Kind::Frame => "frame",
        }
    }

    /// docs/DECISIONS.md, "Containers", stated again here on purpose.
    pub fn holds(self, child: Kind) -> bool {
        (matches!(self, Kind::Shape | Kind::Frame) && child != Kind::Frame)
            || (self == Kind::Connector && child == Kind::Label)
    }

    /// Whether the sequences change a value of it with `PATCH` (text, fill or title).
    pub fn patchable(self) -> bool {
        matches!(self, Kind::Label | Kind::Sticky | Kind::Shape | Kind::Frame)
    }
}

/// Where an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Panel,
    Inbox,
    In(usize),
}

/// A bulk item's parent: the canvas, an existing slot, or an earlier item of the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BulkPlace {
    Panel,
    Slot(usize),
    Earlier(usize),
}

#[derive(Clone, Debug)]
pub struct Slot {
    pub kind: Kind,
    pub place: Place,
    /// The values it may have now (more than one after concurrent writers).
    pub values: Vec<u32>,
    pub alive: bool,
    /// A connector's attached ends.
    pub ends: [Option<usize>; 2],
    /// Whether `values` are the sequence's (a diagram's shapes have the diagram's fill).
    pub tracked: bool,
    /// The tags it carries (indexes of `Model::tags`), in the order sent; None until tagged.
    pub tags: Option<Vec<usize>>,
}

/// Mermaid sources the sequences draw (node ids → labels); what each keeps of the last is the
/// records' rule (docs/diagrams/records.md).
pub const SOURCES: [(&str, &[&str]); 3] = [
    ("flowchart TD\n    A[alpha] --> B[beta]\n", &["A", "B"]),
    ("flowchart TD\n    A[alpha]\n", &["A"]),
    ("flowchart TD\n    A[alpha] --> C[gamma]\n", &["A", "C"]),
];

#[derive(Clone, Debug)]
pub struct Diagram {
    pub alive: bool,
    /// Node id → the slot of its shape.
    pub nodes: BTreeMap<String, usize>,
}

#[derive(Clone, Debug)]
pub enum Op {
    Create {
        kind: Kind,
        place: Place,
        value: u32,
    },
    Connect {
        start: usize,
        end: usize,
    },
    Upload {
        place: Place,
    },
    Update {
        slot: usize,
        value: u32,
    },
    Concurrent {
        slot: usize,
        writers: u32,
        value: u32,
    },
    Delete {
        slot: usize,
    },
    Bulk {
        items: Vec<(Kind, BulkPlace)>,
    },
    Arrange {
        slots: Vec<usize>,
    },
    CreateDiagram {
        source: usize,
    },
    PutDiagram {
        diagram: usize,
        source: usize,
    },
    DeleteDiagram {
        diagram: usize,
    },
    CreateTag,
    DeleteTag {
        tag: usize,
    },
    /// Sets an item's `tags` to these (distinct) tags.
    TagItem {
        slot: usize,
        tags: Vec<usize>,
    },
    /// Opens a comment thread on an item.
    Comment {
        slot: usize,
    },
    /// Moves an item to another place (an update naming `parent`).
    Move {
        slot: usize,
        to: Place,
    },
    /// Moves an item 25 units right (a frame takes what it holds along).
    Shift {
        slot: usize,
    },
}

/// What the last operation must answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// 400 naming this field.
    Invalid(String),
    NotFound,
}

/// The last operation's expected answer and changes.
#[derive(Clone, Debug)]
pub struct Expect {
    pub outcome: Outcome,
    /// Slots it created, in the order the answer names them.
    pub created: Vec<usize>,
    /// Events on slots: (kind, slot), as a multiset.
    pub events: Vec<(&'static str, usize)>,
    /// Slots that may also get an `item.updated` (moved by a layout) beyond `events`.
    pub may_update: Vec<usize>,
    /// Events on comment threads: (kind, thread), as a multiset.
    pub comments: Vec<(&'static str, usize)>,
}

impl Default for Expect {
    fn default() -> Self {
        Expect {
            outcome: Outcome::Ok,
            created: Vec::new(),
            events: Vec::new(),
            may_update: Vec::new(),
            comments: Vec::new(),
        }
    }
}

/// A comment thread opened on a slot's item; it stays when the item goes (docs/COMMENTS.md).
#[derive(Clone, Debug)]
pub struct Thread {
    pub slot: usize,
    /// Whether its item is still there (else the thread names it as `formerItemId`).
    pub attached: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Model {
    pub slots: Vec<Slot>,
    pub diagrams: Vec<Diagram>,
    /// Each tag made, whether it is still there.
    pub tags: Vec<bool>,
    /// Each comment thread opened.
    pub threads: Vec<Thread>,
    pub expect: Expect,
}

impl Model {
    pub fn alive(&self, slot: usize) -> bool {
        self.slots.get(slot).is_some_and(|s| s.alive)
    }

    fn add(&mut self, kind: Kind, place: Place, value: u32, ends: [Option<usize>; 2]) -> usize {
        let tracked = kind.patchable();
        self.slots.push(Slot { kind, place, values: vec![value], alive: true, ends, tracked, tags: None });
        let slot = self.slots.len() - 1;
        self.expect.created.push(slot);
        self.expect.events.push(("item.created", slot));
        slot
    }

    /// Whether `holder` holds `slot` at any depth.
    fn holds_at_depth(&self, holder: usize, slot: usize) -> bool {
        let mut at = self.slots[slot].place;
        for _ in 0..self.slots.len() {
            match at {
                Place::In(p) if p == holder => return true,
                Place::In(p) => at = self.slots[p].place,
                _ => return false,
            }
        }
        false
    }

    /// Whether the service refuses a `kind` at `place`: a container that is gone or may not hold it.
    fn refuse_place(&self, place: Place, kind: Kind) -> bool {
        match place {
            Place::In(p) => !self.alive(p) || !self.slots[p].kind.holds(kind),
            _ => false,
        }
    }

    /// Deletes `roots` with everything they hold; connectors attached to a deleted item and not
    /// deleted themselves are detached (an `item.updated` each).
    pub fn remove(&mut self, roots: &[usize]) -> Vec<usize> {
        let mut gone: Vec<usize> = roots.to_vec();
        let mut at = 0;
        while at < gone.len() {
            let holder = gone[at];
            for (i, s) in self.slots.iter().enumerate() {
                if s.alive && s.place == Place::In(holder) && !gone.contains(&i) {
                    gone.push(i);
                }
            }
            at += 1;
        }
        for &g in &gone {
            self.slots[g].alive = false;
            self.expect.events.push(("item.deleted", g));
        }
        // Threads on the deleted items stay, detached, each with a `comment.updated`.
        for (t, thread) in self.threads.iter_mut().enumerate() {
            if thread.attached && gone.contains(&thread.slot) {
                thread.attached = false;
                self.expect.comments.push(("comment.updated", t));
            }
        }
        for i in 0..self.slots.len() {
            let s = &mut self.slots[i];
            if s.alive && s.ends.iter().any(|e| e.is_some_and(|e| gone.contains(&e))) {
                s.ends = s.ends.map(|e| e.filter(|e| !gone.contains(e)));
                self.expect.events.push(("item.updated", i));
            }
        }
        gone
    }

    fn apply_op(mut self, op: &Op) -> Self {
        self.expect = Expect::default();
        let fail = |mut m: Model, outcome: Outcome| {
            m.expect = Expect { outcome, ..Expect::default() };
            m
        };
        match op {
            Op::Create { kind, place, value } => {
                if self.refuse_place(*place, *kind) {
                    return fail(self, Outcome::Invalid("parent".into()));
                }
                self.add(*kind, *place, *value, [None, None]);
            }
            Op::Upload { place } => {
                if self.refuse_place(*place, Kind::Svg) {
                    return fail(self, Outcome::Invalid("parent".into()));
                }
                self.add(Kind::Svg, *place, 0, [None, None]);
            }
            Op::Connect { start, end } => {
                for (field, s) in [("startPoint.itemId", start), ("endPoint.itemId", end)] {
                    if !self.alive(*s) || self.slots[*s].kind == Kind::Connector {
                        return fail(self, Outcome::Invalid(field.into()));
                    }
                }
                self.add(Kind::Connector, Place::Panel, 0, [Some(*start), Some(*end)]);
            }
            Op::Update { slot, value } => {
                if !self.alive(*slot) {
                    return fail(self, Outcome::NotFound);
                }
                self.slots[*slot].values = vec![*value];
                self.slots[*slot].tracked = true;
                self.expect.events.push(("item.updated", *slot));
            }
            Op::Concurrent { slot, writers, value } => {
                if !self.alive(*slot) {
                    return fail(self, Outcome::NotFound);
                }
                self.slots[*slot].values = (0..*writers).map(|w| value + w).collect();
                self.slots[*slot].tracked = true;
                self.expect.events.extend((0..*writers).map(|_| ("item.updated", *slot)));
            }
            Op::Delete { slot } => {
                if !self.alive(*slot) {
                    return fail(self, Outcome::NotFound);
                }
                self.remove(&[*slot]);
            }
            Op::Bulk { items } => {
                for (i, (kind, place)) in items.iter().enumerate() {
                    let refused = match place {
                        BulkPlace::Panel => false,
                        BulkPlace::Slot(p) => self.refuse_place(Place::In(*p), *kind),
                        BulkPlace::Earlier(j) => !items[*j].0.holds(*kind),
                    };
                    if refused {
                        return fail(self, Outcome::Invalid(format!("items[{i}].parent")));
                    }
                }
                let first = self.slots.len();
                for (kind, place) in items {
                    let place = match place {
                        BulkPlace::Panel => Place::Panel,
                        BulkPlace::Slot(p) => Place::In(*p),
                        BulkPlace::Earlier(j) => Place::In(first + j),
                    };
                    self.add(*kind, place, 0, [None, None]);
                }
            }
            Op::Arrange { slots } => {
                if let Some(i) = slots.iter().position(|s| !self.alive(*s)) {
                    return fail(self, Outcome::Invalid(format!("itemIds[{i}]")));
                }
                if slots.iter().all(|s| self.slots[*s].kind == Kind::Connector) {
                    return fail(self, Outcome::Invalid("itemIds".into()));
                }
                // An arranged frame takes what it holds along.
                let held = (0..self.slots.len()).filter(|i| {
                    slots.iter().any(|s| self.slots[*s].kind == Kind::Frame && self.holds_at_depth(*s, *i))
                });
                self.expect.may_update = slots.iter().copied().chain(held).collect();
            }
            Op::CreateDiagram { source } => {
                let mut nodes = BTreeMap::new();
                for node in SOURCES[*source].1 {
                    let slot = self.add(Kind::Shape, Place::Panel, 0, [None, None]);
                    self.slots[slot].tracked = false;
                    nodes.insert((*node).to_owned(), slot);
                }
                self.diagrams.push(Diagram { alive: true, nodes });
            }
            Op::PutDiagram { diagram, source } => {
                if !self.diagrams.get(*diagram).is_some_and(|d| d.alive) {
                    return fail(self, Outcome::NotFound);
                }
                let wanted = SOURCES[*source].1;
                let old = self.diagrams[*diagram].nodes.clone();
                let dropped: Vec<usize> = old
                    .iter()
                    .filter(|(n, s)| !wanted.contains(&n.as_str()) && self.alive(**s))
                    .map(|(_, s)| *s)
                    .collect();
                let mut nodes = BTreeMap::new();
                for node in wanted {
                    let slot = match old.get(*node).filter(|s| self.alive(**s)) {
                        Some(kept) => {
                            self.expect.may_update.push(*kept);
                            *kept
                        }
                        None => {
                            let slot = self.add(Kind::Shape, Place::Panel, 0, [None, None]);
                            self.slots[slot].tracked = false;
                            slot
                        }
                    };
                    nodes.insert((*node).to_owned(), slot);
                }
                self.remove(&dropped);
                self.diagrams[*diagram].nodes = nodes;
            }
            Op::DeleteDiagram { diagram } => {
                if !self.diagrams.get(*diagram).is_some_and(|d| d.alive) {
                    return fail(self, Outcome::NotFound);
                }
                let nodes: Vec<usize> =
                    self.diagrams[*diagram].nodes.values().copied().filter(|s| self.alive(*s)).collect();
                self.remove(&nodes);
                self.diagrams[*diagram].alive = false;
            }
            Op::CreateTag => self.tags.push(true),
            Op::DeleteTag { tag } => {
                if !self.tags[*tag] {
                    return fail(self, Outcome::NotFound);
                }
                self.tags[*tag] = false;
                for i in 0..self.slots.len() {
                    let s = &mut self.slots[i];
                    let Some(carried) = s.tags.as_mut().filter(|t| t.contains(tag)) else { continue };
                    carried.retain(|t| t != tag);
                    if s.alive {
                        self.expect.events.push(("item.updated", i));
                    }
                }
            }
            Op::TagItem { slot, tags } => {
                if !self.alive(*slot) {
                    return fail(self, Outcome::NotFound);
                }
                if let Some(i) = tags.iter().position(|t| !self.tags[*t]) {
                    return fail(self, Outcome::Invalid(format!("tags[{i}]")));
                }
                self.slots[*slot].tags = Some(tags.clone());
                self.expect.events.push(("item.updated", *slot));
            }
            Op::Move { slot, to } => {
                if !self.alive(*slot) {
                    return fail(self, Outcome::NotFound);
                }
                let kind = self.slots[*slot].kind;
                let inside_itself = matches!(to, Place::In(p) if *p == *slot || self.holds_at_depth(*slot, *p));
                if self.refuse_place(*to, kind) || inside_itself {
                    return fail(self, Outcome::Invalid("parent".into()));
                }
                self.slots[*slot].place = *to;
                self.expect.events.push(("item.updated", *slot));
            }
            Op::Shift { slot } => {
                if !self.alive(*slot) {
                    return fail(self, Outcome::NotFound);
                }
                self.expect.events.push(("item.updated", *slot));
                if self.slots[*slot].kind == Kind::Frame {
                    // Everything it holds with a place of its own moves: a connector only while
                    // one of its ends is free (an attached end follows its item).
                    for i in 0..self.slots.len() {
                        let s = &self.slots[i];
                        let placed = s.kind != Kind::Connector || s.ends.iter().any(Option::is_none);
                        if s.alive && placed && self.holds_at_depth(*slot, i) {
                            self.expect.events.push(("item.updated", i));
                        }
                    }
                }
            }
            Op::Comment { slot } => {
                if !self.alive(*slot) {
                    return fail(self, Outcome::Invalid("itemId".into()));
                }
                self.threads.push(Thread { slot: *slot, attached: true });
                self.expect.comments.push(("comment.created", self.threads.len() - 1));
            }
        }
        self
    }
}

/// The sequences: any slot (alive or not) may be named; containers are chosen more often than
/// chance would, so deep nesting and cascades happen.
pub struct Reference;

fn place(slots: usize) -> BoxedStrategy<Place> {
    if slots == 0 {
        return prop_oneof![Just(Place::Panel), Just(Place::Inbox)].boxed();
    }
    prop_oneof![1 => Just(Place::Panel), 1 => Just(Place::Inbox), 4 => (0..slots).prop_map(Place::In)].boxed()
}

impl ReferenceStateMachine for Reference {
    type State = Model;
    type Transition = Op;

    fn init_state() -> BoxedStrategy<Model> {
        Just(Model::default()).boxed()
    }

    fn transitions(state: &Model) -> BoxedStrategy<Op> {
        let n = state.slots.len();
        let kind = proptest::sample::select(Kind::JSON.to_vec());
        let create =
            (kind.clone(), place(n), 0..1000u32).prop_map(|(kind, place, value)| Op::Create { kind, place, value });
        let upload = place(n).prop_map(|place| Op::Upload { place });
        // Frames on the canvas, often enough for moves of frames holding items (docs/ITEMS.md).
        let new_frame = (0..1000u32).prop_map(|value| Op::Create { kind: Kind::Frame, place: Place::Panel, value });
        let bulk_item = (kind, 0..3usize, 0..n.max(1), 0..8usize);
        let bulk = proptest::collection::vec(bulk_item, 1..6).prop_map(move |raw| Op::Bulk {
            items: raw
                .into_iter()
                .enumerate()
                .map(|(i, (kind, how, slot, earlier))| {
                    let place = match how {
                        1 if n > 0 => BulkPlace::Slot(slot),
                        2 if i > 0 => BulkPlace::Earlier(earlier % i),
                        _ => BulkPlace::Panel,
                    };
                    (kind, place)
                })
                .collect(),
        });
        let diagrams = state.diagrams.len();
        let create_diagram = (0..SOURCES.len()).prop_map(|source| Op::CreateDiagram { source });
        let create_tag = Just(Op::CreateTag);
        if n == 0 {
            return prop_oneof![4 => create, 1 => upload, 2 => bulk, 1 => create_diagram, 1 => create_tag, 1 => new_frame]
                .boxed();
        }
        let slot = 0..n;
        let connect = (slot.clone(), slot.clone()).prop_map(|(start, end)| Op::Connect { start, end });
        let update = (slot.clone(), 0..1000u32).prop_map(|(slot, value)| Op::Update { slot, value });
        let concurrent = (slot.clone(), 2..6u32, 0..1000u32).prop_map(|(slot, writers, value)| Op::Concurrent {
            slot,
            writers,
            value,
        });
        let delete = slot.clone().prop_map(|slot| Op::Delete { slot });
        let comment = slot.clone().prop_map(|slot| Op::Comment { slot });
        let moved = (slot.clone(), place(n)).prop_map(|(slot, to)| Op::Move { slot, to });
        let shift = slot.clone().prop_map(|slot| Op::Shift { slot });
        // With frames about, moves into them and moves of them come often enough to meet a frame
        // holding items (at random they would be rare).
        let frames: Vec<usize> = (0..n).filter(|s| state.slots[*s].kind == Kind::Frame).collect();
        let (moved, shift) = if frames.is_empty() {
            (moved.boxed(), shift.boxed())
        } else {
            let frame = proptest::sample::select(frames);
            let into = (slot.clone(), frame.clone()).prop_map(|(slot, f)| Op::Move { slot, to: Place::In(f) });
            let of_frame = frame.prop_map(|slot| Op::Shift { slot });
            (prop_oneof![1 => moved, 2 => into].boxed(), prop_oneof![1 => shift, 2 => of_frame].boxed())
        };
        let arrange = proptest::collection::vec(slot, 1..4).prop_map(|slots| Op::Arrange { slots });
        let diagram = 0..diagrams.max(1);
        let put = (diagram.clone(), 0..SOURCES.len()).prop_map(|(diagram, source)| Op::PutDiagram { diagram, source });
        let delete_diagram = diagram.prop_map(|diagram| Op::DeleteDiagram { diagram });
        let tags = state.tags.len();
        if tags == 0 {
            return prop_oneof![
                6 => create, 1 => upload, 2 => connect, 3 => update, 1 => concurrent, 3 => delete,
                2 => bulk, 1 => arrange, 1 => create_diagram, 1 => put, 1 => delete_diagram, 1 => create_tag,
                2 => comment, 2 => moved, 2 => shift, 1 => new_frame,
            ]
            .boxed();
        }
        let delete_tag = (0..tags).prop_map(|tag| Op::DeleteTag { tag });
        let tag_item = (0..n, proptest::sample::subsequence((0..tags).collect::<Vec<_>>(), 0..=tags.min(3)))
            .prop_map(|(slot, tags)| Op::TagItem { slot, tags });
        prop_oneof![
            6 => create, 1 => upload, 2 => connect, 3 => update, 1 => concurrent, 3 => delete,
            2 => bulk, 1 => arrange, 1 => create_diagram, 1 => put, 1 => delete_diagram,
            1 => create_tag, 1 => delete_tag, 3 => tag_item, 2 => comment, 2 => moved, 2 => shift, 1 => new_frame,
        ]
        .boxed()
    }

    /// Only what shrinking could break: updates and concurrent writes name types that take them,
    /// diagram operations name diagrams that were created.
    fn preconditions(state: &Model, op: &Op) -> bool {
        let slot_ok = |s: usize| s < state.slots.len();
        match op {
            Op::Update { slot, .. } | Op::Concurrent { slot, .. } => {
                slot_ok(*slot) && state.slots[*slot].kind.patchable()
            }
            Op::Delete { slot } => slot_ok(*slot),
            Op::Connect { start, end } => slot_ok(*start) && slot_ok(*end) && start != end,
            Op::Arrange { slots } => slots.iter().all(|s| slot_ok(*s)),
            Op::Create { place: Place::In(p), .. } | Op::Upload { place: Place::In(p) } => slot_ok(*p),
            Op::Bulk { items } => items.iter().all(|(_, p)| !matches!(p, BulkPlace::Slot(s) if !slot_ok(*s))),
            Op::PutDiagram { diagram, .. } | Op::DeleteDiagram { diagram } => *diagram < state.diagrams.len(),
            Op::DeleteTag { tag } => *tag < state.tags.len(),
            Op::Comment { slot } | Op::Shift { slot } => slot_ok(*slot),
            Op::Move { slot, to } => slot_ok(*slot) && !matches!(to, Place::In(p) if !slot_ok(*p)),
            Op::TagItem { slot, tags } => slot_ok(*slot) && tags.iter().all(|t| *t < state.tags.len()),
            _ => true,
        }
    }

    fn apply(state: Model, op: &Op) -> Model {
        state.apply_op(op)
    }
}
