from enum import StrEnum


class ImageItemItemType(StrEnum):
    IMAGE = "image"

    def __str__(self) -> str:
        return str(self.value)
