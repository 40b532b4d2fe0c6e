from enum import StrEnum


class EventKind(StrEnum):
    COMMENT_CREATED = "comment.created"
    COMMENT_DELETED = "comment.deleted"
    COMMENT_RESOLVED = "comment.resolved"
    COMMENT_UPDATED = "comment.updated"
    ITEM_CREATED = "item.created"
    ITEM_DELETED = "item.deleted"
    ITEM_UPDATED = "item.updated"
    USER_ADDED = "user.added"
    USER_REMOVED = "user.removed"
    USER_ROLECHANGED = "user.roleChanged"
    WEBHOOK_DELIVERYEXHAUSTED = "webhook.deliveryExhausted"
    WEBHOOK_DISABLED = "webhook.disabled"

    def __str__(self) -> str:
        return str(self.value)
