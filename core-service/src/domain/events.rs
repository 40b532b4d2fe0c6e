//! The kinds of change event, the only place their names are spelt in core-service.
//!
//! Every event written to the outbox has one of these kinds, and storage decodes the `kind`
//! column into one (an unknown name is a decoding error, never a silent non-event), so a webhook
//! fan-out, a change stream or a delivery body cannot meet a kind it does not know. The names
//! and their order are `canvas_vocabulary::limits::webhooks::EVENT_KINDS`, shared with the
//! gateways that document them; a webhook's `event_mask` holds one bit per kind in that order.

use std::fmt;

use canvas_domain::UserId;
use canvas_vocabulary::limits::webhooks::{EVENT_KINDS, OPERATIONAL_PREFIX};

/// The actor of an operational event: nobody, the service itself (the `events` column holds an
/// actor for every event, and no account has the nil id). Its body carries no `actorUserId`.
pub const SERVICE_ACTOR: UserId = UserId::from_uuid(uuid::Uuid::nil());

/// What a change event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    ItemCreated,
    ItemUpdated,
    ItemDeleted,
    UserAdded,
    UserRoleChanged,
    UserRemoved,
    /// Operational: a webhook of the project was disabled by its failures or a `410 Gone`.
    WebhookDisabled,
    /// Operational: a delivery was given up after every attempt.
    WebhookDeliveryExhausted,
    /// A comment was written: a thread opened or a reply (docs/COMMENTS.md).
    CommentCreated,
    /// A comment's text edited, its thread reopened, or its thread's item deleted.
    CommentUpdated,
    /// A thread resolved.
    CommentResolved,
    /// A comment deleted.
    CommentDeleted,
}

impl EventKind {
    /// Every kind, in the bit order of [`EVENT_KINDS`].
    pub const ALL: [EventKind; 12] = [
        Self::ItemCreated,
        Self::ItemUpdated,
        Self::ItemDeleted,
        Self::UserAdded,
        Self::UserRoleChanged,
        Self::UserRemoved,
        Self::WebhookDisabled,
        Self::WebhookDeliveryExhausted,
        Self::CommentCreated,
        Self::CommentUpdated,
        Self::CommentResolved,
        Self::CommentDeleted,
    ];

    /// The name stored, sent to webhooks and streamed (`item.created`, `user.roleChanged`, …).
    pub fn as_str(self) -> &'static str {
        EVENT_KINDS[self as usize]
    }

    /// The kind of a name; `None` for anything else.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// Whether the service raised it about the project's webhooks (not a change of the map or its
    /// members): never on the change stream, and a delivery of one given up raises nothing more.
    pub fn is_operational(self) -> bool {
        self.as_str().starts_with(OPERATIONAL_PREFIX)
    }

    /// The kind's bit in a webhook's `event_mask`: the fan-out inside the event's transaction
    /// selects webhooks with one integer test that both databases evaluate alike.
    pub fn bit(self) -> i64 {
        1i64 << (self as usize)
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An event row whose `kind` names no kind: refused when the row is decoded.
#[derive(Debug, thiserror::Error)]
#[error("unknown event kind '{0}'")]
pub struct UnknownEventKind(pub String);

impl TryFrom<String> for EventKind {
    type Error = UnknownEventKind;

    fn try_from(name: String) -> Result<Self, Self::Error> {
        Self::parse(&name).ok_or(UnknownEventKind(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_named_once_in_bit_order() {
        assert_eq!(EventKind::ALL.map(EventKind::as_str), EVENT_KINDS);
        for (i, kind) in EventKind::ALL.into_iter().enumerate() {
            assert_eq!(EventKind::parse(kind.as_str()), Some(kind));
            assert_eq!(kind.bit(), 1 << i);
        }
        assert_eq!(EventKind::parse("ping"), None);
        let operational: Vec<EventKind> = EventKind::ALL.into_iter().filter(|k| k.is_operational()).collect();
        assert_eq!(operational, [EventKind::WebhookDisabled, EventKind::WebhookDeliveryExhausted]);
        assert!(EventKind::try_from("item.moved".to_owned()).is_err());
    }
}
