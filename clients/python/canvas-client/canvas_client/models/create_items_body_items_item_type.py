from enum import StrEnum


class CreateItemsBodyItemsItemType(StrEnum):
    CONNECTOR = "connector"
    FRAME = "frame"
    IMAGE = "image"
    LABEL = "label"
    SHAPE = "shape"
    STICKY_NOTE = "sticky-note"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
