from enum import StrEnum


class CreateItemsBodyItemsItemType(StrEnum):
    CONNECTOR = "connector"
    IMAGE = "image"
    LABEL = "label"
    SHAPE = "shape"
    STICKY_NOTE = "sticky-note"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
